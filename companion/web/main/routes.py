"""The home page: what the app does for a table, this phone's games, and the tools."""

from __future__ import annotations

from flask import render_template

from companion.web.main import bp
from companion.web.main.phone_games import finished_games, games_in_progress


@bp.route("/")
def index() -> str:
    """Show what the app does at the table, with this phone's games in progress and its
    recently finished ones."""
    return render_template("home.html", games=games_in_progress(), finished=finished_games())
