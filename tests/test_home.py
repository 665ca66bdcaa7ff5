"""The home page: this phone's games in progress, never anyone else's, and the tools."""

from __future__ import annotations

from flask.testing import FlaskClient


def new_game(client: FlaskClient, names: list[str]) -> dict[str, str]:
    answer = client.post("/api/v1/games", json={"players": names, "variant": "mild"})
    assert answer.status_code == 201
    game: dict[str, str] = answer.json
    return game


def test_home_lists_the_games_this_phone_can_edit(client: FlaskClient) -> None:
    mine = new_game(client, ["Ann", "Ben", "Cleo"])
    new_game(client, ["Xaver", "Yvonne", "Zora"])  # someone else's game
    client.get(f"/g/{mine['id']}/edit/{mine['edit_key']}")
    page = client.get("/").get_data(as_text=True)
    assert "Your games in progress" in page
    assert f"/g/{mine['id']}" in page and "Ann, Ben, Cleo" in page
    assert "Mild" in page and "0 of 5 rounds" in page
    assert "Xaver" not in page


def test_home_shows_no_games_to_a_phone_without_any(client: FlaskClient) -> None:
    new_game(client, ["Ann", "Ben", "Cleo"])
    page = client.get("/").get_data(as_text=True)
    assert "Your games in progress" not in page and "Ann" not in page


def test_home_links_the_table_tools(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'href="/setup"' in page and 'href="/resolve"' in page
    assert 'href="/games/new"' in page
