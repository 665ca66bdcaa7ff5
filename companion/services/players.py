"""Names at a new table matched to the known players (``companion.data.seating`` checks them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from companion.data.circles import first_circle_id
from companion.data.models import MAX_NAME_LENGTH, Player, db, utcnow
from companion.data.names import name_character_problem, name_key
from companion.rules.text import N_
from companion.services.errors import ServiceError


def check_name_characters(name: str) -> None:
    """Refuse a name (as typed) holding an invisible, direction-changing or control
    character (``companion.data.names``): it would look like another player's name."""
    problem = name_character_problem(name)
    if problem is not None:
        raise ServiceError(problem)


def check_name_length(cleaned: str) -> None:
    """Refuse a name (as it would be shown) longer than a stored name may be."""
    if len(cleaned) > MAX_NAME_LENGTH:
        raise ServiceError(
            N_("A name has at most %(most)s characters: %(name)s is longer."),
            name=f"{cleaned[:MAX_NAME_LENGTH]}…",
            most=MAX_NAME_LENGTH,
        )


def find_or_add_players(names: Sequence[str], circle_id: int) -> list[Player]:
    """The players of the circle called ``names`` (matched case-insensitively), new ones
    added to it. Another phone may add the same new name at the same moment: its row is
    then kept and used."""
    keys = [name_key(name) for name in names]
    known = {player.key: player for player in db.session.scalars(_named(circle_id, keys))}
    missing = [(name, key) for name, key in zip(names, keys, strict=True) if key not in known]
    if missing:
        insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
        rows = [
            {"circle_id": circle_id, "name": name, "key": key, "created_at": utcnow()}
            for name, key in missing
        ]
        db.session.execute(
            insert(Player).values(rows).on_conflict_do_nothing(index_elements=["circle_id", "key"])
        )
        added = _named(circle_id, [key for _name, key in missing])
        known.update((player.key, player) for player in db.session.scalars(added))
    return [known[key] for key in keys]


def _named(circle_id: int, keys: Sequence[str]) -> sa.Select[tuple[Player]]:
    """The circle's players whose names have these keys."""
    return sa.select(Player).where(Player.circle_id == circle_id, Player.key.in_(keys))


def suggest_players(circle_id: int | None, prefix: str = "", limit: int = 50) -> list[str]:
    """Names known in the circle for the new-game form, those starting with ``prefix``
    first."""
    return list(db.session.scalars(suggestions(circle_id, prefix, limit)))


def suggestions(circle_id: int | None, prefix: str = "", limit: int = 50) -> sa.Select[Any]:
    """The statement of :func:`suggest_players`, for a page that reads the names beside
    something else in one statement (the history, with its counts). ``None`` for the
    circle: the server's first (a club server's one circle), found inside the statement."""
    circle = first_circle_id() if circle_id is None else sa.literal(circle_id, sa.Integer)
    query = (
        sa.select(Player.name).where(Player.circle_id == circle).order_by(Player.name).limit(limit)
    )
    if prefix:
        query = query.where(Player.key.startswith(name_key(prefix), autoescape=True))
    return query
