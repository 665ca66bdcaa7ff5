"""Pages that differ by phone are sent ``Cache-Control: private, no-cache``: no shared cache
keeps them, and the phone's own asks each time (companion/web/security.py). Those that read
the phone's circles tell the service worker which (a digest, ``Sticheln-Circles``), so a
kept page showing them is kept again once they change (templates/pwa/sw.js)."""

from __future__ import annotations

import pytest
from flask import Flask

from companion.web.circle_rights import CIRCLES_HEADER
from companion.web.security import PER_PHONE_CACHE_CONTROL
from tests.table import Table, auth

PLAYERS = ["Ann", "Ben", "Cleo", "Dan"]


@pytest.fixture
def circles_server(app: Flask) -> Flask:
    app.config["CLUB_SERVER"] = False
    return app


@pytest.mark.parametrize(
    "page",
    [
        "/games/new",  # the phone's circles and their players' names, a form token
        "/g/{code}/rounds/record",  # the owner's form, with its token
        "/g/{code}/rounds/mark",
        "/g/{code}/rounds/live",
        "/history",
    ],
)
def test_a_page_that_differs_by_phone_is_private(
    circles_server: Flask, table: Table, page: str
) -> None:
    game = table.new_game(PLAYERS, "classic", 2, edit_here=True)
    answer = table.client.get(page.format(code=game["id"]))
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == PER_PHONE_CACHE_CONTROL


def test_a_public_page_keeps_its_own_caching(circles_server: Flask, table: Table) -> None:
    game = table.new_game(PLAYERS, "classic", 2, edit_here=True)
    assert table.client.get(f"/g/{game['id']}/view").headers["Cache-Control"] == "no-cache"
    assert "Cache-Control" not in table.client.get("/rules").headers


def test_the_circles_header_changes_when_the_phone_s_circles_do(
    circles_server: Flask, table: Table
) -> None:
    game = table.new_game(PLAYERS, "classic", 2, edit_here=True)
    phone = table.phone(game)
    in_the_circle = phone.get("/games/new").headers[CIRCLES_HEADER]
    assert phone.get("/history").headers[CIRCLES_HEADER] == in_the_circle
    stranger = table.phone().get("/games/new").headers[CIRCLES_HEADER]
    assert stranger != in_the_circle
    rotated = table.client.post(
        f"/api/v1/games/{game['id']}/edit-key",
        json={"version": game["version"]},
        headers=auth(game),
    )
    assert rotated.status_code == 200  # the phone's key, its tie to the circle, is gone
    assert phone.get("/history").headers[CIRCLES_HEADER] == stranger
    assert len(in_the_circle) == 16 and int(in_the_circle, 16) >= 0  # a digest, not the ids
