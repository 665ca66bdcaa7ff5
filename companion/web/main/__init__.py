"""Web pages for people at the table."""

from flask import Blueprint

bp = Blueprint("main", __name__)

from companion.web.main import routes  # noqa: E402, F401  (routes register on bp)
