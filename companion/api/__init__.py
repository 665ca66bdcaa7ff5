"""JSON API v1 (see ../shared/DESIGN.md): the rules endpoints and, later, games."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")
