"""The home page: what the app does at a table, this phone's games in progress and its
recently finished ones, never anyone else's, and the tools."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from babel.dates import format_date, format_time
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, ngettext

from companion.data import ledger
from companion.data.models import Game, db
from companion.rules import winners
from scripts.page_reader import Element, read_page
from tests.history.helpers import quick
from tests.table import Table

#: A round of three players: 14, 13 and 9 points (Ann's seat wins).
ROUND = [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)]


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


@pytest.mark.no_database_queries
def test_home_links_the_table_tools(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'href="/setup"' in page and 'href="/resolve"' in page
    assert 'href="/games/new"' in page


# --------------------------------------------------------------------------------------------
# What a table can do, in players' words; the API is for programs, in the footer


@pytest.mark.no_database_queries
def test_home_says_what_the_app_does_at_the_table(client: FlaskClient) -> None:
    page = read_page(client.get("/").get_data(as_text=True))

    section = page.find("section", aria_labelledby="home-table")
    links = {
        link.find("span", class_="home-list__title").text: link.get("href")
        for link in section.find_all("a", class_="home-list__link")
    }
    assert links == {
        "Keep the score": "/games/new",
        "Who won that trick?": "/resolve",
        "Table setup": "/setup",
        "Past games": "/history",
    }
    assert "/api/v1" not in page.find("main").text


def test_every_page_names_the_json_api_in_its_footer(client: FlaskClient) -> None:
    for path in ("/", "/resolve", "/rules", "/history"):
        page = read_page(client.get(path).get_data(as_text=True))
        footer = page.find("footer", class_="site-footer")
        assert footer.find("p", class_="footer-links").find("code").text == "/api/v1", path


# --------------------------------------------------------------------------------------------
# This phone's finished games


def played_at(app: Flask, code: str, moment: datetime) -> None:
    """Set when a game was last played (the home page lists the latest first)."""
    with app.app_context():
        game_id = db.session.scalar(sa.select(Game.id).where(Game.code == code))
        with ledger.tracking(db.session.connection(), [game_id]):
            db.session.execute(sa.update(Game).where(Game.id == game_id).values(updated_at=moment))
        db.session.commit()


def finished_game(
    app: Flask, client: FlaskClient, table: Table, names: list[str], moment: datetime
) -> dict[str, object]:
    """A one-round game played to its end at ``moment``, on this phone."""
    game = table.new_game(names, "classic", rounds=1, edit_here=True)
    table.record(game, ROUND)
    played_at(app, game["id"], moment)
    return game


def finished_items(client: FlaskClient) -> list[Element]:
    """The finished games the home page lists, in order."""
    page = read_page(client.get("/").get_data(as_text=True))
    lists = page.find_all("ul", data_home_games="finished")
    return lists[0].find_all("li") if lists else []


def winner_names(table: Table, game: dict[str, object]) -> str:
    """The winners of a finished game by R11, from its totals, in seat order."""
    state = table.state(game)
    return ", ".join(state["players"][seat] for seat in winners(state["totals"]))


def test_home_lists_this_phones_finished_games_with_winner_and_date(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    older = finished_game(app, client, table, ["Ann", "Ben", "Cleo"], at(2025, 3, 1, 20, 15))
    newer = finished_game(app, client, table, ["Dora", "Emil", "Fritz"], at(2025, 3, 8, 21, 40))
    playing = table.new_game(["Gil", "Hanna", "Ida"], rounds=5, edit_here=True)
    stranger = table.new_game(["Xaver", "Yvonne", "Zora"], rounds=1)
    table.record(stranger, ROUND)  # finished, but another phone's

    items = finished_items(client)

    assert [item.find("a").get("href") for item in items] == [
        f"/g/{newer['id']}",
        f"/g/{older['id']}",
    ]
    first = items[0]
    assert first.find("span", class_="home-list__title").text == "Dora, Emil, Fritz"
    assert first.find("span", class_="home-list__winner").text == (
        f"Winner: {winner_names(table, newer)}"
    )
    moment = at(2025, 3, 8, 21, 40)
    time = first.find("time")
    assert time.get("datetime", "").startswith("2025-03-08T21:40")
    assert time.text == (
        f"{format_date(moment, 'medium', locale='en')}, {format_time(moment, 'short', locale='en')}"
    )
    assert "Classic" in first.find("span", class_="home-list__meta").text
    listed = " ".join(item.text for item in items)
    assert "Xaver" not in listed and "Gil" not in listed  # in progress, or not this phone's
    in_progress = read_page(client.get("/").get_data(as_text=True)).find(
        "ul", data_home_games="in_progress"
    )
    assert [link.get("href") for link in in_progress.find_all("a")] == [f"/g/{playing['id']}"]


def test_a_phone_without_rights_lists_no_finished_games(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    finished_game(app, client, table, ["Ann", "Ben", "Cleo"], at(2025, 3, 1, 20, 15))

    assert finished_items(table.phone()) == []


def test_finished_games_name_the_winner_in_the_players_language(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = finished_game(app, client, table, ["Ann", "Ben", "Cleo"], at(2025, 3, 1, 20, 15))
    client.set_cookie("lang", "de")

    items = finished_items(client)

    names = winner_names(table, game)
    with app.test_request_context(), force_locale("de"):
        expected = ngettext("Winner: %(names)s", "Winners: %(names)s", 1, names=names)
    assert items[0].find("span", class_="home-list__winner").text == expected
    assert expected != f"Winner: {names}"


def at(year: int, month: int, day: int, hour: int, minute: int) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)
