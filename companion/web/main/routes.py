"""The home page: what the app does for a table, this phone's games, and the tools.

The page is rendered once per change of what it shows, then served by ETag like the history
(``history_cache``): its tag covers the change counter (``data.change_counter``: any change
to a game, its rounds or a player's name moves it on), the games this phone keeps the score
of (its cookie), and the language, time zone, scheme, host, prefix and templates. One
statement of one row decides whether the kept page is still right; a phone that keeps no
game reads nothing at all. Another phone holding the same games gets the page already
rendered.
"""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue

from companion.data.change_counter import COUNTER_READ, counter_values
from companion.web.history_cache import BASE_STATIC, history_etag, kept_or_rendered
from companion.web.main import bp
from companion.web.main.phone_games import phone_codes, phone_games

HOME_TEMPLATE = "home.html"
#: Static files the home page links: base.html's and home.css.
HOME_STATIC = (*BASE_STATIC, "home.css")


def home_etag(codes: list[str]) -> str:
    """The strong ETag (unquoted) of the home page of a phone keeping the games ``codes``."""
    state = counter_values(COUNTER_READ.rows()[0]) if codes else []
    return history_etag(HOME_TEMPLATE, state, sorted(codes), static=HOME_STATIC)


@bp.route("/")
def index() -> ResponseReturnValue:
    """Show what the app does at the table, with this phone's games in progress and its
    recently finished ones."""

    def render() -> str:
        games = phone_games()
        return render_template(HOME_TEMPLATE, games=games.in_progress, finished=games.finished)

    codes = phone_codes()
    return kept_or_rendered(home_etag(codes), render, private=bool(codes))
