"""The circle a new game or player belongs to while the server is one circle (issue 28).

Every game and player belongs to a circle (migration 0013 put those stored before into one,
"Club"). Until games say which circle they are started in, the server's circle is its
first: the one the migration made, or, in a database made by ``create_all`` (the tests),
one made at the first need.
"""

from __future__ import annotations

import hashlib
import secrets

import sqlalchemy as sa

from companion.data.models import Circle, db, utcnow

#: The name of the circle made for a database that has none.
FIRST_CIRCLE_NAME = "Club"
#: The PostgreSQL advisory lock two writers making the first circle at once take in turn.
FIRST_CIRCLE_LOCK = 28


def unknown_secret_hash() -> str:
    """The hash of a random secret that is never shown: no invite opens the circle until
    the operator makes one (``flask --app companion circles invite``)."""
    return hashlib.sha256(secrets.token_urlsafe(18).encode()).hexdigest()


def server_circle_id(connection: sa.Connection | None = None) -> int:
    """The id of the server's one circle, made if there is none yet; read on ``connection``
    (the demo data's bulk inserts) or else the session's. Writers making the first circle
    at once make one: on PostgreSQL they take an advisory lock in turn and look again, on
    SQLite every writer already holds the write lock."""
    connection = connection or db.session.connection()
    first = sa.select(sa.func.min(Circle.id))
    found = connection.scalar(first)
    if found is None:
        if connection.dialect.name == "postgresql":
            connection.execute(sa.select(sa.func.pg_advisory_xact_lock(FIRST_CIRCLE_LOCK)))
            found = connection.scalar(first)
        if found is None:
            found = connection.scalar(
                sa.insert(Circle)
                .values(
                    name=FIRST_CIRCLE_NAME, secret_hash=unknown_secret_hash(), created_at=utcnow()
                )
                .returning(Circle.id)
            )
    return int(found)
