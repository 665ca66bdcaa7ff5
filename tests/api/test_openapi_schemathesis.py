"""Schemathesis against the API's OpenAPI document: requests generated from the document
(valid ones and, in negative mode, ones it forbids) to every operation of the app on a
fresh database, with real games and their edit keys, and never a 5xx or an answer that
breaks the document.

Half the cases aim at real games (a classic game with a scored round and a live round
open, a hazy, a delayed and a Hat Trick game) or their players, sent with the game's edit
key and, for half of those, at its last round with its current version, so that generated
bodies reach the rules instead of stopping at "no such game" or "stale version".
Bounded: ``MAX_EXAMPLES`` per operation keeps the whole run well under two minutes on two
cores (about 20 s for the 16 operations, alone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from companion.web.api.openapi_routes import openapi_document
from tests.history.helpers import card, quick
from tests.table import Table, auth

#: Examples per operation (16 operations; valid and invalid requests both).
MAX_EXAMPLES = 50


@schemathesis.check
def forbidden_request_refused(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
    """A request the document forbids is refused (4xx). A body too large is refused before
    it is read (413), which Schemathesis does not count among refusals by itself."""
    if response.status_code == 413:
        return None
    return negative_data_rejection(ctx, response, case)


#: What every answer is held to: no server error; the status, content type, headers and body
#: the document gives for the operation; and a request the document forbids refused (4xx).
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    forbidden_request_refused,
]


#: The indicators of the classic game's live round.
MARKED = (("red", 4), ("blue", 5), ("green", 6))


@dataclass
class RealGame:
    """A game the generated requests may aim at, with its edit key."""

    code: str
    key: str


@pytest.fixture
def real_games(table: Table) -> list[RealGame]:
    """Games of each family on the fresh database, at different stages."""
    classic = table.new_game(["Ann", "Ben", "Cleo"], "classic", rounds=3)
    table.record(classic, [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)])
    live = table.client.post(
        f"/api/v1/games/{classic['id']}/rounds/live",
        json={"version": classic["version"], "marked": [[card(c, v)] for c, v in MARKED]},
        headers=auth(classic),
    )
    assert live.status_code == 201, live.json
    games = [
        classic,
        table.new_game(["Dan", "Eve", "Fay", "Gus"], "hazy"),
        table.new_game(["Hal", "Ivy", "Jon"], "delayed"),
        table.new_game(["Kim", "Lea", "Max", "Ned"], "hat-trick"),
    ]
    return [RealGame(game["id"], game["edit_key"]) for game in games]


#: The document the app serves (tests/api/test_openapi.py checks that it serves this one).
#: Loaded as a dict rather than through a fixture: Schemathesis's fixture loader does not
#: run under this pytest, and the document needs no app to be read.
schema = schemathesis.openapi.from_dict(openapi_document())


@dataclass(frozen=True)
class Now:
    """Where a real game stands now (the generated requests change it)."""

    version: int
    last_round: int | None
    player: str


def game_now(app: Flask, code: str) -> Now:
    """The game's version, its last round and one of its players, as the API tells them."""
    state = app.test_client().get(f"/api/v1/games/{code}").get_json()
    rounds = [round_["number"] for round_ in state["rounds"]]
    return Now(state["version"], rounds[-1] if rounds else None, state["players"][0])


def aim_at(case: schemathesis.Case, game: RealGame, now: Now, current: bool) -> None:
    """Point ``case`` at a real game (or its first player), with the game's key; if
    ``current``, also at its last round, with its current version."""
    parameters = dict(case.path_parameters or {})
    if "name" in parameters:
        parameters["name"] = now.player
    if "code" in parameters:
        parameters["code"] = game.code
    if current and "number" in parameters and now.last_round is not None:
        parameters["number"] = now.last_round
    case.path_parameters = parameters
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game.key}"}
    if not current:
        return
    if isinstance(case.body, dict) and "version" in case.body:
        case.body = {**case.body, "version": now.version}
    if case.query and "version" in case.query:
        case.query = {**case.query, "version": now.version}


@schema.parametrize()
@schema.given(aim=st.integers(min_value=-4, max_value=3), current=st.booleans())
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    phases=[Phase.generate, Phase.shrink],  # the document's examples: tests/api/test_openapi.py
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # the games change as the examples run: meant
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)
def test_generated_requests_get_no_5xx_and_answers_the_document_describes(
    case: schemathesis.Case, aim: int, current: bool, app: Flask, real_games: list[RealGame]
) -> None:
    if aim >= 0 and {"code", "name"} & set(case.path_parameters or {}):
        game = real_games[aim]
        aim_at(case, game, game_now(app, game.code), current)
    # Plain bodies: the app gzips for a client that asks, which Schemathesis's WSGI calls do
    # without unzipping the answer.
    response = case.call(app=app, headers={"Accept-Encoding": "identity"})
    case.validate_response(response, checks=CHECKS)
    answer: Any = response.json() if response.status_code == 200 else None
    if case.path.endswith("/edit-key") and isinstance(answer, dict) and "edit_key" in answer:
        real_games[aim].key = answer["edit_key"]  # the old key no longer opens the game
