"""Colours marked offline (``{"action": "mark"}`` in ``companion.play_state.offline_game``): the
phone shows the round as the server shows it once the marks are sent (``POST .../rounds/
marks``), hazy marks hidden (R15), and refuses what the server refuses, in its words; the
mark page's fields read as the page reads them (``rounds/marks``)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.play_state.offline_game import offline_state
from companion.play_state.round_fields import marks_answer
from tests.api.test_marks_api import MARKS, NAMES
from tests.api.test_marks_api import ROUND as RECORDED
from tests.offline.test_offline_game import comparable
from tests.table import Table, auth

TWO_EACH = [
    [*MARKS[0], {"colour": "yellow", "value": 3}],
    [*MARKS[1], {"colour": "brown", "value": 2}],
    [*MARKS[2], {"colour": "red", "value": 0}],
]


def send(client: FlaskClient, game: dict[str, Any], change: dict[str, Any]) -> Any:
    """The change sent as the outbox sends it, on the game's current version."""
    body = {**change["body"], "version": game["version"]}
    path = "rounds/marks" if change["action"] == "mark" else "rounds"
    answer = client.post(f"/api/v1/games/{game['id']}/{path}", json=body, headers=auth(game))
    if answer.status_code < 400:
        game.update(answer.json)
    return answer


@pytest.mark.parametrize("variant", ["classic", "hazy", "aggravated"])
def test_marked_then_recorded_offline_shows_as_the_server_once_sent(
    client: FlaskClient, table: Table, variant: str
) -> None:
    game = table.new_game(NAMES, variant, rounds=2)
    marks = MARKS if variant != "aggravated" else TWO_EACH  # R14: two colours each
    last_seen = table.state(game)
    mark = {"action": "mark", "body": {"version": 0, "number": 1, "marked": marks}}
    shown = offline_state(last_seen, [mark])
    assert shown["refused"] == [] and shown["pending"] == 1
    assert shown["rounds"][0]["pending"] is True and shown["next_round"] == 1
    answer = send(client, game, mark)
    assert answer.status_code == 201, answer.json
    assert comparable(shown) == comparable(table.state(game))
    assert (shown["rounds"][0]["marked"] is None) == (variant == "hazy")  # R15


def test_marks_then_the_round_then_the_next_marks_in_one_queue(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(NAMES, rounds=2)
    queue = [
        {"action": "mark", "body": {"version": 0, "number": 1, "marked": MARKS}},
        {"action": "record", "body": {"version": 0, "number": 1, "entries": RECORDED}},
        {"action": "mark", "body": {"version": 0, "number": 2, "marked": MARKS}},
    ]
    shown = offline_state(table.state(game), queue)
    assert shown["refused"] == [] and shown["next_round"] == 2
    for change in queue:
        assert send(client, game, change).status_code == 201
    assert comparable(shown) == comparable(table.state(game))


def test_marks_the_server_refuses_are_refused_offline_in_its_words(
    client: FlaskClient, table: Table
) -> None:
    """C1 (a card at two seats), a seat missing, a round not next, a round already marked,
    a game that marks nothing: status and words as the API answers them."""
    game = table.new_game(NAMES, rounds=2)
    delayed = table.new_game(NAMES, "delayed", rounds=2)
    marked = table.new_game(NAMES, rounds=2)
    first = {"action": "mark", "body": {"version": 0, "marked": MARKS}}
    assert send(client, marked, first).status_code == 201
    cases = [
        (game, {"action": "mark", "body": {"version": 0, "marked": [MARKS[0]] * 3}}),
        (game, {"action": "mark", "body": {"version": 0, "marked": MARKS[:2]}}),
        (game, {"action": "mark", "body": {"version": 0, "number": 2, "marked": MARKS}}),
        (marked, {"action": "mark", "body": {"version": 0, "number": 1, "marked": MARKS}}),
        (marked, {"action": "mark", "body": {"version": 0, "marked": MARKS}}),
        (delayed, {"action": "mark", "body": {"version": 0, "marked": MARKS}}),
    ]
    for where, change in cases:
        last_seen = table.state(where)
        shown = offline_state(last_seen, [change])
        answer = send(client, where, change)
        assert answer.status_code >= 400, change
        assert shown["refused"] == [
            {"change": 0, "status": answer.status_code, "error": answer.json["error"]}
        ], change
        assert comparable(shown) == comparable(last_seen)


def test_the_mark_page_s_fields_are_read_as_the_api_takes_marks() -> None:
    fields = {"s0-marked": ["red-4"], "s1-marked": ["blue-0"], "s2-marked": ["green-1"]}
    request = {"variant": "classic", "players": 3, "fields": {**fields, "csrf_token": ["x"]}}
    assert marks_answer(request) == {"marked": MARKS}
