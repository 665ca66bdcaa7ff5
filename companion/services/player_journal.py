"""The journal of renames and merges, and undoing one of its entries exactly.

An entry is undone only when nothing since stands in the way (a later rename or merge, a
deleted game): the state from before it comes back with the ledger in step, or the undo is
refused and nothing changes. Locks are taken as ``player_changes`` takes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

import sqlalchemy as sa

from companion.data.database import hold_write_lock
from companion.data.models import (
    CircleChange,
    Player,
    PlayerChange,
    Round,
    RoundResult,
    Seat,
    db,
    utcnow,
)
from companion.rules.text import N_
from companion.services.errors import NotFound, ServiceError
from companion.services.player_changes import (
    RENAME,
    game_ids_of,
    lock_games,
    move_versions_on,
    repoint,
)

#: A journal's entry: of the players' journal, or of the circles'.
Change = TypeVar("Change", PlayerChange, CircleChange)


def journal_of(model: type[Change]) -> list[Change]:
    """Every rename and merge of a journal (players' or circles'), oldest first."""
    return list(db.session.scalars(sa.select(model).order_by(model.id)))


def journal() -> list[PlayerChange]:
    """Every rename and merge of a player, oldest first."""
    return journal_of(PlayerChange)


def entry_to_undo(model: type[Change], change_id: int) -> Change:
    """Entry ``change_id`` of a journal, locked for its undo under the write lock; refused
    when there is none or it was undone already."""
    hold_write_lock()
    change: Change | None = db.session.scalar(
        sa.select(model).where(model.id == change_id).with_for_update()
    )
    if change is None:
        raise NotFound(N_("There is no journal entry %(id)s."), id=change_id)
    if change.undone_at is not None:
        raise ServiceError(N_("Journal entry %(id)s was undone already."), id=change_id)
    return change


class CannotUndo(ServiceError):
    """A later change stands in the way of putting things back exactly."""

    template = N_(
        "Entry %(id)s cannot be undone exactly: %(name)s changed since (a later "
        "rename or merge, or a deleted game). Undo the later entries first."
    )

    def __init__(self, change: PlayerChange, name: str):
        super().__init__(id=change.id, name=name)


def undo_change(change_id: int) -> PlayerChange:
    """Put back the state from before journal entry ``change_id``, exactly, with the ledger
    in step, and mark the entry undone; refused when a later change makes that impossible."""
    change = entry_to_undo(PlayerChange, change_id)
    undo_locked(change)
    db.session.expire_all()
    return change


def undo_locked(change: PlayerChange, circle_id: int | None = None) -> None:
    """Undo ``change``, whose row the caller locked and found not undone yet. A merge puts
    the merged player back in the target's circle, or in ``circle_id``: undoing the merge
    of two circles puts back the players it merged, of one name in both, in their own."""
    if change.kind == RENAME:
        _undo_rename(change)
    else:
        _undo_merge(change, circle_id)
    change.undone_at = utcnow()
    db.session.flush()


def _check_name_free(change: PlayerChange, circle_id: int, player_id: int | None) -> None:
    """The old name must be free again in the player's circle."""
    taken = db.session.scalar(
        sa.select(Player.name).where(
            Player.circle_id == circle_id,
            Player.key == change.player_key,
            Player.id != player_id,
        )
    )
    if taken is not None:
        raise ServiceError(
            N_(
                "Entry %(id)s cannot be undone: the name %(name)s belongs to another player "
                "now. Rename or merge that player first."
            ),
            id=change.id,
            name=taken,
        )


def _undo_rename(change: PlayerChange) -> None:
    """The player gets the old name back, if they still have the one given."""
    games = lock_games(game_ids_of([change.player_id]))
    player = db.session.scalar(
        sa.select(Player).where(Player.id == change.player_id).with_for_update()
    )
    if player is None or player.name != change.new_name:
        raise CannotUndo(change, change.new_name)
    _check_name_free(change, player.circle_id, player.id)
    player.name = change.player_name
    player.key = change.player_key
    move_versions_on(games)


@dataclass(frozen=True)
class Moved:
    """The rows a merge pointed at its target."""

    games: list[int]
    seats: list[tuple[int, int]]
    results: list[tuple[int, int]]

    @classmethod
    def of(cls, change: PlayerChange) -> Moved:
        """Read from the journal entry."""
        moved = change.moved
        return cls(
            [int(id_) for id_ in moved["games"]],
            [(int(a), int(b)) for a, b in moved["seats"]],
            [(int(a), int(b)) for a, b in moved["results"]],
        )


def _undo_merge(change: PlayerChange, circle_id: int | None = None) -> None:
    """The source player comes back with its id, name and creation time, in the target's
    circle or in ``circle_id``; the seats it had point at it again, and so do the results of
    those seats (the moved ones, and any round recorded at those seats since)."""
    assert change.target_id is not None
    moved = Moved.of(change)
    games = lock_games(set(moved.games))
    target = db.session.scalar(
        sa.select(Player).where(Player.id == change.target_id).with_for_update()
    )
    if target is None or len(games) != len(set(moved.games)):
        raise CannotUndo(change, change.new_name)
    if db.session.get(Player, change.player_id) is not None:
        raise CannotUndo(change, change.player_name)
    circle_id = target.circle_id if circle_id is None else circle_id
    _check_name_free(change, circle_id, None)
    still_there = _count(Seat, moved.seats, change.target_id) + _count(
        RoundResult, moved.results, change.target_id
    )
    if still_there != len(moved.seats) + len(moved.results):
        raise CannotUndo(change, target.name)
    results = moved.results + _results_since(moved, change.target_id)
    db.session.add(
        Player(
            id=change.player_id,
            circle_id=circle_id,
            name=change.player_name,
            key=change.player_key,
            created_at=change.player_created_at,
        )
    )
    move_versions_on(games)
    repoint(change.target_id, change.player_id, moved.seats, results, moved.games)


def _count(model: type[Seat] | type[RoundResult], rows: list[tuple[int, int]], owner: int) -> int:
    """How many of these seat (or result) rows still belong to ``owner``."""
    if not rows:
        return 0
    first, second = (
        (Seat.game_id, Seat.position) if model is Seat else (RoundResult.round_id, RoundResult.seat)
    )
    found = db.session.scalar(
        sa.select(sa.func.count())
        .select_from(model)
        .where(sa.tuple_(first, second).in_(rows), model.player_id == owner)
    )
    return int(found or 0)


def _results_since(moved: Moved, owner: int) -> list[tuple[int, int]]:
    """Results recorded since the merge at the seats it moved (a game still in progress)."""
    rows: list[tuple[int, int]] = []
    done = set(moved.results)
    for game_id, position in moved.seats:
        found = db.session.execute(
            sa.select(RoundResult.round_id, RoundResult.seat)
            .join(Round, Round.id == RoundResult.round_id)
            .where(
                Round.game_id == game_id,
                RoundResult.seat == position,
                RoundResult.player_id == owner,
            )
        ).all()
        rows += [(row.round_id, row.seat) for row in found if (row.round_id, row.seat) not in done]
    return sorted(rows)
