"""The history list is rendered once per change of what it shows and served by ETag, like
the scoreboard: one statement decides whether the kept page is still right, a phone whose
copy is current gets an empty 304, and any change to a game it could list (a round
recorded or corrected, a game deleted or excluded, a player renamed (and back) or merged,
a game leaving the period as time goes by) gives a new ETag and the new page at once. A page
made for another language, host or URL prefix is another page."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion import create_app
from companion.data.models import db, utcnow
from companion.web.history import pages
from companion.web.scoreboard_cache import rendered_pages as pages_kept
from scripts.page_reader import read_page
from tests.conftest import TEST_CONFIG, database_url
from tests.history.helpers import ROUND, page_changes
from tests.share.test_conditional_get import watched
from tests.table import Table

HISTORY_URLS = ["/history", "/history?player=Ann&variant=classic&period=30d", "/history?page=2"]


def rendered_pages(app: Flask) -> Any:
    """The pages this process keeps (the scoreboard's and the history's)."""
    with app.app_context():
        return pages_kept()


def listed(answer: TestResponse) -> list[str]:
    """What the page lists: each game's text, in order, and the count line."""
    page = read_page(answer.get_data(as_text=True))
    games = [item.text for item in page.find_all("li", class_="history-game")]
    return [page.find("p", class_="history-count").text, *games]


@pytest.fixture
def history(table: Table) -> list[dict[str, Any]]:
    """22 games (two pages, after one is deleted too): the last, of Ann, Ben and Cleo, has
    one round of three."""
    games = [table.new_game(["Ann", "Ben", f"Guest {number}"]) for number in range(21)]
    games.append(table.new_game(["Ann", "Ben", "Cleo"], rounds=3))
    table.record(games[-1], ROUND)
    return games


@pytest.mark.parametrize("url", HISTORY_URLS)
def test_an_unchanged_history_page_answers_304_with_one_statement_and_no_rendering(
    app: Flask, client: FlaskClient, history: list[dict[str, Any]], url: str
) -> None:
    first = client.get(url)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    again = client.get(url)
    assert again.headers["ETag"] == tag and again.get_data() == first.get_data()

    with watched(app) as seen:
        current = client.get(url, headers={"If-None-Match": tag})
    assert current.status_code == 304 and current.get_data() == b""
    assert current.headers["ETag"] == tag
    assert seen["templates"] == [] and len(seen["statements"]) == 1

    with watched(app) as seen:
        kept = client.get(url)  # another phone, without the page: the page kept is served
    assert kept.get_data() == first.get_data() and seen["templates"] == []
    assert len(seen["statements"]) == 1


@pytest.mark.parametrize("url", HISTORY_URLS)
def test_every_change_gives_a_new_etag_and_the_new_page_at_once(
    app: Flask, client: FlaskClient, table: Table, history: list[dict[str, Any]], url: str
) -> None:
    seen_tags = set()
    before = client.get(url)
    for name, change in history_changes(app, table, history).items():
        seen_tags.add(before.headers["ETag"])
        change()
        after = client.get(url, headers={"If-None-Match": before.headers["ETag"]})
        assert after.status_code == 200, name
        assert after.headers["ETag"] not in seen_tags, name
        rendered_pages(app).clear()  # the page as rendered now, from nothing kept
        assert client.get(url).get_data() == after.get_data(), name
        if url != "/history?page=2":  # the changed game is on the first page
            assert listed(after) != listed(before), name
        before = after


def test_each_change_shows_on_the_first_page(
    app: Flask, client: FlaskClient, table: Table, history: list[dict[str, Any]]
) -> None:
    before = " ".join(listed(client.get("/history")))
    assert "Cleo" in before and "21 games" not in before and "22 games" in before
    shown = {
        "round recorded": "2 of 3 rounds",
        "round corrected": "Total",  # and other totals than before (below)
        "game excluded": "not counted in statistics",
        "player renamed": "Clio",
        "rename undone": "Cleo",
        "players merged": "Guest 19",
        "game deleted": "21 games",
    }
    for name, change in history_changes(app, table, history).items():
        change()
        text = " ".join(listed(client.get("/history")))
        assert shown[name] in text and text != before, (name, text)
        before = text
        if name == "players merged":
            assert "Guest 20" not in text
        if name == "player renamed":
            assert "Cleo" not in text


def test_a_game_leaving_the_period_as_time_goes_by_gives_a_new_page(
    client: FlaskClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(2):
        table.new_game(["Ann", "Ben", "Cleo"])
    url = "/history?period=30d"
    now = client.get(url)
    assert "2 games" in listed(now)[0]
    later = utcnow() + timedelta(days=31)
    monkeypatch.setattr(pages, "utcnow", lambda: later)
    month_on = client.get(url, headers={"If-None-Match": now.headers["ETag"]})
    assert month_on.status_code == 200 and month_on.headers["ETag"] != now.headers["ETag"]
    assert listed(month_on)[0] == "No game matches these filters."


def test_another_language_host_or_prefix_is_another_page(
    client: FlaskClient, history: list[dict[str, Any]]
) -> None:
    tags = {
        "plain": client.get("/history").headers["ETag"],
        "German": client.get("/history", headers={"Accept-Language": "de"}).headers["ETag"],
        "host": client.get("/history", base_url="http://club.example").headers["ETag"],
        "https": client.get("/history", base_url="https://localhost").headers["ETag"],
        "prefix": client.get("/history", environ_overrides={"SCRIPT_NAME": "/sticheln"}).headers[
            "ETag"
        ],
        "query": client.get("/history?page=1").headers["ETag"],
    }
    assert len(set(tags.values())) == len(tags), tags
    german = client.get(
        "/history", headers={"Accept-Language": "de", "If-None-Match": tags["plain"]}
    )
    assert german.status_code == 200
    assert read_page(german.get_data(as_text=True)).find("html").attrs["lang"] == "de"
    prefixed = client.get(
        "/history",
        environ_overrides={"SCRIPT_NAME": "/sticheln"},
        headers={"If-None-Match": tags["plain"]},
    )
    links = [a.attrs["href"] for a in read_page(prefixed.get_data(as_text=True)).find_all("a")]
    assert prefixed.status_code == 200 and all(
        str(link).startswith("/sticheln/") for link in links if str(link).startswith("/")
    )


def test_the_phone_that_keeps_a_game_gets_its_own_private_page(
    client: FlaskClient, table: Table, history: list[dict[str, Any]]
) -> None:
    stranger = client.get("/history")
    keeper = table.phone(history[-1])
    own = keeper.get("/history", headers={"If-None-Match": stranger.headers["ETag"]})
    assert own.status_code == 200 and own.headers["ETag"] != stranger.headers["ETag"]
    assert own.headers["Cache-Control"] == "private, no-cache"
    page = read_page(own.get_data(as_text=True))
    assert "Continue this game" in page.find("li", class_="history-game").text
    assert (
        "Follow this game"
        in read_page(stranger.get_data(as_text=True)).find("li", class_="history-game").text
    )


def test_a_filter_that_cannot_be_read_is_shown_again_and_kept_nowhere(
    client: FlaskClient, history: list[dict[str, Any]]
) -> None:
    answer = client.get("/history?period=fortnight")
    assert answer.status_code == 400 and "ETag" not in answer.headers


@pytest.mark.parametrize("url", ["/history", "/history?page=2", "/history?player=Ann"])
def test_an_unchanged_page_is_known_without_reading_a_game(
    app: Flask, client: FlaskClient, history: list[dict[str, Any]], url: str
) -> None:
    """The one statement of a kept page reads the change counter's row, not the games: it
    costs the same with 10,000 games as with 20 (a filter with no time bound)."""
    tag = client.get(url).headers["ETag"]
    with watched(app) as seen:
        assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
        assert client.get(url).status_code == 200
    assert len(seen["statements"]) == 2 and seen["templates"] == []
    for statement in seen["statements"]:
        assert "change_counter" in statement
        assert not {"games", "players", "seats", "player_changes"} & set(
            re.findall(r"\b(?:FROM|JOIN)\s+(\w+)", statement)
        ), statement


@pytest.mark.database  # makes its apps itself, on database_url()
def test_a_change_made_through_another_worker_shows_at_once(
    app: Flask,
    client: FlaskClient,
    table: Table,
    history: list[dict[str, Any]],
    instance_path: Path,
) -> None:
    """Two processes, each with the pages it keeps: a round recorded through one is on the
    other's next page at once (the counter is in the database, not in a process)."""
    other = create_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(instance_path)},
        instance_path=str(instance_path),
    )
    try:
        elsewhere = other.test_client()
        for url in ("/history", "/history?period=30d"):
            kept_here, kept_there = client.get(url), elsewhere.get(url)
            assert kept_here.get_data() == kept_there.get_data()
            table.record(history[-1], ROUND)  # through this process
            there = elsewhere.get(url, headers={"If-None-Match": kept_there.headers["ETag"]})
            assert there.status_code == 200 and listed(there) != listed(kept_there)
            assert there.get_data() == client.get(url).get_data()
    finally:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()


def history_changes(app: Flask, table: Table, history: list[dict[str, Any]]) -> dict[str, Any]:
    """Each change that must show on the history at once, by name (in the order made)."""
    return page_changes(
        app,
        table,
        history[-1],
        renamed=("Cleo", "Clio"),
        merged=("Guest 20", "Guest 19"),
        doomed=history[0]["id"],
    )
