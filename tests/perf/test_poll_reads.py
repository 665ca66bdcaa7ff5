"""The read every poll makes (the ETag of a kept page: a scoreboard, the history, home) is
one statement sent straight to the driver (``data.prepared_reads``): on SQLite no ``BEGIN``
goes with it, and the statement counters still see it, so the statement budgets
(tests/perf/test_statement_counts.py, ``scripts/benchmark.py``) count what the database
does. Issue 29: the scoreboards at 0.8x the cheapest request."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.database import read_once
from companion.data.models import db
from companion.web.scoreboard_cache import SCOREBOARD_READ, SCOREBOARD_STATE
from tests.history.helpers import ROUND
from tests.share.test_conditional_get import watched
from tests.table import Table


@contextmanager
def sent_to_sqlite(app: Flask) -> Iterator[list[str]]:
    """Every SQL text the SQLite driver runs while the block runs, transaction control
    included (``sqlite3``'s trace callback on each connection taken from the pool)."""
    sent: list[str] = []

    def trace(connection: Any, _record: Any, _proxy: Any) -> None:
        connection.set_trace_callback(sent.append)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "checkout", trace)
    try:
        yield sent
    finally:
        sa.event.remove(engine, "checkout", trace)


def polls(table: Table) -> dict[str, tuple[FlaskClient, str]]:
    """A phone keeping a game of one round, and the pages it polls."""
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=2, edit_here=True)
    table.record(game, ROUND)
    phone = table.client
    return {
        "scoreboard": (phone, f"/g/{game['id']}"),
        "read-only scoreboard": (table.phone(), f"/g/{game['id']}/view"),
        "history": (table.phone(), "/history"),
        "home": (phone, "/"),
    }


@pytest.mark.sqlite_only
@pytest.mark.parametrize("page", ["scoreboard", "read-only scoreboard", "history", "home"])
def test_a_poll_sends_sqlite_one_statement_and_no_transaction_control(
    app: Flask, table: Table, page: str
) -> None:
    phone, url = polls(table)[page]
    tag = phone.get(url).headers["ETag"]
    with sent_to_sqlite(app) as sent:
        answer = phone.get(url, headers={"If-None-Match": tag})
    assert answer.status_code == 304
    assert len(sent) == 1 and sent[0].lstrip().upper().startswith("SELECT"), sent


@pytest.mark.parametrize("page", ["scoreboard", "read-only scoreboard", "history", "home"])
def test_a_poll_is_one_statement_the_counters_see(app: Flask, table: Table, page: str) -> None:
    phone, url = polls(table)[page]
    tag = phone.get(url).headers["ETag"]
    with watched(app) as seen:
        answer = phone.get(url, headers={"If-None-Match": tag})
    assert answer.status_code == 304 and len(seen["statements"]) == 1


def test_the_prepared_read_finds_what_the_statement_finds(app: Flask, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
    table.record(game, ROUND)
    with app.test_request_context():
        expected = read_once(SCOREBOARD_STATE, code=game["id"])
        found = SCOREBOARD_READ.rows(code=game["id"])
        nothing = SCOREBOARD_READ.rows(code="nosuchgame")
    assert [(row.version, row.edit_key_hash, row.name) for row in found] == [
        (row.version, row.edit_key_hash, row.name) for row in expected
    ]
    assert [row.name for row in found] == ["Ann", "Ben", "Cleo"] and nothing == []
    assert found[0].version == game["version"] and found[0].live is None
