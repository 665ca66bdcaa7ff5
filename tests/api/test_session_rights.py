"""The phone's own edit right through the API (issue 26, point 5): the app's own pages (the
offline outbox) send what a phone entered with no network with only its session cookie,
never a key copied into JavaScript (companion/web/api/rights.py, docs/api.md). The browser
says our pages sent it (``Sec-Fetch-Site: same-origin``); any other request gets no right
from the cookie, and a new edit link takes the right away as it does on the pages."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web.api import rights
from companion.web.security import OLD_SESSION_COOKIE, OWN_PAGES
from tests.api.test_games_api import round_entries
from tests.api.test_idempotency import CHANGES, Change
from tests.db_snapshot import snapshot
from tests.table import Table, auth, same_phone

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
#: What the browser adds to a fetch of our own pages.
OWN_PAGE = {"Sec-Fetch-Site": OWN_PAGES}
#: Requests that carry the phone's cookie but did not come from our pages.
NOT_OUR_PAGES = {
    "no Sec-Fetch-Site (an older browser, a program)": {},
    "another site": {"Sec-Fetch-Site": "cross-site"},
    "a sibling subdomain": {"Sec-Fetch-Site": "same-site"},
    "typed, not a page": {"Sec-Fetch-Site": "none"},
}


def recording(game: dict[str, Any], index: int = 0) -> dict[str, Any]:
    """The body that records round ``index + 1`` of ``game`` at its version now."""
    return {"version": game["version"], "entries": round_entries(index), "number": index + 1}


def rounds_url(game: dict[str, Any]) -> str:
    return f"/api/v1/games/{game['id']}/rounds"


def scores(table: Table, game: dict[str, Any]) -> list[list[int]]:
    return [round_["scores"] for round_ in table.state(game)["rounds"]]


def test_a_phone_records_and_corrects_a_round_with_only_its_cookie(table: Table) -> None:
    game = table.new_game(NAMES, "classic", 3)
    phone = table.phone(game)
    recorded = phone.post(rounds_url(game), json=recording(game), headers=OWN_PAGE)
    assert recorded.status_code == 201, recorded.json
    assert [r["number"] for r in table.state(game)["rounds"]] == [1]
    first_scores = scores(table, game)
    corrected = phone.put(
        f"{rounds_url(game)}/1",
        json={"version": recorded.json["version"], "entries": round_entries(1)},
        headers=OWN_PAGE,
    )
    assert corrected.status_code == 200, corrected.json
    assert scores(table, game) != first_scores
    assert table.state(game)["version"] == corrected.json["version"] > recorded.json["version"]


def phone_change(table: Table, name: str) -> tuple[FlaskClient, Change]:
    """The change ``name`` of a game (tests/api/test_idempotency.py), sent by a phone that
    opened the game's edit link, without the Bearer header."""
    method, url, arguments = CHANGES[name](table)
    headers = dict(arguments["headers"])
    key = headers.pop("Authorization").removeprefix("Bearer ")
    code = url.split("/")[4]
    phone = table.phone({"id": code}, key)
    return phone, (method, url, {**arguments, "headers": headers})


def send(phone: FlaskClient, change: Change, **headers: str) -> Any:
    method, url, arguments = change
    sent = {**arguments["headers"], **headers}
    return phone.open(url, method=method, **{**arguments, "headers": sent})


NEEDS_THE_KEY = [name for name in CHANGES if name != "create a game"]


@pytest.mark.parametrize("name", NEEDS_THE_KEY)
def test_every_change_takes_the_phone_s_own_right_from_our_pages(table: Table, name: str) -> None:
    """Marking and playing live included, as the outbox sends them."""
    phone, change = phone_change(table, name)
    answer = send(phone, change, **OWN_PAGE)
    assert answer.status_code in (200, 201), answer.json


@pytest.mark.parametrize("name", NEEDS_THE_KEY)
@pytest.mark.parametrize("headers", list(NOT_OUR_PAGES.values()), ids=list(NOT_OUR_PAGES))
def test_a_request_not_from_our_pages_gets_no_right_from_the_cookie_and_changes_nothing(
    app: Flask, table: Table, name: str, headers: dict[str, str]
) -> None:
    phone, change = phone_change(table, name)
    with app.app_context():
        before = snapshot()
    refused = send(phone, change, **headers)
    assert refused.status_code == 401
    assert refused.json == {"error": rights.NO_KEY}
    with app.app_context():
        assert snapshot() == before


def test_after_a_new_edit_link_the_old_phone_is_told_so_and_changes_nothing(
    app: Flask, table: Table
) -> None:
    game = table.new_game(NAMES, "classic", 3)
    old_phone = table.phone(game)
    rotated = table.client.post(
        f"/api/v1/games/{game['id']}/edit-key",
        json={"version": game["version"]},
        headers=auth(game),
    )
    assert rotated.status_code == 200
    game["version"] = rotated.json["version"]
    with app.app_context():
        before = snapshot()
    refused = old_phone.post(rounds_url(game), json=recording(game), headers=OWN_PAGE)
    assert refused.status_code == 403
    assert "a new edit link was made" in refused.json["error"]
    with app.app_context():
        assert snapshot() == before
    new_phone = table.phone(game, rotated.json["edit_key"])
    recorded = new_phone.post(rounds_url(game), json=recording(game), headers=OWN_PAGE)
    assert recorded.status_code == 201, recorded.json


def test_a_phone_that_makes_a_new_edit_link_with_its_own_right_keeps_it(table: Table) -> None:
    """As on the share page: the old key stops working, this phone goes on with the new one;
    the answer holding the key is never stored."""
    game = table.new_game(NAMES, "classic", 3)
    phone = table.phone(game)
    rotated = phone.post(
        f"/api/v1/games/{game['id']}/edit-key", json={"version": game["version"]}, headers=OWN_PAGE
    )
    assert rotated.status_code == 200, rotated.json
    assert rotated.headers["Cache-Control"] == "no-store"
    game["version"] = rotated.json["version"]
    recorded = phone.post(rounds_url(game), json=recording(game), headers=OWN_PAGE)
    assert recorded.status_code == 201, recorded.json
    stale = table.client.post(rounds_url(game), json=recording(game, 1), headers=auth(game))
    assert stale.status_code == 403


def test_a_change_sent_again_with_the_phone_s_right_is_answered_as_the_first_and_applied_once(
    app: Flask, table: Table
) -> None:
    game = table.new_game(NAMES, "classic", 3)
    phone = table.phone(game)
    headers = {**OWN_PAGE, "Idempotency-Key": "outbox-session-0001"}
    first = phone.post(rounds_url(game), json=recording(game), headers=headers)
    assert first.status_code == 201, first.json
    assert "Idempotent-Replayed" not in first.headers
    with app.app_context():
        before = snapshot()
    again = phone.post(rounds_url(game), json=recording(game), headers=headers)
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.data == first.data
    with app.app_context():
        assert snapshot() == before
    assert [r["number"] for r in table.state(game)["rounds"]] == [1]


def test_a_bearer_header_wins_over_the_phone_s_right(app: Flask, table: Table) -> None:
    """A wrong key is refused even from a phone whose cookie would open the game."""
    game = table.new_game(NAMES, "classic", 3)
    other = table.new_game(NAMES, "classic", 3)
    phone = table.phone(game)
    with app.app_context():
        before = snapshot()
    refused = phone.post(
        rounds_url(game), json=recording(game), headers={**OWN_PAGE, **auth(other)}
    )
    assert refused.status_code == 403
    assert refused.json == {"error": rights.WRONG_KEY}
    with app.app_context():
        assert snapshot() == before


def test_a_good_bearer_header_opens_the_game_for_a_phone_whose_right_was_taken(
    table: Table,
) -> None:
    game = table.new_game(NAMES, "classic", 3)
    old_phone = table.phone(game)
    rotated = table.client.post(
        f"/api/v1/games/{game['id']}/edit-key",
        json={"version": game["version"]},
        headers=auth(game),
    )
    game.update(edit_key=rotated.json["edit_key"], version=rotated.json["version"])
    recorded = old_phone.post(
        rounds_url(game), json=recording(game), headers={**OWN_PAGE, **auth(game)}
    )
    assert recorded.status_code == 201, recorded.json


def with_the_old_cookie(table: Table, game: dict[str, Any]) -> FlaskClient:
    """A phone keeping the game's edit key under the session cookie's old name (``session``,
    tests/security/test_cookie_scope.py): its next answer writes it under the new name."""
    opened = table.phone(game)
    cookie = opened.get_cookie(table.app.config["SESSION_COOKIE_NAME"])
    assert cookie is not None
    phone = table.app.test_client()
    phone.set_cookie(OLD_SESSION_COOKIE, cookie.value)
    return phone


def test_an_answer_that_writes_the_phone_s_edit_keys_is_never_stored(table: Table) -> None:
    """The cookie holds edit keys: no cache may keep an answer that sets it, not even the
    game's state, which is otherwise kept (and revalidated)."""
    game = table.new_game(NAMES, "classic", 3)
    name = table.app.config["SESSION_COOKIE_NAME"]
    recorded = with_the_old_cookie(table, game).post(
        rounds_url(game), json=recording(game), headers=OWN_PAGE
    )
    assert recorded.status_code == 201, recorded.json
    assert any(v.startswith(f"{name}=") for v in recorded.headers.getlist("Set-Cookie"))
    assert recorded.headers.get("Cache-Control") == "no-store"
    state = with_the_old_cookie(table, game).get(f"/api/v1/games/{game['id']}")
    assert any(v.startswith(f"{name}=") for v in state.headers.getlist("Set-Cookie"))
    assert state.headers.get("Cache-Control") == "no-store"
    assert table.client.get(f"/api/v1/games/{game['id']}").headers["Cache-Control"] == "no-cache"


def started(phone: FlaskClient, key: str, **headers: str) -> Any:
    """A game started through the API as a phone's outbox starts the game it started
    offline: with an idempotency key, and no Bearer header (there is no game yet)."""
    body = {"players": NAMES, "variant": "classic", "rounds": 2}
    return phone.post("/api/v1/games", json=body, headers={"Idempotency-Key": key, **headers})


def test_a_game_our_pages_start_gives_the_phone_its_right_and_a_replay_too(
    table: Table,
) -> None:
    """Issue 26, point 4: a game started offline is sent by the phone's outbox; the phone
    then records its rounds with its own right, as if it had used the new-game page. The
    answer lost (the phone's cookie as it was before the start, with the id its new-game
    page gave it) and the game sent again: the replay gives the right as well, and starts
    no second game."""
    phone = table.app.test_client()
    assert phone.get("/games/new").status_code == 200
    other_tab = same_phone(table.app, phone)  # the cookie before the answer
    first = started(phone, "started-offline-1", **OWN_PAGE)
    assert first.status_code == 201, first.json
    recorded = phone.post(rounds_url(first.json), json=recording(first.json), headers=OWN_PAGE)
    assert recorded.status_code == 201, recorded.json
    again = started(other_tab, "started-offline-1", **OWN_PAGE)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json["id"] == first.json["id"]
    state = table.state(first.json)
    recorded = other_tab.post(rounds_url(state), json=recording(state, 1), headers=OWN_PAGE)
    assert recorded.status_code == 201, recorded.json
    assert [r["number"] for r in table.state(first.json)["rounds"]] == [1, 2]


@pytest.mark.parametrize("headers", list(NOT_OUR_PAGES.values()), ids=list(NOT_OUR_PAGES))
def test_a_game_started_by_anyone_else_gives_the_cookie_no_right(
    table: Table, headers: dict[str, str]
) -> None:
    phone = table.app.test_client()
    game = started(phone, "started-elsewhere-1", **headers)
    assert game.status_code == 201, game.json
    refused = phone.post(rounds_url(game.json), json=recording(game.json), headers=OWN_PAGE)
    assert refused.status_code == 401, refused.json
    assert table.state(game.json)["rounds"] == []
