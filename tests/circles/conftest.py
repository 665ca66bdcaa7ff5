"""Circles' fixtures (issue 28): the app as a server of circles (``CLUB_SERVER`` off), and
tables that start their games from their own phones, each game in the phone's circle."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web.edit_rights import SESSION_KEYS
from tests.games.test_game_pages import create_through_form
from tests.history.helpers import quick
from tests.table import Table

#: One round of three players (14, 13, 9 points: quick entries of 5, 5 and 4 tricks).
THREE = [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)]


@pytest.fixture
def circles_app(app: Flask) -> Flask:
    """The app as a server open to many tables: each table's history is its circle's."""
    app.config["CLUB_SERVER"] = False
    return app


class Tables:
    """Phones that start games through the new-game page, as a table does: a phone's first
    game makes its circle, and later ones join the circle it chooses (its last, unless
    ``circle`` says otherwise)."""

    def __init__(self, app: Flask, table: Table) -> None:
        self.app = app
        self.table = table

    def phone(self) -> FlaskClient:
        """A phone in no circle yet."""
        return self.app.test_client()

    def start(
        self, phone: FlaskClient, names: list[str], rounds: int = 1, circle: str | None = None
    ) -> dict[str, Any]:
        """A game started on ``phone``'s new-game page (in a new circle when ``circle`` is
        "new"), as the API would answer it: its code, edit key and version."""
        fields: dict[str, Any] = {"rounds": rounds}
        if circle is not None:
            fields["circle"] = circle
        code = create_through_form(phone, names, **fields)
        with phone.session_transaction() as session:
            key = session[SESSION_KEYS][code]
        game = {"id": code, "edit_key": key}
        game["version"] = self.table.state(game)["version"]
        return game

    def played(
        self, phone: FlaskClient, names: list[str], rounds: int = 1, circle: str | None = None
    ) -> dict[str, Any]:
        """A game started on ``phone`` with its first round recorded."""
        game = self.start(phone, names, rounds, circle)
        return self.table.record(game, THREE)

    def join(self, phone: FlaskClient, game: dict[str, Any]) -> FlaskClient:
        """``phone`` opens ``game``'s edit link, and so joins its circle."""
        return self.table.give_edit_rights(phone, game)


@pytest.fixture
def tables(circles_app: Flask, table: Table) -> Tables:
    """Tables starting games on a server of circles."""
    return Tables(circles_app, table)
