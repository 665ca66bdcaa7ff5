"""Circles, the games and players of one table or club: a new one for a table's first game, one
opened by its invite secret, and the operator's: listed with their games and players, renamed
(each rename journalled, as a merge is: ``circle_changes``), and given a new invite secret. Only
the secret's hash is stored, as of a game's edit key."""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from companion.data.database import hold_write_lock
from companion.data.models import MAX_NAME_LENGTH, Circle, CircleChange, Game, Player, db
from companion.data.names import clean_name
from companion.rules.text import N_
from companion.services.errors import NotFound, ServiceError
from companion.services.keys import hash_edit_key, new_edit_key
from companion.services.player_changes import COMMAND, RENAME
from companion.services.players import check_name_characters, check_name_length


@dataclass(frozen=True)
class CircleCount:
    """A circle as the operator lists it."""

    id: int
    name: str
    games: int
    players: int


def circle_counts() -> list[CircleCount]:
    """Every circle with how many games and players it holds, oldest first."""
    games = sa.select(sa.func.count()).where(Game.circle_id == Circle.id).scalar_subquery()
    players = sa.select(sa.func.count()).where(Player.circle_id == Circle.id).scalar_subquery()
    rows = db.session.execute(
        sa.select(Circle.id, Circle.name, games, players).order_by(Circle.id)
    ).all()
    return [CircleCount(*row) for row in rows]


def lock_circle(circle_id: int) -> Circle:
    """The circle's row, locked until commit."""
    hold_write_lock()
    circle: Circle | None = db.session.scalar(
        sa.select(Circle).where(Circle.id == circle_id).with_for_update()
    )
    if circle is None:
        raise NotFound(N_("There is no circle %(id)s."), id=circle_id)
    return circle


def new_invite(circle_id: int) -> tuple[Circle, str]:
    """A new invite secret for the circle, answered the only time it is known in clear; the
    old one no longer opens the circle."""
    circle = lock_circle(circle_id)
    secret = new_edit_key()
    circle.secret_hash = hash_edit_key(secret)
    db.session.flush()
    return circle, secret


def rename_circle(circle_id: int, name: str, origin: str = COMMAND) -> tuple[Circle, str]:
    """Give the circle another name, written as a player's name is (trimmed, at most 40
    characters, nothing invisible), and journal it; answers the circle and its old name."""
    circle = lock_circle(circle_id)
    cleaned = clean_name(name)
    if not cleaned:
        raise ServiceError(N_("Every circle needs a name."))
    check_name_characters(name)
    check_name_length(cleaned)
    if cleaned == circle.name:
        raise ServiceError(
            N_("Circle %(id)s is already called %(name)s."), id=circle.id, name=circle.name
        )
    old = circle.name
    db.session.add(
        CircleChange(
            kind=RENAME,
            origin=origin,
            circle_id=circle.id,
            circle_name=old,
            new_name=cleaned,
            moved={"games": [], "players": [], "merges": []},
        )
    )
    circle.name = cleaned
    db.session.flush()
    return circle, old


#: A new circle's name when nothing names it better.
NEW_CIRCLE_NAME = "Table"


def circle_name_for(names: Sequence[str]) -> str:
    """A new circle's name from the players of its first game ("Ann, Ben, Cleo"), cut to
    what a name may hold; the table may rename it."""
    name = ""
    for player in names:
        longer = f"{name}, {player}" if name else player
        if len(longer) > MAX_NAME_LENGTH:
            break
        name = longer
    return name or NEW_CIRCLE_NAME


def new_circle(name: str, secret: str | None = None) -> tuple[Circle, str]:
    """A new circle and its invite secret, answered the only time it is known in clear: the
    first game a phone starts makes its circle. ``secret`` if given (an API answer kept for
    a replay makes it again from its own salt, as a new game's edit key), else a new random
    one."""
    hold_write_lock()
    secret = secret or new_edit_key()
    circle = Circle(name=clean_name(name) or NEW_CIRCLE_NAME, secret_hash=hash_edit_key(secret))
    db.session.add(circle)
    db.session.flush()
    return circle, secret


def circle_of_invite(circle_id: int, secret: str) -> Circle | None:
    """The circle ``circle_id`` if ``secret`` is its invite secret (compared in constant
    time), else ``None``: a wrong or old invite opens nothing."""
    circle: Circle | None = db.session.get(Circle, circle_id)
    if circle is None or not invite_opens(circle.secret_hash, secret):
        return None
    return circle


@dataclass(frozen=True)
class PhoneCircle:
    """A circle as the circles page shows it to one of its phones."""

    id: int
    name: str
    secret_hash: str
    games: int
    players: int


def circles_counted(circle_ids: Sequence[int]) -> list[PhoneCircle]:
    """The circles ``circle_ids`` with how many games and players each holds, oldest
    first; no statement for none."""
    if not circle_ids:
        return []
    games = sa.select(sa.func.count()).where(Game.circle_id == Circle.id).scalar_subquery()
    players = sa.select(sa.func.count()).where(Player.circle_id == Circle.id).scalar_subquery()
    rows = db.session.execute(
        sa.select(Circle.id, Circle.name, Circle.secret_hash, games, players)
        .where(Circle.id.in_(list(circle_ids)))
        .order_by(Circle.id)
    ).all()
    return [PhoneCircle(*row) for row in rows]


def invite_opens(secret_hash: str, secret: str) -> bool:
    """Whether ``secret`` is the invite secret whose hash is ``secret_hash``."""
    return hmac.compare_digest(secret_hash, hash_edit_key(secret))


def circle_of_secret(secret: str) -> Circle | None:
    """The circle whose invite secret is ``secret`` (a program's ``Authorization``), else
    ``None``; only hashes are stored, so the secret is found by its hash."""
    found: Circle | None = db.session.scalar(
        sa.select(Circle).where(Circle.secret_hash == hash_edit_key(secret)).limit(1)
    )
    return found
