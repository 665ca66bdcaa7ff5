"""A table that loses the network (issue 26's done-when), in a real browser at a phone's size,
from the start of round 2 to the end: a 4-player classic game of 3 rounds (round 1 in quick
entry with the network; round 2 with every card and round 3 live, with a card taken back,
offline), a round of a Hat Trick game, a trick resolved and the rules page read, a reload,
and the browser closed and started again on the same profile, with no network at all; then
Play again for both games. Back online, every round and both next games are on the server,
with the scores the phone showed, exactly once.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from playwright.sync_api import expect

from companion.data.models import Game, db
from companion.rules import (
    PRESETS,
    FullEntry,
    QuickEntry,
    round_leader,
    score_checked,
    table_setup,
)
from tests.browser.scenario import signed
from tests.browser.support import WORKER_START_MS, LiveServer, Phone, kit_manifest
from tests.browser.test_journeys import tap_chip
from tests.browser.test_offline_live_page import tap_card, trick_cards
from tests.browser.test_offline_play import (
    NO_NETWORK,
    OUTBOX_SIZE,
    WORDS,
    browser_on_profile,
    enter_hat_trick_counts,
    hat_trick_counts,
    label,
    made_ready,
    pending_table,
)
from tests.rules.helpers import ClassicRound, play_classic_round
from tests.table import Table, as_json, auth

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
CLASSIC = table_setup(len(NAMES), PRESETS["classic"])
HAT_TRICK = table_setup(len(NAMES), PRESETS["hat-trick"])


def deal_led_by(leader: int, rng: random.Random, setup: Any = CLASSIC) -> ClassicRound:
    """A classic round played out at random whose first trick ``leader`` leads (R3)."""
    while True:
        played = play_classic_round(setup, rng)
        if played.trick_log[0][0] == leader:
            return played


def quick_entries(played: ClassicRound) -> list[QuickEntry]:
    return [
        QuickEntry(shown, tricks, tuple(c for c in taken if c.colour in {s.colour for s in shown}))
        for shown, tricks, taken in zip(
            played.indicators, played.tricks, played.captured, strict=True
        )
    ]


def full_entries(played: ClassicRound) -> list[FullEntry]:
    return [
        FullEntry(shown, tuple(taken))
        for shown, taken in zip(played.indicators, played.captured, strict=True)
    ]


def scores_of(setup: Any, entries: Any) -> list[int]:
    return [seat.score for seat in score_checked(setup, entries).seats]


def status(phone: Phone) -> Any:
    return phone.page.locator("#offline-play-status")


def every_card_round(phone: Phone, played: ClassicRound) -> None:
    """Round 2 on the kept every-card page: each seat's indicator and every card it took."""
    page = phone.page
    for seat, (shown, taken) in enumerate(zip(played.indicators, played.captured, strict=True)):
        tap_chip(page.locator(f'[data-field="s{seat}-marked"]'), label(shown[0]), "radio")
        for card in taken:
            tap_chip(page.locator(f'[data-field="s{seat}-captured"]'), label(card), "checkbox")
    page.get_by_role("button", name="Save round").click()
    expect(status(phone)).to_contain_text("Round 2 is kept on this phone.", timeout=WORKER_START_MS)


def live_round(phone: Phone, played: ClassicRound, number: int = 3) -> None:
    """Round ``number`` started live on the kept start page and played to its end; one card
    taken back and entered again."""
    page = phone.page
    page.get_by_role("link", name="Play this round live").click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(f"Play round {number} live", timeout=WORKER_START_MS)
    for seat, shown in enumerate(played.indicators):
        tap_chip(page.locator(f'[data-field="s{seat}-marked"]'), label(shown[0]), "radio")
    page.get_by_role("button", name="Start the round live").click()
    expect(heading).to_have_text(f"Round {number}, live", timeout=WORKER_START_MS)
    cards = trick_cards([[c.as_json() for c in cards] for _, cards, _ in played.trick_log])
    for index, token in enumerate(cards):
        tap_card(phone, token)
        if index == 5:  # the second card of the second trick, taken back and entered again
            page.locator("#live-trick").get_by_role("button", name="Undo last card").click()
            expect(page.locator(f'#live-trick [data-card="{token}"]')).to_have_count(0)
            tap_card(phone, token)
    expect(page.locator(".live-over h2")).to_have_text(f"Round {number} is over")


def hat_trick_round(phone: Phone, hat: dict[str, Any], flat: list[int]) -> None:
    page = phone.page
    phone.goto(f"/g/{hat['id']}")
    page.get_by_role("link", name="Record round 1").click()
    enter_hat_trick_counts(phone, flat)
    page.get_by_role("button", name="Save round").click()
    expect(status(phone)).to_contain_text("Round 1 is kept on this phone.", timeout=WORKER_START_MS)


def play_again(phone: Phone, game: dict[str, Any], server: str) -> None:
    """Play again on the game's scoreboard, with no network: the next game's scoreboard."""
    phone.goto(f"/g/{game['id']}")
    button = phone.page.get_by_role("button", name="Play again")
    expect(button).to_be_visible(timeout=WORKER_START_MS)
    button.click()
    expect(phone.page).to_have_url(f"{server}/g/{game['id']}/next", timeout=WORKER_START_MS)


def test_a_table_plays_on_with_no_network_and_everything_arrives_once(
    browser: Any, live_server: LiveServer, live_table: Table, tmp_path: Path
) -> None:
    kit_manifest(live_server)
    words = WORDS["en"]
    rng = random.Random("a table offline")
    classic = live_table.new_game(NAMES, "classic", 3, 0)
    hat = live_table.new_game(NAMES, "hat-trick", 1, 0)
    rounds = [deal_led_by(round_leader(n, 0, len(NAMES)), rng) for n in (1, 2, 3)]
    first = live_table.client.post(
        f"/api/v1/games/{classic['id']}/rounds",
        json={"version": classic["version"], "entries": as_json(quick_entries(rounds[0]))},
        headers=auth(classic),
    )
    assert first.status_code == 201
    flat, hat_entries = hat_trick_counts()
    shown = [
        scores_of(CLASSIC, quick_entries(rounds[0])),
        scores_of(CLASSIC, full_entries(rounds[1])),
        scores_of(CLASSIC, full_entries(rounds[2])),
    ]
    profile = tmp_path / "profile"

    with browser_on_profile(browser, live_server.url, profile) as phone:
        page = phone.page
        made_ready(phone, classic, words)
        phone.goto(f"/g/{classic['id']}/rounds/record?mode=full")  # kept, with its query
        phone.goto(f"/g/{hat['id']}/edit/{hat['edit_key']}")
        expect(page.locator("main")).to_have_attribute("data-offline-ready", "")
        phone.goto("/resolve")
        phone.goto(f"/g/{classic['id']}")
        phone.set_offline(True)  # from the start of round 2 to the end
        phone.goto(f"/g/{classic['id']}/rounds/record?mode=full")
        every_card_round(phone, rounds[1])
        page.reload()  # still offline: the round is on the phone, not in the page
        expect(status(phone)).to_contain_text(words["waiting_one"], timeout=WORKER_START_MS)

    with browser_on_profile(browser, live_server.url, profile, tuple(NO_NETWORK)) as phone:
        page = phone.page
        phone.goto(f"/g/{classic['id']}")  # the browser started again, with no network at all
        expect(status(phone)).to_contain_text(words["waiting_one"], timeout=WORKER_START_MS)
        live_round(phone, rounds[2])
        hat_trick_round(phone, hat, flat)
        phone.goto(f"/g/{classic['id']}")  # the scores the phone shows, before any is sent
        totals = [sum(scores) for scores in zip(*shown, strict=True)]
        assert pending_table(phone) == [
            [name, *signed([shown[1][seat], shown[2][seat], totals[seat]])]
            for seat, name in enumerate(NAMES)
        ]
        play_again(phone, classic, live_server.url)
        play_again(phone, hat, live_server.url)
        phone.goto("/resolve")  # who takes the trick, with no network
        resolver = page.locator("#resolver-form")
        for token in ("red-7", "blue-9", "red-2", "green-0"):
            resolver.locator(f'.picker button[name="add"][value="{token}"]').click()
        expect(page.locator("#trick-panel")).to_contain_text(
            "takes the trick", timeout=WORKER_START_MS
        )
        phone.goto("/rules")
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert live_table.state(classic)["rounds"][-1]["number"] == 1  # nothing left the phone

    with browser_on_profile(browser, live_server.url, profile) as phone:  # the network is back
        for game, played in ((classic, 3), (hat, 1)):  # sent, the page as the server has it
            phone.goto(f"/g/{game['id']}")
            scored = phone.page.locator(".score-table tbody tr.is-scored")
            expect(scored).to_have_count(played, timeout=WORKER_START_MS)
            started = phone.page.locator("[data-next-game]")
            expect(started).to_have_count(1, timeout=WORKER_START_MS)
        assert phone.page.evaluate(OUTBOX_SIZE) == 0
    state = live_table.state(classic)
    assert [round_["scores"] for round_ in state["rounds"]] == shown
    assert [round_["mode"] for round_ in state["rounds"]] == ["quick", "full", "live"]
    hat_state = live_table.state(hat)
    hat_scores = [round_["scores"] for round_ in hat_state["rounds"]]
    assert hat_scores == [scores_of(HAT_TRICK, hat_entries)]
    with live_server.app.app_context():
        for game in (classic, hat):  # each next game started once, nothing played in it yet
            old = db.session.scalar(sa.select(Game).where(Game.code == game["id"]))
            assert old is not None and old.next_game_id is not None
            following = db.session.get(Game, old.next_game_id)
            assert following is not None and following.rounds == []
            assert [seat.player.name for seat in following.seats] == NAMES
