"""A round is checked by the rules once per save (C1-C5), whichever way it is sent: the
record and correct pages, and the API. The checks are counted where they all run
(``companion.rules.scoring._checked_round``), and the save must have happened, so a count of
one is not a save that never reached the rules. Stored rounds read back as they were scored
(``stored=True``: the API's answer explains every round of the game) are no check of the
round being saved, and are not counted."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.rules import scoring
from tests.games.round_helpers import NAMES, assert_redirects_to_scoreboard, quick_round
from tests.games.test_round_saved import CORRECTED, ROUND
from tests.table import Table, auth


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times the rules check a whole round while the test runs."""
    counted: list[int] = []
    check = scoring._checked_round

    def counting(*args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("stored"):
            counted.append(1)
        return check(*args, **kwargs)

    monkeypatch.setattr(scoring, "_checked_round", counting)
    yield counted


def as_api(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A round of the page helpers' shape (``red-4``) in the API's shape."""

    def card(token: str) -> dict[str, Any]:
        colour, value = token.split("-")
        return {"colour": colour, "value": int(value)}

    return [
        {
            "marked": [card(token) for token in seat["marked"]],
            "tricks": seat["tricks"],
            "marked_captured": [card(token) for token in seat["marked_captured"]],
        }
        for seat in seats
    ]


def page_record(client: FlaskClient, game: dict[str, Any]) -> None:
    """Record round 1 on the record page."""
    response = quick_round(client, f"/g/{game['id']}/rounds/record", ROUND)
    assert_redirects_to_scoreboard(response, game["id"])


def page_correct(client: FlaskClient, game: dict[str, Any]) -> None:
    """Correct round 1 on its page."""
    response = quick_round(client, f"/g/{game['id']}/rounds/1", CORRECTED)
    assert_redirects_to_scoreboard(response, game["id"])


def api_record(client: FlaskClient, game: dict[str, Any]) -> None:
    """Record round 1 through the API."""
    body = {"version": game["version"], "entries": as_api(ROUND)}
    response = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth(game))
    assert response.status_code == 201, response.json


def api_correct(client: FlaskClient, game: dict[str, Any]) -> None:
    """Correct round 1 through the API."""
    body = {"version": game["version"] + 1, "entries": as_api(CORRECTED)}
    response = client.put(f"/api/v1/games/{game['id']}/rounds/1", json=body, headers=auth(game))
    assert response.status_code == 200, response.json


SAVES: dict[str, Callable[[FlaskClient, dict[str, Any]], None]] = {
    "record page": page_record,
    "correct page": page_correct,
    "API record": api_record,
    "API correct": api_correct,
}


@pytest.mark.parametrize("way", SAVES)
def test_c1_to_c5_run_once_per_save(
    client: FlaskClient, table: Table, checks: list[int], way: str
) -> None:
    game = table.new_game(NAMES, "classic", rounds=5, edit_here=True)
    if "correct" in way:
        api_record(client, game)
    checks.clear()
    SAVES[way](client, game)
    assert len(checks) == 1
    stored = client.get(f"/api/v1/games/{game['id']}/export").json["games"][0]["rounds"]
    expected = CORRECTED if "correct" in way else ROUND
    assert [round_["entries"] for round_ in stored] == [as_api(expected)]
