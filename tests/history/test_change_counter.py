"""The change counter (``companion.data.change_counter``): every write to a table the pages
are made of moves it on, in the writer's transaction (a rollback takes it back), whichever
way the write was made; a database emptied and filled again counts under a new epoch; the
migrations make the same triggers as ``create_all``."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from companion.data.change_counter import (
    COUNTED_TABLES,
    UNCOUNTED_TABLES,
    counter_columns,
    trigger_names,
)
from companion.data.models import db
from companion.services.games import delete_game, get_game
from tests.history.helpers import quick
from tests.schema import drop_everything
from tests.table import Table

ROUND = [quick("red 1", 5), quick("blue 2", 5, ["blue 4"]), quick("green 3", 4)]
#: A column of each counted table that an UPDATE may set to itself.
SAME_VALUE = {
    "players": "name",
    "games": "version",
    "seats": "position",
    "rounds": "leader",
    "round_results": "score",
    "player_changes": "kind",
    "player_totals": "games",
    "player_colours": "rounds",
    "player_round_scores": "rounds",
    "player_months": "games",
    "player_opponents": "games",
    "player_games": "total",
}


def counter(connection: sa.Connection) -> tuple[Any, Any]:
    """The counter as a page reads it: (changes, epoch)."""
    row = connection.execute(sa.select(*counter_columns())).one()
    return row.changes, row.epoch


def read_counter(app: Flask) -> tuple[Any, Any]:
    with app.app_context(), db.engine.connect() as connection:
        return counter(connection)


@pytest.fixture
def played(app: Flask, table: Table) -> dict[str, Any]:
    """A game with a round scored and a rename in the journal: a row in every counted table."""
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=1)
    table.record(game, ROUND)
    from companion.data import stats
    from companion.services.player_changes import PAGE, rename_player

    with app.app_context():
        player = stats.find_player("Cleo")
        assert player is not None
        rename_player(player, "Clio", PAGE)
        db.session.commit()
        with db.engine.connect() as connection:
            for name in COUNTED_TABLES:
                rows = connection.scalar(sa.text(f"SELECT count(*) FROM {name}"))
                assert rows, f"{name} is empty"
    return game


def test_every_table_is_counted_or_left_out_on_purpose(app: Flask) -> None:
    """A new table is either made of what a page shows, and counted, or said not to be."""
    assert set(COUNTED_TABLES) | set(UNCOUNTED_TABLES) == set(db.metadata.tables)
    assert not set(COUNTED_TABLES) & set(UNCOUNTED_TABLES)


def test_each_counted_table_has_triggers_on_insert_update_and_delete(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            found = {
                (table, name.rsplit("_", 1)[1].upper()) for table, name in trigger_names(connection)
            }
        else:
            found = {
                (row[0], row[1])
                for row in connection.exec_driver_sql(
                    "SELECT event_object_table, event_manipulation FROM information_schema.triggers"
                )
            }
    wanted = {(name, op) for name in COUNTED_TABLES for op in ("INSERT", "UPDATE", "DELETE")}
    assert wanted <= found
    assert not {table for table, _ in found} & set(UNCOUNTED_TABLES)


@pytest.mark.parametrize("name", COUNTED_TABLES)
def test_an_update_of_any_counted_table_moves_the_counter_on_until_rolled_back(
    app: Flask, played: dict[str, Any], name: str
) -> None:
    before = read_counter(app)
    with app.app_context(), db.engine.connect() as connection:
        column = SAME_VALUE[name]
        connection.execute(sa.text(f"UPDATE {name} SET {column} = {column}"))
        during = counter(connection)
        assert during[0] > before[0] and during[1] == before[1]
        connection.rollback()
    assert read_counter(app) == before


def test_a_write_after_a_savepoint_rolled_back_still_counts(
    app: Flask, played: dict[str, Any]
) -> None:
    """PostgreSQL counts the first write of a transaction only: a write undone by rolling
    back to a savepoint takes its count back, and the write after it must count again."""
    before = read_counter(app)
    with app.app_context(), db.engine.connect() as connection:
        savepoint = connection.begin_nested()
        connection.execute(sa.text("UPDATE games SET version = version"))
        savepoint.rollback()
        assert counter(connection) == before
        connection.execute(sa.text("UPDATE players SET name = name"))
        connection.commit()
    assert read_counter(app)[0] > before[0]


def test_inserts_and_deletes_move_it_on_too(app: Flask, table: Table) -> None:
    start = read_counter(app)
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
    created = read_counter(app)
    table.record(game, ROUND)
    recorded = read_counter(app)
    with app.app_context():
        doomed = get_game(game["id"], for_update=True)
        delete_game(doomed, doomed.version)
        db.session.commit()
    deleted = read_counter(app)
    counts = [(start[0] or 0), created[0], recorded[0], deleted[0]]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)


def test_a_database_emptied_and_filled_again_counts_under_a_new_epoch(
    app: Flask, table: Table
) -> None:
    """A restore empties every table: the count starts again, a page kept for the old count
    must not pass for the new one."""
    table.new_game(["Ann", "Ben", "Cleo"])
    changes, epoch = read_counter(app)
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(sa.text("DELETE FROM change_counter"))
    assert read_counter(app) == (None, None)
    table.new_game(["Ann", "Ben", "Dan"])
    again, new_epoch = read_counter(app)
    assert again is not None and new_epoch not in (None, epoch)
    assert changes is not None and len(epoch) == len(new_epoch) == 32


def test_the_migrations_make_the_same_triggers_as_create_all(app: Flask) -> None:
    with app.app_context():
        with db.engine.connect() as connection:
            created = trigger_names(connection)
        assert {table for table, _ in created} == set(COUNTED_TABLES)
        drop_everything()
        upgrade()
        with db.engine.connect() as connection:
            migrated = trigger_names(connection)
            changes, epoch = counter(connection)
        drop_everything()
    assert migrated == created
    assert changes == 0 and len(epoch) == 32
