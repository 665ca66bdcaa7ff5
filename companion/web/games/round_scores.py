"""A scored round's page: every player's score and, in one line, why (R10, R12-R16, R22).

Public like the read-only scoreboard: anyone with the game's link may read it, edit rights
or not. The scoreboard links each scored round's number here; with JavaScript it fetches this
page and shows one player's line under the table (static/score_reasons.js), so the scoreboard
itself carries no explanation.
"""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue

from companion import services
from companion.read_models.explanations import explained_round
from companion.rules.text import N_
from companion.services.errors import NotFound
from companion.web.games import bp


@bp.get("/g/<code>/rounds/<int:number>/scores")
def round_scores(code: str, number: int) -> ResponseReturnValue:
    """Round ``number``'s scores and their reasons; 404 for a round not scored."""
    game = services.get_game(code)
    page = explained_round(game, services.round_of(game, number))
    if page is None:
        raise NotFound(N_("Round %(number)s has no scores yet."), number=number)
    return render_template("games/round_scores.html", page=page)
