"""JSON API v1 (docs/api.md): the rules endpoints and, later, games. Its refusals are
answered as JSON by ``companion.web.errors``."""

from flask import Blueprint

from companion.web.errors import register_api_errors

bp = Blueprint("api", __name__, url_prefix="/api/v1")
register_api_errors(bp)

from companion.web.api import (  # noqa: E402, F401  (routes register on bp)
    games_routes,
    openapi_routes,
    rules_routes,
    stats_routes,
)
