"""The home page: this phone's games in progress, never anyone else's, and the tools."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.table import Table


def test_home_lists_the_games_this_phone_can_edit(client: FlaskClient, table: Table) -> None:
    mine = table.new_game(["Ann", "Ben", "Cleo"], "mild", rounds=5)
    table.new_game(["Xaver", "Yvonne", "Zora"], "mild", rounds=5)  # someone else's game
    table.give_edit_rights(client, mine)
    page = client.get("/").get_data(as_text=True)
    assert "Your games in progress" in page
    assert f"/g/{mine['id']}" in page and "Ann, Ben, Cleo" in page
    assert "Mild" in page and "0 of 5 rounds" in page
    assert "Xaver" not in page


def test_home_shows_no_games_to_a_phone_without_any(client: FlaskClient, table: Table) -> None:
    table.new_game(["Ann", "Ben", "Cleo"], "mild", rounds=5)
    page = client.get("/").get_data(as_text=True)
    assert "Your games in progress" not in page and "Ann" not in page


def test_home_links_the_table_tools(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'href="/setup"' in page and 'href="/resolve"' in page
    assert 'href="/games/new"' in page
