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
from companion.web.edit_rights import SESSION_KEYS

#: The home page lists at most this many games in progress.
GAMES_ON_HOME = 10
#: ... and this many finished games; the history holds the rest.
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


def phone_games(status: GameStatus, limit: int) -> list[PhoneGame]:
    """This phone's games of ``status``, the most recently played first."""
    codes = phone_codes()
    if not codes:
        return []
    query = (
        sa.select(Game)
        .options(
            so.selectinload(Game.seats),
            so.selectinload(Game.rounds).selectinload(Round.results),
        )
        .where(Game.code.in_(codes), Game.status == status)
        .order_by(Game.updated_at.desc(), Game.id.desc())
        .limit(limit)
    )
    return [phone_game(game) for game in db.session.scalars(query)]


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


def games_in_progress() -> list[PhoneGame]:
    """The games this phone keeps the score of and that still take rounds."""
    return phone_games(GameStatus.IN_PROGRESS, GAMES_ON_HOME)


def finished_games() -> list[PhoneGame]:
    """The games this phone kept the score of until their last round."""
    return phone_games(GameStatus.FINISHED, FINISHED_ON_HOME)
