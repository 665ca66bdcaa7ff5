"""A new game started on a phone with no network (issue 26, point 4): the rules worker's
``games/new`` (companion/play_state/new_game.py), run as on the phone, answers every request as
``POST /api/v1/games`` will once the phone sends it: the same game (names as the server stores
them, variant, rounds, first leader, nothing played) or the same refusal, in the same words."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.data.seating import check_new_game
from companion.play_state import parse
from companion.read_models.messages import render_message
from companion.rules import Refusal, variant_named
from tests.offline.requests import CLASSIC_SETTINGS, HAT_TRICK, PRESETS
from tests.offline.worker_run import archive, ask_worker

#: Names a table types: some known to the server already (written otherwise now and then),
#: some new, some the server refuses (invisible characters, too long, blank, a duplicate).
KNOWN = ["Anna", "Bálint", "Chiara", "Dörte", "Émile"]
NEW = ["Ferenc", "Giulia", "Hannes", "Inès", "Jo"]
BAD = ["Ann\u200ba", "x" * 41, "   ", "Ｆｅｒｅｎｃ", "Ann\u202e"]
#: What the state of a game just started holds besides its id, version and addresses.
STARTED_KEYS = (
    "players",
    "variant",
    "rounds_planned",
    "first_leader",
    "status",
    "rounds",
    "totals",
    "winners",
)


def spelled(rng: random.Random, name: str) -> str:
    """``name`` as a table might type it: as it is, in other case, or padded with spaces."""
    return rng.choice([name, name.lower(), name.upper(), f"  {name} "])


def random_table(rng: random.Random) -> dict[str, Any]:
    """A request of ``POST /games``, mostly legal, sometimes not in one way or another."""
    variant: Any = rng.choice([*PRESETS, HAT_TRICK, "custom", "custom", "no such variant"])
    if variant == "custom":
        scoring, colours, reveal = rng.choice(CLASSIC_SETTINGS)
        variant = {"scoring": scoring, "colours": colours, "reveal": reveal}
    elif variant == HAT_TRICK and rng.random() < 0.5:
        variant = {"game": HAT_TRICK}
    count = rng.choice([2, 3, 4, 4, 5, 6, 7, 8, 9])
    pool = KNOWN + NEW
    names = [spelled(rng, name) for name in rng.sample(pool, min(count, len(pool)))]
    if rng.random() < 0.15:
        names[rng.randrange(len(names))] = rng.choice(BAD)
    if rng.random() < 0.1:
        names.append(spelled(rng, names[0].strip()))  # a player entered twice
    request: dict[str, Any] = {"players": names, "variant": variant}
    if rng.random() < 0.8:
        request["rounds"] = rng.choice([0, 1, 3, 5, 10, 11, "5"])
    if rng.random() < 0.8:
        request["first_leader"] = rng.choice([0, 1, 2, 3, 5, 7, 8, -1])
    if rng.random() < 0.03:
        request["colour"] = "red"  # a field the API does not take
    return request


def test_a_game_started_offline_is_the_game_the_server_starts(
    tmp_path: Path, client: FlaskClient
) -> None:
    archive().extractall(tmp_path)
    for name in KNOWN:  # the server knows these players from earlier games
        made = client.post(
            "/api/v1/games", json={"players": [name, "Zoe", "Yann"], "variant": "classic"}
        )
        assert made.status_code == 201, made.json
    rng = random.Random(2611)
    requests = [random_table(rng) for _ in range(160)]
    known = [*KNOWN, "Zoe", "Yann"]
    calls, answered = [], []
    for request in requests:  # the names the server knows when each request reaches it
        calls.append(("games/new", {"game": request, "known": list(known)}, None))
        server = client.post("/api/v1/games", json=request)
        answered.append(server)
        if server.status_code == 201:
            known += server.json["players"]
    answers = ask_worker(tmp_path, calls)
    statuses = set()
    for request, server, answer in zip(requests, answered, answers, strict=True):
        statuses.add(server.status_code)
        if server.status_code != 201:
            assert answer == {"status": server.status_code, "body": server.json}, request
            continue
        assert answer["status"] == 200, (request, answer)
        assert {key: answer["body"][key] for key in STARTED_KEYS} == {
            key: server.json[key] for key in STARTED_KEYS
        }, request
        assert answer["body"]["id"] is None and answer["body"]["version"] == 0
    assert statuses == {201, 400, 422}, "games started, malformed requests and refused tables"


@pytest.mark.parametrize("language", ["de", "it", "fr", "hu"])
def test_a_refusal_is_said_as_the_pages_say_the_server_s(
    tmp_path: Path, app: Flask, language: str
) -> None:
    """In the table's language, as the new-game page says a refusal of the server's."""
    archive().extractall(tmp_path)
    requests = [
        {"players": ["Anna", "Ben", "anna"], "variant": "classic"},
        {"players": ["Anna", "Ben", "Cleo"], "variant": "classic", "first_leader": 4},
        {"players": ["Anna", "Ben"], "variant": "classic"},
    ]
    calls = [("games/new", {"game": request}, language) for request in requests]
    for request, answer in zip(requests, ask_worker(tmp_path, calls), strict=True):
        with pytest.raises(Refusal) as refused:
            check_new_game(
                request["players"],
                variant_named("classic"),
                5,
                request.get("first_leader", 0),
            )
        with app.test_request_context(headers={"Accept-Language": language}):
            said = render_message(refused.value.message)
        body = {"error": said}
        if refused.value.field is not None:
            body["field"] = refused.value.field  # beside it on the page
        assert answer == {"status": parse.refusal_status(refused.value), "body": body}
        assert said != str(refused.value), "said in the table's language"
