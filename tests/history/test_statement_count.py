"""The history and player pages cost the same few SQL statements however long the history.

Statements are counted with a ``before_cursor_execute`` listener on the engine while a page
is served, for a history of 2 games and of 30 games: the counts must be equal and small.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import db
from tests.history.helpers import quick
from tests.table import Table

#: The most statements a page may use (DESIGN: constant, "about 5").
MOST_STATEMENTS = 5

URLS = [
    "/history",
    "/history?player=Ann&variant=classic&period=all",
    "/players/Ann",
    "/players/Ann/vs/Ben",
    "/api/v1/games",
    "/api/v1/games?player=Ann",
    "/api/v1/players/Ann",
]


@contextmanager
def counted(app: Flask) -> Iterator[list[str]]:
    """The SQL statements run while the block runs."""
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


def build(table: Table, games: int) -> None:
    """``games`` finished games of Ann, Ben, Cleo and a changing fourth player, the last
    one left in progress, so every page has totals, winners and opponents to compute."""
    for number in range(games):
        names = ["Ann", "Ben", "Cleo", f"Guest {number % 7}"]
        game = table.new_game(names, rounds=1 if number < games - 1 else 2)
        table.record(
            game,
            [quick("red 1", 4), quick("blue 2", 3), quick("green 3", 4), quick("yellow 0", 3)],
        )


def statement_counts(app: Flask, client: FlaskClient) -> dict[str, int]:
    counts = {}
    for url in URLS:
        with counted(app) as statements:
            answer = client.get(url)
        assert answer.status_code == 200, url
        counts[url] = len(statements)
    return counts


def test_pages_use_the_same_small_number_of_statements_for_2_and_30_games(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    build(table, 2)
    small = statement_counts(app, client)
    build(table, 28)
    assert client.get("/api/v1/games").json["total"] == 30
    large = statement_counts(app, client)
    print("statements per page (2 games, 30 games):", small, large)
    assert small == large
    assert max(large.values()) <= MOST_STATEMENTS
    assert large["/players/Ann"] == 5
    assert large["/history"] == 3  # the count, the page of games, the known names
    assert large["/api/v1/games"] == 2


def test_later_pages_cost_no_more_than_the_first(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    build(table, 45)
    with counted(app) as first:
        assert client.get("/history").status_code == 200
    with counted(app) as last:
        assert client.get("/history?page=3").status_code == 200
    assert len(first) == len(last) == 3


def test_a_device_with_edit_rights_costs_no_statement_more_on_the_player_page(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    table.give_edit_rights(client, game)
    with counted(app) as statements:
        assert client.get("/players/Ann").status_code == 200
    assert len(statements) == 5
