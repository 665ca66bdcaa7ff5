"""A merge takes the same locks as any other write: a round corrected by a phone while a
merge moves its game waits for the merge, and is then told the game changed, instead of
being counted twice in the statistics ledger.

On PostgreSQL the phone waits for the game's row lock; on SQLite for the database's write
lock, which the merge holds from its first read (``hold_write_lock``).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.database import hold_write_lock
from companion.data.models import Player, db
from companion.data.stats import PlayerRef
from companion.services import games, player_changes
from tests.history.helpers import quick
from tests.history.test_ledger import assert_ledger_exact
from tests.table import Table, auth

THREE = [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)]
CORRECTED = [quick("red 1", 4), quick("blue 2", 6), quick("green 3", 4)]


def player(name: str) -> PlayerRef:
    row = db.session.execute(sa.select(Player.id, Player.name).where(Player.name == name)).one()
    return PlayerRef(row.id, row.name)


def waits_for_a_lock_or_ends(app: Flask, phone: threading.Thread, asking: threading.Event) -> None:
    """Return once the phone's request has finished or waits for a lock: on PostgreSQL read
    from its own view of its sessions (on a connection of its own); on SQLite once the phone
    asks for the write lock, which the merge holds until it commits."""
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            while phone.is_alive() and not asking.wait(0.01):
                pass
            return
        with db.engine.connect() as watcher:
            waiting = sa.text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            )
            pause = threading.Event()
            while phone.is_alive() and not watcher.execute(waiting).scalar():
                watcher.rollback()
                pause.wait(0.01)


def test_a_round_corrected_during_a_merge_waits_and_is_counted_once(
    client: FlaskClient, app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    typo = table.new_game(["Ann", "Ben", "Clea"], rounds=2)
    table.record(typo, THREE)
    table.new_game(["Cleo", "Dan", "Eve"])
    scores = client.get(f"/api/v1/games/{typo['id']}").json["rounds"][0]["scores"]
    answers: list[Any] = []
    started: list[bool] = []
    asking = threading.Event()

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
            waits_for_a_lock_or_ends(app, phone, asking)

    def phone_locks() -> None:
        """The phone's request asks for the lock of the game it corrects."""
        asking.set()
        hold_write_lock()

    monkeypatch.setattr(games, "hold_write_lock", phone_locks)
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
