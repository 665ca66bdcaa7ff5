"""The pages of the main area: for now, the home page."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("main", __name__)


@bp.route("/")
def index() -> str:
    """Show the welcome page."""
    return render_template("home.html")
