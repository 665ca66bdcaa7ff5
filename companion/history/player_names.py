"""Fixing a player's name: rename (a typo), or merge two names of the same person.

Both change shared data (every game the player sat in shows the new name), so only a
device that keeps the score of at least one of the player's games may do it: it holds that
game's edit key (``companion.edit_rights``). Each is one transaction: the caller commits,
or rolls back on a refusal, and nothing is half done.
"""

from __future__ import annotations

import hmac

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import session

from companion import ledger
from companion.edit_rights import SESSION_KEYS
from companion.models import MAX_NAME_LENGTH, Game, Player, RoundResult, Seat, db, name_key
from companion.rules.text import N_
from companion.services import (
    NotFound,
    ServiceError,
    check_name_characters,
    clean_name,
    hash_edit_key,
)
from companion.stats import PlayerRef


def may_change_player(player: PlayerRef) -> bool:
    """Whether this device holds the edit key of a game ``player`` sat in (no query at all
    when it holds no key)."""
    keys = session.get(SESSION_KEYS, {})
    if not isinstance(keys, dict) or not keys:
        return False
    rows = db.session.execute(
        sa.select(Game.code, Game.edit_key_hash)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.player_id == player.id, Game.code.in_(list(keys)))
    ).all()
    return any(key_opens_row(row.edit_key_hash, keys.get(row.code)) for row in rows)


def key_opens_row(edit_key_hash: str, key: object) -> bool:
    """``services.key_opens`` for a game row read without loading the Game."""
    return isinstance(key, str) and hmac.compare_digest(edit_key_hash, hash_edit_key(key))


def _locked(player_id: int) -> Player:
    player: Player | None = db.session.scalar(
        sa.select(Player).where(Player.id == player_id).with_for_update()
    )
    if player is None:
        raise NotFound(N_("There is no such player any more."))
    return player


class NameTaken(ServiceError):
    """The new name is another player's: if they are one person, merge them instead."""

    def __init__(self, other: str):
        super().__init__(
            N_(
                "%(name)s is already another player's name. If both are the same person, "
                "merge them instead."
            ),
            name=other,
        )
        self.other = other


def check_new_name(name: str, player: PlayerRef) -> str:
    """A new name for ``player`` as it would be shown: present, at most 40 characters and
    not the one they already have."""
    cleaned = clean_name(name)
    if cleaned == player.name:
        raise ServiceError(N_("%(name)s already has this name."), name=player.name)
    if not cleaned:
        raise ServiceError(N_("Every player needs a name."))
    check_name_characters(name)
    if len(cleaned) > MAX_NAME_LENGTH:
        raise ServiceError(
            N_("A name has at most %(most)s characters: %(name)s is longer."),
            name=f"{cleaned[:MAX_NAME_LENGTH]}…",
            most=MAX_NAME_LENGTH,
        )
    other = db.session.scalar(
        sa.select(Player.name).where(Player.key == name_key(cleaned), Player.id != player.id)
    )
    if other is not None:
        raise NameTaken(other)
    return cleaned


def rename_player(player: PlayerRef, new_name: str) -> str:
    """Give ``player`` another display name (their history stays theirs); refused if another
    player already has that name, case aside: those two may be merged instead."""
    row = _locked(player.id)
    cleaned = check_new_name(new_name, player)
    row.name = cleaned
    row.key = name_key(cleaned)
    db.session.flush()
    return cleaned


def find_target(name: str) -> PlayerRef:
    """The player to merge into, who must exist."""
    row = db.session.execute(
        sa.select(Player.id, Player.name).where(Player.key == name_key(name))
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


def check_merge(source: PlayerRef, target: PlayerRef) -> None:
    """Refuse merging a player into themselves, or two players who sat in the same game
    (a game cannot seat the same person twice)."""
    if source.id == target.id:
        raise ServiceError(N_("%(name)s cannot be merged into themselves."), name=source.name)
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


def merge_players(source: PlayerRef, target: PlayerRef) -> None:
    """Move every seat and round result of ``source`` to ``target``, then delete
    ``source``: one player with the whole history of both."""
    first, second = sorted((source.id, target.id))
    _locked(first)
    _locked(second)
    check_merge(source, target)
    db.session.flush()
    games = db.session.scalars(sa.select(Seat.game_id).where(Seat.player_id == source.id))
    # Bulk updates pass the flush by: the ledger is told which games change, and takes the
    # source's sums away before the source (and its rows) are deleted.
    with ledger.tracking(db.session.connection(), list(games)):
        db.session.execute(
            sa.update(Seat).where(Seat.player_id == source.id).values(player_id=target.id),
            execution_options={"synchronize_session": False},
        )
        db.session.execute(
            sa.update(RoundResult)
            .where(RoundResult.player_id == source.id)
            .values(player_id=target.id),
            execution_options={"synchronize_session": False},
        )
    db.session.execute(
        sa.delete(Player).where(Player.id == source.id),
        execution_options={"synchronize_session": False},
    )
    db.session.expire_all()
