"""Who may fix a player's name from a page: a phone that keeps the score of every game the
player sat in (for a merge, every game of both players), so that fixing a typo in tonight's
game needs nothing more, and no visitor can rewrite a shared history. Anything wider is the
operator's (``flask --app companion players ...``, ``companion.player_changes``).
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence

import sqlalchemy as sa
from flask import session

from companion.edit_rights import SESSION_KEYS, can_edit
from companion.models import Game, Seat, db
from companion.services import hash_edit_key
from companion.stats import PlayerRef


def may_change_players(*players: PlayerRef) -> bool:
    """Whether this device holds the edit key of every game the players sat in, and of at
    least one (no query at all when it holds no key)."""
    keys = session.get(SESSION_KEYS, {})
    if not isinstance(keys, dict) or not keys:
        return False
    rows = db.session.execute(
        sa.select(Game.code, Game.edit_key_hash)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.player_id.in_([player.id for player in players]))
        .distinct()
    ).all()
    return bool(rows) and all(key_opens_row(row.edit_key_hash, keys.get(row.code)) for row in rows)


def may_change_player(player: PlayerRef) -> bool:
    """Whether this device may rename ``player``, or merge them with a player it may also
    change."""
    return may_change_players(player)


def may_touch_games(games: Sequence[Game]) -> bool:
    """``may_change_players`` asked again of the games a change locked: a game that seated
    the player meanwhile counts too."""
    return bool(games) and all(can_edit(game) for game in games)


def key_opens_row(edit_key_hash: str, key: object) -> bool:
    """``services.key_opens`` for a game row read without loading the Game."""
    return isinstance(key, str) and hmac.compare_digest(edit_key_hash, hash_edit_key(key))
