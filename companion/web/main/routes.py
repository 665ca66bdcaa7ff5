"""The home page: start a game, go back to this phone's games in progress, open a tool."""

from __future__ import annotations

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import render_template, session

from companion.data.models import Game, db
from companion.data.states import GameStatus
from companion.read_models.messages import variant_label
from companion.web.edit_rights import SESSION_KEYS
from companion.web.main import bp

#: The home page lists at most this many games in progress.
GAMES_ON_HOME = 10


def games_in_progress() -> list[Game]:
    """The games this phone may edit that are not finished, newest first: only this
    phone's own games, so the home page tells a stranger nothing about anyone else's."""
    codes = list(session.get(SESSION_KEYS, {}))
    if not codes:
        return []
    query = (
        sa.select(Game)
        .options(so.selectinload(Game.seats), so.selectinload(Game.rounds))
        .where(Game.code.in_(codes), Game.status == GameStatus.IN_PROGRESS)
        .order_by(Game.updated_at.desc())
        .limit(GAMES_ON_HOME)
    )
    return list(db.session.scalars(query))


@bp.route("/")
def index() -> str:
    """Show the welcome page with this phone's games in progress and the tools."""
    games = [
        {
            "game": game,
            "names": [seat.player.name for seat in game.seats],
            "variant": variant_label(game.variant),
        }
        for game in games_in_progress()
    ]
    return render_template("home.html", games=games)
