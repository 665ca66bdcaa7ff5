"""Pages of a whole game: new game, scoreboard, read-only view, edit link, abandon, delete."""

from __future__ import annotations

from flask import render_template

from companion import services
from companion.games import bp


@bp.get("/g/<code>")
def scoreboard(code: str) -> str:
    """The scoreboard, with edit controls on a device holding the edit key."""
    game = services.get_game(code)
    return render_template("games/scoreboard.html", game=game)


@bp.get("/g/<code>/view")
def view(code: str) -> str:
    """The read-only scoreboard that the share link opens."""
    game = services.get_game(code)
    return render_template("games/scoreboard.html", game=game)
