"""What a phone shows of a game offline (``companion.play_state.offline_game``) is what the
server shows once the phone's queued rounds are sent: the same rounds, scores, explanations,
totals, status and winners, in every variant, whole games of random play included; a change
the server would refuse is refused offline with the server's status and words, and nothing
of it shows."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.play_state.offline_game import offline_state
from tests.offline.requests import (
    CLASSIC_SETTINGS,
    Call,
    broken,
    classic_round,
    hat_trick_round,
)
from tests.table import Table, auth

#: What the phone adds, and what only the server knows (its version and links).
PHONE_ONLY = ("pending", "refused", "next_round", "next_leader")
SERVER_ONLY = ("version", "url", "share_url", "bg_stats_url", "edit_key")


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A game state without what only one side has, rounds without their pending mark."""
    kept = {key: value for key, value in state.items() if key not in PHONE_ONLY + SERVER_ONLY}
    kept["rounds"] = [
        {key: value for key, value in round_.items() if key != "pending"}
        for round_ in state["rounds"]
    ]
    return kept


def random_rounds(rng: random.Random, count: int) -> tuple[Any, int, list[list[Any]]]:
    """A variant (as the API takes it), a table size, and ``count`` rounds of random legal
    play at that table, as the API's entries."""
    if rng.random() < 0.2:
        first = hat_trick_round(rng)[0][0].body
        variant, players = first["variant"], first["players"]
        entries = [first["entries"]]
        while len(entries) < count:
            body = hat_trick_round(rng)[0][0].body
            if body["players"] == players:
                entries.append(body["entries"])
        return variant, players, entries
    settings = rng.choice(CLASSIC_SETTINGS)
    first = classic_round(rng, settings)[0][0].body
    entries = [first["entries"]]
    while len(entries) < count:
        body = classic_round(rng, settings)[0][0].body
        if body["players"] == first["players"]:
            entries.append(body["entries"])
    return first["variant"], first["players"], entries


def shown_change(entries: Any) -> dict[str, Any]:
    """A queued record of ``entries``."""
    return {"action": "record", "body": {"entries": entries}}


def send(client: FlaskClient, game: dict[str, Any], change: dict[str, Any]) -> Any:
    """Send a queued change to the API as the outbox will, on the game's current version."""
    body = {**change["body"], "version": game["version"]}
    if change["action"] == "record":
        return client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth(game))
    url = f"/api/v1/games/{game['id']}/rounds/{change['number']}"
    return client.put(url, json=body, headers=auth(game))


@pytest.mark.parametrize("seed", range(12))
def test_queued_rounds_show_offline_as_the_server_shows_them_once_sent(
    client: FlaskClient, table: Table, seed: int
) -> None:
    """A whole game entered offline (some rounds corrected), then sent in order."""
    rng = random.Random(seed)
    rounds = rng.randint(2, 4)
    variant, players, entries = random_rounds(rng, rounds + 1)
    names = [f"P{seat}" for seat in range(players)]
    game = table.new_game(names, variant, rounds=rounds, first_leader=rng.randrange(players))
    last_seen = table.state(game)
    queued: list[dict[str, Any]] = [
        {"action": "record", "body": {"version": 0, "number": n + 1, "entries": entries[n]}}
        for n in range(rounds)
    ]
    corrected = rng.randint(1, rounds)
    queued.append(
        {"action": "correct", "number": corrected, "body": {"version": 0, "entries": entries[-1]}}
    )
    shown = offline_state(last_seen, queued)
    assert shown["pending"] == len(queued) and shown["refused"] == []
    assert [round_["pending"] for round_ in shown["rounds"]] == [True] * rounds
    for change in queued:
        answer = send(client, game, change)
        assert answer.status_code in (200, 201), answer.json
        game.update(answer.json)
    assert comparable(shown) == comparable(table.state(game))
    assert shown["status"] == "finished" and shown["winners"]


def test_a_round_queued_after_others_from_the_server_keeps_theirs_untouched(
    client: FlaskClient, table: Table
) -> None:
    rng = random.Random("kept")
    variant, players, entries = random_rounds(rng, 2)
    game = table.new_game([f"P{s}" for s in range(players)], variant, rounds=3)
    assert (
        send(client, game, {"action": "record", "body": {"entries": entries[0]}}).status_code == 201
    )
    last_seen = table.state(game)
    shown = offline_state(
        last_seen, [{"action": "record", "body": {"version": 9, "entries": entries[1]}}]
    )
    assert shown["rounds"][0] == last_seen["rounds"][0]  # the server's round, not pending
    assert shown["rounds"][1]["pending"] is True and shown["pending"] == 1
    assert shown["next_round"] == 3  # the number the phone's next round is opened for
    # Who leads round 3 is who the server says once round 3 is recorded (R3).
    game.update(last_seen)
    for played in (entries[1], entries[0]):
        answer = send(client, game, shown_change(played))
        assert answer.status_code == 201, answer.json
        game.update(answer.json)
    assert game["rounds"][2]["leader"] == shown["next_leader"]
    assert shown["status"] == "in_progress" and shown["winners"] == []


@pytest.mark.parametrize("seed", range(8))
def test_a_change_the_server_refuses_is_refused_offline_in_its_words(
    client: FlaskClient, table: Table, seed: int
) -> None:
    """A round with a table's mistake, a round past the last, a correction of a round not
    recorded, a round meant for another number: status and words as the API answers them,
    and nothing of it shows."""
    rng = random.Random(seed)
    variant, players, entries = random_rounds(rng, 2)
    game = table.new_game([f"P{s}" for s in range(players)], variant, rounds=1)
    wrong = broken(Call("rounds/score", {"entries": entries[0]}), rng).body["entries"]
    changes = [
        {"action": "record", "body": {"version": 0, "entries": wrong}},
        {"action": "correct", "number": 1, "body": {"version": 0, "entries": entries[0]}},
        {"action": "record", "body": {"version": 0, "number": 2, "entries": entries[0]}},
    ]
    last_seen = table.state(game)
    for change in changes:
        shown = offline_state(last_seen, [change])
        answer = send(client, game, change)
        assert answer.status_code >= 400
        assert shown["refused"] == [
            {"change": 0, "status": answer.status_code, "error": answer.json["error"]}
        ]
        assert comparable(shown) == comparable(last_seen) and shown["pending"] == 0
    recorded = {"action": "record", "body": {"version": 0, "entries": entries[0]}}
    past_the_last = {"action": "record", "body": {"version": 0, "entries": entries[1]}}
    shown = offline_state(last_seen, [recorded, past_the_last])
    assert send(client, game, recorded).status_code == 201
    game.update(table.state(game))
    answer = send(client, game, past_the_last)
    assert shown["refused"] == [{"change": 1, "status": 400, "error": answer.json["error"]}]
    assert answer.status_code == 400
    assert comparable(shown) == comparable(table.state(game))
