"""The address a phone gives a game it started with no network (issue 26, point 4):
``/games/new/<key>``, ``key`` the idempotency key its outbox starts the game with (POST
/api/v1/games). Online, it leads to the game once the server has it, and says where the
game is until then."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scripts.page_reader import words_of_main
from tests.table import NAMES

KEY = "c0ffee00-1234-4abc-8def-000000000026"
OWN_PAGE = {"Sec-Fetch-Site": "same-origin"}


def start(client: FlaskClient, key: str = KEY) -> str:
    body = {"players": NAMES, "variant": "classic", "rounds": 2}
    started = client.post("/api/v1/games", json=body, headers={"Idempotency-Key": key, **OWN_PAGE})
    assert started.status_code == 201, started.json
    return str(started.json["id"])


@pytest.mark.parametrize(
    ("page", "where"),
    [
        ("", ""),
        ("/rounds/record", "/rounds/record"),
        ("/rounds/mark", "/rounds/mark"),
        ("/rounds/live", "/rounds/live"),
        ("/rounds/3/live", "/rounds/3/live"),  # a round played live on the phone
    ],
)
def test_once_sent_the_address_leads_to_the_game(
    client: FlaskClient, page: str, where: str
) -> None:
    code = start(client)
    answer = client.get(f"/games/new/{KEY}{page}")
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/g/{code}{where}"


@pytest.mark.parametrize(
    "key",
    [
        KEY,  # not sent yet
        "short",  # no idempotency key at all
        "other-request-0001",  # the key of a round, not of a game started
    ],
)
def test_until_then_it_says_where_the_game_is(client: FlaskClient, key: str) -> None:
    code = start(client, "a-game-started-online-1")
    rounds = client.post(
        f"/api/v1/games/{code}/rounds",
        json={"version": 0, "number": 1, "entries": []},
        headers={"Idempotency-Key": "other-request-0001", **OWN_PAGE},
    )
    assert rounds.status_code == 400, "its answer is stored under the key all the same"
    answer = client.get(f"/games/new/{key}")
    assert answer.status_code == 404
    words = words_of_main(answer.get_data(as_text=True))
    assert "started on a phone with no network" in words
    assert "back online" in words
