"""Merging two circles into one, written to the circles' journal so that it can
be undone exactly (``circle_journal``).

Two circles a club finds are one table become one: every game and player of the source
joins the target, and the source's row, with the hash of its invite secret, is deleted, so
that secret opens nothing any more. A player of the source whose name the target has too
(case aside) is the same person at that club: they are merged with ``merge_players``, so
that the players' journal records it and the statistics ledger moves their sums as for any
merge.

Locks are taken as every writer takes them: the games first (by id), then the two circles
(by id: no game or player can join the source after that), then the players (by id); a game
that joined the source meanwhile is locked as well. It is one transaction: the caller
commits, or rolls back on a refusal, and nothing is half done.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.data.database import hold_write_lock, lock_rows
from companion.data.models import Circle, CircleChange, Game, Player, Seat, db
from companion.data.stats import PlayerRef
from companion.rules.text import N_
from companion.services.errors import NotFound, ServiceError
from companion.services.player_changes import (
    COMMAND,
    MERGE,
    game_ids_of,
    lock_games,
    merge_players,
)

#: A pair of players of one name: the source circle's and the target circle's.
Pair = tuple[int, int]


def same_names(source_id: int, target_id: int) -> list[Pair]:
    """The players of the source circle whose name (case aside) the target's players have
    too, with that player of the target: one person each, at one club."""
    mine = so.aliased(Player)
    theirs = so.aliased(Player)
    rows = db.session.execute(
        sa.select(mine.id, theirs.id)
        .join(theirs, theirs.key == mine.key)
        .where(mine.circle_id == source_id, theirs.circle_id == target_id)
        .order_by(mine.id)
    ).all()
    return [(row[0], row[1]) for row in rows]


def games_to_lock(source_id: int, pairs: Sequence[Pair]) -> set[int]:
    """The games a merge changes: the source's, and those of the players it merges (whose
    scoreboards show a name that may change)."""
    games = set(db.session.scalars(sa.select(Game.id).where(Game.circle_id == source_id)))
    return games | game_ids_of([player for pair in pairs for player in pair])


def lock_circles(circle_ids: Sequence[int]) -> dict[int, Circle]:
    """Lock the circles' rows in the order of their ids; each must exist."""
    found: dict[int, Circle] = lock_rows(Circle, circle_ids)
    for circle_id in circle_ids:
        if circle_id not in found:
            raise NotFound(N_("There is no circle %(id)s."), id=circle_id)
    return found


def lock_members(source_id: int, target_id: int) -> list[Pair]:
    """Lock what the merge changes, games first, then the circles, then the players; answer
    the pairs of players of one name, read once nothing can change them any more."""
    hold_write_lock()
    locked = {
        game.id for game in lock_games(games_to_lock(source_id, same_names(source_id, target_id)))
    }
    lock_circles([source_id, target_id])
    pairs = same_names(source_id, target_id)
    late = games_to_lock(source_id, pairs) - locked
    lock_games(late)  # a game that joined the source, or seated one of the pair, meanwhile
    players = {player for pair in pairs for player in pair}
    db.session.execute(
        sa.select(Player.id)
        .where(sa.or_(Player.circle_id == source_id, Player.id.in_(sorted(players))))
        .order_by(Player.id)
        .with_for_update()
    ).all()
    return pairs


def merge_circles(source_id: int, target_id: int, origin: str = COMMAND) -> CircleChange:
    """Give circle ``target_id`` every game and player of circle ``source_id``, merging the
    players of one name in both, then delete the source; journalled with what it moved."""
    if source_id == target_id:
        raise ServiceError(N_("A circle cannot be merged into itself."))
    pairs = lock_members(source_id, target_id)
    source = db.session.get_one(Circle, source_id)
    target = db.session.get_one(Circle, target_id)
    change = CircleChange(
        kind=MERGE,
        origin=origin,
        circle_id=source.id,
        circle_name=source.name,
        circle_secret_hash=source.secret_hash,
        circle_created_at=source.created_at,
        target_id=target.id,
        new_name=target.name,
    )
    merges = [
        merge_players(player_ref(mine), player_ref(theirs), origin, across_circles=True).id
        for mine, theirs in pairs
    ]
    games = list(db.session.scalars(sa.select(Game).where(Game.circle_id == source_id)))
    players = list(db.session.scalars(sa.select(Player).where(Player.circle_id == source_id)))
    change.moved = {
        "games": [[game.id, game.code] for game in sorted(games, key=lambda game: game.id)],
        "players": [[player.id, player.name] for player in sorted(players, key=lambda row: row.id)],
        "merges": merges,
    }
    for game in games:
        game.circle_id = target_id  # its version moves on: its phones are told
    for player in players:
        player.circle_id = target_id
    db.session.flush()
    db.session.execute(
        sa.delete(Circle).where(Circle.id == source_id),
        execution_options={"synchronize_session": False},
    )
    db.session.add(change)
    db.session.flush()
    db.session.expire_all()
    return change


def player_ref(player_id: int) -> PlayerRef:
    """A locked player as the players' changes name one."""
    player = db.session.get_one(Player, player_id)
    return PlayerRef(player.id, player.name)


def seats_across_circles(circle_ids: Sequence[int]) -> str | None:
    """The code of a game of these circles that seats a player of another circle, if one
    does: a game's players are its circle's."""
    return db.session.scalar(
        sa.select(Game.code)
        .join(Seat, Seat.game_id == Game.id)
        .join(Player, Player.id == Seat.player_id)
        .where(Game.circle_id.in_(circle_ids), Player.circle_id != Game.circle_id)
        .order_by(Game.id)
        .limit(1)
    )
