"""Read the whole database, to prove a refused request changed nothing."""

from __future__ import annotations

import sqlalchemy as sa

from companion.data.models import db


def snapshot() -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a stable order (call inside an app context)."""
    db.session.expire_all()
    rows = {}
    for table in db.metadata.sorted_tables:
        query = sa.select(table).order_by(*table.primary_key.columns)
        rows[table.name] = [tuple(row) for row in db.session.execute(query)]
    db.session.rollback()
    return rows
