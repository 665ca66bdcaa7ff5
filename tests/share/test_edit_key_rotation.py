"""A new edit link takes edit rights back: the phone that makes it keeps them, every other
phone and the old key (link, session, API) lose them; a stale or unauthorised request
changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scripts.page_reader import csrf_token, read_page
from tests.db_snapshot import snapshot
from tests.share.helpers import (
    edit_url_on,
    form_version,
    page_of,
    record_round,
    text_of,
)
from tests.table import Table

LOST = "This phone may only look at this game: a new edit link was made"


def make_new_edit_link(editor: FlaskClient, code: str, version: str | None = None) -> Any:
    """Press "Make a new edit link" on the share page (with the version it shows, unless
    ``version`` says otherwise)."""
    page = page_of(editor, f"/g/{code}/share")
    return editor.post(
        f"/g/{code}/share",
        data={"csrf_token": csrf_token(page), "version": version or form_version(page)},
    )


def test_a_new_edit_link_keeps_this_phone_and_shuts_out_the_other_phones_and_the_old_key(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code, old_key = game["id"], game["edit_key"]
    keeper, other = table.phone(game), table.phone(game)

    answer = make_new_edit_link(keeper, code)
    assert answer.status_code == 302 and answer.headers["Location"] == f"/g/{code}/share"

    page = page_of(keeper, f"/g/{code}/share")
    new_key = edit_url_on(page, code)
    assert new_key and new_key != old_key
    assert "New edit link made. The old edit link no longer works" in text_of(page)
    assert read_page(page).find("details", class_="link-box--secret").get("open") is not None
    assert f'href="/g/{code}/abandon"' in page_of(keeper, f"/g/{code}")
    assert keeper.get(f"/g/{code}/abandon").status_code == 200

    # The other phone: a look only, and it is told why.
    refused = other.get(f"/g/{code}/abandon")
    assert refused.status_code == 403 and LOST in text_of(refused.get_data(as_text=True))
    board = text_of(page_of(other, f"/g/{code}"))
    assert "This phone can no longer change this game." in board
    assert "Manage the game" not in board
    assert "/edit/" not in page_of(other, f"/g/{code}/share")

    # The old link and the old key.
    opened = table.phone().get(f"/g/{code}/edit/{old_key}")
    assert opened.status_code == 403
    assert "a new edit link was made since" in text_of(opened.get_data(as_text=True))
    before = table.state(game)
    api = record_round(client, before, key=old_key)
    assert api.status_code == 403 and api.json == {
        "error": "This key does not allow changes to this game."
    }

    # The new key works, by link and by API.
    assert table.phone(game, key=new_key).get(f"/g/{code}/abandon").status_code == 200
    assert record_round(client, before, key=new_key).status_code == 201


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/g/{code}/rounds/record"),
        ("POST", "/g/{code}/rounds/record"),
        ("GET", "/g/{code}/rounds/mark"),
        ("GET", "/g/{code}/rounds/live"),
        ("POST", "/g/{code}/rounds/live"),
        ("GET", "/g/{code}/delete"),
        ("POST", "/g/{code}/share"),
        ("POST", "/g/{code}/exclude"),
    ],
)
def test_every_edit_page_tells_a_replaced_phone_that_a_new_edit_link_was_made(
    app: Flask, client: FlaskClient, method: str, path: str, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code = game["id"]
    keeper, other = table.phone(game), table.phone(game)
    token = csrf_token(page_of(other, f"/g/{code}"))  # before the new link: it had rights
    assert make_new_edit_link(keeper, code).status_code == 302
    with app.app_context():
        before = snapshot()

    answer = other.open(
        path.format(code=code),
        method=method,
        data={"csrf_token": token, "version": str(game["version"] + 1)},
    )

    assert answer.status_code == 403
    assert LOST in text_of(answer.get_data(as_text=True))
    with app.app_context():
        assert snapshot() == before


def test_the_api_makes_a_new_edit_key_and_the_old_one_stops_working(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code, old_key = game["id"], game["edit_key"]

    answer = client.post(
        f"/api/v1/games/{code}/edit-key",
        json={"version": game["version"]},
        headers={"Authorization": f"Bearer {old_key}"},
    )

    assert answer.status_code == 200
    assert set(answer.json) == {"edit_key", "version"}
    assert answer.json["edit_key"] != old_key and len(answer.json["edit_key"]) >= 20
    assert answer.json["version"] == game["version"] + 1 == table.state(game)["version"]
    assert answer.headers["Cache-Control"] == "no-store"
    now = table.state(game)
    assert record_round(client, now, key=old_key).status_code == 403
    assert record_round(client, now, key=answer.json["edit_key"]).status_code == 201


def test_only_the_hash_of_the_new_key_is_stored(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    answer = client.post(
        f"/api/v1/games/{game['id']}/edit-key",
        json={"version": game["version"]},
        headers={"Authorization": f"Bearer {game['edit_key']}"},
    )
    with app.app_context():
        rows = repr(snapshot())
    assert answer.json["edit_key"] not in rows and game["edit_key"] not in rows


def test_a_stale_page_makes_no_new_edit_link_and_says_why(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code = game["id"]
    keeper = table.phone(game)
    with app.app_context():
        before = snapshot()

    answer = make_new_edit_link(keeper, code, version=str(game["version"] - 1))

    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert "This game changed on another phone meanwhile, so no new edit link was made." in (
        text_of(page)
    )
    assert 'id="version-errors"' in page and form_version(page) == str(game["version"])
    assert edit_url_on(page, code) == game["edit_key"]
    with app.app_context():
        assert snapshot() == before


def test_a_stale_api_request_answers_409_with_the_version_and_changes_nothing(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    with app.app_context():
        before = snapshot()
    answer = client.post(
        f"/api/v1/games/{game['id']}/edit-key",
        json={"version": game["version"] + 5},
        headers={"Authorization": f"Bearer {game['edit_key']}"},
    )
    assert answer.status_code == 409
    assert answer.json["version"] == game["version"] and "version" in answer.json["error"]
    with app.app_context():
        assert snapshot() == before


def test_the_api_refuses_a_new_key_without_the_current_one_or_a_version(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    url = f"/api/v1/games/{game['id']}/edit-key"
    auth = {"Authorization": f"Bearer {game['edit_key']}"}
    with app.app_context():
        before = snapshot()

    missing = client.post(url, json={"version": game["version"]})
    wrong = client.post(
        url, json={"version": game["version"]}, headers={"Authorization": "Bearer x"}
    )
    no_version = client.post(url, json={}, headers=auth)
    bad_version = client.post(url, json={"version": "one"}, headers=auth)

    assert missing.status_code == 401 and "Authorization: Bearer" in missing.json["error"]
    assert wrong.status_code == 403 and "does not allow changes" in wrong.json["error"]
    assert no_version.status_code == 400 and "version" in no_version.json["error"]
    assert bad_version.status_code == 400 and "version" in bad_version.json["error"]
    with app.app_context():
        assert snapshot() == before


def test_a_watching_phone_cannot_make_a_new_edit_link(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    watcher = table.phone()
    token = csrf_token(page_of(watcher, "/games/new"))  # a valid token of this phone's session
    with app.app_context():
        before = snapshot()

    answer = watcher.post(
        f"/g/{game['id']}/share", data={"csrf_token": token, "version": str(game["version"])}
    )

    assert answer.status_code == 403
    assert "This phone may only look at this game." in text_of(answer.get_data(as_text=True))
    with app.app_context():
        assert snapshot() == before


def test_a_form_without_its_csrf_token_changes_nothing_and_says_so(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    keeper = table.phone(game)
    with app.app_context():
        before = snapshot()

    answer = keeper.post(f"/g/{game['id']}/share", data={"version": str(game["version"])})

    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert 'id="csrf-errors"' in page and "This form has expired" in text_of(page)
    assert edit_url_on(page, game["id"]) == game["edit_key"]
    with app.app_context():
        assert snapshot() == before
