"""Indicator chips a finger can hit (issue 24): on the mark page and when recording a round
before marking, every indicator chip is a target of at least 44 x 44 px, on the phone of the
other tests (390 x 844) and on the narrowest common one (360 px), and one tap on it picks the
card. The page still fits the phone and axe finds nothing."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from companion.rules import table_setup, variant_named
from tests.browser.support import PHONE, Phone, PhoneFactory, chip_face, chip_input
from tests.browser.test_pages import (
    axe_violations,
    describe_violations,
    overflow_problems,
    save_screenshot,
    spilled_text_problems,
)
from tests.table import Table

#: The smallest comfortable touch target (WCAG 2.5.5, Apple's and Google's guidelines).
TARGET_PX = 44
WIDTHS = [PHONE["viewport"]["width"], 360]
#: Three players (9 values a colour), five (15) and eight (six colours of 19).
NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]
BOXES = """() => [...document.querySelectorAll("[data-field$='-marked'] label > .chip")].map(
    (chip) => {
        const box = chip.getBoundingClientRect();
        const input = chip.previousElementSibling;
        return {id: `${input.name} ${input.value}`, width: box.width, height: box.height,
                right: box.right};
    })"""


def small_chips(page: Any) -> tuple[int, list[str]]:
    """How many indicator chips the page shows, and those smaller than a finger."""
    boxes = page.evaluate(BOXES)
    small = [
        f"{box['id']}: {box['width']:.1f} x {box['height']:.1f}"
        for box in boxes
        if box["width"] < TARGET_PX or box["height"] < TARGET_PX
    ]
    return len(boxes), small


def open_game(table: Table, phone: Phone, players: int) -> str:
    game = table.new_game(NAMES[:players], rounds=5)
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    return str(game["id"])


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("players", [3, 5, 8])
@pytest.mark.parametrize("page_name", ["mark", "record"])
def test_every_indicator_chip_is_a_44_px_target_and_one_tap_picks_it(
    new_phone: PhoneFactory, live_table: Table, width: int, players: int, page_name: str
) -> None:
    phone = new_phone(viewport={"width": width, "height": PHONE["viewport"]["height"]})
    code = open_game(live_table, phone, players)
    phone.goto(f"/g/{code}/rounds/{page_name}")
    deck = table_setup(players, variant_named("classic")).deck
    count, small = small_chips(phone.page)
    assert count == players * deck.size
    assert not small, f"{len(small)} of {count} chips are under {TARGET_PX} px: {small[:5]}"
    where = f"the {page_name} page of {players} players at {width} px"
    assert not overflow_problems(phone, where) + spilled_text_problems(phone, where)
    last = (f"s{players - 1}-marked", f"{deck.colours[-1].value}-{deck.max_value}")
    chip_face(phone.page, *last).tap()  # one tap, the last chip of the last seat
    expect(chip_input(phone.page, *last)).to_be_checked()


@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_mark_page_with_big_chips_is_accessible(
    new_phone: PhoneFactory, live_table: Table, axe_source: str, language: str
) -> None:
    phone = new_phone(locale=language, extra_http_headers={"Accept-Language": language})
    code = open_game(live_table, phone, 4)
    phone.goto(f"/g/{code}/rounds/mark")
    chip_face(phone.page, "s1-marked", "blue-7").tap()
    save_screenshot(phone, f"mark-colours-{language}")
    problems = describe_violations(axe_violations(phone, axe_source), "the mark page")
    assert not problems, "\n".join(problems)
