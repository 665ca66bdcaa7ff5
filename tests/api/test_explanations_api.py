"""The game state's terms of each score (R10, R12-R16, R22): additive, per seat, as the
rules give them; null while a round is being played."""

from __future__ import annotations

from flask.testing import FlaskClient

from companion.rules import (
    DelayedEntry,
    HatTrickQuickEntry,
    QuickEntry,
    explain_round,
    table_setup,
    variant_named,
)
from tests.rules.helpers import BLUE, GREEN, RED, complete_round, cs
from tests.table import Table, auth

NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def test_a_scored_round_carries_each_seats_terms(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, "classic", rounds=2)
    setup = table_setup(4, variant_named("classic"))
    entries = complete_round(setup, {0: QuickEntry(cs("red 4"), 4, cs("red 2, red 5"))})
    table.record(game, entries)
    state = table.state(game)
    [round_] = state["rounds"]
    assert round_["explanations"] == [seat.as_json() for seat in explain_round(setup, entries)]
    assert round_["explanations"][0] == {
        "score": 3,
        "terms": [
            {"kind": "other-cards", "points": 14, "count": 14},
            {
                "kind": "marked-cards",
                "points": -11,
                "count": 3,
                "colour": "red",
                "cards": [
                    {"colour": "red", "value": 4, "indicator": True},
                    {"colour": "red", "value": 2},
                    {"colour": "red", "value": 5},
                ],
            },
        ],
    }
    for seat, score in zip(round_["explanations"], round_["scores"], strict=True):
        assert sum(term["points"] for term in seat["terms"]) == score


def test_a_round_being_played_has_no_terms(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, "classic", rounds=2)
    marked = [[card.as_json()] for card in cs("red 1, blue 1, green 1, yellow 1")]
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"], "marked": marked},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    [round_] = table.state(game)["rounds"]
    assert round_["status"] == "playing"
    assert round_["explanations"] is None


def test_a_delayed_round_says_the_choice(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, "delayed")
    setup = table_setup(4, variant_named("delayed"))
    captured = cs("red 9, red 8, blue 1, green 0")
    entries = complete_round(setup, {0: DelayedEntry(captured, (BLUE,))})
    table.record(game, entries)
    seat = table.state(game)["rounds"][0]["explanations"][0]
    assert seat["choice"] == {
        "colours": ["blue"],
        "by_table": True,
        "proposed": {"colours": ["green"], "score": 3},
        "others": [{"colours": ["green"], "score": 3}, {"colours": ["red"], "score": -15}],
    }
    assert seat["score"] == 2


def test_a_hat_trick_round_gives_colours_and_passes(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, "hat-trick")
    entries = [
        HatTrickQuickEntry({RED: 9, BLUE: 2, GREEN: 4}, 1),
        HatTrickQuickEntry({RED: 11, BLUE: 3}, 0),
        HatTrickQuickEntry({BLUE: 15}, 0),
        HatTrickQuickEntry({GREEN: 10}, 1),
    ]
    table.record(game, entries)
    seat = table.state(game)["rounds"][0]["explanations"][0]
    assert seat["terms"] == [
        {"kind": "best-colour", "points": 9, "count": 9, "colour": "red"},
        {"kind": "other-colour", "points": -2, "count": 2, "colour": "blue"},
        {"kind": "other-colour", "points": -4, "count": 4, "colour": "green"},
        {"kind": "pass-cards", "points": -2, "count": 1},
    ]
