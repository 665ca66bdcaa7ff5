"""Who may fix a player's name from a page, and the statements that find players by name
within the circles this phone is in (a name is matched within its circle only).

On a server of circles a phone in the player's circle may rename or merge them: the
circle's phones keep its history, and a stranger's game, always in another circle, neither
gives a right nor blocks one. On a club server (``CLUB_SERVER``), whose one circle every
phone is in, a phone must keep the score of every game the change touches (for a merge,
every game of both players), as before circles: no visitor can rewrite the shared history.
Anything wider is the operator's (``flask --app companion players ...``,
``companion.services.player_changes``).

The question is asked in SQL, of the hashes of the keys the phone holds, so the player page
asks it in the statement that finds the player (with the circles and the change counter its
ETag reads): holding keys costs no statement more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from companion.data.change_counter import counter_columns
from companion.data.circles import beside_circles
from companion.data.models import Circle, Game, Player, Seat, db, name_key
from companion.data.stats import PlayerRef
from companion.services.player_changes import MayTouch
from companion.web.circle_rights import club_server, forget_circles_of_phone, in_circle
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


def may_change_players(circle_id: int, *players: PlayerRef) -> bool:
    """Whether this phone may rename these players of the circle ``circle_id``, or merge
    one into the other: it is in their circle, and on a club server it keeps the score of
    every game they sat in."""
    if not in_circle(circle_id):
        return False
    if not club_server():
        return True
    held = held_games()
    if not held:  # no query at all
        return False
    ids = [player.id for player in players]
    return bool(db.session.scalar(sa.select(keeps_every_game(Seat.player_id.in_(ids), held))))


def may_change_player(circle_id: int, player: PlayerRef) -> bool:
    """Whether this phone may rename ``player`` of the circle ``circle_id``."""
    return may_change_players(circle_id, player)


def may_fix_column() -> sa.ColumnElement[bool]:
    """Whether this phone may fix the name of the player found beside it (``Player``), as
    a column of the player page's first statement."""
    if not club_server():
        return Player.id.is_not(None)  # found in a circle of this phone's: it is in it
    return keeps_every_game(Seat.player_id == Player.id, held_games())


def player_state(name: str, circle: sa.ColumnElement[bool]) -> sa.Select[Any]:
    """The statement that finds, in each circle ``circle`` lets through (the phone's), the
    player called ``name`` (case aside), with whether this phone may rename them (``may``)
    and the change counter (``change_counter``): all the player page's ETag needs, in one
    statement. A circle without the name has its row with no player."""
    return beside_circles(
        circle, Player.id, Player.name, may_fix_column().label("may"), *counter_columns()
    ).outerjoin(Player, sa.and_(Player.circle_id == Circle.id, Player.key == name_key(name)))


def players_state(circle: sa.ColumnElement[bool], *names: str) -> sa.Select[Any]:
    """The statement that finds, in each circle ``circle`` lets through, the players
    called ``names`` (case aside, each with its ``key``) with the change counter: all the
    head-to-head page's ETag needs."""
    keys = [name_key(name) for name in names]
    return beside_circles(circle, Player.id, Player.name, Player.key, *counter_columns()).outerjoin(
        Player, sa.and_(Player.circle_id == Circle.id, Player.key.in_(keys))
    )


def may_touch_games_of(circle_id: int) -> MayTouch:
    """The question asked again of the games a change locked, for a player of the circle
    ``circle_id``: on a club server, every game, and a game that seated the player
    meanwhile counts too; on a server of circles, whether this phone is still in the circle
    (asked again: a new invite or edit link may have ended it) and every game is the
    circle's."""

    def may_touch(games: Sequence[Game]) -> bool:
        if club_server():
            return bool(games) and all(can_edit(game) for game in games)
        forget_circles_of_phone()
        return in_circle(circle_id) and all(game.circle_id == circle_id for game in games)

    return may_touch
