"""The migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade

from companion.models import db


def drop_everything() -> None:
    db.drop_all()
    with db.engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))


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
