"""The game pages: new game, scoreboard, sharing, rounds and corrections."""

from flask import Blueprint

bp = Blueprint("games", __name__)

from companion.games import export_pages, game_pages, live_pages, round_pages  # noqa: E402, F401  (routes)
