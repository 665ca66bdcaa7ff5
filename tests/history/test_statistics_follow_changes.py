"""Statistics are read from the stored rows at each request: recording, correcting,
deleting and excluding a game change them at once."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scripts.page_reader import csrf_token, read_page
from tests.history.helpers import (
    build_fixed_history,
    exclude,
    quick,
)
from tests.table import Table


def numbers(client: FlaskClient, name: str) -> tuple[object, ...]:
    data = client.get(f"/api/v1/players/{name}").json
    return (
        data["games"],
        data["finished_games"],
        data["wins"],
        data["rounds"],
        data["average_round_score"],
        data["best_round"],
        data["worst_round"],
    )


def test_recording_a_round_counts_at_once(client: FlaskClient, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
    assert numbers(client, "Ann") == (1, 0, 0, 0, None, None, None)
    table.record(game, [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)])
    assert numbers(client, "Ann") == (1, 0, 0, 1, 14.0, 14, 14)
    table.record(game, [quick("red 0", 2), quick("blue 0", 6), quick("green 0", 6)])
    assert numbers(client, "Ann") == (1, 1, 0, 2, 10.0, 14, 6)  # Ben 13 + 18 = 31 wins
    assert numbers(client, "Ben") == (1, 1, 1, 2, 15.5, 18, 13)


def test_correcting_a_round_changes_scores_and_winners(client: FlaskClient, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(game, [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)])
    assert numbers(client, "Ann")[2] == 1 and numbers(client, "Ben")[2] == 0
    table.correct(game, 1, [quick("red 1", 4), quick("blue 2", 6), quick("green 3", 4)])
    assert numbers(client, "Ann") == (1, 1, 0, 1, 11.0, 11, 11)
    assert numbers(client, "Ben") == (1, 1, 1, 1, 16.0, 16, 16)
    listed = client.get("/api/v1/games").json["games"][0]
    assert listed["totals"] == [11, 16, 9] and listed["winners"] == [1]


def test_deleting_a_game_takes_it_out_of_everything(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    history = build_fixed_history(table)
    first = {"id": history.first, "edit_key": history.keys[history.first]}
    assert numbers(client, "Cleo") == (2, 2, 0, 3, 10.0, 11, 9)
    # delete the first game through its confirmation page, as its phone would
    table.give_edit_rights(client, first)
    page = client.get(f"/g/{first['id']}/delete").get_data(as_text=True)
    version = read_page(page).find("input", type="hidden", name="version").get("value")
    assert version and version.isdigit()
    answer = client.post(
        f"/g/{first['id']}/delete", data={"csrf_token": csrf_token(page), "version": version}
    )
    assert answer.status_code == 302
    assert numbers(client, "Cleo") == (1, 1, 0, 1, 11.0, 11, 11)
    assert numbers(client, "Ann") == (2, 1, 1, 2, 16.5, 18, 15)
    assert client.get("/api/v1/games").json["total"] == 3
    h2h = client.get("/api/v1/players/Ann").json["head_to_head"]
    assert h2h[0] == {
        "opponent": "Ben",
        "games": 2,
        "finished_games": 1,
        "wins": 1,
        "opponent_wins": 1,
    }


def test_excluding_and_counting_again(client: FlaskClient, app: Flask, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(game, [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)])
    before = numbers(client, "Ann")
    assert before == (1, 1, 1, 1, 14.0, 14, 14)
    exclude(app, game["id"])
    assert numbers(client, "Ann") == (0, 0, 0, 0, None, None, None)
    assert client.get("/api/v1/players/Ann").json["excluded_games"] == 1
    assert client.get("/api/v1/games").json["total"] == 1  # still in the history
    exclude(app, game["id"], excluded=False)
    assert numbers(client, "Ann") == before


def test_excluded_games_count_nowhere_not_even_head_to_head(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(game, [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)])
    table.give_edit_rights(client, game)
    exclude(app, game["id"])
    data = client.get("/api/v1/players/Ann").json
    assert data["head_to_head"] == [] and data["colours"] == {}
    page = client.get("/players/Ann").get_data(as_text=True)
    words = read_page(page).words()
    assert "Statistics over 0 games. 1 game excluded from statistics is not counted." in words
