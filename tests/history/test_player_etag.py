"""A player's page and two players head to head are rendered once per change of what they
show and served by ETag, like the history list (``web.history_cache``): one statement (the
players and the change counter, never a game) decides whether the kept page is still right,
and every change that touches a player's numbers (a round recorded or corrected, a game
excluded or deleted, a player renamed, the rename undone, two players merged) gives a new
ETag and the new page at once, through this process or another."""

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

PLAYER = "/players/Ann"
VERSUS = "/players/Ann/vs/Ben"
URLS = [PLAYER, VERSUS]


@pytest.fixture
def games(table: Table) -> dict[str, dict[str, Any]]:
    """Ann and Ben at one table with Cleo (one round of two scored), Ann and Bea with Dan
    (finished; Bea never sat with Ben, so she can be merged into him), and Ann, Ben and Dan
    (finished, to be deleted)."""
    main = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
    table.record(main, ROUND)
    with_bea = table.new_game(["Ann", "Bea", "Dan"], rounds=1)
    table.record(with_bea, ROUND)
    doomed = table.new_game(["Ann", "Ben", "Dan"], rounds=1)
    table.record(doomed, CORRECTED)
    return {"main": main, "with_bea": with_bea, "doomed": doomed}


def shown(answer: TestResponse) -> str:
    """The words of the page's main part (numbers, names, games)."""
    assert answer.status_code == 200, answer.status_code
    main = read_page(answer.get_data(as_text=True)).find("main")
    return " ".join(main.text.split())


@pytest.mark.parametrize("url", URLS)
def test_an_unchanged_page_answers_304_from_one_statement_that_reads_no_game(
    app: Flask, client: FlaskClient, games: dict[str, dict[str, Any]], url: str
) -> None:
    first = client.get(url)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    with watched(app) as seen:
        current = client.get(url, headers={"If-None-Match": tag})
        kept = client.get(url)  # another phone, without the page: the page kept is served
    assert current.status_code == 304 and current.get_data() == b""
    assert kept.get_data() == first.get_data() and kept.headers["ETag"] == tag
    assert seen["templates"] == [] and len(seen["statements"]) == 2
    for statement in seen["statements"]:
        read = set(re.findall(r"\b(?:FROM|JOIN)\s+(\w+)", statement))
        assert "change_counter" in read and "players" in read
        assert not {"games", "rounds", "round_results", "player_totals"} & read, statement


@pytest.mark.parametrize("url", URLS)
def test_every_change_gives_a_new_etag_and_the_new_page_at_once(
    app: Flask,
    client: FlaskClient,
    table: Table,
    games: dict[str, dict[str, Any]],
    url: str,
) -> None:
    seen_tags = set()
    before = client.get(url)
    for name, change in player_changes(app, table, games).items():
        seen_tags.add(before.headers["ETag"])
        change()
        after = client.get(url, headers={"If-None-Match": before.headers["ETag"]})
        if url == VERSUS and name == "player renamed":  # Ben is Benno now: nobody is Ben
            assert after.status_code == 404, name
            continue
        assert after.status_code == 200, name
        assert after.headers["ETag"] not in seen_tags, name
        rendered_pages(app).clear()  # the page as rendered now, from nothing kept
        assert client.get(url).get_data() == after.get_data(), name
        if url == PLAYER or name != "rename undone":
            assert shown(after) != shown(before), name
        before = after


def test_each_change_shows_the_numbers_it_changes(
    app: Flask, client: FlaskClient, table: Table, games: dict[str, dict[str, Any]]
) -> None:
    def together() -> str:
        page = read_page(client.get(VERSUS).get_data(as_text=True))
        return page.find("div", data_stat="games").find("dd").text

    def lead() -> str:
        return " ".join(read_page(client.get(PLAYER).get_data(as_text=True)).find("p").text.split())

    assert together() == "2" and "3 games" in lead()
    for name, change in player_changes(app, table, games).items():
        change()
        if name == "game excluded":
            assert together() == "1" and "1 game excluded" in lead(), name
        if name == "player renamed":
            assert "Benno" in shown(client.get(PLAYER)), name
        if name == "players merged":  # Bea's game with Ann is Ben's now
            assert together() == "2" and "Bea" not in shown(client.get(PLAYER)), name
        if name == "game deleted":
            assert together() == "1" and "1 game excluded" in lead(), name
    assert "1 game." in lead()


def test_the_phone_that_may_fix_the_name_gets_its_own_private_page(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    stranger = client.get(PLAYER)
    keeper = table.phone(game)
    own = keeper.get(PLAYER, headers={"If-None-Match": stranger.headers["ETag"]})
    assert own.status_code == 200 and own.headers["ETag"] != stranger.headers["ETag"]
    assert own.headers["Cache-Control"] == "private, no-cache"
    fix = f"{PLAYER}/rename"
    links = [a.attrs.get("href") for a in read_page(own.get_data(as_text=True)).find_all("a")]
    assert fix in links
    links = [a.attrs.get("href") for a in read_page(stranger.get_data(as_text=True)).find_all("a")]
    assert fix not in links


@pytest.mark.parametrize(
    "url", ["/players/Nobody", "/players/Ann/vs/Nobody", "/players/Ann/vs/ann"]
)
def test_a_page_of_nobody_is_not_found_and_kept_nowhere(
    app: Flask, client: FlaskClient, games: dict[str, dict[str, Any]], url: str
) -> None:
    answer = client.get(url)
    assert answer.status_code == 404 and "ETag" not in answer.headers
    assert not rendered_pages(app)


def test_another_language_is_another_page(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    for url in URLS:
        english = client.get(url)
        german = client.get(
            url, headers={"Accept-Language": "de", "If-None-Match": english.headers["ETag"]}
        )
        assert german.status_code == 200 and german.headers["ETag"] != english.headers["ETag"]
        assert read_page(german.get_data(as_text=True)).find("html").attrs["lang"] == "de"


@pytest.mark.database  # makes its apps itself, on database_url()
def test_a_change_made_through_another_worker_shows_at_once(
    app: Flask,
    client: FlaskClient,
    table: Table,
    games: dict[str, dict[str, Any]],
    instance_path: Path,
) -> None:
    """Two processes, each with the pages it keeps: a round recorded through one is on the
    other's next player and head-to-head pages at once."""
    other = create_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(instance_path)},
        instance_path=str(instance_path),
    )
    try:
        elsewhere = other.test_client()
        kept = {url: elsewhere.get(url) for url in URLS}
        for url in URLS:
            assert client.get(url).get_data() == kept[url].get_data()
        table.record(games["main"], ROUND)  # through this process
        for url in URLS:
            there = elsewhere.get(url, headers={"If-None-Match": kept[url].headers["ETag"]})
            assert there.status_code == 200 and shown(there) != shown(kept[url]), url
            assert there.get_data() == client.get(url).get_data(), url
    finally:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()


def player_changes(app: Flask, table: Table, games: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each change that must show at once, by name, in the order made."""
    return page_changes(
        app,
        table,
        games["main"],
        renamed=("Ben", "Benno"),
        merged=("Bea", "Ben"),
        doomed=games["doomed"]["id"],
    )
