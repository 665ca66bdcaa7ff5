"""The history page: games in progress first, then newest first, 20 a page, and its filters
by player, variant and period, kept across pages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scripts.page_reader import read_page
from tests.history.helpers import (
    history_codes,
    history_items,
    quick,
    set_created,
    text_of,
    when,
)
from tests.table import Table

THREE = [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)]  # 14, 13, 9


def finished_games(table: Table, count: int, start: datetime) -> list[str]:
    """``count`` finished games, one a day from ``start``; their codes, oldest first."""
    codes = []
    for day in range(count):
        game = table.new_game(["Ann", "Ben", "Cleo"])
        table.record(game, THREE)
        set_created(table.app, game["id"], start + timedelta(days=day))
        codes.append(game["id"])
    return codes


def page_links(page: str) -> dict[str, str]:
    """The pagination's links by their text (« and » by their hidden label)."""
    navs = read_page(page).find_all("nav", class_="pagination")
    assert navs, "no pagination"
    links = navs[0].find_all("a", class_="button--small", href=True)
    return {link.words().strip("«» "): str(link.get("href")) for link in links}


@pytest.fixture
def many(client: FlaskClient, app: Flask, table: Table) -> dict[str, list[str]]:
    """45 finished games (Jan 1 to Feb 14, 2025) and two games in progress, older ones."""
    finished = finished_games(table, 45, when(2025, 1, 1))
    playing = []
    for day in (1, 2):
        game = table.new_game(["Ann", "Ben", "Dan"], rounds=2)
        table.record(game, THREE)
        set_created(app, game["id"], when(2024, 6, day))
        playing.append(game["id"])
    return {"finished": finished, "playing": playing}


def test_games_in_progress_come_first_then_the_newest(
    client: FlaskClient, many: dict[str, list[str]]
) -> None:
    page = client.get("/history").get_data(as_text=True)
    codes = history_codes(page)
    assert len(codes) == 20
    assert codes[:2] == [many["playing"][1], many["playing"][0]]
    assert codes[2:] == list(reversed(many["finished"]))[:18]
    assert "47 games · page 1 of 3" in text_of(page)


def test_pages_two_and_last_continue_where_the_one_before_stopped(
    client: FlaskClient, many: dict[str, list[str]]
) -> None:
    newest_first = [*reversed(many["playing"]), *reversed(many["finished"])]
    second = client.get("/history?page=2").get_data(as_text=True)
    last = client.get("/history?page=3").get_data(as_text=True)
    assert history_codes(second) == newest_first[20:40]
    assert history_codes(last) == newest_first[40:]
    assert len(history_codes(last)) == 7
    assert page_links(second) == {
        "First page": "/history?page=1",
        "Previous": "/history?page=1",
        "Next": "/history?page=3",
        "Last page": "/history?page=3",
    }
    assert set(page_links(last)) == {"First page", "Previous"}
    assert "3 / 3" in text_of(last)


@pytest.mark.parametrize("page", ["4", "0", "-1", "x", "1.5", "", "9999999"])
def test_a_page_out_of_range_is_not_found(
    client: FlaskClient, many: dict[str, list[str]], page: str
) -> None:
    answer = client.get(f"/history?page={page}")
    assert answer.status_code == 404
    assert "Page not found" in answer.get_data(as_text=True)


def test_an_empty_history_has_one_empty_page(client: FlaskClient) -> None:
    answer = client.get("/history")
    assert answer.status_code == 200
    assert "No game has been played yet." in text_of(answer.get_data(as_text=True))
    assert client.get("/history?page=2").status_code == 404


def test_the_player_filter_is_kept_across_pages(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    ann = finished_games(table, 25, when(2025, 1, 1))
    other = table.new_game(["Ben", "Cleo", "Dan"])
    table.record(other, THREE)
    page = client.get("/history?player=ann").get_data(as_text=True)
    assert "25 games · page 1 of 2" in text_of(page)
    assert other["id"] not in history_codes(page)
    assert page_links(page)["Next"] == "/history?player=ann&page=2"
    second = client.get("/history?player=ann&page=2").get_data(as_text=True)
    assert history_codes(second) == list(reversed(ann))[20:]
    assert 'value="ann"' in second  # the filter form keeps what was typed
    assert "Filters (on)" in second


def test_an_unknown_player_matches_no_game(client: FlaskClient, app: Flask, table: Table) -> None:
    finished_games(table, 2, when(2025, 1, 1))
    page = client.get("/history?player=Zed").get_data(as_text=True)
    assert "No game matches these filters." in text_of(page)
    assert history_codes(page) == []


def test_the_variant_filter_takes_the_presets(client: FlaskClient, table: Table) -> None:
    classic = table.new_game(["Ann", "Ben", "Cleo"])
    mild = table.new_game(["Ann", "Ben", "Cleo"], variant="mild")
    hat = table.new_game(["Ann", "Ben", "Cleo", "Dan"], variant="hat-trick")
    custom = table.new_game(
        ["Ann", "Ben", "Cleo"], variant={"scoring": "mild", "colours": 2, "reveal": "hazy"}
    )
    for preset, expected in (
        ("classic", [classic]),
        ("mild", [mild]),
        ("hat-trick", [hat]),
        ("hazy", []),
    ):
        page = client.get(f"/history?variant={preset}").get_data(as_text=True)
        assert history_codes(page) == [game["id"] for game in expected], preset
    everything = client.get("/history").get_data(as_text=True)
    assert len(history_codes(everything)) == 4
    assert "Custom: mild scoring, 2 colours hidden until scored" in text_of(everything)
    assert custom["id"] in history_codes(everything)


def test_the_from_and_to_dates_include_both_days(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    days = [
        datetime(2024, 4, 30, 23, 59, tzinfo=UTC),
        datetime(2024, 5, 1, 0, 0, tzinfo=UTC),
        datetime(2024, 5, 31, 23, 59, tzinfo=UTC),
        datetime(2024, 6, 1, 0, 0, tzinfo=UTC),
    ]
    codes = []
    for day in days:
        game = table.new_game(["Ann", "Ben", "Cleo"])
        set_created(app, game["id"], day)
        codes.append(game["id"])
    page = client.get("/history?from=2024-05-01&to=2024-05-31").get_data(as_text=True)
    assert history_codes(page) == [codes[2], codes[1]]
    assert history_codes(client.get("/history?from=2024-05-02").get_data(as_text=True)) == [
        codes[3],
        codes[2],
    ]
    assert history_codes(client.get("/history?to=2024-04-30").get_data(as_text=True)) == [codes[0]]


def test_the_last_30_days_and_this_year(client: FlaskClient, app: Flask, table: Table) -> None:
    now = datetime.now(UTC)
    moments = {
        "yesterday": now - timedelta(days=1),
        "six weeks ago": now - timedelta(days=45),
        "new year": datetime(now.year, 1, 1, 0, 30, tzinfo=UTC),
        "last year": datetime(now.year - 1, 12, 31, 23, 30, tzinfo=UTC),
    }
    codes = {}
    for label, moment in moments.items():
        game = table.new_game(["Ann", "Ben", "Cleo"])
        set_created(app, game["id"], moment)
        codes[label] = game["id"]

    def listed(query: str) -> set[str]:
        page = client.get(f"/history?{query}").get_data(as_text=True)
        return {label for label, code in codes.items() if code in history_codes(page)}

    month_ago = now - timedelta(days=30)
    assert listed("period=30d") == {label for label, m in moments.items() if m >= month_ago}
    assert listed("period=year") == {label for label, m in moments.items() if m.year == now.year}
    assert listed("period=all") == set(moments)
    assert "yesterday" in listed("period=30d") and "last year" not in listed("period=year")


def test_filters_combine(client: FlaskClient, app: Flask, table: Table) -> None:
    wanted = table.new_game(["Ann", "Ben", "Cleo"], variant="mild")
    set_created(app, wanted["id"], when(2024, 5, 10))
    for names, variant, day in (
        (["Ben", "Cleo", "Dan"], "mild", when(2024, 5, 10)),
        (["Ann", "Ben", "Cleo"], "classic", when(2024, 5, 10)),
        (["Ann", "Ben", "Cleo"], "mild", when(2024, 7, 10)),
    ):
        game = table.new_game(names, variant=variant)
        set_created(app, game["id"], day)
    page = client.get("/history?player=Ann&variant=mild&from=2024-05-01&to=2024-05-31")
    assert history_codes(page.get_data(as_text=True)) == [wanted["id"]]


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("variant=wild", "variant", "Wild is not a variant; choose one of classic, mild"),
        ("period=decade", "period", "Decade is not a period; choose one of all, 30d, year."),
        ("from=2024-02-30", "from", "2024-02-30 is not a date; write it as YYYY-MM-DD"),
        ("to=yesterday", "to", "Yesterday is not a date"),
        ("from=2024-05-02&to=2024-05-01", "to", "The end date comes before the start date."),
    ],
)
def test_a_filter_that_cannot_be_read_is_named_next_to_its_field(
    client: FlaskClient, app: Flask, query: str, field: str, message: str, table: Table
) -> None:
    finished_games(table, 2, when(2025, 1, 1))
    answer = client.get(f"/history?{query}")
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    errors = read_page(page).find("ul", class_="field-errors", id=f"{field}-errors")
    assert message in errors.text
    assert len(history_codes(page)) == 2  # the filter is left out, not guessed


def test_a_game_in_progress_offers_a_way_back_in(client: FlaskClient, table: Table) -> None:
    mine = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
    theirs = table.new_game(["Ann", "Ben", "Dan"], rounds=2)
    table.give_edit_rights(client, mine)
    page = client.get("/history").get_data(as_text=True)
    assert f'button--small" href="/g/{mine["id"]}">Continue this game</a>' in page
    assert (
        f'<a class="button button--small" href="/g/{theirs["id"]}/view">Follow this game</a>'
        in page
    )
    assert history_codes(page) == [theirs["id"], mine["id"]]
    assert all("In progress: 0 of 2 rounds scored" in item for item in history_items(page))


def test_player_names_link_to_their_pages(client: FlaskClient, table: Table) -> None:
    table.new_game(["Ann Marie", "Ben", "Cleo"])
    page = client.get("/history").get_data(as_text=True)
    assert '<a class="history-seat__name" href="/players/Ann%20Marie">Ann Marie</a>' in page
    assert client.get("/players/Ann%20Marie").status_code == 200


def test_the_nav_links_the_history(client: FlaskClient) -> None:
    assert '<a href="/history">History</a>' in client.get("/").get_data(as_text=True)


def test_a_name_with_a_slash_still_has_its_page(client: FlaskClient, table: Table) -> None:
    table.new_game(["Ann/Bea", "Ben", "Cleo"])
    page = client.get("/history").get_data(as_text=True)
    assert 'href="/players/Ann/Bea">Ann/Bea</a>' in page
    assert "<h1>Ann/Bea</h1>" in client.get("/players/Ann/Bea").get_data(as_text=True)
    assert client.get("/api/v1/players/Ann/Bea").json["games"] == 1


def test_games_in_progress_beyond_the_first_page_come_before_every_finished_one(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    finished = finished_games(table, 2, when(2025, 3, 1))
    playing = []
    for day in range(1, 22):  # 21 games in progress, all older than the finished ones
        game = table.new_game(["Ann", "Ben", "Dan"], rounds=2)
        set_created(app, game["id"], when(2024, 1, day))
        playing.append(game["id"])
    first = history_codes(client.get("/history").get_data(as_text=True))
    second = history_codes(client.get("/history?page=2").get_data(as_text=True))
    assert first == list(reversed(playing))[:20]
    assert second == [playing[0], *reversed(finished)]
