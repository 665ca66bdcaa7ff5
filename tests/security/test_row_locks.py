"""No request without edit rights takes a game's row lock.

A lock makes every other writer of the game wait until the request ends: a phone (or a
script) without the edit key must be refused before it takes one. Every ORM query is
watched; ``FOR UPDATE`` is seen on the query itself, so the check holds on SQLite too (which
takes no row locks and drops the clause) as on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import Flask

from companion.data.models import db
from scripts.page_reader import csrf_token
from tests.table import Table

PLAYERS = ["Ann", "Ben", "Cleo"]
#: Every page address that changes a game, with what a form would send beside the token.
CHANGES = [
    ("/g/{code}/abandon", {"version": "1"}),
    ("/g/{code}/delete", {"version": "1"}),
    ("/g/{code}/share", {"version": "1"}),
    ("/g/{code}/exclude", {"version": "1", "excluded": "1"}),
    ("/g/{code}/rounds/mark", {"version": "1"}),
    ("/g/{code}/rounds/record", {"version": "1", "action": "save"}),
    ("/g/{code}/rounds/live", {"version": "1"}),
    ("/g/{code}/rounds/1/live/card", {"version": "1", "card": "red-5"}),
    ("/g/{code}/rounds/1/live/undo-card", {"version": "1"}),
    ("/g/{code}/rounds/1/live/undo-trick", {"version": "1"}),
]


@pytest.fixture
def locks(app: Flask) -> Iterator[list[str]]:
    """The statements that asked for a row lock while the test ran (ORM queries with
    ``FOR UPDATE``, and on PostgreSQL the SQL sent with it)."""
    taken: list[str] = []

    def watch_query(state: so.ORMExecuteState) -> None:
        if getattr(state.statement, "_for_update_arg", None) is not None:
            taken.append(str(state.statement))

    def watch_cursor(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "FOR UPDATE" in statement.upper():
            taken.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(so.Session, "do_orm_execute", watch_query)
    sa.event.listen(engine, "before_cursor_execute", watch_cursor)
    yield taken
    sa.event.remove(so.Session, "do_orm_execute", watch_query)
    sa.event.remove(engine, "before_cursor_execute", watch_cursor)


@pytest.mark.parametrize(("address", "fields"), CHANGES)
def test_a_phone_without_edit_rights_is_refused_before_any_lock(
    app: Flask, locks: list[str], address: str, fields: dict[str, str], table: Table
) -> None:
    game = table.new_game(PLAYERS, "classic", rounds=5)
    stranger = app.test_client()
    token = csrf_token(stranger.get("/games/new").get_data(as_text=True))
    locks.clear()
    answer = stranger.post(address.format(code=game["id"]), data={"csrf_token": token, **fields})
    assert answer.status_code == 403
    assert locks == []


def test_a_phone_holding_a_replaced_key_takes_no_lock_either(
    app: Flask, locks: list[str], table: Table
) -> None:
    game = table.new_game(PLAYERS, "classic", rounds=5)
    old_phone = app.test_client()
    old_phone.get(f"/g/{game['id']}/edit/{game['edit_key']}")
    rotated = app.test_client().post(
        f"/api/v1/games/{game['id']}/edit-key",
        json={"version": game["version"]},
        headers={"Authorization": f"Bearer {game['edit_key']}"},
    )
    assert rotated.status_code == 200
    token = csrf_token(old_phone.get("/games/new").get_data(as_text=True))
    locks.clear()
    answer = old_phone.post(f"/g/{game['id']}/abandon", data={"csrf_token": token, "version": "2"})
    assert answer.status_code == 403
    assert locks == []


@pytest.mark.parametrize("key", [None, "not-the-key"])
@pytest.mark.parametrize("address", ["rounds", "rounds/live", "rounds/1/tricks", "edit-key"])
def test_an_api_request_without_the_key_is_refused_before_any_lock(
    app: Flask, locks: list[str], key: str | None, address: str, table: Table
) -> None:
    game = table.new_game(PLAYERS, "classic", rounds=5)
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    locks.clear()
    answer = app.test_client().post(
        f"/api/v1/games/{game['id']}/{address}", json={"version": 1}, headers=headers
    )
    assert answer.status_code in (401, 403)
    assert "error" in answer.get_json()
    assert locks == []


def test_a_phone_with_edit_rights_locks_the_game_while_it_changes_it(
    app: Flask, locks: list[str], table: Table
) -> None:
    """The watch sees a lock when there is one: the refusals above prove something."""
    game = table.new_game(PLAYERS, "classic", rounds=5)
    phone = app.test_client()
    phone.get(f"/g/{game['id']}/edit/{game['edit_key']}")
    token = csrf_token(phone.get(f"/g/{game['id']}/abandon").get_data(as_text=True))
    locks.clear()
    answer = phone.post(f"/g/{game['id']}/abandon", data={"csrf_token": token, "version": "1"})
    assert answer.status_code == 302
    assert len(locks) >= 1
    api = app.test_client().post(
        f"/api/v1/games/{game['id']}/edit-key",
        json={"version": 2},
        headers={"Authorization": f"Bearer {game['edit_key']}"},
    )
    assert api.status_code == 200
    assert len(locks) >= 2
