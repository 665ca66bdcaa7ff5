"""A player page reads the statistics ledger by key, never the player's games themselves, so
its cost does not grow with the history (a player with 1,800 games is served as fast
as one with 5). The statements are caught while the page and the player API are served; on
SQLite each statement's query plan is read too: every table is searched through a key, none
is scanned whole."""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import db
from tests.history.helpers import quick
from tests.table import Table

#: The tables that grow with every game and round.
HISTORY_TABLES = {"games", "seats", "rounds", "round_results"}


def caught(app: Flask, client: FlaskClient, url: str) -> list[tuple[str, Any]]:
    """The statements (and their parameters) run while ``url`` is served in full."""
    statements: list[tuple[str, Any]] = []

    def catch(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        statements.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", catch)
    try:
        answer = client.get(url)
        assert answer.status_code == 200, answer.data[:300]
        answer.get_data()
    finally:
        sa.event.remove(engine, "before_cursor_execute", catch)
    return statements


def tables_of(statement: str) -> set[str]:
    return set(re.findall(r"\b(?:FROM|JOIN)\s+\"?(\w+)", statement, flags=re.IGNORECASE))


def test_the_player_page_reads_the_ledger_not_the_history(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    for number in range(6):
        game = table.new_game(["Ann", "Ben", "Cleo", f"Guest {number}"])
        table.record(
            game,
            [quick("red 1", 4), quick("blue 2", 3), quick("green 3", 4), quick("yellow 0", 3)],
        )
    ledger_tables = {
        "/players/Ann": "player_totals",
        "/api/v1/players/Ann": "player_totals",
        "/players/Ann/vs/Ben": "player_games",
    }
    for url, ledger_table in ledger_tables.items():
        statements = caught(app, client, url)
        assert statements, "the page reads the database"
        read = set().union(*(tables_of(statement) for statement, _ in statements))
        assert ledger_table in read, read
        # games is joined by primary key for the codes of the 30 games of the chart only
        assert not read & (HISTORY_TABLES - {"games"}), f"{url} reads the history: {read}"
        with app.app_context():
            if db.engine.dialect.name != "sqlite":
                continue
            with db.engine.connect() as connection:
                for statement, parameters in statements:
                    plan = connection.exec_driver_sql(
                        "EXPLAIN QUERY PLAN " + statement, parameters
                    ).all()
                    scans = [row[-1] for row in plan if row[-1].startswith("SCAN ")]
                    scans = [s for s in scans if "CONSTANT ROW" not in s]
                    assert not scans, f"{url}: {statement}\nscans {scans}"
