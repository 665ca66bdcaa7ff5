"""Every statistic of a small fixed history, against numbers computed by hand.

The history (tests/history/helpers.py, classic, three players, R10 scoring):

game   players          round scores                    totals        status
first  Ann Ben Cleo     14 13 9 | 12 12 10              26 25 19      finished, Ann wins
shared Ann Ben Cleo     15 15 11                        15 15 11      finished, Ann+Ben share
live   Ann Ben Dan      18 14 -32 (live: 6, 5, 3 tricks) 18 14 -32     in progress (1 of 2)
excl.  Ann Ben Cleo     -8 -7 -2                        -8 -7 -2      finished, Cleo; EXCLUDED

Marked colours: Ann red, yellow | red | yellow;  Ben blue, red | blue | yellow;
Cleo green, red | green;  Dan yellow.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from babel.dates import format_time
from flask import Flask
from flask.testing import FlaskClient

from companion.data import stats
from companion.data.models import db
from companion.rules import winners
from companion.services.games import abandon_game, get_game
from tests.history.helpers import (
    FixedHistory,
    build_fixed_history,
    history_codes,
    stat_values,
    text_of,
    when,
)
from tests.table import Table

EXPECTED: dict[str, dict[str, Any]] = {
    "Ann": {
        "name": "Ann",
        "games": 3,
        "finished_games": 2,
        "wins": 2,  # the first game, and the shared win
        "win_rate": 1.0,
        "rounds": 4,
        "average_round_score": (14 + 12 + 15 + 18) / 4,  # 14.75
        "best_round": 18,
        "worst_round": 12,
        "live_rounds": 1,
        "live_tricks": 6,
        "colours": {"red": 2, "yellow": 2},
        "excluded_games": 1,
    },
    "Ben": {
        "name": "Ben",
        "games": 3,
        "finished_games": 2,
        "wins": 1,  # the shared win
        "win_rate": 0.5,
        "rounds": 4,
        "average_round_score": (13 + 12 + 15 + 14) / 4,  # 13.5
        "best_round": 15,
        "worst_round": 12,
        "live_rounds": 1,
        "live_tricks": 5,
        "colours": {"blue": 2, "red": 1, "yellow": 1},
        "excluded_games": 1,
    },
    "Cleo": {
        "name": "Cleo",
        "games": 2,  # the excluded game she won counts nowhere
        "finished_games": 2,
        "wins": 0,
        "win_rate": 0.0,
        "rounds": 3,
        "average_round_score": (9 + 10 + 11) / 3,  # 10.0
        "best_round": 11,
        "worst_round": 9,
        "live_rounds": 0,
        "live_tricks": 0,
        "colours": {"green": 2, "red": 1},
        "excluded_games": 1,
    },
    "Dan": {
        "name": "Dan",
        "games": 1,
        "finished_games": 0,
        "wins": 0,
        "win_rate": None,
        "rounds": 1,
        "average_round_score": -32.0,
        "best_round": -32,
        "worst_round": -32,
        "live_rounds": 1,
        "live_tricks": 3,
        "colours": {"yellow": 1},
        "excluded_games": 0,
    },
}

HEAD_TO_HEAD = {
    "Ann": [
        {"opponent": "Ben", "games": 3, "finished_games": 2, "wins": 2, "opponent_wins": 1},
        {"opponent": "Cleo", "games": 2, "finished_games": 2, "wins": 2, "opponent_wins": 0},
        {"opponent": "Dan", "games": 1, "finished_games": 0, "wins": 0, "opponent_wins": 0},
    ],
    "Cleo": [
        {"opponent": "Ann", "games": 2, "finished_games": 2, "wins": 0, "opponent_wins": 2},
        {"opponent": "Ben", "games": 2, "finished_games": 2, "wins": 0, "opponent_wins": 1},
    ],
    "Dan": [
        {"opponent": "Ann", "games": 1, "finished_games": 0, "wins": 0, "opponent_wins": 0},
        {"opponent": "Ben", "games": 1, "finished_games": 0, "wins": 0, "opponent_wins": 0},
    ],
}


@pytest.fixture
def history(table: Table) -> FixedHistory:
    return build_fixed_history(table)


@pytest.mark.parametrize("name", EXPECTED)
def test_the_api_answers_each_players_hand_computed_statistics(
    client: FlaskClient, history: FixedHistory, name: str
) -> None:
    answer = client.get(f"/api/v1/players/{name}")
    assert answer.status_code == 200
    numbers = answer.json
    for field, expected in EXPECTED[name].items():
        if isinstance(expected, float):
            assert numbers[field] == pytest.approx(expected), field
        else:
            assert numbers[field] == expected, field


@pytest.mark.parametrize("name", HEAD_TO_HEAD)
def test_head_to_head_counts_games_together_and_each_sides_wins(
    client: FlaskClient, history: FixedHistory, name: str
) -> None:
    assert client.get(f"/api/v1/players/{name}").json["head_to_head"] == HEAD_TO_HEAD[name]


def test_player_names_are_matched_case_insensitively(
    client: FlaskClient, history: FixedHistory
) -> None:
    assert client.get("/api/v1/players/  aNN ").json["name"] == "Ann"
    assert client.get("/players/ann").status_code == 200


def test_the_player_page_shows_the_same_numbers(client: FlaskClient, history: FixedHistory) -> None:
    page = client.get("/players/Ann").get_data(as_text=True)
    assert stat_values(page) == {
        "Games": "3",
        "Finished games": "2",
        "Wins": "2",
        "Win rate": "100%",
        "Rounds": "4",
        "Average round": "+14.8",  # 14.75 with one decimal
        "Best round": "+18",
        "Worst round": "+12",
    }
    text = text_of(page)
    assert "Statistics over 3 games. 1 game excluded from statistics is not counted." in text
    assert "red 2 rounds" in text and "yellow 2 rounds" in text
    assert "6 tricks won in 1 round played live" in text
    assert "That is 6.0 per round." in text
    assert "Ben 3 2 1" in text  # games together, Ann's wins, Ben's wins
    assert "Cleo 2 2 0" in text and "Dan 1 0 0" in text


def test_a_player_without_finished_games_shows_dashes(
    client: FlaskClient, history: FixedHistory
) -> None:
    page = client.get("/players/Dan").get_data(as_text=True)
    values = stat_values(page)
    assert values["Win rate"] == "–"
    assert values["Average round"] == "\u221232.0"
    assert values["Best round"] == values["Worst round"] == "\u221232"
    assert "Dan has not finished a game yet." in page  # the chart's description


def test_the_player_page_charts_the_finished_games_oldest_first_per_round(
    client: FlaskClient, app: Flask, history: FixedHistory
) -> None:
    page = client.get("/players/Ann").get_data(as_text=True)
    assert '<svg class="chart chart--history" id="score-history"' in page
    description = (  # 26 over 2 rounds, then 15 over 1 round
        "Ann&#39;s points per round in each of the last 2 finished games, oldest first: "
        "lowest +13.0, highest +15.0, latest +15.0."
    )
    assert description in page
    with app.app_context():
        player = stats.find_player("Ann")
        assert player is not None
        points = stats.score_history(player)
    assert [(p.code, p.total, p.rounds, p.won) for p in points] == [
        (history.first, 26, 2, True),
        (history.shared, 15, 1, True),
    ]


def test_the_monthly_trend_groups_counted_games_by_month(
    client: FlaskClient, app: Flask, history: FixedHistory
) -> None:
    with app.app_context():
        player = stats.find_player("Ann")
        assert player is not None
        months = stats.monthly_trend(player)
    assert [(m.year, m.month, m.games, m.finished_games, m.wins, m.rounds) for m in months] == [
        (2025, 3, 1, 0, 0, 1),  # the live game (the excluded one of March counts nowhere)
        (2025, 2, 1, 1, 1, 1),
        (2025, 1, 1, 1, 1, 2),
    ]
    assert [m.average_round_score for m in months] == [18.0, 15.0, 13.0]
    text = text_of(client.get("/players/Ann").get_data(as_text=True))
    assert "Mar 2025 1 0 +18.0 Feb 2025 1 1 +15.0 Jan 2025 1 1 +13.0" in text


def test_the_player_page_speaks_german(client: FlaskClient, history: FixedHistory) -> None:
    client.set_cookie("lang", "de")
    page = client.get("/players/Ben").get_data(as_text=True)
    values = stat_values(page)
    assert values["Siegquote"] == "50\xa0%"
    assert values["Durchschnitt pro Runde"] == "+13,5"


def test_the_history_page_lists_totals_winners_and_marks_the_excluded_game(
    client: FlaskClient, history: FixedHistory
) -> None:
    page = client.get("/history").get_data(as_text=True)
    text = text_of(page)
    assert "4 games" in text
    # in progress first, then newest first
    assert history_codes(page) == [history.live, history.excluded, history.shared, history.first]
    noon = " ".join(format_time(when(2025, 3, 25), format="short", locale="en").split())
    assert (
        f"Mar 25, 2025, {noon} "
        "Classic ★ Winner: Cleo with \u22122 Ann Total: \u22128 "
        "Ben Total: \u22127 Cleo Total: \u22122 ★ winner Finished: 1 of 1 round "
        "not counted in statistics"
    ) in text
    assert "Shared win: Ann, Ben with +15" in text
    assert (
        "★ Winner: Ann with +26 Ann Total: +26 ★ winner Ben Total: +25 Cleo Total: +19 "
        "Finished: 2 of 2 rounds"
    ) in text
    assert "In progress: 1 of 2 rounds scored" in text
    assert (
        "Ann Total: +18 Ben Total: +14 Dan Total: \u221232 In progress: 1 of 2 rounds scored "
        "Follow this game"
    ) in text


def test_winners_in_sql_agree_with_rule_r11_on_random_games(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    """R11 from the rules engine against the window-function winners of the history query,
    over games with many ties."""
    rng = random.Random(11)
    expected = {}
    for _ in range(12):
        game = table.new_game(["Ann", "Ben", "Cleo"], rounds=1)
        tricks = rng.choice([[5, 5, 4], [4, 5, 5], [5, 4, 5], [14, 0, 0], [7, 7, 0]])
        colours = ["red", "blue", "green"]
        entries = [
            {
                "marked": [{"colour": colour, "value": rng.randint(0, 1)}],
                "tricks": t,
                "marked_captured": [],
            }
            for colour, t in zip(colours, tricks, strict=True)
        ]
        table.record(game, entries)
        expected[game["id"]] = winners(game["totals"])
    listed = client.get("/api/v1/games").json["games"]
    assert {game["id"]: game["winners"] for game in listed} == expected
    assert any(len(w) > 1 for w in expected.values()), "the sample has a shared win"


def test_an_abandoned_game_is_played_but_never_won(
    client: FlaskClient, app: Flask, history: FixedHistory
) -> None:
    with app.app_context():
        game = get_game(history.live, for_update=True)
        abandon_game(game, game.version)
        db.session.commit()
    ann = client.get("/api/v1/players/Ann").json
    assert (ann["games"], ann["finished_games"], ann["wins"], ann["rounds"]) == (3, 2, 2, 4)
    listed = {g["id"]: g for g in client.get("/api/v1/games").json["games"]}
    assert listed[history.live]["status"] == "abandoned"
    assert listed[history.live]["winners"] == []


def test_hat_trick_rounds_mark_no_colour(client: FlaskClient, table: Table) -> None:
    """R22: the colour that scores +1 in Hat Trick is no marked colour, so it is not counted
    among the most-chosen colours; the scores count like any other round."""
    game = table.new_game(["Ann", "Ben", "Cleo", "Dan"], variant="hat-trick")
    table.record(
        game,
        [
            {"counts": {"red": 9, "blue": 2, "green": 4}, "passed": 1},
            {"counts": {"red": 1, "blue": 10, "green": 3}, "passed": 0},
            {"counts": {"red": 2, "blue": 0, "green": 10}, "passed": 0},
            {"counts": {"red": 5, "blue": 4, "green": 3}, "passed": 2},
        ],
    )
    ann = client.get("/api/v1/players/Ann").json
    assert ann["colours"] == {}
    assert (ann["rounds"], ann["best_round"], ann["wins"]) == (1, 1, 0)
    assert client.get("/api/v1/players/Cleo").json["wins"] == 1
