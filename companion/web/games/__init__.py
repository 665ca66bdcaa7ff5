"""The game pages: new game, scoreboard, sharing, rounds and corrections."""

from flask import Blueprint

bp = Blueprint("games", __name__)

from companion.web.games import (  # noqa: E402, F401  (routes register on bp)
    clash_pages,
    export_pages,
    game_pages,
    live_pages,
    round_pages,
    round_scores,
    share_pages,
    table_pages,
)
