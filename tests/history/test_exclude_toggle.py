"""The scoreboard's switch that leaves a game out of the statistics: only on a phone with
edit rights, version-checked like abandon, CSRF-protected, and shown in the history."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scripts.page_reader import csrf_token, read_page
from tests.db_snapshot import snapshot
from tests.history.helpers import (
    history_items,
    quick,
    text_of,
)
from tests.table import Table

EXCLUDED_LINE = "This game is excluded from statistics: it stays in the history but counts nowhere."


@pytest.fixture
def game(client: FlaskClient, table: Table) -> dict[str, Any]:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(game, [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)])
    table.give_edit_rights(client, game)
    return game


def toggle_form(page: str) -> dict[str, str]:
    """The exclude form's fields, as the browser would send them."""
    forms = read_page(page).find_all("form", class_="exclude-form")
    assert forms, "the scoreboard has no exclude switch"
    form = forms[0]
    action = str(form.get("action"))
    assert form.get("method") == "post" and re.fullmatch(r"/g/[^/]+/exclude", action), action
    fields = {
        str(field.get("name")): str(field.get("value"))
        for field in form.find_all("input", type="hidden")
    }
    fields["action"] = action
    return fields


def press(client: FlaskClient, code: str) -> Any:
    fields = toggle_form(client.get(f"/g/{code}").get_data(as_text=True))
    action = fields.pop("action")
    return client.post(action, data=fields)


def test_the_switch_leaves_the_game_out_and_brings_it_back(
    client: FlaskClient, game: dict[str, Any]
) -> None:
    page = client.get(f"/g/{game['id']}").get_data(as_text=True)
    fields = toggle_form(page)
    assert fields["excluded"] == "1" and fields["version"] == str(game["version"])
    assert "Exclude from statistics" in page and EXCLUDED_LINE not in page
    assert client.get("/api/v1/players/Ann").json["games"] == 1

    answer = press(client, game["id"])
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/g/{game['id']}"
    page = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert EXCLUDED_LINE in text_of(page)
    assert "Count in statistics again" in page
    assert toggle_form(page)["version"] == str(game["version"] + 1)  # a change: new version
    assert client.get("/api/v1/players/Ann").json["games"] == 0
    assert (
        "not counted in statistics"
        in history_items(client.get("/history").get_data(as_text=True))[0]
    )

    assert press(client, game["id"]).status_code == 302
    assert client.get("/api/v1/players/Ann").json["games"] == 1
    assert "not counted" not in history_items(client.get("/history").get_data(as_text=True))[0]


def test_the_read_only_view_and_other_phones_have_no_switch(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    assert "exclude-form" not in client.get(f"/g/{game['id']}/view").get_data(as_text=True)
    stranger = app.test_client()
    assert "exclude-form" not in stranger.get(f"/g/{game['id']}").get_data(as_text=True)


def test_a_stale_version_changes_nothing(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    fields = toggle_form(client.get(f"/g/{game['id']}").get_data(as_text=True))
    # another phone corrects a round meanwhile
    answer = client.put(
        f"/api/v1/games/{game['id']}/rounds/1",
        json={
            "version": game["version"],
            "entries": [quick("red 1", 4), quick("blue 2", 6), quick("green 3", 4)],
        },
        headers={"Authorization": f"Bearer {game['edit_key']}"},
    )
    assert answer.status_code == 200
    with app.app_context():
        before = snapshot()
    action = fields.pop("action")
    answer = client.post(action, data=fields)
    assert answer.status_code == 409
    assert "This game changed on another phone." in answer.get_data(as_text=True)
    with app.app_context():
        assert snapshot() == before


def test_a_phone_without_edit_rights_is_refused(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    stranger = app.test_client()
    token = csrf_token(stranger.get("/games/new").get_data(as_text=True))
    with app.app_context():
        before = snapshot()
    answer = stranger.post(
        f"/g/{game['id']}/exclude",
        data={"csrf_token": token, "version": str(game["version"]), "excluded": "1"},
    )
    assert answer.status_code == 403
    assert "This phone may only look at this game." in answer.get_data(as_text=True)
    with app.app_context():
        assert snapshot() == before


def test_a_form_without_its_csrf_token_is_refused(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    with app.app_context():
        before = snapshot()
    answer = client.post(
        f"/g/{game['id']}/exclude", data={"version": str(game["version"]), "excluded": "1"}
    )
    assert answer.status_code == 400
    assert "nothing was saved" in answer.get_data(as_text=True)
    with app.app_context():
        assert snapshot() == before


@pytest.mark.parametrize("value", ["", "yes", "2"])
def test_a_tampered_switch_is_refused(
    client: FlaskClient, game: dict[str, Any], value: str
) -> None:
    fields = toggle_form(client.get(f"/g/{game['id']}").get_data(as_text=True))
    action = fields.pop("action")
    answer = client.post(action, data={**fields, "excluded": value})
    assert answer.status_code == 400
    assert client.get("/api/v1/players/Ann").json["games"] == 1


def test_an_unknown_game_is_not_found(client: FlaskClient, game: dict[str, Any]) -> None:
    token = csrf_token(client.get("/games/new").get_data(as_text=True))
    answer = client.post(
        "/g/nosuchgame/exclude", data={"csrf_token": token, "version": "1", "excluded": "1"}
    )
    assert answer.status_code == 404
    assert "Game not found" in answer.get_data(as_text=True)
