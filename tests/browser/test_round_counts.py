"""The C3 line follows every tap: in full entry a seat's captured cards and the tricks they
make, one card per player each (rounds.js reads the cards per trick from the page); in quick
entry the trick counts, the last one filled in from the others, in the page's language."""

from __future__ import annotations

from babel.support import Translations
from playwright.sync_api import expect

from companion.rules import (
    implied_hat_trick_count,
    implied_tricks,
    seats_at_zero_passes,
    table_setup,
    tricks_of_cards,
    variant_named,
)
from tests.browser.support import Phone, chip_face
from tests.browser.test_journeys import CATALOGS, NAMES, new_api_game, tap, tap_chip
from tests.table import Table

CAPTURED = ["yellow 3", "green 3", "blue 7", "red 8"]
INDICATORS = ["red-4", "blue-1", "green-7"]


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


def progress_state(lang: str, missing: int) -> str:
    """The progress line's "still to assign" as the catalog of ``lang`` says it for
    ``missing`` (its plural rule picks the form)."""
    catalog = Translations.load(str(CATALOGS), [lang])
    text = "%(missing)s still to assign"
    return catalog.ngettext(text, text, missing) % {"missing": missing}


def test_c3_the_last_trick_count_is_filled_in_and_refilled_until_someone_taps_it(
    phone: Phone, live_table: Table
) -> None:
    code = new_api_game(live_table, phone)
    phone.goto("/lang/de")
    phone.goto(f"/g/{code}/rounds/record")
    page = phone.page
    setup = table_setup(len(NAMES), variant_named("classic"))
    last = page.locator('fieldset[data-count-field="s2-tricks"]')
    note = last.locator("[data-implied-note]")
    expect(note).to_be_hidden()
    # Before marking, a seat's tricks open once its indicator is chosen.
    for seat, indicator in enumerate(INDICATORS):
        chip_face(page, f"s{seat}-marked", indicator).tap()
        expect(page.locator(f'fieldset[data-count-field="s{seat}-tricks"]')).to_be_visible()

    tap(page.locator('[data-count-field="s0-tricks"]'), "radio", "5")
    tap(page.locator('[data-count-field="s1-tricks"]'), "radio", "4")
    implied = implied_tricks([5, 4, None], setup)
    assert implied is not None
    expect(last.get_by_role("radio", name=str(implied.value), exact=True)).to_be_checked()
    expect(last).to_have_attribute("data-implied", "true")
    expect(note).to_be_visible()

    tap(page.locator('[data-count-field="s1-tricks"]'), "radio", "6")  # the others change
    implied = implied_tricks([5, 6, None], setup)
    assert implied is not None
    expect(last.get_by_role("radio", name=str(implied.value), exact=True)).to_be_checked()

    tap(last, "radio", str(implied.value - 1))  # the table's own count: no longer implied
    expect(last).not_to_have_attribute("data-implied", "true")
    expect(note).to_be_hidden()
    tap(page.locator('[data-count-field="s1-tricks"]'), "radio", "7")  # ... and never refilled
    expect(last.get_by_role("radio", name=str(implied.value - 1), exact=True)).to_be_checked()
    tap(page.locator('[data-count-field="s0-tricks"]'), "radio", "4")
    placed = 4 + 7 + implied.value - 1
    assert setup.tricks_per_round - placed == 1  # the singular form, as German needs it
    expect(page.locator("[data-progress-state]")).to_have_text(progress_state("de", 1))
    tap(page.locator('[data-count-field="s0-tricks"]'), "radio", "3")
    expect(page.locator("[data-progress-state]")).to_have_text(progress_state("de", 2))
    assert not phone.foreign_requests()


HAT_NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def test_c5_the_implied_hat_trick_count_asks_about_the_players_still_at_0_passes(
    phone: Phone, live_table: Table
) -> None:
    """A pass forgotten at a seat still at 0 passes goes into the implied count unnoticed
    (C5's totals still add up), so its note names those players, and follows the taps."""
    game = live_table.new_game(HAT_NAMES, "hat-trick", rounds=5)
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    phone.goto("/lang/de")
    phone.goto(f"/g/{game['id']}/rounds/record")
    page = phone.page
    setup = table_setup(4, variant_named("hat-trick"))
    seats = [(9, 2, 4, 1), (3, 10, 1, 0), (5, 3, 8, 2), (1, 5, None, 0)]
    last = page.locator('fieldset[data-count-field="s3-green"]')
    asked = last.locator("[data-zero-passes]")
    expect(asked).to_be_hidden()
    for seat, counts in enumerate(seats):
        for name, count in zip(("red", "blue", "green", "passed"), counts, strict=True):
            if count:  # 0 passes are already there
                tap(page.locator(f'[data-count-field="s{seat}-{name}"]'), "radio", str(count))
    counts = [count for seat in seats for count in seat]
    implied = implied_hat_trick_count(counts, setup)
    assert implied is not None and implied.index == 14
    expect(last.get_by_role("radio", name=str(implied.value), exact=True)).to_be_checked()
    question = Translations.load(str(CATALOGS), ["de"]).gettext("%(names)s: 0 passes, right?")
    names = [HAT_NAMES[seat] for seat in seats_at_zero_passes(counts, implied)]
    assert names == ["Ben", "Dan"]
    expect(asked).to_be_visible()
    expect(asked).to_have_text(question % {"names": "Ben, Dan"})

    # Ben remembers a pass: the implied count takes it back, and only Dan is asked about
    tap(page.locator('[data-count-field="s1-passed"]'), "radio", "1")
    counts[7] = 1
    implied = implied_hat_trick_count(counts, setup)
    assert implied is not None
    expect(last.get_by_role("radio", name=str(implied.value), exact=True)).to_be_checked()
    expect(asked).to_have_text(question % {"names": "Dan"})
    tap(page.locator('[data-count-field="s3-passed"]'), "radio", "1")
    expect(asked).to_be_hidden()  # nobody left at 0: the plain note alone
    expect(last.locator("[data-implied-note]")).to_be_visible()
    assert not phone.foreign_requests()
