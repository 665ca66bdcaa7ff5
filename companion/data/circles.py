"""Circles in the database: the server's first circle, and the circles a phone
is in.

Every game and player belongs to a circle (migration 0013 put those stored before into one,
"Club"). The server's first circle is the one the migration made, or, in a database made
by ``create_all`` (the tests), one made at the first need: a club server
(``CLUB_SERVER``) puts every game there, and backups without circles go there.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
    return (
        sa.select(Circle.id, Circle.name)
        .where(phone_circles_condition(invite_hashes, held_games))
        .order_by(Circle.id)
    )


def phone_circles_condition(
    invite_hashes: Sequence[str] | Mapping[int, str], held_games: Sequence[tuple[str, str]]
) -> sa.ColumnElement[bool]:
    """Whether a circle is one of a phone's (see :func:`phone_circles_statement`). Invites
    given by circle id (``{id: hash}``, as the phone keeps them) are looked up by the
    circle's key, not by a scan of every circle's hash."""
    of_games = sa.select(Game.circle_id).where(
        sa.tuple_(Game.code, Game.edit_key_hash).in_(list(held_games))
    )
    conditions: list[sa.ColumnElement[bool]] = []
    if isinstance(invite_hashes, Mapping) and invite_hashes:
        conditions.append(
            sa.and_(
                Circle.id.in_(list(invite_hashes)),
                Circle.secret_hash.in_(list(invite_hashes.values())),
            )
        )
    elif invite_hashes:
        conditions.append(Circle.secret_hash.in_(list(invite_hashes)))
    if held_games:
        conditions.append(Circle.id.in_(of_games))
    return sa.or_(*conditions) if conditions else sa.false()


def phone_circles(
    invite_hashes: Sequence[str], held_games: Sequence[tuple[str, str]]
) -> list[CircleRef]:
    """The circles of :func:`phone_circles_statement`; no statement for a phone holding
    nothing."""
    if not invite_hashes and not held_games:
        return []
    rows = db.session.execute(phone_circles_statement(invite_hashes, held_games)).all()
    return [CircleRef(int(row.id), str(row.name)) for row in rows]


def first_circle_statement() -> sa.Select[tuple[int, str]]:
    """The server's first circle (id and name): the one a club server shows every phone."""
    return sa.select(Circle.id, Circle.name).order_by(Circle.id).limit(1)


def first_circle_id() -> sa.ScalarSelect[int]:
    """The server's first circle's id, read inside the statement that needs it (``NULL``
    before there is a circle)."""
    return sa.select(sa.func.min(Circle.id)).scalar_subquery()


def server_circle() -> CircleRef | None:
    """The server's first circle, as a club server shows it to every phone; read only, so
    ``None`` before the first game of a database made without the migrations."""
    row = db.session.execute(first_circle_statement()).first()
    return None if row is None else CircleRef(int(row.id), str(row.name))


def circle_name_of(game: Game) -> str:
    """The name of the circle ``game`` was played in (read with the game by
    ``services.get_game``, else one statement)."""
    return game.circle.name


def first_circle_condition() -> sa.ColumnElement[bool]:
    """Whether a circle is the server's first: a club server's one circle."""
    return Circle.id == first_circle_id()


def beside_circles(circle: sa.ColumnElement[bool], *columns: Any) -> sa.Select[Any]:
    """A statement with a row per circle that ``circle`` lets through (read as
    ``circle_id`` and ``circle_name``: the circles a phone is in) and ``columns`` beside: a
    page reads the phone's circles within the statement it needs first anyway (its
    ETag's). Callers may join more to the circle (its players by name); a phone in no
    circle gets no row."""
    return (
        sa.select(Circle.id.label("circle_id"), Circle.name.label("circle_name"), *columns)
        .select_from(Circle)
        .where(circle)
    )


def circles_in(rows: Sequence[Any]) -> list[CircleRef]:
    """The circles read by a statement of :func:`beside_circles`, each once, oldest first."""
    found = {int(row.circle_id): str(row.circle_name) for row in rows if row.circle_id is not None}
    return [CircleRef(id_, found[id_]) for id_ in sorted(found)]
