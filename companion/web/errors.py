"""One error path: every refusal, HTTP error and lost race, as JSON or as a page.

A refusal (``companion.rules.Refusal``: a rule, a service or the API's reading of a request)
carries its message and, where it applies, the field and seat it concerns. Pages that can
show it next to a field or a seat catch it with :func:`refusals`, which also rolls back so
nothing is half saved. What no view catches is answered by Flask's error handlers, which
each blueprint registers for itself:

- the JSON API (:func:`register_api_errors`, and ``init_app`` for a path under its prefix
  that no view serves): ``{"error": "<one sentence>"}`` with the status codes of
  DESIGN.md "JSON API";
- a page area (:func:`register_page_errors` with its ``PageArea``): its own error pages,
  with its ways back, the game as it is now after a lost race (the conflict scoreboard,
  ``scoreboard_page.conflict_scoreboard``) and the forms it shows again after an expired
  token;
- any other page: one friendly error page in the player's language.

This module maps refusals to pages and JSON, and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

import sqlalchemy as sa
from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import BadRequest, Forbidden, HTTPException, NotFound, TooManyRequests

from companion import services
from companion.data.models import Game, db
from companion.play_state.parse import ApiError, refusal_status
from companion.rules import Refusal
from companion.web.scoreboard_page import conflict_scoreboard

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
    429: (
        "Too many games were started from this address in a short time; nothing was "
        "started. Try again after the number of seconds the Retry-After header gives."
    ),
}


# --------------------------------------------------------------------------------------------
# Catching a refusal where a page can show it


@dataclass
class Guarded:
    """What a guarded change came to: through, refused (``refusal``), or overtaken by a
    change made on another phone (``stale``, with the game's version now when the service
    knew it)."""

    refusal: Refusal | None = None
    stale: bool = False
    current: int | None = None

    @property
    def failed(self) -> bool:
        """Whether nothing was saved: refused or stale."""
        return self.stale or self.refusal is not None


@contextmanager
def refusals() -> Iterator[Guarded]:
    """Run a change; on a refusal or a lost race roll everything back (nothing is half
    saved) and say which, so the page can show it next to its field or seat."""
    guarded = Guarded()
    try:
        yield guarded
    except (services.StaleVersion, StaleDataError) as error:
        db.session.rollback()  # on SQLite a lost race fails at flush (StaleDataError)
        guarded.stale = True
        guarded.current = getattr(error, "current", None)
    except Refusal as error:
        db.session.rollback()
        guarded.refusal = error


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
        return conflict_scoreboard(game)
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
    if isinstance(error, TooManyRequests):
        return too_many_starts_page(area)
    told = error.description != type(error).description  # a view's own words: say them
    if isinstance(error, Forbidden) and (area.about_games or told):
        message = error.description if told else None
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


def too_many_starts_page(area: PageArea) -> ResponseReturnValue:
    """A game start refused by the rate limit (companion/web/rate_limits.py): the form again
    with the reason where the area has one (the new-game page), else a page saying it."""
    db.session.rollback()
    message = gettext(
        "Too many games were started from this network in a short time, so this one was not "
        "started. Please wait a few minutes, then try again."
    )
    shown = area.form_again(message)
    if shown is not None:
        return (shown[0] if isinstance(shown, tuple) else shown), 429
    return error_page(429, gettext("Please wait a little"), message, area.ways_back(429))


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


def api_lost_race(_error: StaleDataError | IntegrityError) -> tuple[Response, int]:
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
# The handlers, registered by each blueprint


def page_refusal(area: PageArea, error: Refusal) -> ResponseReturnValue:
    """A refusal no view of the area caught: the conflict scoreboard or the missing game
    where the area shows them; anything else is a server error."""
    if area.about_games and isinstance(error, services.StaleVersion):
        return conflict_page(area)
    if isinstance(error, services.NotFound):
        return missing_game_page(area)
    raise error


def page_lost_race(area: PageArea, error: StaleDataError | IntegrityError) -> ResponseReturnValue:
    """Two phones saved at the same moment (SQLite fails at flush): the game as it is now."""
    if area.about_games and isinstance(error, StaleDataError):
        return conflict_page(area)
    raise error


def register_page_errors(blueprint: Blueprint, area: PageArea) -> None:
    """Answer what the views of ``blueprint`` did not, as ``area`` says."""
    blueprint.register_error_handler(HTTPException, partial(page_http_error, area))
    blueprint.register_error_handler(Refusal, partial(page_refusal, area))
    blueprint.register_error_handler(StaleDataError, partial(page_lost_race, area))
    blueprint.register_error_handler(IntegrityError, partial(page_lost_race, area))


def register_api_errors(blueprint: Blueprint) -> None:
    """Answer every refusal, HTTP error and lost race of the API's views as JSON."""
    blueprint.register_error_handler(HTTPException, api_http_error)
    blueprint.register_error_handler(Refusal, api_refusal)
    blueprint.register_error_handler(StaleDataError, api_lost_race)
    blueprint.register_error_handler(IntegrityError, api_lost_race)


def answer_http_error(error: HTTPException) -> ResponseReturnValue:
    """An HTTP error no blueprint took (an address no view serves, a wrong method): JSON
    under the API's prefix, else the app's error page."""
    return api_http_error(error) if is_api_request() else http_error_page(error)


def init_app(app: Flask) -> None:
    """The app's own handler, for the requests no blueprint's view was found for."""
    app.register_error_handler(HTTPException, answer_http_error)
