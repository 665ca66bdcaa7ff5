"""A Hat Trick pass in one tap, on a phone (issue 24): once two colours are in the trick, a
card of the third colour can only be a pass (R19), so the live page says so and one tap on
that card passes; nothing to tick first. The page stays accessible in that state."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.support import Phone, PhoneFactory
from tests.browser.test_pages import (
    axe_violations,
    describe_violations,
    overflow_problems,
    save_screenshot,
)
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def tap_card(keeper: Phone, token: str, played: int) -> None:
    """Tap a chip of the live page; wait until the trick holds ``played`` cards."""
    keeper.page.locator(f'button[name="card"][value="{token}"]').tap()
    expect(keeper.page.locator("#live-trick .live-slot--played")).to_have_count(played)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_third_colour_card_is_a_pass_in_one_tap(
    new_phone: PhoneFactory, live_table: Table, axe_source: str, language: str
) -> None:
    game = live_table.new_game(NAMES, "hat-trick", rounds=5)
    code, key = game["id"], game["edit_key"]
    keeper = new_phone()
    keeper.context.add_cookies([{"name": "lang", "value": language, "url": keeper.base_url}])
    keeper.goto(f"/g/{code}/edit/{key}")
    keeper.goto(f"/g/{code}/rounds/live")
    keeper.page.locator("form.round-form button[type=submit]").first.tap()
    page = keeper.page
    expect(page.locator("#live-trick")).to_be_visible()
    note = page.locator("p.live-pass")
    tap_card(keeper, "red-5", 1)
    expect(note).to_have_count(0)  # one colour: a green card is still a play
    tap_card(keeper, "blue-3", 2)
    expect(note).to_be_visible()
    expect(page.locator("input[name=pass_next]")).to_have_count(0)  # nothing to tick
    save_screenshot(keeper, f"live-hat-trick-pass-{language}")
    problems = describe_violations(axe_violations(keeper, axe_source), "the live page")
    assert not problems + overflow_problems(keeper, "the live page"), problems

    tap_card(keeper, "green-4", 3)  # one tap: Cleo passes, showing green 4
    third = page.locator("#live-trick .live-slot--played").nth(2)
    expect(third).to_have_class(re.compile(r"\blive-slot--passed\b"))
    expect(page.locator('button[name="card"][value="green-4"]')).to_be_disabled()
