"""An empty database (no table of the app's, no record of migrations), and the migration a
database is at."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.script import ScriptDirectory

from companion.database import MIGRATIONS
from companion.models import db


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
