"""The one cheap read that tells whether a kept page of the history is still right.

The history shows games (their seats, rounds, status, exclusion), players' names and the
statistics made of them, and every change to any of these moves a game row on: a round
recorded or corrected, a trick that scores a round, a game finished, excluded or given a
new edit key raises its ``version`` (and ``updated_at``); a rename or merge moves the
versions of the player's games on (``services.player_changes``) and is journaled, as is
its undoing; a new or deleted game changes the count. So the count of games, the sum of
their versions and the latest change, with the count of players and of journal entries and
the latest undo, change whenever anything those pages show could change. The sum catches
what the latest time alone would miss: two workers whose changes commit in the other order
than their clocks. The page's own ETag adds what the request shapes (language, host,
prefix, query, rights).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from companion.data.models import Game, Player, PlayerChange

#: The names of the state's columns, in the order an ETag lists them.
STATE_COLUMNS = ("games", "versions", "updated", "players", "changes", "undone")


def stored_state(*counted: sa.ColumnElement[Any]) -> sa.Select[Any]:
    """One row of what the history pages depend on (``STATE_COLUMNS``), read in
    one pass over the games, with ``counted`` (more aggregates over the games) beside it."""
    return sa.select(
        sa.func.count().label("games"),
        sa.func.coalesce(sa.func.sum(Game.version), 0).label("versions"),
        sa.func.max(Game.updated_at).label("updated"),
        sa.select(sa.func.count()).select_from(Player).scalar_subquery().label("players"),
        sa.select(sa.func.count()).select_from(PlayerChange).scalar_subquery().label("changes"),
        sa.select(sa.func.max(PlayerChange.undone_at)).scalar_subquery().label("undone"),
        *counted,
    ).select_from(Game)


def state_values(row: Any) -> list[str]:
    """The state read in ``row`` (a row with the ``STATE_COLUMNS``), as text for an ETag:
    both databases give the same numbers, and a time is told by its text."""
    return [str(getattr(row, name)) for name in STATE_COLUMNS]


def counted_where(conditions: Sequence[sa.ColumnElement[bool]]) -> sa.ColumnElement[int]:
    """How many games meet every one of ``conditions`` (all games when there is none), as
    an aggregate beside :func:`stored_state`'s."""
    if not conditions:
        return sa.func.count()
    return sa.func.coalesce(sa.func.sum(sa.case((sa.and_(*conditions), 1), else_=0)), 0)
