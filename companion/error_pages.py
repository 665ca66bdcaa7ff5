"""One friendly error page for every area: what went wrong, and the ways back from there."""

from __future__ import annotations

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

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
