"""The rules page: the game's rules in the player's language, one anchor per ruling, and the
``link_rulings`` filter that links every "(R7, R8)" citation on other pages to it."""

from flask import Blueprint

bp = Blueprint("rulebook", __name__)

from companion.web.rulebook import routes  # noqa: E402, F401  (routes register on bp)
