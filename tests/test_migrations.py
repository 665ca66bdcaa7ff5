"""The migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade

from companion.models import db, name_key
from tests.schema import drop_everything


def test_upgrading_an_empty_database_gives_the_models_schema(app: Flask) -> None:
    with app.app_context():
        drop_everything()
        upgrade()
        with db.engine.connect() as connection:
            differences = compare_metadata(
                MigrationContext.configure(connection, opts={"compare_type": True}), db.metadata
            )
        assert differences == []
        tables = set(sa.inspect(db.engine).get_table_names())
        assert {"players", "games", "seats", "rounds", "round_results"} <= tables
        drop_everything()


def test_every_migration_can_be_undone(app: Flask) -> None:
    with app.app_context():
        drop_everything()
        upgrade()
        downgrade(revision="base")
        assert set(sa.inspect(db.engine).get_table_names()) <= {"alembic_version"}
        drop_everything()


def test_upgrading_keeps_every_game_seat_and_round(app: Flask) -> None:
    """No data lost: a database at the first migration, with a whole game in it, keeps all
    of it through every later migration (SQLite batch migrations copy tables)."""
    with app.app_context():
        drop_everything()
        upgrade(revision="0001")
        rows = {
            "players": "INSERT INTO players (id, name, key, created_at) VALUES "
            "(1, 'Ann', 'ann', '2026-01-01'), (2, 'Ben', 'ben', '2026-01-01'), "
            "(3, 'Cleo', 'cleo', '2026-01-01')",
            "games": "INSERT INTO games (id, code, edit_key_hash, game, scoring, colours, reveal, "
            "rounds_planned, first_leader, status, created_at, updated_at, version) VALUES "
            "(1, 'abc', 'h', 'classic', 'classic', 1, 'open', 5, 0, 'in_progress', "
            "'2026-01-01', '2026-01-01', 2)",
            "seats": "INSERT INTO seats (game_id, position, player_id) VALUES "
            "(1, 0, 1), (1, 1, 2), (1, 2, 3)",
            "rounds": "INSERT INTO rounds (id, game_id, number, leader, mode, status, entries, "
            "created_at, updated_at) VALUES (1, 1, 1, 0, 'quick', 'scored', '[]', "
            "'2026-01-01', '2026-01-01')",
            "round_results": "INSERT INTO round_results (round_id, seat, player_id, score, "
            "tricks, colours) VALUES (1, 0, 1, 5, 6, 'red'), (1, 1, 2, 15, 5, 'blue'), "
            "(1, 2, 3, -1, 3, 'green')",
        }
        with db.engine.begin() as connection:
            for statement in rows.values():
                connection.execute(sa.text(statement))
        upgrade()
        with db.engine.connect() as connection:
            counts = {
                table: connection.scalar(sa.text(f"SELECT count(*) FROM {table}")) for table in rows
            }
            excluded = connection.scalar(sa.text("SELECT excluded FROM games"))
        assert counts == {
            "players": 3,
            "games": 1,
            "seats": 3,
            "rounds": 1,
            "round_results": 3,
        }
        assert not excluded
        drop_everything()


def test_player_names_are_normalised_and_look_alikes_stay_apart(app: Flask) -> None:
    """0007: a full-width "Ａｎｎ" stored before names were normalised (NFKC) becomes "Ann (2)"
    beside the "Ann" already there, and every key is the one a look-up now computes."""
    with app.app_context():
        drop_everything()
        upgrade(revision="0005")
        with db.engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO players (id, name, key, created_at) VALUES "
                    "(1, 'Ann', 'ann', '2026-01-01'), (2, 'Ａｎｎ', 'ａｎｎ', '2026-01-01'), "
                    "(3, 'Ｂｅｎ', 'ｂｅｎ', '2026-01-01'), (4, 'Cleo', 'cleo', '2026-01-01')"
                )
            )
        upgrade()
        with db.engine.connect() as connection:
            rows = connection.execute(sa.text("SELECT id, name, key FROM players ORDER BY id"))
            players = [tuple(row) for row in rows]
        assert players == [
            (1, "Ann", "ann"),
            (2, "Ann (2)", "ann (2)"),
            (3, "Ben", "ben"),
            (4, "Cleo", "cleo"),
        ]
        assert all(key == name_key(name) for _id, name, key in players)
        downgrade(revision="0005")
        drop_everything()
