"""What a database holds besides games: its tables (made empty here), the migration it is at,
and what its query planner knows of a table after a bulk load."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.script import ScriptDirectory

from companion.data.database import MIGRATIONS
from companion.data.models import db


def drop_everything() -> None:
    """Drop every table of the models and alembic's version table (in an app context)."""
    db.drop_all()
    with db.engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))


def migrated_revision() -> str | None:
    """The migration the database is at, ``None`` without alembic's version table."""
    if not sa.inspect(db.engine).has_table("alembic_version"):
        return None
    with db.engine.connect() as connection:
        return connection.scalar(sa.text("SELECT version_num FROM alembic_version"))


def latest_revision() -> str | None:
    """The newest migration there is."""
    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def assert_planner_knows(table: str, rows: int) -> None:
    """On PostgreSQL the planner's row count of ``table`` is ``rows`` (ANALYZE ran; before,
    it says -1, never measured); SQLite is left without statistics tables, whose plans the
    page tests check as they are."""
    with db.engine.connect() as connection:
        if db.engine.dialect.name == "postgresql":
            measured = connection.scalar(
                sa.text("SELECT reltuples FROM pg_class WHERE relname = :table"), {"table": table}
            )
            assert measured == rows
        else:
            tables = connection.scalars(
                sa.text("SELECT name FROM sqlite_master WHERE name LIKE 'sqlite_stat%'")
            ).all()
            assert tables == []
