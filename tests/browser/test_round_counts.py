"""The full entry's C3 line follows every tap: a seat's captured cards and the tricks they
make, one card per player each (rounds.js reads the cards per trick from the page)."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.rules import tricks_of_cards
from tests.browser.support import Phone
from tests.browser.test_journeys import NAMES, new_api_game, tap_chip
from tests.table import Table

CAPTURED = ["yellow 3", "green 3", "blue 7", "red 8"]


def test_c3_the_tricks_of_a_seat_follow_its_captured_cards(phone: Phone, live_table: Table) -> None:
    code = new_api_game(live_table, phone)
    phone.goto(f"/g/{code}/rounds/record?mode=full")
    seat = phone.page.locator("#seat-0")
    captures = seat.locator('[data-field="s0-captured"]')
    for count, text in enumerate(CAPTURED, start=1):
        tap_chip(captures, text, "checkbox")
        tricks = tricks_of_cards(count, len(NAMES))
        expect(seat.locator("[data-seat-count]")).to_have_text(str(count))
        expect(seat.locator("[data-seat-tricks]")).to_have_text(
            "?" if tricks is None else str(tricks)
        )
    assert not phone.foreign_requests()
