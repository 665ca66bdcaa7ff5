"""One friendly error page for every area: what went wrong, and the ways back from there."""

from __future__ import annotations

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

#: A way out of an error page: its address and its translated label.
Link = tuple[str, str]


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
