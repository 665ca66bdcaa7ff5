"""Every page and the main API GETs cost the same few SQL statements, whatever the data.

Statements are counted with the ``before_cursor_execute`` listener of the history's test
(``tests.history.test_statement_count.counted``) while each URL is served once, in full (no
``If-None-Match``):

- with a history of 2 games, where the game pages show a game of 3 players and 1 round;
- with a history of 30 games, where the game pages show a game of 8 players and 9 or 10 rounds
  (and a live round three tricks in).

The counts must be equal for every URL and at most ``MOST_STATEMENTS``: a page that loads
its rows one query per game, round or player (an "N+1") fails here long before it is slow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.history.helpers import card, quick
from tests.history.test_statement_count import MOST_STATEMENTS, counted
from tests.table import Table, auth

SMALL_NAMES = ["Ann", "Ben", "Cleo"]
LARGE_NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]
#: Each seat's indicator colour in the 8-player games (deck of R2: six colours, 0-18).
LARGE_COLOURS = ["red", "blue", "green", "yellow", "brown", "violet", "red", "blue"]
#: Tricks per seat in an 8-player round (13 tricks, R2), turned by one seat every round.
LARGE_TRICKS = [2, 2, 2, 2, 2, 1, 1, 1]
#: History games besides the four the game pages show, so that the history holds 30.
FILLER_GAMES = 26


@dataclass
class Games:
    """The games whose pages are counted (each game's API answer, edit key included)."""

    playing: dict[str, Any]  #: in progress, with scored rounds and a round to record next
    live: dict[str, Any]  #: a live round in progress, some tricks played


def small_round() -> list[dict[str, Any]]:
    return [quick("red 1", 5), quick("blue 2", 5, ["blue 4"]), quick("green 3", 4)]


def large_round(number: int) -> list[dict[str, Any]]:
    """A quick entry per seat of an 8-player round: every seat marks its own indicator."""
    turn = number % len(LARGE_TRICKS)
    tricks = LARGE_TRICKS[turn:] + LARGE_TRICKS[:turn]
    return [
        {
            "marked": [card(colour, 10 + seat)],
            "tricks": tricks[seat],
            "marked_captured": [card(colour, seat)] if seat % 3 == 0 else [],
        }
        for seat, colour in enumerate(LARGE_COLOURS)
    ]


def open_live_round(
    client: FlaskClient, game: dict[str, Any], marked: list[list[dict[str, Any]]]
) -> None:
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"], "marked": marked},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    game.update(answer.json)


def play_trick(client: FlaskClient, game: dict[str, Any], cards: list[dict[str, Any]]) -> None:
    number = len(game["rounds"])
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/{number}/tricks",
        json={"version": game["version"], "cards": cards},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    game.update(answer.json)


def build_small(table: Table) -> Games:
    """Two games of three players: one with 1 of 2 rounds scored, one playing round 1 live."""
    playing = table.new_game(SMALL_NAMES, rounds=2)
    table.record(playing, small_round())
    live = table.new_game(SMALL_NAMES, rounds=2)
    open_live_round(
        table.client, live, [[card("yellow", 0)], [card("yellow", 1)], [card("yellow", 2)]]
    )
    play_trick(table.client, live, [card("green", 8), card("green", 0), card("green", 1)])
    for game in (playing, live):
        table.give_edit_rights(table.client, game)
    return Games(playing, live)


def build_large(table: Table) -> Games:
    """28 more games (30 in all): 26 short ones of Ann and friends, then two 8-player games
    of 10 rounds with 9 scored, the second playing its last round live, three tricks in."""
    for number in range(FILLER_GAMES):
        names = ["Ann", "Ben", "Cleo", f"Guest {number % 7}"]
        filler = table.new_game(names)
        table.record(
            filler,
            [quick("red 1", 4), quick("blue 2", 3), quick("green 3", 4), quick("yellow 0", 3)],
        )
    games = []
    for _ in range(2):
        game = table.new_game(LARGE_NAMES, rounds=10)
        for number in range(9):
            table.record(game, large_round(number))
        games.append(game)
    playing, live = games
    open_live_round(table.client, live, [entry["marked"] for entry in large_round(9)])
    for colour in ("green", "yellow", "brown"):
        play_trick(table.client, live, [card(colour, value) for value in range(8)])
    for game in (playing, live):
        table.give_edit_rights(table.client, game)
    assert len(playing["players"]) == 8
    assert [r["status"] for r in playing["rounds"]] == ["scored"] * 9
    assert live["rounds"][-1]["mode"] == "live" and live["rounds"][-1]["tricks_played"] == 3
    return Games(playing, live)


def finish(table: Table, game: dict[str, Any]) -> None:
    """Record the rounds left, so that the game's scoreboard shows its winners."""
    entries = small_round() if len(game["players"]) == 3 else large_round(9)
    while game["status"] == "in_progress":
        table.record(game, entries)


def urls_of(games: Games) -> dict[str, str]:
    """What is counted: every page and the main API GETs, by name."""
    code, live = games.playing["id"], games.live["id"]
    return {
        "home": "/",
        "new game": "/games/new",
        "scoreboard (edit)": f"/g/{code}",
        "scoreboard (view)": f"/g/{code}/view",
        "mark colours": f"/g/{code}/rounds/mark",
        "record round": f"/g/{code}/rounds/record",
        "correct round": f"/g/{code}/rounds/1",
        "live round": f"/g/{live}/rounds/{len(games.live['rounds'])}/live",
        "table setup": "/setup?players=4&variant=classic",
        "table setup in a game": f"/g/{code}/setup",
        "resolver": "/resolve",
        "resolver in a game": f"/g/{code}/resolve",
        "history": "/history",
        "history filtered": "/history?player=Ann&variant=classic&period=all",
        "player": "/players/Ann",
        "head to head": "/players/Ann/vs/Ben",
        "rules": "/rules",
        "export json": f"/g/{code}/export.json",
        "export csv": f"/g/{code}/export.csv",
        "API setup": "/api/v1/setup?players=4&variant=classic",
        "API games": "/api/v1/games",
        "API games of a player": "/api/v1/games?player=Ann",
        "API game": f"/api/v1/games/{code}",
        "API game export": f"/api/v1/games/{code}/export",
        "API player": "/api/v1/players/Ann",
    }


def finished_urls(games: Games) -> dict[str, str]:
    code = games.playing["id"]
    return {
        "finished scoreboard (edit)": f"/g/{code}",
        "finished scoreboard (view)": f"/g/{code}/view",
    }


def statement_counts(app: Flask, client: FlaskClient, urls: dict[str, str]) -> dict[str, int]:
    """The statements each URL costs, served once in full."""
    counts = {}
    for name, url in urls.items():
        with counted(app) as statements:
            answer = client.get(url)
            answer.get_data()
        assert answer.status_code == 200, (name, url, answer.status_code)
        answer.close()
        counts[name] = len(statements)
    return counts


def test_every_page_costs_the_same_few_statements_for_2_games_and_for_30(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    small_games = build_small(table)
    small = statement_counts(app, client, urls_of(small_games))
    finish(table, small_games.playing)
    small |= statement_counts(app, client, finished_urls(small_games))

    large_games = build_large(table)
    assert client.get("/api/v1/games").json["total"] == 30
    large = statement_counts(app, client, urls_of(large_games))
    finish(table, large_games.playing)
    large |= statement_counts(app, client, finished_urls(large_games))
    large["history page 2"] = statement_counts(app, client, {"p2": "/history?page=2"})["p2"]

    print("statements per page (2 games, 30 games):", small, large)
    assert small == {name: large[name] for name in small}, "a count grows with the data"
    assert large["history page 2"] == large["history"]
    too_many = {name: count for name, count in large.items() if count > MOST_STATEMENTS}
    assert not too_many, f"more than {MOST_STATEMENTS} statements"
