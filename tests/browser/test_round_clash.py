"""A stale record page on a phone: another phone records the same round
first; this phone is shown both entries side by side, readable at 390 px, and corrects that
same round with its own entries instead of filing them as the next one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.scenario import FIVE_ROUNDS, round_scores, signed
from tests.browser.support import PhoneFactory
from tests.browser.test_journeys import enter_quick_seat, in_language
from tests.browser.test_pages import (
    axe_violations,
    describe_violations,
    overflow_problems,
    spilled_text_problems,
)
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo"]
THEIRS, MINE = FIVE_ROUNDS[0], FIVE_ROUNDS[1]


def test_a_round_recorded_on_another_phone_is_shown_beside_mine_and_corrected_with_mine(
    new_phone: PhoneFactory, live_table: Table, axe_source: str
) -> None:
    game = live_table.new_game(NAMES, rounds=5)
    code, key = game["id"], game["edit_key"]
    phone = new_phone()
    page = phone.page
    phone.goto(f"/g/{code}/edit/{key}")
    phone.goto(f"/g/{code}/rounds/record")
    for seat, entry in enumerate(MINE):
        enter_quick_seat(phone, seat, entry)
    live_table.record(game, [seat.entry() for seat in THEIRS])  # another phone is quicker
    page.get_by_role("button", name="Save round").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Record round 1")
    expect(page.locator(".round-conflict h2")).to_have_text(
        "Round 1 was recorded on another phone."
    )
    expect(page.locator(".clash-seat caption")).to_have_text(NAMES)
    theirs, mine = round_scores([THEIRS, MINE])
    for seat in range(3):
        both = page.locator(f'.clash-seat[data-seat="{seat}"] td')
        expect(both.nth(0)).to_contain_text(f"Points: {signed(theirs)[seat]}")
        expect(both.nth(1)).to_contain_text(f"Points: {signed(mine)[seat]}")
    where = "the conflict view"
    problems = overflow_problems(phone, where) + spilled_text_problems(phone, where)
    problems += describe_violations(axe_violations(phone, axe_source), where)
    assert not problems, "\n".join(problems)
    if shots := os.environ.get("SCREENSHOTS"):
        page.screenshot(path=str(Path(shots) / "round-clash-390.png"), full_page=True)

    page.get_by_role("button", name="Correct round 1 with mine").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scoreboard")
    rows = page.locator(".score-table tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.nth(0).locator("td b")).to_have_text(signed(mine))
    assert not phone.foreign_requests()


@pytest.mark.parametrize("lang", ["de", "fr", "hu", "it"])
def test_the_conflict_view_fits_a_360_px_phone_in_every_language(
    new_phone: PhoneFactory, live_table: Table, axe_source: str, lang: str
) -> None:
    """The longest words of each language (buttons, labels) stay inside their boxes."""
    game = live_table.new_game(NAMES, rounds=5)
    code, key = game["id"], game["edit_key"]
    phone = new_phone(viewport={"width": 360, "height": 780})
    phone.goto(f"/g/{code}/edit/{key}")
    phone.goto(f"/lang/{lang}")
    phone.goto(f"/g/{code}/rounds/record")
    live_table.record(game, [seat.entry() for seat in THEIRS])
    phone.page.get_by_role("button", name=in_language(lang, "Save round")).click()

    headline = in_language(lang, "Round %(number)s was recorded on another phone.")
    expect(phone.page.locator(".round-conflict h2")).to_have_text(headline % {"number": 1})
    expect(phone.page.locator("html")).to_have_attribute("lang", lang)
    where = f"the conflict view in {lang} at 360 px"
    problems = overflow_problems(phone, where) + spilled_text_problems(phone, where)
    problems += describe_violations(axe_violations(phone, axe_source), where)
    assert not problems, "\n".join(problems)
    if shots := os.environ.get("SCREENSHOTS"):
        phone.page.screenshot(path=str(Path(shots) / f"round-clash-360-{lang}.png"), full_page=True)
