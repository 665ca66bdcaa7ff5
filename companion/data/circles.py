"""Circles in the database (issue 28): the server's first circle, and the circles a phone
is in.

Every game and player belongs to a circle (migration 0013 put those stored before into one,
"Club"). The server's first circle is the one the migration made, or, in a database made
by ``create_all`` (the tests), one made at the first need: a club server
(``CLUB_SERVER``) puts every game there, and backups without circles go there.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from companion.data.models import Circle, Game, db, utcnow

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


@dataclass(frozen=True)
class CircleRef:
    """A circle as a phone sees it: which, and its name."""

    id: int
    name: str


def phone_circles_statement(
    invite_hashes: Sequence[str], held_games: Sequence[tuple[str, str]]
) -> sa.Select[tuple[int, str]]:
    """The circles a phone is in: those whose invite secret it holds (``invite_hashes``, the
    hashes of the secrets it keeps) and those of the games whose edit key it holds
    (``held_games``, each game's code and the hash of the key), asked in one statement so
    that a new invite or a new edit link ends the membership it gave."""
    of_games = sa.select(Game.circle_id).where(
        sa.tuple_(Game.code, Game.edit_key_hash).in_(list(held_games))
    )
    conditions: list[sa.ColumnElement[bool]] = []
    if invite_hashes:
        conditions.append(Circle.secret_hash.in_(list(invite_hashes)))
    if held_games:
        conditions.append(Circle.id.in_(of_games))
    return (
        sa.select(Circle.id, Circle.name)
        .where(sa.or_(*conditions) if conditions else sa.false())
        .order_by(Circle.id)
    )


def phone_circles(
    invite_hashes: Sequence[str], held_games: Sequence[tuple[str, str]]
) -> list[CircleRef]:
    """The circles of :func:`phone_circles_statement`; no statement for a phone holding
    nothing."""
    if not invite_hashes and not held_games:
        return []
    rows = db.session.execute(phone_circles_statement(invite_hashes, held_games)).all()
    return [CircleRef(int(row.id), str(row.name)) for row in rows]


def server_circle() -> CircleRef | None:
    """The server's first circle, as a club server shows it to every phone; read only, so
    ``None`` before the first game of a database made without the migrations."""
    row = db.session.execute(sa.select(Circle.id, Circle.name).order_by(Circle.id).limit(1)).first()
    return None if row is None else CircleRef(int(row.id), str(row.name))
