"""The games API: whole games, corrections, edit keys and stale versions (docs/api.md)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion import services
from companion.data import queries
from companion.data.models import Game, db
from companion.play_state.entries import read_entries
from companion.rules import PRESETS, Card, Colour, score_round, table_setup
from companion.rules.entries import DelayedEntry, FullEntry
from companion.rules.table import DEFAULT_ROUNDS
from tests.db_snapshot import snapshot
from tests.rules.helpers import play_classic_round
from tests.table import Table, auth

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
FIVE = ["green", "brown", "red", "blue", "yellow"]


def card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def create(
    table: Table,
    players: list[str] = NAMES,
    variant: str = "classic",
    rounds: int = DEFAULT_ROUNDS,
    first_leader: int = 0,
) -> dict[str, Any]:
    """A new game, planned as the API plans one when the body says no more (see
    test_a_game_the_body_says_little_of_is_planned_by_default) unless told otherwise."""
    return table.new_game(players, variant, rounds, first_leader)


def quick_round(
    indicators: list[dict[str, Any]], tricks: list[int], captured: list[list[Any]]
) -> list[Any]:
    return [
        {"marked": [ind], "tricks": t, "marked_captured": cap}
        for ind, t, cap in zip(indicators, tricks, captured, strict=True)
    ]


# Five rounds of a 4-player classic game (deck 0-11, 14 tricks), scored by hand with R10:
# score = tricks x 4 - (marked cards captured) - sum of marked values (indicator included).
ROUNDS = [
    # indicators                         tricks         marked captures              scores
    (
        ["red 1", "blue 0", "green 2", "yellow 3"],
        [4, 3, 5, 2],
        [["red 5"], [], ["green 9"], []],
        [16 - 1 - 1 - 5, 12 - 0, 20 - 1 - 2 - 9, 8 - 3],
    ),
    (
        ["brown 0", "red 2", "red 3", "blue 1"],
        [0, 7, 7, 0],
        [[], ["red 11", "red 0"], [], []],
        [0, 28 - 2 - 2 - 11 - 0, 28 - 3, 0 - 1],
    ),
    (
        ["green 0", "green 1", "yellow 0", "yellow 1"],
        [14, 0, 0, 0],
        [["green 11", "green 10"], [], [], []],
        [56 - 2 - 0 - 11 - 10, 0 - 1, 0, 0 - 1],
    ),
    (
        ["blue 2", "brown 2", "red 4", "green 3"],
        [2, 2, 5, 5],
        [[], ["brown 9"], [], ["green 4"]],
        [8 - 2, 8 - 1 - 2 - 9, 20 - 4, 20 - 1 - 3 - 4],
    ),
    (
        ["yellow 5", "yellow 6", "brown 3", "brown 4"],
        [3, 4, 3, 4],
        [[], [], [], []],
        [12 - 5, 16 - 6, 12 - 3, 16 - 4],
    ),
]


def parse_card(text: str) -> dict[str, Any]:
    colour, value = text.split()
    return card(colour, int(value))


def round_entries(index: int) -> list[Any]:
    indicators, tricks, captured, _ = ROUNDS[index]
    return quick_round(
        [parse_card(c) for c in indicators],
        tricks,
        [[parse_card(c) for c in seat] for seat in captured],
    )


def play_rounds(client: FlaskClient, game: dict[str, Any], count: int) -> dict[str, Any]:
    state = game
    for index in range(count):
        answer = client.post(
            f"/api/v1/games/{game['id']}/rounds",
            json={"version": state["version"], "entries": round_entries(index)},
            headers=auth(game),
        )
        assert answer.status_code == 201, answer.json
        state = answer.json
    return state


def test_create_answers_the_game_state_with_its_edit_key(client: FlaskClient, table: Table) -> None:
    game = create(table, rounds=5, first_leader=2)
    assert game["players"] == NAMES
    assert game["variant"] == {
        "game": "classic",
        "scoring": "classic",
        "colours": 1,
        "reveal": "open",
    }
    assert game["rounds_planned"] == 5 and game["status"] == "in_progress"
    assert game["rounds"] == [] and game["totals"] == [0, 0, 0, 0] and game["winners"] == []
    assert game["url"].endswith(f"/g/{game['id']}") and game["share_url"].endswith(
        f"/g/{game['id']}/view"
    )
    assert len(game["edit_key"]) >= 20
    state = client.get(f"/api/v1/games/{game['id']}").json
    assert "edit_key" not in state and state["version"] == game["version"]


def test_a_games_state_may_be_kept_by_a_cache_that_asks_each_time_whether_it_changed(
    client: FlaskClient, table: Table
) -> None:
    """It changes with every round and holds no secret: caches revalidate it by its ETag,
    plain or gzipped, and a changed game is sent again."""
    game = create(table)
    path = f"/api/v1/games/{game['id']}"
    first = client.get(path)
    assert first.headers["Cache-Control"] == "no-cache"
    assert game["edit_key"] not in first.get_data(as_text=True)
    state = play_rounds(client, game, 1)
    changed = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.json["version"] == state["version"]
    assert changed.headers["ETag"] != first.headers["ETag"]
    for encoding in ("identity", "gzip"):  # a scored round's state is large enough to gzip
        tag = client.get(path, headers={"Accept-Encoding": encoding}).headers["ETag"]
        assert tag.endswith('-gzip"') == (encoding == "gzip"), tag
        again = client.get(path, headers={"Accept-Encoding": encoding, "If-None-Match": tag})
        assert again.status_code == 304 and again.get_data() == b"", encoding
        assert again.headers["ETag"] == tag and again.headers["Cache-Control"] == "no-cache"


def test_a_game_the_body_says_little_of_is_planned_by_default(client: FlaskClient) -> None:
    answer = client.post("/api/v1/games", json={"players": NAMES, "variant": "classic"})
    assert answer.status_code == 201, answer.json
    assert answer.json["rounds_planned"] == DEFAULT_ROUNDS == 5
    assert answer.json["first_leader"] == 0


def test_a_whole_classic_game_keeps_totals_and_names_the_winner(
    client: FlaskClient, table: Table
) -> None:
    game = create(table, first_leader=1)
    state = play_rounds(client, game, 5)
    expected = [scores for *_, scores in ROUNDS]
    assert [r["scores"] for r in state["rounds"]] == expected
    totals = [sum(column) for column in zip(*expected, strict=True)]
    assert state["totals"] == totals
    assert state["status"] == "finished"
    assert state["winners"] == [seat for seat, t in enumerate(totals) if t == max(totals)]
    # R3: round n is led by the seat after round n-1's leader.
    assert [r["leader"] for r in state["rounds"]] == [1, 2, 3, 0, 1]
    assert state["rounds"][0]["marked"][2] == [card("green", 2)]
    assert all(r["mode"] == "quick" and r["status"] == "scored" for r in state["rounds"])


def test_a_sixth_round_is_refused_once_the_game_is_over(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    game = create(table)
    state = play_rounds(client, game, 5)
    with app.app_context():
        before = snapshot()
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": state["version"], "entries": round_entries(4)},
        headers=auth(game),
    )
    assert answer.status_code == 400 and "5 rounds" in answer.json["error"]
    with app.app_context():
        assert snapshot() == before


def test_correcting_round_two_recomputes_totals_and_winner(
    client: FlaskClient, table: Table
) -> None:
    game = create(table)
    state = play_rounds(client, game, 5)
    # Round 2 again, but seat 2 captured red 11 instead of seat 1 (same tricks).
    entries = round_entries(1)
    entries[1]["marked_captured"] = [card("red", 0)]
    entries[2]["marked_captured"] = [card("red", 11)]
    answer = client.put(
        f"/api/v1/games/{game['id']}/rounds/2",
        json={"version": state["version"], "entries": entries},
        headers=auth(game),
    )
    assert answer.status_code == 200, answer.json
    corrected = answer.json
    # R10: seat 1 holds red 2 (indicator) and red 0 among 28 cards; seat 2 red 3 and red 11.
    assert corrected["rounds"][1]["scores"] == [0, 27 - 2 - 0, 27 - 3 - 11, -1]
    scores = [r["scores"] for r in corrected["rounds"]]
    totals = [sum(column) for column in zip(*scores, strict=True)]
    assert corrected["totals"] == totals
    assert corrected["winners"] == [seat for seat, t in enumerate(totals) if t == max(totals)]
    assert corrected["version"] == state["version"] + 1


def test_a_stale_version_answers_409_and_changes_nothing(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    game = create(table)
    state = play_rounds(client, game, 1)
    with app.app_context():
        before = snapshot()
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": game["version"], "entries": round_entries(1)},
        headers=auth(game),
    )
    assert answer.status_code == 409
    assert answer.json["version"] == state["version"]
    assert "another phone" in answer.json["error"]
    with app.app_context():
        assert snapshot() == before


def test_a_round_sent_for_a_number_already_recorded_answers_409_with_the_game_now(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    """A stale round number: phone A records round 2; phone B, which meant round 2 too, names it and
    is refused with the current state instead of filing its entries as round 3."""
    game = create(table)
    play_rounds(client, game, 1)
    phone_b_version = client.get(f"/api/v1/games/{game['id']}").json["version"]
    now = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": phone_b_version, "entries": round_entries(1), "number": 2},
        headers=auth(game),
    ).json  # phone A
    with app.app_context():
        before = snapshot()
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": now["version"], "entries": round_entries(2), "number": 2},
        headers=auth(game),
    )
    assert answer.status_code == 409
    refusal = answer.json
    assert refusal["error"].startswith("Round 2 is not the round to record: round 3 is next")
    assert refusal["version"] == now["version"]
    assert [r["number"] for r in refusal["rounds"]] == [1, 2]
    assert refusal["rounds"][1]["scores"] == ROUNDS[1][3]
    assert refusal["totals"] == now["totals"]
    assert "edit_key" not in refusal
    with app.app_context():
        assert snapshot() == before


def test_a_round_that_names_the_next_number_is_recorded_and_one_without_keeps_the_old_way(
    client: FlaskClient,
    table: Table,
) -> None:
    game = create(table)
    first = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": game["version"], "entries": round_entries(0), "number": 1},
        headers=auth(game),
    )
    assert first.status_code == 201 and len(first.json["rounds"]) == 1
    second = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": first.json["version"], "entries": round_entries(1)},
        headers=auth(game),
    )
    assert second.status_code == 201
    assert second.json["rounds"][1]["scores"] == ROUNDS[1][3]


@pytest.mark.parametrize("number", [0, "2", None, True])
def test_a_round_number_that_is_no_round_answers_400(
    client: FlaskClient, app: Flask, number: object, table: Table
) -> None:
    game = create(table)
    with app.app_context():
        before = snapshot()
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": game["version"], "entries": round_entries(0), "number": number},
        headers=auth(game),
    )
    assert answer.status_code == 400
    assert answer.json["error"].startswith("number must be")
    with app.app_context():
        assert snapshot() == before


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": "Bearer wrong-key"}, 403),
        ({"Authorization": "Basic abc"}, 401),
    ],
    ids=["no key", "wrong key", "not a bearer"],
)
def test_changes_need_the_edit_key(
    client: FlaskClient, app: Flask, headers: dict[str, str], status: int, table: Table
) -> None:
    game = create(table)
    with app.app_context():
        before = snapshot()
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": game["version"], "entries": round_entries(0)},
        headers=headers,
    )
    assert answer.status_code == status
    assert set(answer.json) == {"error"}
    with app.app_context():
        assert snapshot() == before


def test_another_games_key_does_not_open_this_game(client: FlaskClient, table: Table) -> None:
    mine, other = create(table), create(table)
    answer = client.post(
        f"/api/v1/games/{mine['id']}/rounds",
        json={"version": mine["version"], "entries": round_entries(0)},
        headers=auth(other),
    )
    assert answer.status_code == 403


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda e: e[0].update(tricks=5), "add up to 15"),
        (lambda e: e[1]["marked_captured"].append(card("red", 5)), "red 5"),
        (lambda e: e[2].update(marked=[card("red", 1)]), "red 1"),
        (lambda e: e[3]["marked_captured"].append(card("blue", 4)), "seat 3"),
        (lambda e: e.pop(), "4 players"),
    ],
    ids=["tricks do not add up", "card twice", "indicator twice", "wrong colour", "missing seat"],
)
def test_a_refused_round_saves_nothing(
    client: FlaskClient, app: Flask, change: Any, needle: str, table: Table
) -> None:
    game = create(table)
    entries = round_entries(0)
    change(entries)
    with app.app_context():
        before = snapshot()
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": game["version"], "entries": entries},
        headers=auth(game),
    )
    assert answer.status_code in (400, 422)
    assert needle in answer.json["error"].lower()
    with app.app_context():
        assert snapshot() == before


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"players": ["Ann", "Ben"], "variant": "classic"}, "3 to 8"),
        ({"players": ["Ann", "Ben", "Cleo"], "variant": "hat-trick"}, "4 to 7"),
        ({"players": ["Ann", "ann", "Cleo"], "variant": "classic"}, "entered twice"),
        ({"players": ["Ann", "Ben", ""], "variant": "classic"}, "needs a name"),
        ({"players": ["A" * 41, "Ben", "Cleo"], "variant": "classic"}, "40 characters"),
        ({"players": NAMES, "variant": "classic", "rounds": 11}, "rounds"),
        ({"players": NAMES, "variant": "classic", "rounds": 0}, "rounds"),
        ({"players": NAMES, "variant": "classic", "first_leader": 4}, "first leader"),
        ({"players": NAMES, "variant": "classic", "rounds": True}, "rounds"),
        ({"players": NAMES}, "variant"),
        ({"players": [1, 2, 3], "variant": "classic"}, "players[0]"),
    ],
    ids=lambda v: str(v)[:40],
)
def test_a_refused_game_is_not_created(
    client: FlaskClient, app: Flask, body: dict[str, Any], needle: str
) -> None:
    with app.app_context():
        before = snapshot()
    answer = client.post("/api/v1/games", json=body)
    assert answer.status_code in (400, 422)
    assert needle in answer.json["error"]
    with app.app_context():
        assert snapshot() == before


def test_players_are_matched_by_name_case_insensitively(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    create(table)
    create(table, players=["ann", "BEN", "Cleo", "Eve"])
    with app.app_context():
        circle = db.session.scalar(sa.select(Game.circle_id))
        assert services.suggest_players(circle) == ["Ann", "Ben", "Cleo", "Dan", "Eve"]


def test_unknown_game_and_round_answer_404(client: FlaskClient, table: Table) -> None:
    assert client.get("/api/v1/games/nosuchgame").status_code == 404
    game = create(table)
    answer = client.put(
        f"/api/v1/games/{game['id']}/rounds/3",
        json={"version": game["version"], "entries": round_entries(0)},
        headers=auth(game),
    )
    assert answer.status_code == 404 and "round 3" in answer.json["error"]


def test_hazy_marks_are_null_until_the_round_is_scored(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    game = create(table, variant="hazy")
    indicators = [
        Card(Colour.RED, 1),
        Card(Colour.BLUE, 0),
        Card(Colour.GREEN, 2),
        Card(Colour.YELLOW, 3),
    ]
    with app.app_context():
        stored = services.get_game(game["id"])
        services.mark_colours(stored, game["version"], [[c] for c in indicators])
        db.session.commit()
    state = client.get(f"/api/v1/games/{game['id']}").json
    assert state["rounds"][0]["status"] == "playing"
    assert state["rounds"][0]["marked"] is None
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": state["version"], "entries": round_entries(0)},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    assert answer.json["rounds"][0]["marked"][0] == [card("red", 1)]
    assert len(answer.json["rounds"]) == 1


def hat_trick_round() -> list[Any]:
    # 4 players, 14 tricks: 56 cards in piles and pass cards (C5).
    return [
        {"counts": {"red": 9, "blue": 2, "green": 4}, "passed": 1},
        {"counts": {"red": 5, "blue": 5, "green": 5}, "passed": 0},
        {"counts": {"red": 1, "blue": 10, "green": 1}, "passed": 1},
        {"counts": {"red": 0, "blue": 2, "green": 10}, "passed": 0},
    ]


def test_a_whole_hat_trick_game_with_passes(client: FlaskClient, table: Table) -> None:
    game = create(table, variant="hat-trick", rounds=4)
    state = game
    for _ in range(4):
        answer = client.post(
            f"/api/v1/games/{game['id']}/rounds",
            json={"version": state["version"], "entries": hat_trick_round()},
            headers=auth(game),
        )
        assert answer.status_code == 201, answer.json
        state = answer.json
    # R22: 9-2-4-2 = 1; 5-5-5 = -5; 10-1-1-2 = 6; 10-2-0 = 8.
    assert state["rounds"][0]["scores"] == [1, -5, 6, 8]
    assert state["totals"] == [4, -20, 24, 32]
    assert state["winners"] == [3] and state["status"] == "finished"
    assert state["variant"] == {"game": "hat-trick"}


def blocked_on_a_lock(other: dict[str, object]) -> bool:
    """Whether the other phone waits for our lock right now: on PostgreSQL another session
    waits for a row lock; on SQLite the other phone has asked for the write lock, which
    this request holds until it ends (so it waits, as its refusal afterwards shows)."""
    if db.engine.dialect.name != "postgresql":
        return bool(other.get("asking"))
    with db.engine.connect() as connection:
        query = sa.text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        return bool(connection.scalar(query))


def wait_until(condition: Any, attempts: int = 2000) -> None:
    """Poll ``condition`` (bounded) while another thread gets where the test needs it."""
    for _ in range(attempts):
        if condition():
            return
        time.sleep(0.005)
    raise AssertionError("the other phone never got there")


def test_two_phones_saving_at_once_one_wins_and_nothing_is_lost(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch, table: Table
) -> None:
    """Both phones base a round on version 1; the other phone saves while ours is between
    its version check and its write. Our lock (PostgreSQL's row lock, SQLite's write lock)
    holds the other phone back until we commit, and then it is refused: exactly one round
    is stored and the loser is told the game changed."""
    game = create(table)
    original = services.record_round
    other: dict[str, object] = {}

    def other_phone() -> None:
        with app.app_context():
            try:
                other["asking"] = True
                stored = services.get_game(game["id"], for_update=True)
                entries = read_entries(round_entries(1), queries.setup_of(stored))
                original(stored, game["version"], entries)
                other["result"] = "saved"
                db.session.commit()
            except services.StaleVersion as refused:
                other["result"] = refused.current
            except Exception as error:  # noqa: BLE001 - reported by the assertion below
                other["result"] = error
            finally:
                db.session.remove()

    def racing(stored: Any, version: int, entries: Any) -> Any:
        thread = threading.Thread(target=other_phone)
        thread.start()
        other["thread"] = thread
        wait_until(lambda: not thread.is_alive() or blocked_on_a_lock(other))
        return original(stored, version, entries)

    monkeypatch.setattr(services.rounds, "record_round", racing)  # what submit calls
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": game["version"], "entries": round_entries(0)},
        headers=auth(game),
    )
    thread = other["thread"]
    assert isinstance(thread, threading.Thread)
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert answer.status_code == 201, answer.json
    assert other["result"] == game["version"] + 1  # refused: the version had moved
    rounds = client.get(f"/api/v1/games/{game['id']}").json["rounds"]
    assert len(rounds) == 1


def entries_of_played_round(setup: Any, played: Any, quick: bool) -> list[Any]:
    """A random legal round as the table would enter it, in full or in short."""
    if not setup.cards_laid_out:
        return [{"captured": [c.as_json() for c in cap]} for cap in played.captured]
    entries = []
    for indicators, tricks, captured in zip(
        played.indicators, played.tricks, played.captured, strict=True
    ):
        marked = [c.as_json() for c in indicators]
        colours = {c.colour for c in indicators}
        if quick:
            held = [c.as_json() for c in captured if c.colour in colours]
            entries.append({"marked": marked, "tricks": tricks, "marked_captured": held})
        else:
            entries.append({"marked": marked, "captured": [c.as_json() for c in captured]})
    return entries


@pytest.mark.parametrize("preset", ["classic", "mild", "reverse", "aggravated", "hazy", "delayed"])
def test_a_whole_game_of_every_preset_adds_up_its_random_rounds(
    client: FlaskClient, preset: str, table: Table
) -> None:
    players = 5
    setup = table_setup(players, PRESETS[preset])
    game = create(table, players=["Ann", "Ben", "Cleo", "Dan", "Eve"], variant=preset)
    state, expected_totals = game, [0] * players
    rng = random.Random(preset)
    for number in range(1, 6):
        played = play_classic_round(setup, rng)
        answer = client.post(
            f"/api/v1/games/{game['id']}/rounds",
            json={
                "version": state["version"],
                "entries": entries_of_played_round(setup, played, quick=number % 2 == 1),
            },
            headers=auth(game),
        )
        assert answer.status_code == 201, answer.json
        state = answer.json
        if setup.cards_laid_out:
            full = [
                FullEntry(ind, tuple(cap))
                for ind, cap in zip(played.indicators, played.captured, strict=True)
            ]
        else:
            full = [DelayedEntry(tuple(cap)) for cap in played.captured]
        scores = score_round(setup, full).scores
        assert state["rounds"][-1]["scores"] == scores
        expected_totals = [a + b for a, b in zip(expected_totals, scores, strict=True)]
    assert state["totals"] == expected_totals
    assert state["status"] == "finished"
    best = max(expected_totals)
    assert state["winners"] == [s for s, t in enumerate(expected_totals) if t == best]


def test_a_hat_trick_round_that_cannot_be_played_is_refused_and_saves_nothing(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    """C5 from R19: 30 passes where 14 tricks of 4 allow 28; the counts add up otherwise."""
    game = create(table, variant="hat-trick", rounds=4)
    nothing = {"red": 0, "blue": 0, "green": 0}
    entries = [{"counts": nothing, "passed": 10}] * 3 + [
        {"counts": {"red": 13, "blue": 13, "green": 0}, "passed": 0}
    ]
    with app.app_context():
        before = snapshot()
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": game["version"], "entries": entries},
        headers=auth(game),
    )
    assert answer.status_code == 422, answer.json
    assert "seat 0, seat 1, seat 2 pass 30 times" in answer.json["error"].lower()
    assert "(C5)" in answer.json["error"]
    with app.app_context():
        assert snapshot() == before
