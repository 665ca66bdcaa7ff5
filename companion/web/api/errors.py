"""Every API refusal is JSON ``{"error": "<one sentence>"}``, never an HTML page or a 500."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Response, jsonify, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import HTTPException

from companion.data.models import Game, db
from companion.formats.parse import ApiError
from companion.rules import RuleError
from companion.rules.errors import UnknownColourError, UnknownVariantError
from companion.services import ServiceError, StaleVersion
from companion.web.api import bp
from companion.web.error_pages import http_error_page

#: HTTP errors raised before a view runs, in the API's words.
HTTP_MESSAGES = {
    404: "There is no such API endpoint or resource.",
    405: "This endpoint does not accept the {method} method.",
    413: "The request body is too large.",
    415: "Send the request body as JSON.",
}


def error_response(message: str, status: int) -> tuple[Response, int]:
    """The API's one shape of error."""
    return jsonify(error=message), status


@bp.errorhandler(ApiError)
def refuse_malformed(error: ApiError) -> tuple[Response, int]:
    """A body that is not what the endpoint takes (a conflict also tells the game now)."""
    if error.state is not None:
        return jsonify({**error.state, "error": error.message}), error.status
    return error_response(error.message, error.status)


@bp.errorhandler(RuleError)
def refuse_rule_breach(error: RuleError) -> tuple[Response, int]:
    """A well-formed body the rules refuse (RULES.md section 7): 422; a name that is no
    colour or variant at all is a malformed request: 400."""
    malformed = isinstance(error, UnknownColourError | UnknownVariantError)
    return error_response(str(error), 400 if malformed else 422)


@bp.errorhandler(ServiceError)
def refuse_service(error: ServiceError) -> tuple[Response, int]:
    """A change the game cannot take; a stale version also tells the current one."""
    response, status = error_response(error.message, error.status)
    if isinstance(error, StaleVersion):
        response = jsonify(error=error.message, version=error.current)
    return response, status


@bp.errorhandler(StaleDataError)
@bp.errorhandler(IntegrityError)
def refuse_lost_race(_error: Exception) -> tuple[Response, int]:
    """Two phones saved at the same moment: the other one won; this one changed nothing."""
    db.session.rollback()
    code = (request.view_args or {}).get("code", "")
    current = db.session.scalar(sa.select(Game.version).where(Game.code == code))
    return refuse_service(StaleVersion(current or 0))


def is_api_request() -> bool:
    """Whether the failing request was meant for the API (even an unknown API path)."""
    return request.path == bp.url_prefix or request.path.startswith(f"{bp.url_prefix}/")


@bp.app_errorhandler(HTTPException)
def refuse_http(error: HTTPException) -> ResponseReturnValue:
    """404, 405, 413 and the like as JSON for API paths; other pages get the error page."""
    if not is_api_request():
        return http_error_page(error)
    status = error.code or 500
    template = HTTP_MESSAGES.get(status, error.description or "The request was refused.")
    return error_response(template.format(method=request.method), status)
