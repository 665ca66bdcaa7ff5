"""The home page is rendered once per change of what it shows and served by ETag, like the
history (issue 29): one statement of one row (the change counter, never a game) decides
whether the kept page is still right for the games this phone keeps, and every change to
one of those games (a round recorded or corrected, the game finished, excluded or deleted,
a player renamed, the rename undone, two players merged) gives a new ETag and the new page
at once, through this process or another. Another phone keeping other games, or asking in
another language, under another host or prefix, gets another page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion import create_app
from companion.data.models import db
from scripts.page_reader import read_page
from tests.conftest import TEST_CONFIG, database_url
from tests.history.helpers import CORRECTED, ROUND, page_changes
from tests.history.test_history_etag import rendered_pages
from tests.share.test_conditional_get import watched
from tests.table import Table

#: The changes whose effect the home page shows in words; the others (a round of a game in
#: progress corrected, a game excluded) change no word of it, but still give a new tag.
SHOWN = ("round recorded", "player renamed", "rename undone", "players merged", "game deleted")


@pytest.fixture
def games(table: Table) -> dict[str, dict[str, Any]]:
    """The phone's games: Ann, Ben and Cleo playing (2 rounds planned), Ann, Bea and Dan
    finished (1 round, Ann wins), and Ann, Ben and Dan playing (to be deleted). Bea never
    sat with Ben, so she can be merged into him."""
    main = table.new_game(["Ann", "Ben", "Cleo"], rounds=2, edit_here=True)
    finished = table.new_game(["Ann", "Bea", "Dan"], rounds=1, edit_here=True)
    table.record(finished, ROUND)
    doomed = table.new_game(["Ann", "Ben", "Dan"], rounds=2, edit_here=True)
    return {"main": main, "finished": finished, "doomed": doomed}


def shown(answer: TestResponse) -> str:
    """The words of the page's main part (the games, their names, progress and winners)."""
    assert answer.status_code == 200, answer.status_code
    main = read_page(answer.get_data(as_text=True)).find("main")
    return " ".join(main.text.split())


def phone_with(table: Table, *games: dict[str, Any]) -> FlaskClient:
    """Another phone, keeping ``games``."""
    phone = table.phone()
    for game in games:
        table.give_edit_rights(phone, game)
    return phone


def test_an_unchanged_home_answers_304_from_one_statement_that_reads_no_game(
    app: Flask, client: FlaskClient, table: Table, games: dict[str, dict[str, Any]]
) -> None:
    first = client.get("/")
    tag = first.headers["ETag"]
    assert first.status_code == 200 and re.fullmatch(r'"[0-9a-f]{32}"', tag)
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert "Ann, Ben, Cleo" in shown(first)
    twin = phone_with(table, *games.values())  # another phone keeping the same games
    with watched(app) as seen:
        current = client.get("/", headers={"If-None-Match": tag})
        kept = twin.get("/")
    assert current.status_code == 304 and current.get_data() == b""
    assert kept.get_data() == first.get_data() and kept.headers["ETag"] == tag
    assert seen["templates"] == [] and len(seen["statements"]) == 2
    for statement in seen["statements"]:
        read = set(re.findall(r"\b(?:FROM|JOIN)\s+(\w+)", statement))
        assert read == {"change_counter"}, statement


def test_a_phone_keeping_no_game_reads_nothing(app: Flask, table: Table) -> None:
    table.new_game(["Ann", "Ben", "Cleo"])  # someone else's
    phone = table.phone()
    first = phone.get("/")
    assert first.headers["Cache-Control"] == "no-cache"
    with watched(app) as seen:
        again = phone.get("/", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and seen["statements"] == []


def test_every_change_gives_a_new_etag_and_the_new_home_at_once(
    app: Flask, client: FlaskClient, table: Table, games: dict[str, dict[str, Any]]
) -> None:
    changes = page_changes(
        app,
        table,
        games["main"],
        renamed=("Ben", "Benno"),
        merged=("Bea", "Ben"),
        doomed=games["doomed"]["id"],
    )
    seen_tags = set()
    before = client.get("/")
    for name, change in changes.items():
        seen_tags.add(before.headers["ETag"])
        change()
        after = client.get("/", headers={"If-None-Match": before.headers["ETag"]})
        assert after.status_code == 200, name
        assert after.headers["ETag"] not in seen_tags, name
        rendered_pages(app).clear()  # the page as rendered now, from nothing kept
        assert client.get("/").get_data() == after.get_data(), name
        if name in SHOWN:
            assert shown(after) != shown(before), name
        before = after
    words = shown(before)
    assert "Ann, Ben, Cleo" in words and "Ann, Ben, Dan" in words  # Bea is Ben now
    assert "1 of 2 rounds" in words and words.count("Ann, Ben, Dan") == 1  # one was deleted


def test_a_finished_game_corrected_shows_its_new_winner_at_once(
    client: FlaskClient, table: Table, games: dict[str, dict[str, Any]]
) -> None:
    def winner() -> str:
        page = read_page(client.get("/").get_data(as_text=True))
        return page.find("span", class_="home-list__winner").text

    before = winner()
    table.correct(games["finished"], 1, CORRECTED)
    names = table.state(games["finished"])["players"]
    totals = table.state(games["finished"])["totals"]
    best = [name for name, total in zip(names, totals, strict=True) if total == max(totals)]
    assert winner() == f"Winner: {', '.join(best)}" and winner() != before


def test_a_game_finished_moves_to_the_finished_games_at_once(
    client: FlaskClient, table: Table, games: dict[str, dict[str, Any]]
) -> None:
    def finished() -> list[str]:
        page = read_page(client.get("/").get_data(as_text=True))
        listed = page.find("ul", data_home_games="finished")
        return [str(link.get("href")) for link in listed.find_all("a")]

    assert finished() == [f"/g/{games['finished']['id']}"]
    table.record(games["main"], ROUND)
    table.record(games["main"], ROUND)
    assert finished() == [f"/g/{games['main']['id']}", f"/g/{games['finished']['id']}"]


def test_other_games_language_host_or_prefix_is_another_page(
    client: FlaskClient, table: Table, games: dict[str, dict[str, Any]]
) -> None:
    fewer = phone_with(table, games["main"], games["finished"])
    tags = {
        "plain": client.get("/").headers["ETag"],
        "other games": fewer.get("/").headers["ETag"],
        "no game": table.phone().get("/").headers["ETag"],
        "German": client.get("/", headers={"Accept-Language": "de"}).headers["ETag"],
        "host": client.get("/", base_url="http://club.example").headers["ETag"],
        "https": client.get("/", base_url="https://localhost").headers["ETag"],
        "prefix": client.get("/", environ_overrides={"SCRIPT_NAME": "/sticheln"}).headers["ETag"],
        "query": client.get("/?from=pwa").headers["ETag"],
    }
    assert len(set(tags.values())) == len(tags), tags
    other = fewer.get("/", headers={"If-None-Match": tags["plain"]})
    assert other.status_code == 200 and "Ann, Ben, Dan" not in shown(other)
    german = client.get("/", headers={"Accept-Language": "de", "If-None-Match": tags["plain"]})
    assert german.status_code == 200
    assert read_page(german.get_data(as_text=True)).find("html").attrs["lang"] == "de"
    prefixed = client.get(
        "/",
        environ_overrides={"SCRIPT_NAME": "/sticheln"},
        headers={"If-None-Match": tags["plain"]},
    )
    links = [a.attrs["href"] for a in read_page(prefixed.get_data(as_text=True)).find_all("a")]
    assert prefixed.status_code == 200 and all(
        str(link).startswith("/sticheln/") for link in links if str(link).startswith("/")
    )


@pytest.mark.database  # makes its apps itself, on database_url()
def test_a_change_made_through_another_worker_shows_at_once(
    app: Flask,
    client: FlaskClient,
    table: Table,
    games: dict[str, dict[str, Any]],
    instance_path: Path,
) -> None:
    """Two processes, each with the pages it keeps: a round recorded through one is on the
    other's next home page at once."""
    other = create_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(instance_path)},
        instance_path=str(instance_path),
    )
    try:
        elsewhere = other.test_client()
        for game in games.values():
            elsewhere.get(f"/g/{game['id']}/edit/{game['edit_key']}")
        kept = elsewhere.get("/")
        assert kept.get_data() == client.get("/").get_data()
        table.record(games["main"], ROUND)  # through this process
        there = elsewhere.get("/", headers={"If-None-Match": kept.headers["ETag"]})
        assert there.status_code == 200 and "1 of 2 rounds" in shown(there)
        assert there.get_data() == client.get("/").get_data()
    finally:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()
