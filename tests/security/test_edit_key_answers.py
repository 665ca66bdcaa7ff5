"""No answer that hands out an edit key is ever stored by a cache."""

from __future__ import annotations

from flask.testing import FlaskClient

from companion.config import SESSION_COOKIE_NAME
from scripts.page_reader import csrf_token

PLAYERS = ["Ann", "Ben", "Cleo"]


def test_the_api_answer_holding_a_new_game_s_edit_key_is_never_stored(
    client: FlaskClient,
) -> None:
    answer = client.post("/api/v1/games", json={"players": PLAYERS, "variant": "classic"})
    assert answer.status_code == 201 and answer.get_json()["edit_key"]
    assert answer.headers["Cache-Control"] == "no-store"


def test_the_edit_link_s_answer_is_never_stored(client: FlaskClient) -> None:
    game = client.post("/api/v1/games", json={"players": PLAYERS, "variant": "classic"}).json
    answer = client.get(f"/g/{game['id']}/edit/{game['edit_key']}")
    assert answer.status_code == 302
    cookies = answer.headers.getlist("Set-Cookie")
    assert any(cookie.startswith(f"{SESSION_COOKIE_NAME}=") for cookie in cookies)
    assert answer.headers["Cache-Control"] == "no-store"


def test_the_new_game_form_s_answer_is_never_stored(client: FlaskClient) -> None:
    """Its session cookie holds the new game's edit key."""
    page = client.get("/games/new").get_data(as_text=True)
    fields = {f"player_{seat}": name for seat, name in enumerate(PLAYERS)}
    answer = client.post(
        "/games/new",
        data={"csrf_token": csrf_token(page), **fields, "variant": "classic", "rounds": "3"},
    )
    assert answer.status_code == 302
    assert answer.headers["Cache-Control"] == "no-store"
