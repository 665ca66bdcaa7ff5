"""Who may fix a player's name from a page: a phone that keeps the score of every game the
player sat in (for a merge, every game of both players), so that fixing a typo in tonight's
game needs nothing more, and no visitor can rewrite a shared history. Anything wider is the
operator's (``flask --app companion players ...``, ``companion.services.player_changes``).

The question is asked in SQL, of the hashes of the keys the phone holds, so the player page
asks it in the statement that finds the player (with the change counter its ETag reads):
holding keys costs no statement more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from companion.data.change_counter import counter_columns
from companion.data.models import Game, Player, Seat, db, name_key
from companion.data.stats import PlayerRef
from companion.web.edit_rights import can_edit, held_games


def keeps_every_game(
    seated: sa.ColumnElement[bool], held: list[tuple[str, str]]
) -> sa.ColumnElement[bool]:
    """Whether the ``held`` games (``held_games``) include every game with a seat matching
    ``seated``, and there is at least one."""
    if not held:
        return sa.false()
    games = sa.select(Seat.game_id).where(seated)
    not_held = sa.select(Game.id).where(
        Game.id.in_(games), ~sa.tuple_(Game.code, Game.edit_key_hash).in_(held)
    )
    return sa.and_(sa.exists(games), ~sa.exists(not_held))


def may_change_players(*players: PlayerRef) -> bool:
    """Whether this device may rename these players, or merge one into the other."""
    held = held_games()
    if not held:  # no query at all
        return False
    ids = [player.id for player in players]
    return bool(db.session.scalar(sa.select(keeps_every_game(Seat.player_id.in_(ids), held))))


def may_change_player(player: PlayerRef) -> bool:
    """Whether this device may rename ``player``."""
    return may_change_players(player)


def player_state(name: str) -> sa.Select[Any]:
    """The statement that finds the player called ``name`` (case aside) with whether this
    device may rename them (``may``) and the change counter (``change_counter``): all the
    player page's ETag needs, in one statement; no row when nobody has the name."""
    may: Any = keeps_every_game(Seat.player_id == Player.id, held_games())
    return sa.select(Player.id, Player.name, may.label("may"), *counter_columns()).where(
        Player.key == name_key(name)
    )


def players_state(*names: str) -> sa.Select[Any]:
    """The statement that finds the players called ``names`` (case aside, each with its
    ``key``) with the change counter: all the head-to-head page's ETag needs."""
    keys = [name_key(name) for name in names]
    return sa.select(Player.id, Player.name, Player.key, *counter_columns()).where(
        Player.key.in_(keys)
    )


def may_touch_games(games: Sequence[Game]) -> bool:
    """The same question asked again of the games a change locked: a game that seated the
    player meanwhile counts too."""
    return bool(games) and all(can_edit(game) for game in games)
