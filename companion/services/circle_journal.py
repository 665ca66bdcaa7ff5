"""The journal of circle renames and merges, and undoing one of its entries exactly.

As in the players' journal, an entry is undone only when nothing since stands in the way (a
later rename or merge, a game or player of the merged circle moved, renamed, merged or
deleted, a game since that seats players of both circles): the state from before it comes
back, with the statistics ledger in step, or the undo is refused and nothing changes. Locks
are taken as the merge takes them: the entry and the players' journal entries it made
first, then the games, the circle, the players.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from companion.data.database import lock_rows
from companion.data.models import Circle, CircleChange, Player, PlayerChange, db, utcnow
from companion.rules.text import N_
from companion.services.circle_changes import seats_across_circles
from companion.services.errors import ServiceError
from companion.services.player_changes import RENAME, lock_games
from companion.services.player_journal import Moved, entry_to_undo, journal_of, undo_locked


def journal() -> list[CircleChange]:
    """Every rename and merge of a circle, oldest first."""
    return journal_of(CircleChange)


class CannotUndo(ServiceError):
    """A later change of a circle stands in the way of putting things back exactly."""

    template = N_(
        "Entry %(id)s cannot be undone exactly: circle %(circle)s changed since (a later "
        "rename or merge). Undo the later entries first."
    )

    def __init__(self, change: CircleChange, circle: int | None):
        super().__init__(id=change.id, circle=circle)


def undo_circle_change(change_id: int) -> CircleChange:
    """Put back the state from before circles' journal entry ``change_id``, exactly, and
    mark the entry undone; refused when a later change makes that impossible."""
    change = entry_to_undo(CircleChange, change_id)
    if change.kind == RENAME:
        _undo_rename(change)
    else:
        _undo_merge(change)
    change.undone_at = utcnow()
    db.session.flush()
    db.session.expire_all()
    return change


def _undo_rename(change: CircleChange) -> None:
    """The circle gets its old name back, if it still has the one given."""
    circle = db.session.scalar(
        sa.select(Circle).where(Circle.id == change.circle_id).with_for_update()
    )
    if circle is None or circle.name != change.new_name:
        raise CannotUndo(change, change.circle_id)
    circle.name = change.circle_name


@dataclass(frozen=True)
class CircleMoved:
    """What a merge gave the target: games and players as they were, and the merges of
    players of one name (entries of the players' journal)."""

    games: list[tuple[int, str]]
    players: list[tuple[int, str]]
    merges: list[int]

    @classmethod
    def of(cls, change: CircleChange) -> CircleMoved:
        """Read from the journal entry."""
        moved = change.moved
        return cls(
            [(int(id_), str(code)) for id_, code in moved["games"]],
            [(int(id_), str(name)) for id_, name in moved["players"]],
            [int(id_) for id_ in moved["merges"]],
        )


def _undo_merge(change: CircleChange) -> None:
    """The merged circle comes back with its id, name, invite secret (its hash) and creation
    time; the games and players it gave the target are its own again, and so are the players
    it merged, with the rows the merge re-pointed (the players' journal's undo)."""
    assert change.target_id is not None
    moved = CircleMoved.of(change)
    merges = _lock_merges(change, moved)
    games = {
        game.id: game
        for game in lock_games(
            {id_ for id_, _code in moved.games}
            | {id_ for merge in merges for id_ in Moved.of(merge).games}
        )
    }
    target = db.session.scalar(
        sa.select(Circle).where(Circle.id == change.target_id).with_for_update()
    )
    if target is None:
        raise CannotUndo(change, change.target_id)
    if db.session.get(Circle, change.circle_id) is not None:
        raise ServiceError(
            N_("Entry %(id)s cannot be undone: circle %(circle)s is another circle now."),
            id=change.id,
            circle=change.circle_id,
        )
    for id_, code in moved.games:
        if id_ not in games or games[id_].circle_id != target.id:
            raise ServiceError(
                N_(
                    "Entry %(id)s cannot be undone exactly: the game %(code)s it moved is no "
                    "longer in circle %(circle)s (moved or deleted since)."
                ),
                id=change.id,
                code=code,
                circle=target.id,
            )
    players = _lock_players(change, moved, merges)
    back = Circle(
        id=change.circle_id,
        name=change.circle_name,
        secret_hash=change.circle_secret_hash,
        created_at=change.circle_created_at,
    )
    db.session.add(back)
    db.session.flush()
    for id_, _code in moved.games:
        games[id_].circle_id = back.id
    for player in players:
        player.circle_id = back.id
    db.session.flush()
    for merge in reversed(merges):
        _undo_player_merge(change, merge, back.id)
    mixed = seats_across_circles([back.id, target.id])
    if mixed is not None:
        raise ServiceError(
            N_(
                "Entry %(id)s cannot be undone exactly: the game %(code)s seats players of "
                "both circles now."
            ),
            id=change.id,
            code=mixed,
        )


def _lock_merges(change: CircleChange, moved: CircleMoved) -> list[PlayerChange]:
    """The players' journal entries of the merge, locked (by id), none undone since."""
    merges = list(
        db.session.scalars(
            sa.select(PlayerChange)
            .where(PlayerChange.id.in_(moved.merges))
            .order_by(PlayerChange.id)
            .with_for_update()
        )
    )
    for merge in merges:
        if merge.undone_at is not None:
            raise _merge_stands_in_the_way(change, merge)
    if len(merges) != len(moved.merges):
        raise CannotUndo(change, change.circle_id)
    return merges


def _lock_players(
    change: CircleChange, moved: CircleMoved, merges: list[PlayerChange]
) -> list[Player]:
    """The players the merge moved, locked with those their namesakes were merged into (by
    id); each still in the target, as they were called."""
    ids = {id_ for id_, _name in moved.players} | {merge.target_id for merge in merges}
    found: dict[int, Player] = lock_rows(Player, ids)
    for id_, name in moved.players:
        player = found.get(id_)
        if player is None or player.circle_id != change.target_id or player.name != name:
            raise ServiceError(
                N_(
                    "Entry %(id)s cannot be undone exactly: %(name)s (player %(player)s) was "
                    "renamed, merged or deleted since. Undo that change first."
                ),
                id=change.id,
                name=name,
                player=id_,
            )
    return [found[id_] for id_, _name in moved.players]


def _undo_player_merge(change: CircleChange, merge: PlayerChange, circle_id: int) -> None:
    """Put back a player the merge merged with the target's of one name, in their circle."""
    try:
        undo_locked(merge, circle_id)
    except ServiceError:
        raise _merge_stands_in_the_way(change, merge) from None


def _merge_stands_in_the_way(change: CircleChange, merge: PlayerChange) -> ServiceError:
    """The refusal when a merge of two players the circles' merge made cannot be undone."""
    return ServiceError(
        N_(
            "Entry %(id)s cannot be undone exactly: the merge of %(name)s it made (players' "
            "journal entry %(entry)s) was undone since, or a later change stands in its way."
        ),
        id=change.id,
        name=merge.player_name,
        entry=merge.id,
    )
