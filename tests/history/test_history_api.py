"""``GET /api/v1/games`` and ``GET /api/v1/players/<name>``: the shapes of docs/api.md:
pages, filters and refusals (always ``{"error": ...}``)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.history.helpers import quick, set_created, when
from tests.table import Table

THREE = [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)]  # 14, 13, 9
GAME_FIELDS = {"id", "players", "variant", "status", "totals", "winners", "created_at"}


def test_a_game_is_listed_in_the_designed_shape(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], variant="aggravated", rounds=2)
    table.record(
        game,
        [
            {
                "marked": [{"colour": "red", "value": 1}, {"colour": "blue", "value": 1}],
                "tricks": 5,
                "marked_captured": [],
            },
            {
                "marked": [{"colour": "red", "value": 2}, {"colour": "blue", "value": 2}],
                "tricks": 4,
                "marked_captured": [],
            },
            {
                "marked": [{"colour": "green", "value": 1}, {"colour": "yellow", "value": 1}],
                "tricks": 4,
                "marked_captured": [],
            },
        ],
    )
    set_created(app, game["id"], when(2025, 3, 14))
    answer = client.get("/api/v1/games")
    assert answer.status_code == 200
    assert answer.json == {
        "games": [
            {
                "id": game["id"],
                "players": ["Ann", "Ben", "Cleo"],
                "variant": {
                    "game": "classic",
                    "scoring": "classic",
                    "colours": 2,
                    "reveal": "open",
                },
                "status": "in_progress",
                "totals": [15 - 2, 12 - 4, 12 - 2],
                "winners": [],
                "created_at": "2025-03-14T12:00:00+00:00",
            }
        ],
        "page": 1,
        "pages": 1,
        "total": 1,
    }


def test_winners_are_listed_once_the_game_is_finished(client: FlaskClient, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo", "Dan"], variant="hat-trick")
    entries = [
        {"counts": {"red": 9, "blue": 2, "green": 4}, "passed": 1},  # 9 - 2 - 4 - 2 = 1
        {"counts": {"red": 1, "blue": 10, "green": 3}, "passed": 0},  # 6
        {"counts": {"red": 2, "blue": 0, "green": 10}, "passed": 0},  # 8
        {"counts": {"red": 5, "blue": 4, "green": 3}, "passed": 2},  # -6
    ]
    table.record(game, entries)
    assert game["totals"] == [1, 6, 8, -6]
    listed = client.get("/api/v1/games").json["games"][0]
    assert set(listed) == GAME_FIELDS
    assert listed["variant"] == {"game": "hat-trick"}
    assert listed["status"] == "finished"
    assert listed["totals"] == game["totals"]
    assert listed["winners"] == game["winners"] == [2]


def test_pages_run_newest_first_twenty_each(client: FlaskClient, app: Flask, table: Table) -> None:
    codes = []
    for day in range(45):
        game = table.new_game(["Ann", "Ben", "Cleo"])
        set_created(app, game["id"], when(2025, 1, 1) + timedelta(days=day))
        codes.append(game["id"])
    newest_first = list(reversed(codes))
    first = client.get("/api/v1/games").json
    assert (first["page"], first["pages"], first["total"]) == (1, 3, 45)
    assert [g["id"] for g in first["games"]] == newest_first[:20]
    second = client.get("/api/v1/games?page=2").json
    assert [g["id"] for g in second["games"]] == newest_first[20:40]
    last = client.get("/api/v1/games?page=3").json
    assert [g["id"] for g in last["games"]] == newest_first[40:]
    dates = [datetime.fromisoformat(g["created_at"]) for g in first["games"]]
    assert dates == sorted(dates, reverse=True)


@pytest.mark.parametrize(
    ("page", "message"),
    [
        ("4", "There is no page 4: the pages run from 1 to 3."),
        ("0", 'The query parameter "page" must be a whole number from 1.'),
        ("-2", 'The query parameter "page" must be a whole number from 1.'),
        ("two", 'The query parameter "page" must be a whole number from 1.'),
        ("", 'The query parameter "page" must be a whole number from 1.'),
        ("1e3", 'The query parameter "page" must be a whole number from 1.'),
    ],
)
def test_bad_page_numbers_are_refused(
    client: FlaskClient, app: Flask, page: str, message: str, table: Table
) -> None:
    for _ in range(41):
        table.new_game(["Ann", "Ben", "Cleo"])
    answer = client.get(f"/api/v1/games?page={page}")
    assert answer.status_code == 400
    assert answer.json == {"error": message}


def test_an_empty_history_has_page_one_only(client: FlaskClient) -> None:
    assert client.get("/api/v1/games").json == {"games": [], "page": 1, "pages": 1, "total": 0}
    assert client.get("/api/v1/games?page=2").status_code == 400


def test_the_player_filter_matches_names_case_insensitively(
    client: FlaskClient, table: Table
) -> None:
    ann = table.new_game(["Ann", "Ben", "Cleo"])
    table.new_game(["Ben", "Cleo", "Dan"])
    answer = client.get("/api/v1/games?player=ANN").json
    assert [g["id"] for g in answer["games"]] == [ann["id"]]
    assert answer["total"] == 1
    assert client.get("/api/v1/games?player=Nobody").json["total"] == 0


def test_the_other_filters_work_in_the_api_too(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    mild = table.new_game(["Ann", "Ben", "Cleo"], variant="mild")
    old = table.new_game(["Ann", "Ben", "Cleo"], variant="mild")
    set_created(app, old["id"], when(2020, 5, 5))
    assert [g["id"] for g in client.get("/api/v1/games?variant=mild&period=30d").json["games"]] == [
        mild["id"]
    ]
    in_2020 = client.get("/api/v1/games?from=2020-01-01&to=2020-12-31").json["games"]
    assert [g["id"] for g in in_2020] == [old["id"]]
    refused = client.get("/api/v1/games?variant=wild")
    assert refused.status_code == 400
    assert refused.json["error"].startswith('The query parameter "variant": Wild is not a variant')


def test_an_unknown_player_is_not_found(client: FlaskClient, table: Table) -> None:
    table.new_game(["Ann", "Ben", "Cleo"])
    answer = client.get("/api/v1/players/Zed")
    assert answer.status_code == 404
    assert answer.json == {"error": "There is no player called Zed."}
    page = client.get("/players/Zed")
    assert page.status_code == 404
    assert "Nobody called Zed has played yet." in page.get_data(as_text=True)


def test_a_player_without_rounds_has_empty_numbers(client: FlaskClient, table: Table) -> None:
    table.new_game(["Ann", "Ben", "Cleo"])
    assert client.get("/api/v1/players/Ann").json == {
        "name": "Ann",
        "games": 1,
        "finished_games": 0,
        "wins": 0,
        "win_rate": None,
        "rounds": 0,
        "average_round_score": None,
        "best_round": None,
        "worst_round": None,
        "live_rounds": 0,
        "live_tricks": 0,
        "colours": {},
        "excluded_games": 0,
        "head_to_head": [
            {"opponent": "Ben", "games": 1, "finished_games": 0, "wins": 0, "opponent_wins": 0},
            {"opponent": "Cleo", "games": 1, "finished_games": 0, "wins": 0, "opponent_wins": 0},
        ],
    }


def test_the_history_endpoints_take_only_get(client: FlaskClient) -> None:
    answer = client.delete("/api/v1/players/Ann")
    assert answer.status_code == 405
    assert "error" in answer.json
