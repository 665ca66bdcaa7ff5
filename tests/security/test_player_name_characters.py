"""One spelling per player: "Ａｎｎ" is "Ann", and "Ann" with an invisible
or writing-direction character is refused, in the new-game form, the API, a rename and a
backup import. Never three look-alikes in the shared history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import Player, db
from companion.data.names import clean_name, name_character_problem, name_key
from scripts.page_reader import csrf_token, read_page
from tests.db_snapshot import snapshot

#: Characters that show nothing or turn the text around: zero width space, left-to-right
#: and right-to-left marks, the embeddings and overrides, the isolates, the byte order mark,
#: the soft hyphen, and the line and paragraph separators.
INVISIBLE = [
    "\u200b",
    "\u200e",
    "\u200f",
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\ufeff",
    "\u00ad",
    "\u2028",
    "\u2029",
]
REFUSAL = "A name cannot contain invisible characters or characters that change the writing"


def create(client: FlaskClient, players: list[str]) -> dict[str, object]:
    answer = client.post("/api/v1/games", json={"players": players, "variant": "classic"})
    result: dict[str, object] = answer.get_json()
    result["status"] = answer.status_code
    return result


def known(app: Flask) -> list[str]:
    """Every player the server knows, by name."""
    with app.app_context():
        return sorted(db.session.scalars(db.select(Player.name)))


def test_full_width_letters_are_the_same_player(app: Flask, client: FlaskClient) -> None:
    assert create(client, ["Ann", "Ben", "Cleo"])["status"] == 201
    game = create(client, ["Ａｎｎ", "ＢＥＮ", "Dan"])
    assert game["players"] == ["Ann", "Ben", "Dan"]
    assert known(app) == ["Ann", "Ben", "Cleo", "Dan"]


def test_a_full_width_name_is_written_plainly_when_new() -> None:
    assert clean_name("  Ｚｏé\u3000Ｋ ") == "Zoé K"
    assert name_key("Ａｎｎ") == name_key("ann") == name_key("ANN")


@pytest.mark.parametrize("char", INVISIBLE)
def test_every_invisible_or_direction_character_is_named_a_problem(char: str) -> None:
    assert name_character_problem(f"Ann{char}") is not None
    assert name_character_problem("Ann\tMarie") is None  # a tab is only a space


@pytest.mark.parametrize("char", INVISIBLE)
def test_the_api_refuses_a_name_with_an_invisible_character(
    app: Flask, client: FlaskClient, char: str
) -> None:
    create(client, ["Ann", "Ben", "Cleo"])
    with app.app_context():
        before = snapshot()
    answer = client.post(
        "/api/v1/games", json={"players": [f"Ann{char}", "Ben", "Cleo"], "variant": "classic"}
    )
    assert answer.status_code == 400
    assert answer.get_json()["error"].startswith(REFUSAL)
    with app.app_context():
        assert snapshot() == before


@pytest.mark.parametrize("char", ["\u200b", "\u202e", "\u2028"])
def test_the_new_game_form_says_which_name_holds_an_invisible_character(
    app: Flask, client: FlaskClient, char: str
) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    answer = client.post(
        "/games/new",
        data={
            "csrf_token": csrf_token(page),
            "player_0": "Ann",
            "player_1": f"Ben{char}",
            "player_2": "Cleo",
            "variant": "classic",
            "rounds": "3",
            "first_leader": "0",
        },
    )
    assert answer.status_code == 400
    text = answer.get_data(as_text=True)
    form = read_page(text)
    errors = form.after(form.find("input", id="player_1"))  # the seat's own error list
    assert errors.get("id") == "player_1-errors" and REFUSAL in errors.words()
    assert known(app) == []


def test_the_refusal_is_in_the_player_s_language(client: FlaskClient) -> None:
    page = client.get("/games/new", headers={"Accept-Language": "de"}).get_data(as_text=True)
    answer = client.post(
        "/games/new",
        data={
            "csrf_token": csrf_token(page),
            "player_0": "Ann\u200b",
            "player_1": "Ben",
            "player_2": "Cleo",
            "variant": "classic",
            "rounds": "3",
            "first_leader": "0",
        },
        headers={"Accept-Language": "de"},
    )
    assert "keine unsichtbaren Zeichen" in answer.get_data(as_text=True)


def test_a_rename_to_a_name_with_an_invisible_character_is_refused(
    app: Flask, client: FlaskClient
) -> None:
    game = create(client, ["Ann", "Ben", "Cleo"])
    client.get(f"/g/{game['id']}/edit/{game['edit_key']}")
    page = client.get("/players/Ann/rename").get_data(as_text=True)
    answer = client.post(
        "/players/Ann/rename",
        data={"csrf_token": csrf_token(page), "new_name": "Ann\u202e"},
    )
    assert answer.status_code == 400
    assert REFUSAL in " ".join(answer.get_data(as_text=True).split())
    assert known(app) == ["Ann", "Ben", "Cleo"]


def test_a_backup_with_a_name_holding_an_invisible_character_is_refused(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    create(client, ["Ann", "Ben", "Cleo"])
    path = tmp_path / "backup.json"
    assert app.test_cli_runner().invoke(args=["export", str(path)]).exit_code == 0
    document = json.loads(path.read_text(encoding="utf-8"))
    document["games"][0]["players"][0] = "Zed\u200b"
    document["games"][0]["code"] = "zzzzzzzzzz"
    path.write_text(json.dumps(document), encoding="utf-8")
    with app.app_context():
        before = snapshot()
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert REFUSAL in " ".join(result.output.split())
    with app.app_context():
        assert snapshot() == before
