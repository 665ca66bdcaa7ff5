"""Many phones follow one game: a scoreboard is rendered once per change and language, then
served again from memory to every phone that asks for the same page (its ETag)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient

from tests.share.helpers import record_round
from tests.table import Table


def renderings(app: Flask) -> list[Any]:
    """A list that grows by one with every template the app renders."""
    seen: list[Any] = []

    def rendered(_app: Flask, template: Any, **_extra: Any) -> None:
        seen.append(template)

    template_rendered.connect(rendered, app, weak=False)
    return seen


@pytest.mark.parametrize("editing", [True, False], ids=["edit scoreboard", "read-only view"])
def test_a_second_phone_gets_the_same_scoreboard_without_a_new_rendering(
    app: Flask, client: FlaskClient, editing: bool, table: Table
) -> None:
    game = table.new_game(rounds=3)
    path = f"/g/{game['id']}" if editing else f"/g/{game['id']}/view"
    first_phone = table.phone(game) if editing else table.phone()
    first = first_phone.get(path)
    seen = renderings(app)
    again = first_phone.get(path)  # a full request: no If-None-Match
    assert again.status_code == 200 and seen == []
    assert again.get_data() == first.get_data()
    assert again.headers["ETag"] == first.headers["ETag"]
    if not editing:  # the read-only page is the same for every phone
        assert table.phone().get(path).get_data() == first.get_data() and seen == []


def test_a_change_renders_the_scoreboard_anew(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    path = f"/g/{game['id']}/view"
    before = client.get(path).get_data(as_text=True)
    assert record_round(client, game).status_code == 201
    seen = renderings(app)
    after = client.get(path)
    assert len(seen) >= 1 and after.get_data(as_text=True) != before
    assert "is-scored" in after.get_data(as_text=True) and "is-scored" not in before


def test_each_language_and_each_phone_s_rights_get_their_own_page(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    path = f"/g/{game['id']}"
    editor = table.phone(game)
    watcher = table.phone()
    edit_page = editor.get(path).get_data(as_text=True)
    watch_page = watcher.get(path).get_data(as_text=True)
    german = watcher.get(path, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "/rounds/record" in edit_page and "/rounds/record" not in watch_page
    assert '<html lang="de">' in german and '<html lang="en">' in watch_page
    assert "csrf_token" not in watch_page
