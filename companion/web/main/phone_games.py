"""The games the home page lists: this phone's own, found by the edit keys in its session.

Without accounts the app knows a phone only by its signed session cookie, which keeps the
edit key of every game the phone started or was given the edit link of. The home page lists
those games only, so it tells a stranger nothing about anyone else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from flask import session

from companion.data.history import seat_results
from companion.data.models import Game, Player, db, variant_of_columns
from companion.data.states import GameStatus
from companion.read_models.messages import variant_label
from companion.web.edit_rights import MAX_KEYS_PER_DEVICE, SESSION_KEYS

#: The home page lists at most this many games in progress.
GAMES_ON_HOME = 10
#: ... and this many finished games; the history holds the rest. Both lists come from the
#: at most MAX_KEYS_PER_DEVICE games whose keys the phone holds.
FINISHED_ON_HOME = 5


@dataclass(frozen=True)
class PhoneGame:
    """One game as the home page lists it."""

    code: str
    names: tuple[str, ...]
    variant: str
    scored_rounds: int
    rounds_planned: int
    winners: tuple[str, ...]
    finished_at: datetime


def phone_codes() -> list[str]:
    """The codes of the games whose edit keys this phone holds."""
    keys = session.get(SESSION_KEYS)
    return [code for code in keys if isinstance(code, str)] if isinstance(keys, dict) else []


@dataclass(frozen=True)
class PhoneGames:
    """This phone's games as the home page lists them, the most recently played first."""

    in_progress: tuple[PhoneGame, ...]
    finished: tuple[PhoneGame, ...]


def phone_games() -> PhoneGames:
    """This phone's games in progress and its finished ones (an abandoned game is in
    neither). One statement answers both lists, with each game's seats, names, scored
    rounds and winners (``data.history.seat_results``: R11 in SQL, held to the rules by
    tests/history/test_winners_in_sql.py); a phone holds at most ``MAX_KEYS_PER_DEVICE``
    keys, so the home page costs the same whatever the phone or the history holds."""
    codes = phone_codes()
    if not codes:
        return PhoneGames((), ())
    listed = sa.select(Game.id).where(
        Game.code.in_(codes[-MAX_KEYS_PER_DEVICE:]),
        Game.status.in_([GameStatus.IN_PROGRESS, GameStatus.FINISHED]),
    )
    results = seat_results(listed)
    rows = db.session.execute(
        sa.select(
            Game.id,
            Game.code,
            Game.status,
            Game.family,
            Game.scoring,
            Game.colours_marked,
            Game.reveal,
            Game.rounds_planned,
            Game.updated_at,
            Player.name,
            results.c.rounds,
            results.c.won,
        )
        .join(results, results.c.game_id == Game.id)
        .join(Player, Player.id == results.c.player_id)
        .order_by(Game.updated_at.desc(), Game.id.desc(), results.c.seat)
    ).all()
    games = [phone_game(list(seats)) for _, seats in groupby(rows, key=lambda row: row.id)]
    in_progress = [game for status, game in games if status == GameStatus.IN_PROGRESS]
    finished = [game for status, game in games if status == GameStatus.FINISHED]
    return PhoneGames(tuple(in_progress[:GAMES_ON_HOME]), tuple(finished[:FINISHED_ON_HOME]))


def phone_game(seats: list[Any]) -> tuple[str, PhoneGame]:
    """A game's status and what the home page shows of it, from its rows (one a seat, in
    seat order): its players, variant, progress and, once it is finished, who won it (R11:
    equal highest totals share the win)."""
    first = seats[0]
    variant = variant_of_columns(first.family, first.scoring, first.colours_marked, first.reveal)
    return first.status, PhoneGame(
        code=first.code,
        names=tuple(seat.name for seat in seats),
        variant=variant_label(variant),
        scored_rounds=max(int(seat.rounds) for seat in seats),
        rounds_planned=first.rounds_planned,
        winners=tuple(seat.name for seat in seats if seat.won),
        finished_at=first.updated_at,
    )
