"""JSON API v1 (README, "JSON API"): the rules endpoints and, later, games. Its refusals are
answered as JSON by ``companion.web.errors``."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from companion.web.api import (  # noqa: E402, F401  (routes register on bp)
    games_routes,
    openapi_routes,
    rules_routes,
    stats_routes,
)
