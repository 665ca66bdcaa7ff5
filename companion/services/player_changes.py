"""Renaming and merging players, each written to a journal so that it can be undone exactly.

A rename or merge changes every game the player sat in: it locks those games' rows (in the
order of their ids, as every other writer locks a game) before it reads or moves anything,
and moves their versions on, so a phone that looked at a game before it is told, and a round
recorded meanwhile is neither lost nor counted twice in the statistics ledger. Each is one
transaction: the caller commits, or rolls back on a refusal, and nothing is half done.

Undoing an entry is ``player_journal``. The same functions serve the player's page and the
operator's ``players`` commands; who may call them is the caller's question, asked again
through ``may_touch`` once the games are locked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.data import ledger
from companion.data.database import hold_write_lock, lock_rows
from companion.data.models import (
    Game,
    Player,
    PlayerChange,
    RoundResult,
    Seat,
    db,
    name_key,
    utcnow,
)
from companion.data.names import clean_name
from companion.data.stats import PlayerRef
from companion.rules.text import N_
from companion.services.errors import NotFound, ServiceError
from companion.services.players import check_name_characters, check_name_length

RENAME = "rename"
MERGE = "merge"
PAGE = "page"
COMMAND = "command"

#: Whether the caller may change these (locked) games; the operator may change them all.
MayTouch = Callable[[Sequence[Game]], bool]


def anyone(_games: Sequence[Game]) -> bool:
    """The operator's commands: every game may be changed."""
    return True


class NotAllowed(ServiceError):
    """The caller does not hold the edit rights of every game the change would touch."""

    status = 403
    template = N_("This phone does not keep the score of every game this changes.")


class NameTaken(ServiceError):
    """The new name is another player's: if they are one person, merge them instead."""

    template = N_(
        "%(name)s is already another player's name. If both are the same person, "
        "merge them instead."
    )

    def __init__(self, other: str):
        super().__init__(name=other)
        self.other = other


# --------------------------------------------------------------------------------------------
# Checks


def check_new_name(name: str, player: PlayerRef) -> str:
    """A new name for ``player`` as it would be shown: present, at most 40 characters and
    not the one they already have."""
    cleaned = clean_name(name)
    if cleaned == player.name:
        raise ServiceError(N_("%(name)s already has this name."), name=player.name)
    if not cleaned:
        raise ServiceError(N_("Every player needs a name."))
    check_name_characters(name)
    check_name_length(cleaned)
    other = db.session.scalar(
        sa.select(Player.name).where(
            Player.circle_id == circle_of(player),
            Player.key == name_key(cleaned),
            Player.id != player.id,
        )
    )
    if other is not None:
        raise NameTaken(other)
    return cleaned


def circle_of(player: PlayerRef) -> sa.ScalarSelect[int]:
    """The player's circle, read inside the statement that needs it: names are matched
    within one circle only."""
    return sa.select(Player.circle_id).where(Player.id == player.id).scalar_subquery()


def find_target(name: str, source: PlayerRef) -> PlayerRef:
    """The player of ``source``'s circle to merge into, who must exist."""
    row = db.session.execute(
        sa.select(Player.id, Player.name).where(
            Player.circle_id == circle_of(source), Player.key == name_key(name)
        )
    ).first()
    if row is None:
        raise ServiceError(
            N_(
                "There is no player called %(name)s. To give this player that name, "
                "rename them instead."
            ),
            name=clean_name(name),
        )
    return PlayerRef(row.id, row.name)


def find_player(name_or_id: str) -> PlayerRef:
    """The player called ``name_or_id`` (case aside), or else the one with that id (the
    operator's commands accept both). A name that players of several circles have names
    none of them: the operator gives the id instead."""
    rows = db.session.execute(
        sa.select(Player.id, Player.name).where(Player.key == name_key(name_or_id)).limit(2)
    ).all()
    if len(rows) > 1:
        raise ServiceError(
            N_("Players of several circles are called %(name)s: give the player's id."),
            name=rows[0].name,
        )
    row = rows[0] if rows else None
    if row is None and name_or_id.strip().isdecimal():
        row = db.session.execute(
            sa.select(Player.id, Player.name).where(Player.id == int(name_or_id))
        ).first()
    if row is None:
        raise NotFound(N_("There is no player called %(name)s."), name=clean_name(name_or_id))
    return PlayerRef(row.id, row.name)


def check_merge(source: PlayerRef, target: PlayerRef, across_circles: bool = False) -> None:
    """Refuse merging a player into themselves, two players of different circles (unless
    the two circles are being merged), or two players who sat in the same game (a game
    cannot seat the same person twice)."""
    if source.id == target.id:
        raise ServiceError(N_("%(name)s cannot be merged into themselves."), name=source.name)
    circles = db.session.scalar(
        sa.select(sa.func.count(sa.distinct(Player.circle_id))).where(
            Player.id.in_([source.id, target.id])
        )
    )
    if circles != 1 and not across_circles:
        raise ServiceError(
            N_("%(name)s and %(target)s are players of different circles, who cannot be merged."),
            name=source.name,
            target=target.name,
        )
    mine = so.aliased(Seat)
    theirs = so.aliased(Seat)
    shared = db.session.scalar(
        sa.select(sa.func.count())
        .select_from(mine)
        .join(theirs, theirs.game_id == mine.game_id)
        .where(mine.player_id == source.id, theirs.player_id == target.id)
    )
    if shared:
        raise ServiceError(
            N_(
                "%(name)s and %(target)s played in the same game, so they are two people: "
                "a game cannot seat the same person twice."
            ),
            name=source.name,
            target=target.name,
        )


# --------------------------------------------------------------------------------------------
# Locks: the games first (by id, as every writer does), then the players


def game_ids_of(player_ids: Sequence[int]) -> set[int]:
    """The games the players have a seat in."""
    return set(db.session.scalars(sa.select(Seat.game_id).where(Seat.player_id.in_(player_ids))))


def lock_games(game_ids: set[int]) -> list[Game]:
    """Lock the games' rows in the order of their ids, so two writers never wait on each
    other in a circle."""
    if not game_ids:
        return []
    return list(lock_rows(Game, game_ids).values())


def lock_player(player_id: int) -> Player:
    """Lock a player's row: on PostgreSQL no seat or result can point at it until commit."""
    hold_write_lock()
    player: Player | None = db.session.scalar(
        sa.select(Player).where(Player.id == player_id).with_for_update()
    )
    if player is None:
        raise NotFound(N_("There is no such player any more."))
    return player


def lock_players_and_games(player_ids: Sequence[int]) -> tuple[list[Player], list[Game]]:
    """Lock the games the players sit in, then the players (by id); a game that seated one
    of them meanwhile is locked as well (on SQLite none can: the write lock comes first)."""
    hold_write_lock()
    games = lock_games(game_ids_of(player_ids))
    players = [lock_player(id_) for id_ in sorted(player_ids)]
    seen = {game.id for game in games}
    late = game_ids_of(player_ids) - seen
    games += lock_games(late)
    return players, sorted(games, key=lambda game: game.id)


def move_versions_on(games: Sequence[Game]) -> None:
    """A name change changes what these games' scoreboards show: their versions (and so
    their ETags) move on, and a phone holding an older version is told."""
    for game in games:
        game.updated_at = utcnow()
    db.session.flush()


# --------------------------------------------------------------------------------------------
# Rename and merge


def rename_player(
    player: PlayerRef, new_name: str, origin: str, may_touch: MayTouch = anyone
) -> PlayerChange:
    """Give ``player`` another display name (their history stays theirs); refused if another
    player already has that name, case aside: those two may be merged instead."""
    (row,), games = lock_players_and_games([player.id])
    if not may_touch(games):
        raise NotAllowed()
    cleaned = check_new_name(new_name, PlayerRef(row.id, row.name))
    change = _journal_entry(
        RENAME,
        origin,
        row,
        cleaned,
        {"games": [game.id for game in games], "seats": [], "results": []},
    )
    row.name = cleaned
    row.key = name_key(cleaned)
    move_versions_on(games)
    db.session.add(change)
    db.session.flush()
    return change


def merge_players(
    source: PlayerRef,
    target: PlayerRef,
    origin: str,
    may_touch: MayTouch = anyone,
    *,
    across_circles: bool = False,
) -> PlayerChange:
    """Move every seat and round result of ``source`` to ``target``, then delete
    ``source``: one player with the whole history of both. The journal keeps the rows moved
    and the source as it was. Only a merge of two circles (``circle_changes``) merges
    players of two circles (``across_circles``): the players of one name in both."""
    players, games = lock_players_and_games([source.id, target.id])
    if not may_touch(games):
        raise NotAllowed()
    source_row = next(player for player in players if player.id == source.id)
    target_row = next(player for player in players if player.id == target.id)
    check_merge(source, target, across_circles)
    sources_games = game_ids_of([source.id])
    moved_games = [game for game in games if game.id in sources_games]
    seats = db.session.execute(
        sa.select(Seat.game_id, Seat.position)
        .where(Seat.player_id == source.id)
        .order_by(Seat.game_id, Seat.position)
    ).all()
    results = db.session.execute(
        sa.select(RoundResult.round_id, RoundResult.seat)
        .where(RoundResult.player_id == source.id)
        .order_by(RoundResult.round_id, RoundResult.seat)
    ).all()
    moved: dict[str, list[Any]] = {
        "games": [game.id for game in moved_games],
        "seats": [list(seat) for seat in seats],
        "results": [list(result) for result in results],
    }
    change = _journal_entry(MERGE, origin, source_row, target_row.name, moved, target_row.id)
    move_versions_on(moved_games)
    repoint(source.id, target.id, seats, results, [game.id for game in moved_games])
    db.session.execute(
        sa.delete(Player).where(Player.id == source.id),
        execution_options={"synchronize_session": False},
    )
    db.session.add(change)
    db.session.flush()
    db.session.expire_all()
    return change


def _journal_entry(
    kind: str,
    origin: str,
    player: Player,
    new_name: str,
    moved: dict[str, list[Any]],
    target_id: int | None = None,
) -> PlayerChange:
    """The journal's entry for a change of ``player``, kept as they were before it so that
    undoing it can put them back."""
    return PlayerChange(
        kind=kind,
        origin=origin,
        player_id=player.id,
        player_name=player.name,
        player_key=player.key,
        player_created_at=player.created_at,
        target_id=target_id,
        new_name=new_name,
        moved=moved,
    )


def repoint(
    old: int,
    new: int,
    seats: Sequence[Sequence[int]],
    results: Sequence[Sequence[int]],
    game_ids: Sequence[int],
) -> None:
    """Point exactly these seat and result rows from player ``old`` to ``new``.

    Bulk updates pass the flush by: the ledger is told which games change, and moves the
    sums from one player to the other (a merge takes the source's sums away before the
    source, and its rows, are deleted)."""
    with ledger.tracking(db.session.connection(), game_ids):
        for game_id, position in seats:
            db.session.execute(
                sa.update(Seat)
                .where(Seat.game_id == game_id, Seat.position == position, Seat.player_id == old)
                .values(player_id=new),
                execution_options={"synchronize_session": False},
            )
        for round_id, seat in results:
            db.session.execute(
                sa.update(RoundResult)
                .where(
                    RoundResult.round_id == round_id,
                    RoundResult.seat == seat,
                    RoundResult.player_id == old,
                )
                .values(player_id=new),
                execution_options={"synchronize_session": False},
            )
