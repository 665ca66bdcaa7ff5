"""One error path: every refusal, HTTP error and lost race, as JSON or as a page.

A refusal (``companion.rules.Refusal``: a rule, a service or the API's reading of a request)
carries its message and, where it applies, the field and seat it concerns. Pages that can
show it next to a field or a seat catch it with :func:`refusals`, which also rolls back so
nothing is half saved. What no page catches comes here, to the handlers ``init_app``
registers on the app, and is answered by blueprint:

- the JSON API (any path under its prefix, even an unknown one): ``{"error": "<one
  sentence>"}`` with the status codes of DESIGN.md "JSON API";
- a page area (``PageArea``, declared by its blueprint): its own error pages, with its ways
  back, its conflict scoreboard and the forms it shows again after an expired token;
- any other page: one friendly error page in the player's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import sqlalchemy as sa
from flask import Flask, Response, current_app, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import BadRequest, Forbidden, HTTPException, NotFound

from companion import services
from companion.data.models import Game, db
from companion.formats.parse import ApiError, refusal_status
from companion.rules import Refusal
from companion.web.edit_rights import can_edit
from companion.web.scoreboard_page import render_scoreboard

#: A way out of an error page: its address and its translated label.
Link = tuple[str, str]

#: The blueprint of the JSON API.
API = "api"

#: HTTP errors raised before an API view runs, in the API's words.
HTTP_MESSAGES = {
    404: "There is no such API endpoint or resource.",
    405: "This endpoint does not accept the {method} method.",
    413: "The request body is too large.",
    415: "Send the request body as JSON.",
}


# --------------------------------------------------------------------------------------------
# Catching a refusal where a page can show it


@dataclass
class Refused:
    """What a guarded change came to: through (falsy), refused, or overtaken by a change made
    on another phone (``stale``, with the game's version now when the service knew it)."""

    refusal: Refusal | None = None
    stale: bool = False
    current: int | None = None

    def __bool__(self) -> bool:
        return self.stale or self.refusal is not None


@contextmanager
def refusals() -> Iterator[Refused]:
    """Run a change; on a refusal or a lost race roll everything back (nothing is half
    saved) and say which, so the page can show it next to its field or seat."""
    refused = Refused()
    try:
        yield refused
    except (services.StaleVersion, StaleDataError) as error:
        db.session.rollback()  # on SQLite a lost race fails at flush (StaleDataError)
        refused.stale = True
        refused.current = getattr(error, "current", None)
    except Refusal as error:
        db.session.rollback()
        refused.refusal = error


# --------------------------------------------------------------------------------------------
# The error pages


def error_page(status: int, title: str, message: str, links: list[Link]) -> ResponseReturnValue:
    """The error page; the first link is the one most likely wanted."""
    return render_template("error.html", title=title, message=message, links=links), status


def back_to_game(status: int) -> list[Link]:
    """A link back to the game the request was about, unless the game is what is missing."""
    code = (request.view_args or {}).get("code")
    if status == 404 or not code:
        return []
    return [(url_for("games.scoreboard", code=code), gettext("Back to the scoreboard"))]


def home() -> Link:
    """The home page, always a way out."""
    return (url_for("main.index"), gettext("Home"))


def not_found_text() -> tuple[str, str]:
    """The title and message of a page that does not exist."""
    return gettext("Page not found"), gettext("There is no such page.")


def expired_form_message() -> str:
    """Why a form without its valid CSRF token was refused, and what to do."""
    return gettext(
        "This form has expired or did not come from this page; nothing was saved. "
        "Please check it and send it again."
    )


def http_error_page(error: HTTPException) -> ResponseReturnValue:
    """Any other refused page (an unknown address, a wrong method): our own page in the
    player's language instead of the server's bare English one."""
    status = error.code or 500
    if status == 404:
        title, message = not_found_text()
    elif status == 405:
        title = gettext("Please try again")
        message = gettext("This page cannot be used that way; nothing was saved.")
    elif status == 413:
        title = gettext("Please try again")
        message = gettext("What was sent is too large; nothing was saved.")
    elif isinstance(error, CSRFError):
        title, message = gettext("Please try again"), expired_form_message()
    elif status >= 500:
        title = gettext("Something went wrong")
        message = gettext("The server could not answer; nothing was saved. Please try again.")
    else:
        title = gettext("Please try again")
        message = gettext("The request could not be understood; nothing was saved.")
    return error_page(status, title, message, [home()])


def game_in_request() -> Game | None:
    """The game the failed request was about, if it (still) exists: error handlers must
    not raise, so a game deleted meanwhile answers ``None``."""
    code = (request.view_args or {}).get("code")
    try:
        return services.get_game(str(code)) if code else None
    except services.NotFound:
        return None


# --------------------------------------------------------------------------------------------
# Page areas: what a blueprint adds to its error pages


def _no_form_again(_message: str) -> ResponseReturnValue | None:
    return None


@dataclass(frozen=True)
class PageArea:
    """How one page blueprint answers what its views did not: the ways back from its error
    pages, the form it shows again (with ``message``) after an expired CSRF token, and which
    refusals it turns into pages of its own. Whatever it does not take stays a server error."""

    ways_back: Callable[[int], list[Link]]
    form_again: Callable[[str], ResponseReturnValue | None] = _no_form_again
    expired_message: Callable[[], str] = expired_form_message
    #: Its pages are about one game: a stale version shows the game as it is now (409), a
    #: 403 says this phone may only look at it, and a 404 is a page of the area's own.
    about_games: bool = False
    missing_game_after_conflict: bool = True  # else "page not found" when the game is gone
    bad_request: Callable[[], str] | None = None  # a 400 of its own


#: The page areas by blueprint name, declared by the blueprints as they are imported.
AREAS: dict[str, PageArea] = {}


def page_area(blueprint: str, area: PageArea) -> None:
    """Declare how the pages of ``blueprint`` show their errors."""
    AREAS[blueprint] = area


def area_of_request() -> PageArea | None:
    """The page area whose view failed (none for an address no view serves)."""
    return AREAS.get(request.blueprint or "")


def missing_game_page(area: PageArea) -> ResponseReturnValue:
    """An unknown game code (a mistyped or deleted game)."""
    db.session.rollback()
    message = gettext(
        "There is no game at this address. It may have been deleted, or the link was "
        "copied incompletely."
    )
    return error_page(404, gettext("Game not found"), message, area.ways_back(404))


def not_found_page(area: PageArea, error: HTTPException) -> ResponseReturnValue:
    """A page of the area that does not exist (an unknown player, a page past the end)."""
    title, fallback = not_found_text()
    message = error.description if error.description != NotFound.description else None
    return error_page(404, title, message or fallback, area.ways_back(404))


def conflict_page(area: PageArea) -> ResponseReturnValue:
    """Another phone changed the game first: nothing changed; show the game as it is now."""
    db.session.rollback()
    game = game_in_request()
    if game is not None:
        return render_scoreboard(game, editable=can_edit(game), conflict=True, status=409)
    if area.missing_game_after_conflict:
        return missing_game_page(area)
    return not_found_page(area, NotFound())


def page_http_error(area: PageArea, error: HTTPException) -> ResponseReturnValue:
    """An HTTP error raised by a view of the area, or before it ran (a CSRF check)."""
    if isinstance(error, CSRFError):
        db.session.rollback()
        message = area.expired_message()
        shown = area.form_again(message)
        if shown is not None:
            return shown
        return error_page(400, gettext("Please try again"), message, area.ways_back(400))
    if isinstance(error, Forbidden) and area.about_games:
        message = error.description if error.description != Forbidden.description else None
        return error_page(
            403,
            gettext("Not allowed from this phone"),
            message or gettext("This phone may only look at this game."),
            area.ways_back(403),
        )
    if isinstance(error, NotFound) and area.about_games:
        return not_found_page(area, error)
    if isinstance(error, BadRequest) and area.bad_request is not None:
        return error_page(400, gettext("Please try again"), area.bad_request(), area.ways_back(400))
    return http_error_page(error)


# --------------------------------------------------------------------------------------------
# The JSON API's answers


def is_api_request() -> bool:
    """Whether the failing request was meant for the API (even an unknown API path)."""
    prefix = current_app.blueprints[API].url_prefix or ""
    return request.path == prefix or request.path.startswith(f"{prefix}/")


def error_response(message: str, status: int) -> tuple[Response, int]:
    """The API's one shape of error."""
    return jsonify(error=message), status


def api_refusal(error: Refusal) -> tuple[Response, int]:
    """A refused request in the API's English. A malformed body or a name that is no colour
    or variant at all: 400; a well-formed body the rules refuse (RULES.md section 7): 422;
    a service's refusal: its own status, a stale version also telling the current one; a
    conflict's answer also tells the game as it is now."""
    message = str(error)
    if isinstance(error, ApiError):
        if error.state is not None:
            return jsonify({**error.state, "error": message}), error.status
        return error_response(message, error.status)
    if isinstance(error, services.StaleVersion):
        return jsonify(error=message, version=error.current), error.status
    if isinstance(error, services.ServiceError):
        return error_response(message, error.status)
    return error_response(message, refusal_status(error))


def api_lost_race() -> tuple[Response, int]:
    """Two phones saved at the same moment: the other one won; this one changed nothing."""
    db.session.rollback()
    code = (request.view_args or {}).get("code", "")
    current = db.session.scalar(sa.select(Game.version).where(Game.code == code))
    return api_refusal(services.StaleVersion(current or 0))


def api_http_error(error: HTTPException) -> tuple[Response, int]:
    """404, 405, 413 and the like, in the API's words."""
    status = error.code or 500
    template = HTTP_MESSAGES.get(status, error.description or "The request was refused.")
    return error_response(template.format(method=request.method), status)


# --------------------------------------------------------------------------------------------
# The handlers, by blueprint


def answer_http_error(error: HTTPException) -> ResponseReturnValue:
    """An HTTP error: JSON on the API, the area's page, or the app's error page."""
    if is_api_request():
        return api_http_error(error)
    area = area_of_request()
    return http_error_page(error) if area is None else page_http_error(area, error)


def answer_refusal(error: Refusal) -> ResponseReturnValue:
    """A refusal no view caught: JSON on the API; on a page, the conflict scoreboard or the
    missing game where the area shows them. Anything else is a server error, as before."""
    if is_api_request():
        return api_refusal(error)
    area = area_of_request()
    if area is not None and area.about_games and isinstance(error, services.StaleVersion):
        return conflict_page(area)
    if area is not None and isinstance(error, services.NotFound):
        return missing_game_page(area)
    raise error


def answer_lost_race(error: StaleDataError | IntegrityError) -> ResponseReturnValue:
    """Two phones saved at the same moment (SQLite takes no row lock: it fails at flush):
    the API says the game changed; a page area shows the game as it is now."""
    if is_api_request():
        return api_lost_race()
    area = area_of_request()
    if area is not None and area.about_games and isinstance(error, StaleDataError):
        return conflict_page(area)
    raise error


def init_app(app: Flask) -> None:
    """Register the one error path on the app, for every blueprint."""
    app.register_error_handler(HTTPException, answer_http_error)
    app.register_error_handler(Refusal, answer_refusal)
    app.register_error_handler(StaleDataError, answer_lost_race)
    app.register_error_handler(IntegrityError, answer_lost_race)
