"""On a phone: switching between quick entry and every card keeps what was typed and says
what it drops; recording a round before marking asks each seat's indicator first, and the
page stays short for five players.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from companion.rules import table_setup, tricks_of_cards, variant_named
from tests.browser.support import Phone, PhoneFactory, chip_face, chip_input
from tests.browser.test_pages import (
    axe_violations,
    describe_violations,
    overflow_problems,
    save_screenshot,
    spilled_text_problems,
)
from tests.table import Table

FIVE = ["Ann", "Ben", "Cleo", "Dan", "Eve"]
FOUR = FIVE[:4]
#: Issue 17: the record page before marking measured 7,451 px for five players; the
#: indicators step must stay within this (390 x 844). It was 2,500 with 20 px chips; issue 24
#: made every indicator chip a 44 x 44 px target, still one tap each: five seats of 75 chips
#: in rows of 7 take 3,768 px, so the budget is now that with a little room.
INDICATORS_STEP_BUDGET = 3_900
HEIGHT = "() => document.scrollingElement.scrollHeight"


def open_game(table: Table, phone: Phone, names: list[str]) -> str:
    """A classic game started through the API; this phone keeps its score."""
    game = table.new_game(names, rounds=5)
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    return str(game["id"])


def chip(page: Any, name: str, value: str) -> None:
    """Tap a chip (in its input's label); its input is then on."""
    chip_face(page, name, value).tap()
    expect(chip_input(page, name, value)).to_be_checked()


def no_axe_violations(phone: Phone, axe_source: str, where: str) -> None:
    problems = describe_violations(axe_violations(phone, axe_source), where)
    assert not problems, "\n".join(problems)


def shown_colours(page: Any, field: str) -> list[str]:
    """The colours whose chips a card field shows."""
    groups = page.locator(f'[data-field="{field}"] .chip-group:visible')
    return [str(groups.nth(i).get_attribute("data-colour")) for i in range(groups.count())]


def test_before_marking_five_seats_show_their_indicators_only_and_open_one_by_one(
    new_phone: PhoneFactory, live_table: Table, axe_source: str
) -> None:
    phone = new_phone()
    page = phone.page
    code = open_game(live_table, phone, FIVE)
    phone.goto(f"/g/{code}/rounds/record")
    for seat in range(len(FIVE)):
        expect(page.locator(f'[data-field="s{seat}-marked"]')).to_be_visible()
        expect(page.locator(f"#seat-{seat} [data-seat-rest]")).to_be_hidden()
    expect(page.get_by_role("button", name="Continue")).to_be_hidden()  # JavaScript opens
    expect(page.get_by_role("button", name="Save round")).to_be_visible()
    height = page.evaluate(HEIGHT)
    save_screenshot(phone, "record-indicators-step")
    no_axe_violations(phone, axe_source, "the indicators step")
    where = "the indicators step"
    assert not overflow_problems(phone, where) + spilled_text_problems(phone, where)

    opened = page.evaluate(
        """() => {
            for (const rest of document.querySelectorAll("[data-seat-rest]")) rest.hidden = false;
            return document.scrollingElement.scrollHeight;
        }"""
    )
    page.reload()
    print(f"\nrecord before marking, 5 players: {height} px; every seat open: {opened} px")
    assert height <= INDICATORS_STEP_BUDGET
    assert opened >= 2 * height

    chip(page, "s0-marked", "red-4")
    expect(page.locator('[data-count-field="s0-tricks"]')).to_be_visible()
    assert shown_colours(page, "s0-marked_captured") == ["red"]  # C4
    expect(page.locator("#seat-1 [data-seat-rest]")).to_be_hidden()
    chip(page, "s0-marked", "blue-1")  # another indicator: its colour's cards instead
    assert shown_colours(page, "s0-marked_captured") == ["blue"]
    no_axe_violations(phone, axe_source, "a seat opened")
    assert not phone.foreign_requests()


def test_without_javascript_continue_opens_the_seats_with_an_indicator(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    phone = new_phone(java_script_enabled=False)
    page = phone.page
    code = open_game(live_table, phone, FOUR)
    phone.goto(f"/g/{code}/rounds/record")
    expect(page.get_by_role("button", name="Save round")).to_be_hidden()
    expect(page.locator('[data-count-field="s0-tricks"]')).to_be_hidden()
    chip(page, "s0-marked", "red-4")
    page.get_by_role("button", name="Continue").click()
    expect(page.locator('[data-count-field="s0-tricks"]')).to_be_visible()
    assert shown_colours(page, "s0-marked_captured") == ["red"]
    expect(page.locator('[data-count-field="s1-tricks"]')).to_be_hidden()
    expect(chip_input(page, "s0-marked", "red-4")).to_be_checked()

    # Enter on a chip presses the form's first button: Continue, not the switch of modes.
    chip_input(page, "s1-marked", "blue-1").focus()
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    expect(page.locator('[data-count-field="s1-tricks"]')).to_be_visible()
    assert urlsplit(page.url).query == ""
    expect(page.locator("form.round-form")).to_have_attribute("data-kind", "quick")


def test_switching_modes_keeps_the_entries_and_says_what_it_drops(
    new_phone: PhoneFactory, live_table: Table, axe_source: str
) -> None:
    phone = new_phone()
    page = phone.page
    code = open_game(live_table, phone, FOUR)
    phone.goto(f"/g/{code}/rounds/record")
    warning = page.locator('[data-warn="to-full"]')
    chip(page, "s0-marked", "red-4")
    chip(page, "s0-marked_captured", "red-2")
    expect(warning).to_be_hidden()  # nothing typed would be lost yet
    chip(page, "s0-tricks", "3")
    expect(warning).to_be_visible()
    chip(page, "s1-marked", "blue-1")

    page.get_by_role("button", name="Every card").click()
    assert urlsplit(page.url).query == "mode=full"
    expect(page.locator("form.round-form")).to_have_attribute("data-kind", "full")
    for name, kept in (("s0-marked", "red-4"), ("s1-marked", "blue-1"), ("s0-captured", "red-2")):
        expect(chip_input(page, name, kept)).to_be_checked()
    notice = page.get_by_role("status").filter(has_text="Switched to every card")
    expect(notice).to_contain_text("the tricks won by Ann (3)")
    save_screenshot(phone, "record-switched-to-every-card")
    no_axe_violations(phone, axe_source, "switched to every card")

    for value in (0, 1, 2):
        chip(page, "s0-captured", f"green-{value}")
    expect(page.locator('[data-warn="to-quick"]')).to_be_visible()
    expect(page.locator('[data-warn="no-whole-tricks"]')).to_be_hidden()  # 4 cards: 1 trick

    page.get_by_role("button", name="Quick entry").click()
    expect(page.locator("form.round-form")).to_have_attribute("data-kind", "quick")
    tricks = tricks_of_cards(4, table_setup(len(FOUR), variant_named("classic")).cards_per_trick)
    kept = [("s0-marked", "red-4"), ("s0-tricks", str(tricks)), ("s0-marked_captured", "red-2")]
    for name, value in kept:
        expect(chip_input(page, name, value)).to_be_checked()
    expect(page.get_by_role("status").filter(has_text="Switched to quick entry")).to_contain_text(
        "the cards of other colours of Ann (3)"
    )
    no_axe_violations(phone, axe_source, "switched back to quick entry")
    assert not phone.foreign_requests()
