"""What the database's query planner knows of a table after a bulk load."""

from __future__ import annotations

import sqlalchemy as sa

from companion.models import db


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
