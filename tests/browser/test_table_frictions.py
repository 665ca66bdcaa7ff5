"""Frictions at the table, in a real browser: every card entered with every colour's chips in
sight (each a 44 px target, on a 390 x 844 phone), the rounds table's round links as large
targets, the table display filling a big screen, and one round per player chosen in one tap
on the new-game page, with and without JavaScript."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from companion.cli.demo.play import DemoRandom, DemoTable, play_round
from companion.rules import round_leader, variant_named
from tests.browser.scenario import card
from tests.browser.support import Phone, PhoneFactory, chip_face
from tests.browser.test_following import INDICATORS, TRICK, tap
from tests.browser.test_pages import (
    axe_violations,
    describe_violations,
    overflow_problems,
    save_screenshot,
    spilled_text_problems,
)
from tests.browser.test_table_display import font_px
from tests.browser.test_tap_budgets import tokens
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
#: A finger's target (WCAG 2.5.5, the app's --touch).
TOUCH_PX = 44

SIZES = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
    const box = e.getBoundingClientRect();
    return [e.textContent.trim(), box.width, box.height];
})"""


def sizes(phone: Phone, selector: str) -> list[tuple[str, float, float]]:
    """Each element's text and its rendered width and height (CSS px)."""
    return [tuple(row) for row in phone.page.evaluate(SIZES, selector)]  # type: ignore[misc]


def page_fits(phone: Phone, axe_source: str, where: str) -> None:
    problems = overflow_problems(phone, where) + spilled_text_problems(phone, where)
    problems += describe_violations(axe_violations(phone, axe_source), where)
    assert problems == [], "\n".join(problems)


def editing_phone(new_phone: PhoneFactory, table: Table, **game: Any) -> tuple[Phone, str]:
    """A phone holding the edit key of a new game of four; the game's code."""
    made = table.new_game(NAMES, **game)
    phone = new_phone()
    phone.goto(f"/g/{made['id']}/edit/{made['edit_key']}")
    return phone, made["id"]


def test_every_card_shows_all_of_a_seats_chips_at_once_in_44_px_targets(
    new_phone: PhoneFactory, live_table: Table, axe_source: str
) -> None:
    phone, code = editing_phone(new_phone, live_table)
    phone.goto(f"/g/{code}/rounds/record?mode=full")
    page = phone.page
    captured = page.locator('[data-field="s2-captured"]')
    chips = captured.locator(".chip")
    expect(chips).to_have_count(60)  # R2: 5 colours, 0-11, no tab to open first
    for colour in ("green", "brown", "red", "blue", "yellow"):
        expect(captured.locator(f'[data-colour="{colour}"] .chip').first).to_be_visible()
    small = [row for row in sizes(phone, ".round-form .chip") if min(row[1:]) < TOUCH_PX]
    assert small == []

    chip_face(page, "s2-captured", "yellow-11").tap()  # the last colour: one tap, no tab
    expect(page.locator('input[name="s2-captured"][value="yellow-11"]')).to_be_checked()
    save_screenshot(phone, "record-every-card-390")
    page_fits(phone, axe_source, "every card at 390 px")


def test_the_clash_views_two_ways_out_come_before_the_seat_by_seat_comparison(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    """A 4-player round saved on another phone meanwhile: "Keep theirs" and "Mine instead"
    are in the first screen at 390 x 844, above the comparison of the seats."""
    game = live_table.new_game(NAMES, rounds=5)
    phone = new_phone()
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    phone.goto(f"/g/{game['id']}/rounds/record?mode=full")
    played = play_round(DemoTable(4, variant_named("classic")), 0, "full", DemoRandom(43))
    page = phone.page
    for seat, entry in enumerate(json.loads(played.entries)):
        chip_face(page, f"s{seat}-marked", tokens(entry["marked"])[0]).tap()
    live_table.record(game, json.loads(played.entries))  # another phone was quicker
    page.get_by_role("button", name="Save round").click()
    headline = page.locator(".round-conflict h2")
    expect(headline).to_have_text("Round 1 was recorded on another phone.")
    expect(page.locator(".clash-seat")).to_have_count(4)

    first_seat = page.locator(".clash-seat").first.bounding_box()
    for way in (page.locator('[data-way="keep"]'), page.locator('[data-way="mine"]')):
        box = way.bounding_box()
        assert box is not None and first_seat is not None
        assert box["y"] + box["height"] <= 844, "in the first screen"
        assert box["y"] + box["height"] <= first_seat["y"], "above the comparison"
    save_screenshot(phone, "round-clash-four-390")


def test_every_round_number_link_of_the_rounds_table_is_a_44_px_target(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    game = live_table.new_game(NAMES, rounds=5)
    phone = new_phone()
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    rng = DemoRandom(44)
    table = DemoTable(4, variant_named("classic"))
    for number in (1, 2, 3):
        played = play_round(table, round_leader(number, 0, 4), "quick", rng)
        live_table.record(game, json.loads(played.entries))
    phone.goto(f"/g/{game['id']}")

    links = sizes(phone, ".score-table tbody th a")
    assert [text for text, _w, _h in links] == ["1", "2", "3"]
    assert all(min(width, height) >= TOUCH_PX for _t, width, height in links), links
    corrections = sizes(phone, ".corrections a")
    assert len(corrections) == 3
    assert all(min(width, height) >= TOUCH_PX for _t, width, height in corrections), corrections


#: 30 characters, the longest name a seat takes.
LONG_NAME = "Maximiliane Rosenkranz-Wehnert"


def test_the_table_display_fills_a_big_screen_and_keeps_badges_beside_a_long_name(
    new_phone: PhoneFactory, live_table: Table, axe_source: str
) -> None:
    """At 1280 x 800 (a tablet or a TV on its side) the display takes the whole width, its
    type grows with it, and the "deals" badge stays on the line of a 30-character name."""
    assert len(LONG_NAME) == 30
    names = ["Ann", "Ben", "Cleo", LONG_NAME]  # seat 3 deals round 1 (R3)
    game = live_table.new_game(names, rounds=5)
    marked = [[card(text).as_json()] for text in INDICATORS]
    started = live_table.client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"], "marked": marked},
        headers={"Authorization": f"Bearer {game['edit_key']}"},
    )
    assert started.status_code == 201, started.json
    keeper = new_phone()
    keeper.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    keeper.goto(f"/g/{game['id']}/rounds/1/live")
    for text in TRICK[:2]:
        tap(keeper, text)
    phone = new_phone(viewport={"width": 1280, "height": 800}, has_touch=False, is_mobile=False)
    phone.goto(f"/g/{game['id']}/table")
    page = phone.page
    expect(page.locator(".table-cards li")).to_have_count(2)
    save_screenshot(phone, "table-display-1280x800")

    display = page.locator(".table-display").bounding_box()
    assert display is not None
    assert display["width"] >= 1280 * 0.9, "the whole width, not a phone's column"
    assert display["y"] + display["height"] <= 800, "the trick and every total in one screen"
    name_px = font_px(page.locator(".table-seat__name").first)
    total_px = font_px(page.locator(".table-seat__total").first)
    assert name_px >= 1.75 * 16 * 1.4 and total_px >= 2.5 * 16 * 1.4, "type to match"

    seat = page.locator(".table-seat__name", has_text=LONG_NAME)
    deals = seat.locator(".badge", has_text="deals")
    name_box, badge_box = seat.bounding_box(), deals.bounding_box()
    assert name_box is not None and badge_box is not None
    assert badge_box["x"] > name_box["x"] + name_box["width"] / 3, "beside the name, not under it"
    page_fits(phone, axe_source, "the table display at 1280 x 800")


def test_one_round_per_player_fills_in_the_rounds_and_starts_the_game_so(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    """With JavaScript the rounds field shows the count the box stands for (R11), following
    the names typed, and the game starts with as many rounds as players."""
    phone = new_phone()
    page = phone.page
    phone.goto("/games/new")
    for seat, name in enumerate(NAMES[:3]):
        page.locator(f'input[name="player_{seat}"]').fill(name)
    rounds = page.get_by_label("Rounds", exact=True)
    expect(rounds).to_have_value("5")
    page.get_by_text("One round per player").tap()
    expect(rounds).to_have_value("3")
    page.locator('input[name="player_3"]').fill(NAMES[3])
    expect(rounds).to_have_value("4")
    box = page.locator("label.choice--rounds").bounding_box()
    assert box is not None and box["height"] >= TOUCH_PX
    save_screenshot(phone, "new-game-one-round-per-player")

    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scoreboard")
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    assert live_table.state({"id": code})["rounds_planned"] == 4
