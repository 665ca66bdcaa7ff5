"""The table tools: which cards to take out of the box, and who takes a disputed trick."""

from flask import Blueprint

bp = Blueprint("tools", __name__)

from companion.web.tools import routes  # noqa: E402, F401  (routes register on bp)
