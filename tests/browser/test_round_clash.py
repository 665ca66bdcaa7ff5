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
    expect(page.get_by_role("status").filter(has_text="Round 1 corrected.")).to_be_visible()
    expect(page.locator(".score-table tbody tr.is-saved")).to_have_count(1)
    rows = page.locator(".score-table tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.nth(0).locator("td b")).to_have_text(signed(mine))
    assert not phone.foreign_requests()


def test_two_phones_save_the_same_round_and_the_one_keeping_theirs_sees_it_settled(
    new_phone: PhoneFactory, live_table: Table, axe_source: str
) -> None:
    """Both phones fill in round 1; the first saves it, the second meets the conflict view,
    keeps the first one's round and is told so on the scoreboard, its row tinted."""
    game = live_table.new_game(NAMES, rounds=5)
    code, key = game["id"], game["edit_key"]
    first, second = new_phone(), new_phone()
    for phone, entries in ((first, THEIRS), (second, MINE)):
        phone.goto(f"/g/{code}/edit/{key}")
        phone.goto(f"/g/{code}/rounds/record")
        for seat, entry in enumerate(entries):
            enter_quick_seat(phone, seat, entry)
    first.page.get_by_role("button", name="Save round").click()
    expect(first.page.locator(".notice--saved")).to_have_text("Round 1 saved.")
    page = second.page
    page.get_by_role("button", name="Save round").click()

    expect(page.locator(".round-conflict h2")).to_have_text(
        "Round 1 was recorded on another phone."
    )
    where = "the conflict view of the second phone"
    problems = overflow_problems(second, where) + spilled_text_problems(second, where)
    problems += describe_violations(axe_violations(second, axe_source), where)
    assert not problems, "\n".join(problems)

    page.get_by_role("link", name="Keep theirs").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scoreboard")
    expect(page.locator(".notice--saved")).to_have_text("Round 1 kept as saved on the other phone.")
    rows = page.locator(".score-table tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_have_class("is-scored is-saved")
    theirs = round_scores([THEIRS])[0]
    expect(rows.nth(0).locator("td b")).to_have_text(signed(theirs))
    where = "the scoreboard confirming the kept round"
    problems = overflow_problems(second, where)
    problems += describe_violations(axe_violations(second, axe_source), where)
    assert not problems, "\n".join(problems)
    if shots := os.environ.get("SCREENSHOTS"):
        page.screenshot(path=str(Path(shots) / "round-kept-390.png"), full_page=True)
    assert not first.foreign_requests() and not second.foreign_requests()


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


@pytest.mark.parametrize("lang", ["en", "de"])
def test_keeping_theirs_is_the_primary_way_out_and_using_mine_the_secondary(
    new_phone: PhoneFactory, live_table: Table, axe_source: str, lang: str
) -> None:
    """Issue 24, point 12: the safe choice first. "Keep theirs" overwrites nothing, so it is
    the primary (filled) button; "Use mine" is the secondary one, at 390x844."""
    game = live_table.new_game(NAMES, rounds=5)
    code, key = game["id"], game["edit_key"]
    phone = new_phone()
    phone.goto(f"/g/{code}/edit/{key}")
    phone.goto(f"/g/{code}/rounds/record")
    for seat, entry in enumerate(MINE):
        enter_quick_seat(phone, seat, entry)  # (the chips are found by their English names)
    phone.context.add_cookies([{"name": "lang", "value": lang, "url": phone.base_url}])
    live_table.record(game, [seat.entry() for seat in THEIRS])
    phone.page.get_by_role("button", name="Save round").click()
    expect(phone.page.locator("html")).to_have_attribute("lang", lang)

    keep = phone.page.get_by_role("link", name=in_language(lang, "Keep theirs"))
    mine = phone.page.locator('button[data-way="mine"]')
    expect(keep).to_have_class("button button--primary")
    expect(mine).to_have_class("button")
    # the primary one is painted as such: filled, unlike the secondary one
    keep_fill, mine_fill = (
        way.evaluate("element => getComputedStyle(element).backgroundColor") for way in (keep, mine)
    )
    assert keep_fill != mine_fill
    primary = phone.page.evaluate(
        """() => { const probe = document.createElement("a");
                   probe.className = "button button--primary"; document.body.append(probe);
                   const fill = getComputedStyle(probe).backgroundColor; probe.remove();
                   return fill; }"""
    )
    assert keep_fill == primary
    where = f"the conflict view in {lang} at 390 px"
    problems = overflow_problems(phone, where) + spilled_text_problems(phone, where)
    problems += describe_violations(axe_violations(phone, axe_source), where)
    assert not problems, "\n".join(problems)
    if shots := os.environ.get("SCREENSHOTS"):
        phone.page.screenshot(path=str(Path(shots) / f"round-clash-390-{lang}.png"), full_page=True)
    keep.click()
    expect(phone.page.locator(".notice--saved")).to_be_visible()
