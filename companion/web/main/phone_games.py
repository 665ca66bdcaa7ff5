"""The games the home page lists: this phone's own, found by the edit keys in its session.

Without accounts the app knows a phone only by its signed session cookie, which keeps the
edit key of every game the phone started or was given the edit link of. The home page lists
those games only, so it tells a stranger nothing about anyone else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import session

from companion.data import queries
from companion.data.models import Game, Round, db
from companion.data.states import GameStatus, RoundStatus
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
    neither). One query answers both lists: a phone holds at most ``MAX_KEYS_PER_DEVICE``
    keys, so the home page costs the same few statements whatever the phone holds."""
    codes = phone_codes()
    if not codes:
        return PhoneGames((), ())
    query = (
        sa.select(Game)
        .options(
            so.selectinload(Game.seats),
            so.selectinload(Game.rounds).selectinload(Round.results),
        )
        .where(
            Game.code.in_(codes),
            Game.status.in_([GameStatus.IN_PROGRESS, GameStatus.FINISHED]),
        )
        .order_by(Game.updated_at.desc(), Game.id.desc())
        .limit(MAX_KEYS_PER_DEVICE)
    )
    games = list(db.session.scalars(query))
    in_progress = [game for game in games if game.status == GameStatus.IN_PROGRESS]
    finished = [game for game in games if game.status == GameStatus.FINISHED]
    return PhoneGames(
        tuple(phone_game(game) for game in in_progress[:GAMES_ON_HOME]),
        tuple(phone_game(game) for game in finished[:FINISHED_ON_HOME]),
    )


def phone_game(game: Game) -> PhoneGame:
    """What the home page shows of ``game``: its players, variant, progress and, once it is
    finished, who won it (R11: equal highest totals share the win)."""
    names = tuple(seat.player.name for seat in game.seats)
    winners = queries.totals_of(game).winners
    return PhoneGame(
        code=game.code,
        names=names,
        variant=variant_label(game.variant),
        scored_rounds=sum(1 for round_ in game.rounds if round_.status == RoundStatus.SCORED),
        rounds_planned=game.rounds_planned,
        winners=tuple(names[seat] for seat in winners),
        finished_at=game.updated_at,
    )
