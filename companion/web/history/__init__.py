"""History and player pages: every game, each player's statistics, two players head to
head, name fixes, and the scoreboard's switch that leaves a game out of the statistics."""

from flask import Blueprint

bp = Blueprint("history", __name__)

from companion.web.history import pages  # noqa: E402, F401  (routes register on bp)
