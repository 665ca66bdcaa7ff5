"""Play again with no network (issue 26, point 4), in a real browser at a phone's size: the
last round recorded offline ends the game on the phone; its Play again starts the table's
next game on the phone (the same players and seats, variant and rounds, the first lead one
seat on, R3), whose scoreboard and record page are drawn on the kept pages of the game it
follows; a round recorded there waits too. Back online, the last round, the play again and
the next game's round are sent in that order, once each: the server has both games as the
phone showed them, and the phone is on the next game's own scoreboard.
"""

from __future__ import annotations

import random
import re

from playwright.sync_api import expect

from companion.rules import PRESETS, round_leader, table_setup
from tests.browser.scenario import FIVE_ROUNDS, round_scores
from tests.browser.support import (
    WORKER_START_MS,
    LiveServer,
    PhoneFactory,
    kit_manifest,
    record_rounds,
)
from tests.browser.test_offline_play import (
    NAMES,
    WORDS,
    enter_quick_seat,
    expected_pending,
    pending_table,
    ready_phone,
    record_offline,
)
from tests.browser.test_offline_table import deal_led_by, live_round, quick_entries, scores_of
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot
from tests.table import Table


def test_play_again_offline_starts_the_next_game_and_both_are_sent_when_back(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table, axe_source: str
) -> None:
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=1)
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page

    phone.set_offline(True)
    record_offline(phone, 1, FIVE_ROUNDS[0], words)  # the game's last round, on the phone
    again = page.get_by_role("button", name="Play again")  # the board's, drawn with it
    expect(again).to_be_visible(timeout=WORKER_START_MS)
    again.click()
    expect(page).to_have_url(f"{live_server.url}/g/{game['id']}/next", timeout=WORKER_START_MS)
    expect(page.get_by_role("heading", level=1)).to_have_text(words["scoreboard"])
    expect(page.locator("main")).to_contain_text(NAMES[2])

    page.get_by_role("link", name=words["record"].format(number=1)).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["record"].format(number=1))
    leader = NAMES[round_leader(1, round_leader(2, 0, len(NAMES)), len(NAMES))]
    expect(page.locator(".round-seat__name").first).to_have_text(leader)  # one seat on (R3)
    for place, entry in enumerate(FIVE_ROUNDS[1]):
        enter_quick_seat(phone, words["lang"], place, entry)
    page.get_by_role("button", name=words["save"]).click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(words["scoreboard"], timeout=WORKER_START_MS)
    status = page.locator("#offline-play-status")
    expect(status).to_contain_text(words["round_kept"].format(number=1))
    assert pending_table(phone) == expected_pending(NAMES, [], FIVE_ROUNDS[1:2])
    save_screenshot(phone, "offline-next-game-en")
    problems = describe_violations(axe_violations(phone, axe_source), "next game offline")
    assert problems == [], "\n".join(problems)
    assert live_table.state(game)["rounds"] == []  # nothing left the phone

    phone.set_offline(False)
    elsewhere = re.compile(rf"{re.escape(live_server.url)}/g/(?!{game['id']}$)[A-Za-z0-9]+$")
    expect(page).to_have_url(elsewhere, timeout=WORKER_START_MS)  # the server's next game
    scored = page.locator(".score-table tbody tr.is-scored:not(.is-pending)")
    expect(scored).to_have_count(1, timeout=WORKER_START_MS)
    following = page.url.rsplit("/", 1)[-1]
    assert following != game["id"] and following != "next"
    before = live_table.state(game)
    assert [round_["scores"] for round_ in before["rounds"]] == round_scores(FIVE_ROUNDS[:1])
    after = live_table.state({"id": following})
    assert after["players"] == NAMES and after["first_leader"] == round_leader(2, 0, 3)
    assert [round_["scores"] for round_ in after["rounds"]] == round_scores(FIVE_ROUNDS[1:2])
    expect(status).to_have_text(words["sent"])


def test_the_page_s_own_play_again_starts_the_next_game_offline(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """A game the server already has as over: its scoreboard's own Play again button, with
    no network, starts the next game on the phone; back online, the server starts it, once,
    and the phone is on its scoreboard."""
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=1)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    expect(page.locator(".play-again form")).to_have_count(1)  # the server's own button

    phone.set_offline(True)
    page.get_by_role("button", name="Play again").click()
    expect(page).to_have_url(f"{live_server.url}/g/{game['id']}/next", timeout=WORKER_START_MS)
    expect(page.get_by_role("heading", level=1)).to_have_text(words["scoreboard"])
    seats = page.locator(".seat-list .seat__name")  # drawn by the rules worker, as online
    expect(seats).to_have_text(NAMES, timeout=WORKER_START_MS)
    assert live_table.client.get(f"/g/{game['id']}/next").headers["Location"] == f"/g/{game['id']}"

    phone.set_offline(False)  # the play again sent, then the server's next game
    elsewhere = re.compile(rf"{re.escape(live_server.url)}/g/(?!{game['id']}$)[A-Za-z0-9]+$")
    expect(page).to_have_url(elsewhere, timeout=WORKER_START_MS)
    expect(page.locator("#offline-play-status")).to_have_text(words["sent"])
    following = page.url.rsplit("/", 1)[-1]
    assert following not in (game["id"], "next")
    assert live_table.state({"id": following})["players"] == NAMES


def test_the_next_game_started_offline_is_marked_and_played_live_offline(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """Its scoreboard offers what the game it follows offered (marking the colours first,
    playing the round live), on that game's kept pages; its first round played live, trick
    by trick, on the phone; back online, the old game's last round, the play again and
    every trick are sent, and the server scores the round as the phone did."""
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=1)
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    next_board = f"{live_server.url}/g/{game['id']}/next"

    phone.set_offline(True)
    record_offline(phone, 1, FIVE_ROUNDS[0], words)  # the game's last round, on the phone
    again = page.get_by_role("button", name="Play again")  # the board's, drawn with it
    expect(again).to_be_visible(timeout=WORKER_START_MS)
    again.click()
    expect(page).to_have_url(next_board, timeout=WORKER_START_MS)
    expect(page.get_by_role("link", name="Mark colours")).to_be_visible(timeout=WORKER_START_MS)
    setup = table_setup(len(NAMES), PRESETS["classic"])
    played = deal_led_by(round_leader(2, 0, len(NAMES)), random.Random(2026), setup)
    live_round(phone, played, number=1)
    expect(page).to_have_url(f"{next_board}/rounds/1/live")
    page.get_by_role("link", name=words["scoreboard"]).last.click()
    expect(page).to_have_url(next_board)
    pending = page.locator(".score-table tbody tr.is-pending")  # in the one rounds table
    expect(pending).to_have_count(1, timeout=WORKER_START_MS)
    assert live_table.client.get(f"/g/{game['id']}/next").headers["Location"] == f"/g/{game['id']}"

    phone.set_offline(False)  # the play again, then the live round's start and its tricks
    elsewhere = re.compile(rf"{re.escape(live_server.url)}/g/(?!{game['id']}$)[A-Za-z0-9]+$")
    expect(page).to_have_url(elsewhere, timeout=WORKER_START_MS)
    scored = page.locator(".score-table tbody tr.is-scored:not(.is-pending)")  # the server's
    expect(scored).to_have_count(1, timeout=WORKER_START_MS)
    state = live_table.state({"id": page.url.rsplit("/", 1)[-1]})
    expected = scores_of(setup, quick_entries(played))
    assert [(round_["mode"], round_["scores"]) for round_ in state["rounds"]] == [
        ("live", expected)
    ]
