"""JSON API v1 (docs/api.md): the rules endpoints and, later, games. Its refusals are
answered as JSON by ``companion.web.errors``."""

from flask import Blueprint, session
from werkzeug.wrappers import Response

from companion.web.edit_rights import keep_out_of_caches
from companion.web.errors import register_api_errors

bp = Blueprint("api", __name__, url_prefix="/api/v1")
register_api_errors(bp)


@bp.after_request
def never_store_the_session(response: Response) -> Response:
    """An answer that writes the session cookie, which holds edit keys (a phone's cookie
    moved from its old name, the new key of a phone that made a new edit link), is never
    stored, whatever its own Cache-Control would be."""
    return keep_out_of_caches(response) if session.modified else response


from companion.web.api import (  # noqa: E402, F401  (routes register on bp)
    games_routes,
    openapi_routes,
    rules_routes,
    stats_routes,
)
