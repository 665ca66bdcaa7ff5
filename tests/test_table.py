"""The ``table`` fixture (tests/table.py) the tests build their games with: what it makes is
what a phone at the table would have made."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.table import Table

THREE = [
    {"marked": [{"colour": "red", "value": 1}], "tricks": 5, "marked_captured": []},
    {"marked": [{"colour": "blue", "value": 2}], "tricks": 5, "marked_captured": []},
    {"marked": [{"colour": "green", "value": 3}], "tricks": 4, "marked_captured": []},
]


def keeps_the_score(phone: FlaskClient, game: dict[str, object]) -> bool:
    """Whether the home page lists the game among this phone's games in progress."""
    return f'href="/g/{game["id"]}"' in phone.get("/").get_data(as_text=True)


def test_a_new_game_is_the_apis_answer_with_its_edit_key(table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], "mild", rounds=3, first_leader=2)
    assert game["players"] == ["Ann", "Ben", "Cleo"] and game["edit_key"]
    assert table.state(game)["variant"] == game["variant"]
    assert len(game["rounds"]) == 0


def test_recording_and_correcting_move_the_game_on(table: Table) -> None:
    game = table.new_game(rounds=2)
    version = game["version"]
    table.record(game, THREE)
    assert game["version"] == version + 1 and game["totals"] == [14, 13, 9]  # R10
    table.correct(game, 1, list(reversed(THREE)))
    assert game["version"] == version + 2 and game["totals"] == [9, 13, 14]  # seats swapped
    assert table.state(game)["totals"] == game["totals"]


def test_only_a_phone_that_opened_the_edit_link_keeps_the_score(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    assert not keeps_the_score(client, game)
    assert not keeps_the_score(table.phone(), game)
    assert keeps_the_score(table.phone(game), game)
    kept_here = table.new_game(rounds=3, edit_here=True)
    assert keeps_the_score(client, kept_here) and not keeps_the_score(client, game)
