"""``POST /api/v1/games/<id>/rounds/marks``: the colours of the next round marked through the
API as the mark page marks them (R4, R14; C1, C2), with the round the client meant (a phone's
offline outbox sends its marks this way), refused whole when anything is wrong."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.table import Table, auth

NAMES = ["Ann", "Ben", "Cleo"]
MARKS = [
    [{"colour": "red", "value": 4}],
    [{"colour": "blue", "value": 0}],
    [{"colour": "green", "value": 1}],
]
#: Round 1 as the table records it once marked: the same indicators (R10 worked by hand in
#: tests/browser/scenario.py, FIVE_ROUNDS[0]: +5, +15, -1).
ROUND = [
    {
        "marked": MARKS[0],
        "tricks": 6,
        "marked_captured": [{"colour": "red", "value": 2}, {"colour": "red", "value": 5}],
    },
    {"marked": MARKS[1], "tricks": 5, "marked_captured": []},
    {"marked": MARKS[2], "tricks": 3, "marked_captured": [{"colour": "green", "value": 8}]},
]


def mark(client: FlaskClient, game: dict[str, Any], body: dict[str, Any], **headers: str) -> Any:
    url = f"/api/v1/games/{game['id']}/rounds/marks"
    return client.post(url, json=body, headers={**auth(game), **headers})


def test_marked_then_recorded_as_on_the_pages(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, rounds=3)
    answer = mark(client, game, {"version": game["version"], "number": 1, "marked": MARKS})
    assert answer.status_code == 201, answer.json
    round_ = answer.json["rounds"][0]
    assert (round_["number"], round_["status"], round_["marked"]) == (1, "playing", MARKS)
    assert round_["scores"] is None and answer.json["version"] > game["version"]
    url = f"/api/v1/games/{game['id']}/rounds"
    body = {"version": answer.json["version"], "number": 1, "entries": ROUND}
    recorded = client.post(url, json=body, headers=auth(game))
    assert recorded.status_code == 201, recorded.json
    assert recorded.json["rounds"][0]["scores"] == [5, 15, -1]


def test_a_round_another_phone_opened_or_not_next_is_refused_with_the_game_now(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(NAMES, rounds=3)
    first = mark(client, game, {"version": game["version"], "marked": MARKS})
    assert first.status_code == 201
    before = table.state(game)
    again = mark(client, game, {"version": before["version"], "number": 1, "marked": MARKS})
    assert again.status_code == 409
    assert "Round 1" in again.json["error"] and again.json["version"] == before["version"]
    later = mark(client, game, {"version": before["version"], "number": 3, "marked": MARKS})
    assert later.status_code == 409 and later.json["rounds"] == before["rounds"]
    assert table.state(game) == before


def test_broken_marks_are_refused_and_change_nothing(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, rounds=3)
    before = table.state(game)
    twice = [MARKS[0], MARKS[0], MARKS[2]]  # red 4 at two seats (C1)
    refused = mark(client, game, {"version": game["version"], "marked": twice})
    assert refused.status_code == 422 and "red 4" in refused.json["error"].lower()
    short = mark(client, game, {"version": game["version"], "marked": MARKS[:2]})
    assert short.status_code == 400 and "3 players" in short.json["error"]
    stale = mark(client, game, {"version": game["version"] + 5, "marked": MARKS})
    assert stale.status_code == 409 and stale.json["version"] == game["version"]
    assert table.state(game) == before
    delayed = table.new_game(NAMES, "delayed", rounds=3)
    kept = mark(client, delayed, {"version": delayed["version"], "marked": MARKS})
    assert kept.status_code == 400 and "Colours are marked only" in kept.json["error"]


def test_a_hazy_round_s_marks_stay_hidden_until_it_is_scored(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(NAMES, "hazy", rounds=3)
    answer = mark(client, game, {"version": game["version"], "marked": MARKS})
    assert answer.status_code == 201 and answer.json["rounds"][0]["marked"] is None  # R15


def test_marks_sent_again_are_applied_once(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, rounds=3)
    body = {"version": game["version"], "number": 1, "marked": MARKS}
    key = {"Idempotency-Key": "marks-0001-outbox"}
    first = mark(client, game, body, **key)
    again = mark(client, game, body, **key)
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_data() == first.get_data()
    assert len(table.state(game)["rounds"]) == 1
