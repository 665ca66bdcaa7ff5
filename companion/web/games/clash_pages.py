"""The conflict view's way out that keeps what another phone saved.

"Keep theirs" changes nothing in the game, yet it settles the round for the table: this
phone goes on to the scoreboard, which says that the round stays as the other phone saved it
and tints its row, as after any save.
"""

from __future__ import annotations

from flask import redirect, url_for
from flask.typing import ResponseReturnValue

from companion.data.states import RoundStatus
from companion.web.games import bp
from companion.web.games.round_clash import round_numbered
from companion.web.games.round_state import editable_game
from companion.web.round_saved import Settled, remember


@bp.get("/g/<code>/rounds/<int:number>/keep-theirs", endpoint="keep_theirs")
def keep_theirs(code: str, number: int) -> ResponseReturnValue:
    """Keep round ``number`` as the other phone saved it: the scoreboard, which confirms it
    (a round that does not exist is not confirmed)."""
    game = editable_game(code)
    round_ = round_numbered(game, number)
    if round_ is not None:
        scored = round_.status == RoundStatus.SCORED
        remember(game.code, number, Settled.KEPT if scored else Settled.KEPT_MARKS)
    return redirect(url_for("games.scoreboard", code=game.code))
