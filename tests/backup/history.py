"""A small history of games built through the JSON API with legal play: quick, full,
delayed, Hat Trick and live rounds, a hazy round still being played, an abandoned and
excluded game, and names that look like markup or formulas."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from flask.testing import FlaskClient

from companion.data.models import db
from companion.rules import (
    PRESETS,
    DelayedEntry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
    TableSetup,
    table_setup,
)
from companion.rules.hat_trick import Play
from companion.services.games import abandon_game, get_game
from tests.rules.helpers import (
    ClassicRound,
    HatTrickRound,
    play_classic_round,
    play_hat_trick_round,
)
from tests.table import Table, auth

CLASSIC_NAMES = ["Ann", "Ben", "Cleo", "Dan"]
DELAYED_NAMES = ["ann", "Zoë", '<script>alert("x")</script>']
HAT_TRICK_NAMES = ["Ben", "=SUM(A1:A9)", "Fay", "@Gus"]
HAZY_NAMES = ["Cleo", "Dan", "Eve", "-Hal"]
ABANDONED_NAMES = ["Ann", "Ben", "Cleo", "Dan", "Ida"]


def classic_led_by(setup: TableSetup, leader: int, seed: int) -> ClassicRound:
    """A random legal classic-family round whose first trick ``leader`` leads."""
    for attempt in range(seed, seed + 200):
        played = play_classic_round(setup, random.Random(attempt))
        if played.trick_log[0][0] == leader:
            return played
    raise AssertionError("no deal led by that seat")


def hat_trick_led_by(setup: TableSetup, leader: int, seed: int) -> HatTrickRound:
    """A random legal Hat Trick round whose first trick ``leader`` leads."""
    for attempt in range(seed, seed + 200):
        played = play_hat_trick_round(setup, random.Random(attempt))
        if played.tricks[0][0] == leader:
            return played
    raise AssertionError("no deal led by that seat")


def quick_entries(played: ClassicRound) -> list[QuickEntry]:
    return [
        QuickEntry(ind, tricks, tuple(c for c in cap if c.colour in {i.colour for i in ind}))
        for ind, tricks, cap in zip(played.indicators, played.tricks, played.captured, strict=True)
    ]


def full_entries(played: ClassicRound) -> list[FullEntry]:
    return [
        FullEntry(ind, tuple(cap))
        for ind, cap in zip(played.indicators, played.captured, strict=True)
    ]


def play_json(play: Play) -> dict[str, Any]:
    data: dict[str, Any] = play.card.as_json()
    if play.passed:
        data["pass"] = True
    return data


def open_live(
    client: FlaskClient, game: dict[str, Any], marked: list[Any] | None
) -> dict[str, Any]:
    body: dict[str, Any] = {"version": game["version"]}
    if marked is not None:
        body["marked"] = [[card.as_json() for card in cards] for cards in marked]
    answer = client.post(f"/api/v1/games/{game['id']}/rounds/live", json=body, headers=auth(game))
    assert answer.status_code == 201, answer.json
    return {**answer.json, "edit_key": game["edit_key"]}


def live_trick(
    client: FlaskClient, game: dict[str, Any], number: int, field: str, plays: list[Any]
) -> dict[str, Any]:
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/{number}/tricks",
        json={"version": game["version"], field: plays},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    return {**answer.json, "edit_key": game["edit_key"]}


def play_classic_live(
    client: FlaskClient, game: dict[str, Any], played: ClassicRound, tricks: int | None = None
) -> dict[str, Any]:
    """Play ``played`` (or its first ``tricks`` tricks) as the game's next, live round."""
    number = len(game["rounds"]) + 1
    laid_out = any(played.indicators)
    game = open_live(client, game, played.indicators if laid_out else None)
    for _leader, cards, _winner in played.trick_log[:tricks]:
        game = live_trick(client, game, number, "cards", [c.as_json() for c in cards])
    return game


def build_history(table: Table) -> dict[str, dict[str, Any]]:
    """The games, by what they show; answers each one's last state (with its edit key)."""
    client = table.client
    games = {}

    classic = table_setup(4, PRESETS["classic"])
    game = table.new_game(CLASSIC_NAMES, "classic", rounds=3, first_leader=1)
    game = table.record(game, quick_entries(classic_led_by(classic, 1, 10)))
    game = table.record(game, full_entries(classic_led_by(classic, 2, 20)))
    game = play_classic_live(client, game, classic_led_by(classic, 3, 30))
    assert game["status"] == "finished" and game["rounds"][2]["mode"] == "live"
    games["classic"] = game

    delayed = table_setup(3, PRESETS["delayed"])
    game = table.new_game(DELAYED_NAMES, "delayed", rounds=2)
    played = classic_led_by(delayed, 0, 40)
    game = table.record(game, [DelayedEntry(tuple(cap)) for cap in played.captured])
    games["delayed"] = game

    hat_trick = table_setup(4, PRESETS["hat-trick"])
    game = table.new_game(HAT_TRICK_NAMES, "hat-trick", rounds=3, first_leader=2)
    game = open_live(client, game, None)
    for _leader, plays in hat_trick_led_by(hat_trick, 2, 50).tricks:
        game = live_trick(client, game, 1, "plays", [play_json(p) for p in plays])
    played_ht = hat_trick_led_by(hat_trick, 3, 60)
    game = table.record(
        game,
        [
            HatTrickFullEntry(tuple(up), tuple(down))
            for up, down in zip(played_ht.face_up, played_ht.face_down, strict=True)
        ],
    )
    played_ht = hat_trick_led_by(hat_trick, 0, 70)
    game = table.record(
        game,
        [
            HatTrickQuickEntry(dict(Counter(card.colour for card in up)), len(down))
            for up, down in zip(played_ht.face_up, played_ht.face_down, strict=True)
        ],
    )
    assert game["status"] == "finished"
    games["hat-trick"] = game

    hazy = table_setup(4, PRESETS["hazy"])
    game = table.new_game(HAZY_NAMES, "hazy", rounds=4)
    game = table.record(game, quick_entries(classic_led_by(hazy, 0, 80)))
    game = play_classic_live(client, game, classic_led_by(hazy, 1, 90), tricks=2)
    assert game["rounds"][1]["status"] == "playing"
    games["hazy"] = game

    mild = table_setup(5, PRESETS["mild"])
    game = table.new_game(ABANDONED_NAMES, "mild", rounds=5)
    game = table.record(game, quick_entries(classic_led_by(mild, 0, 100)))
    with table.app.app_context():
        stored = get_game(game["id"])
        abandon_game(stored, stored.version)
        stored.excluded = True
        db.session.commit()
    games["abandoned"] = game
    return games
