"""The home page: what the app does for a table, this phone's games, and the tools."""

from __future__ import annotations

from flask import render_template

from companion.web.main import bp
from companion.web.main.phone_games import phone_games


@bp.route("/")
def index() -> str:
    """Show what the app does at the table, with this phone's games in progress and its
    recently finished ones."""
    games = phone_games()
    return render_template("home.html", games=games.in_progress, finished=games.finished)
