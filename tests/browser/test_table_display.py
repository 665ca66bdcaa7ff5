"""The table display in a real browser (issue 24): a phone propped up in the middle of the
table, with the read-only link only, shows each card the scorekeeper's phone enters and who
is winning (R7, R8) without a reload, asks to keep the screen awake, and reads well upright
(390 x 844) and on its side (844 x 390) in English and Hungarian: large type, nothing
sideways, axe finds nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.rules import PRESETS, trick_winner
from tests.browser.scenario import card
from tests.browser.support import Phone, PhoneFactory
from tests.browser.test_following import FOLLOW_MS, INDICATORS, NAMES, TRICK, tap
from tests.browser.test_pages import (
    axe_violations,
    describe_violations,
    overflow_problems,
    save_screenshot,
    spilled_text_problems,
)
from tests.table import Table

#: A wake lock of our own (Screen Wake Lock API): it keeps what it was asked for.
WAKE_LOCK = """
window.wakeLocks = [];
Object.defineProperty(navigator, "wakeLock", {value: {request: (type) => {
    window.wakeLocks.push(type);
    return Promise.resolve({released: false, addEventListener() {}});
}}});
"""
#: Read from 1.5 m: the names and totals at least this large (CSS px).
LARGE_PX = 26


def live_game(table: Table) -> tuple[str, str]:
    """A classic game of four whose round 1 is being played live; its code and edit key."""
    game = table.new_game(NAMES, rounds=5)
    code, key = game["id"], game["edit_key"]
    marked = [[card(text).as_json()] for text in INDICATORS]
    started = table.client.post(
        f"/api/v1/games/{code}/rounds/live",
        json={"version": game["version"], "marked": marked},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert started.status_code == 201, started.json
    return code, key


def keeper_of(new_phone: PhoneFactory, code: str, key: str) -> Phone:
    keeper = new_phone()
    keeper.goto(f"/g/{code}/edit/{key}")
    keeper.goto(f"/g/{code}/rounds/1/live")
    return keeper


def font_px(locator: object) -> float:
    return float(locator.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)"))  # type: ignore[attr-defined]


def test_the_display_follows_the_trick_and_keeps_the_screen_awake(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    code, key = live_game(live_table)
    keeper = keeper_of(new_phone, code, key)
    display = new_phone()
    display.context.add_init_script(WAKE_LOCK)
    display.goto(f"/g/{code}/table")
    page = display.page
    expect(page.locator(".table-trick h2")).to_have_text("Trick 1 of 14")
    expect(page.locator(".table-turn")).to_have_text("Next to play: Ann.")
    assert page.evaluate("window.wakeLocks") == ["screen"]

    cards = page.locator(".table-cards li")
    for text in TRICK[:3]:
        tap(keeper, text)
    expect(cards).to_have_count(3, timeout=FOLLOW_MS)  # no reload: the page asks by itself
    winning = trick_winner([card(t) for t in TRICK[:3]], PRESETS["classic"].scoring)  # type: ignore[union-attr]
    expect(page.locator(".table-cards li.takes")).to_contain_text(NAMES[winning.winner])
    expect(page.locator(".table-winner")).to_have_text(f"Winning so far: {NAMES[winning.winner]}")
    expect(page.locator(".table-turn")).to_have_text("Next to play: Dan.")

    tap(keeper, TRICK[3])  # complete: its taker leads the next trick (R9)
    took = trick_winner([card(t) for t in TRICK], PRESETS["classic"].scoring).winner  # type: ignore[union-attr]
    expect(page.locator(".table-winner")).to_have_text(
        f"Takes the trick: {NAMES[took]}", timeout=FOLLOW_MS
    )
    expect(page.locator(".table-deal div").nth(1).locator("dd")).to_have_text(NAMES[took])
    assert font_px(page.locator(".table-seat__total").first) >= LARGE_PX
    assert font_px(page.locator(".table-deal dd").first) >= LARGE_PX
    assert font_px(page.locator(".table-cards .chip__value").first) >= LARGE_PX


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize("size", [(390, 844), (844, 390)], ids=["upright", "on-its-side"])
def test_the_display_reads_well_upright_and_on_its_side(
    new_phone: PhoneFactory,
    live_table: Table,
    axe_source: str,
    language: str,
    size: tuple[int, int],
) -> None:
    code, key = live_game(live_table)
    keeper = keeper_of(new_phone, code, key)
    for text in TRICK[:2]:
        tap(keeper, text)
    width, height = size
    display = new_phone(viewport={"width": width, "height": height})
    display.context.add_cookies([{"name": "lang", "value": language, "url": display.base_url}])
    display.goto(f"/g/{code}/table")
    expect(display.page.locator("html")).to_have_attribute("lang", language)
    expect(display.page.locator(".table-cards li")).to_have_count(2)
    where = f"the table display ({language}, {width} x {height})"
    save_screenshot(display, f"table-display-{language}-{width}x{height}")
    problems = describe_violations(axe_violations(display, axe_source), where)
    problems += overflow_problems(display, where) + spilled_text_problems(display, where)
    assert not problems, "\n".join(problems)
    if width > height:  # on its side: the trick beside the totals, both in the first screen
        trick = display.page.locator(".table-now").bounding_box()
        totals = display.page.locator(".table-totals").bounding_box()
        assert trick is not None and totals is not None
        assert totals["x"] >= trick["x"] + trick["width"]
