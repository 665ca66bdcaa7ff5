"""A merge takes the same row locks as any other write: a round corrected by a phone while a
merge moves its game waits for the merge, and is then told the game changed, instead of
being counted twice in the statistics ledger.

Row locks are PostgreSQL's: on SQLite one writer at a time holds the whole database.
"""

from __future__ import annotations

import threading
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import Player, db
from companion.data.stats import PlayerRef
from companion.services import player_changes
from tests.history.helpers import quick
from tests.history.test_ledger import assert_ledger_exact
from tests.table import Table, auth

THREE = [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)]
CORRECTED = [quick("red 1", 4), quick("blue 2", 6), quick("green 3", 4)]


def player(name: str) -> PlayerRef:
    row = db.session.execute(sa.select(Player.id, Player.name).where(Player.name == name)).one()
    return PlayerRef(row.id, row.name)


def waits_for_a_lock_or_ends(app: Flask, phone: threading.Thread) -> None:
    """Return once the phone's request has finished or waits for a row lock (read from
    PostgreSQL's own view of its sessions, on a connection of its own)."""
    with app.app_context(), db.engine.connect() as watcher:
        waiting = sa.text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        pause = threading.Event()
        while phone.is_alive() and not watcher.execute(waiting).scalar():
            watcher.rollback()
            pause.wait(0.01)


def test_a_round_corrected_during_a_merge_waits_and_is_counted_once(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    with app.app_context():
        assert db.engine.dialect.name == "postgresql", "collected on PostgreSQL only (conftest)"
    typo = table.new_game(["Ann", "Ben", "Clea"], rounds=2)
    table.record(typo, THREE)
    table.new_game(["Cleo", "Dan", "Eve"])
    scores = client.get(f"/api/v1/games/{typo['id']}").json["rounds"][0]["scores"]
    answers: list[Any] = []
    started: list[bool] = []

    def correct_round() -> None:
        answers.append(
            client.put(
                f"/api/v1/games/{typo['id']}/rounds/1",
                json={"version": typo["version"], "entries": CORRECTED},
                headers=auth(typo),
            )
        )

    phone = threading.Thread(target=correct_round)

    def meanwhile(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        """While the merge moves the seats, a phone corrects round 1 of the moved game."""
        if statement.lstrip().upper().startswith("UPDATE SEATS") and not started:
            started.append(True)
            phone.start()
            waits_for_a_lock_or_ends(app, phone)

    with app.app_context():
        sa.event.listen(db.engine, "before_cursor_execute", meanwhile)
        try:
            player_changes.merge_players(player("Clea"), player("Cleo"), player_changes.COMMAND)
            db.session.commit()
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", meanwhile)
    phone.join()
    (answer,) = answers
    assert answer.status_code == 409  # it waited for the merge, which moved the version on
    assert_ledger_exact(app, "a correction sent during a merge")
    assert client.get(f"/api/v1/games/{typo['id']}").json["rounds"][0]["scores"] == scores
