"""History, player pages and head to head show one circle, to the phones in it (issue 28
point 2): two tables' "Anna" are two players, a stranger's game leaves a circle's numbers
alone, and a phone outside a circle sees nothing of it, not even through an ETag."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scripts.page_reader import read_page
from tests.circles.conftest import THREE, Tables
from tests.history.helpers import stat_values, text_of
from tests.table import Table


def listed_codes(answer: TestResponse) -> set[str]:
    """The games a history page lists, by code (from their scoreboard links)."""
    assert answer.status_code == 200, answer.status_code
    page = read_page(answer.get_data(as_text=True))
    return {
        str(link.get("href")).split("/")[2]
        for link in page.find_all("a", class_="history-game__date")
    }


def games_of(answer: TestResponse) -> str:
    """The player page's number of games."""
    assert answer.status_code == 200, answer.status_code
    return stat_values(answer.get_data(as_text=True))["Games"]


def two_tables(tables: Tables) -> dict[str, object]:
    """Table A (Anna, Ben, Cleo: one game) and table B (Anna, Dan, Eve: two games), each
    started from its own phone, so each in its own circle."""
    phone_a, phone_b = tables.phone(), tables.phone()
    a = tables.played(phone_a, ["Anna", "Ben", "Cleo"], rounds=2)
    b1 = tables.played(phone_b, ["Anna", "Dan", "Eve"], rounds=2)
    b2 = tables.played(phone_b, ["Eve", "Anna", "Dan"], rounds=2)
    return {"phone_a": phone_a, "phone_b": phone_b, "a": a, "b1": b1, "b2": b2}


def test_two_circles_each_with_an_anna_keep_apart_statistics(tables: Tables) -> None:
    built = two_tables(tables)
    phone_a, phone_b = built["phone_a"], built["phone_b"]
    assert isinstance(phone_a, FlaskClient) and isinstance(phone_b, FlaskClient)
    assert games_of(phone_a.get("/players/Anna")) == "1"
    assert games_of(phone_b.get("/players/Anna")) == "2"
    assert listed_codes(phone_a.get("/history")) == {built["a"]["id"]}  # type: ignore[index]
    assert listed_codes(phone_b.get("/history")) == {
        built["b1"]["id"],  # type: ignore[index]
        built["b2"]["id"],  # type: ignore[index]
    }
    # head to head within each circle only: Ben is A's, Dan is B's
    assert phone_a.get("/players/Anna/vs/Ben").status_code == 200
    assert phone_a.get("/players/Anna/vs/Dan").status_code == 404
    assert phone_b.get("/players/Anna/vs/Dan").status_code == 200
    assert phone_b.get("/players/Anna/vs/Ben").status_code == 404
    # the filter by name and the names offered are the circle's
    assert listed_codes(phone_b.get("/history?player=anna")) == {
        built["b1"]["id"],  # type: ignore[index]
        built["b2"]["id"],  # type: ignore[index]
    }
    names = read_page(phone_a.get("/history").get_data(as_text=True)).find(
        "datalist", id="known-players"
    )
    assert [option.get("value") for option in names.find_all("option")] == ["Anna", "Ben", "Cleo"]


def test_a_strangers_game_seating_a_circles_name_leaves_that_player_untouched(
    tables: Tables, table: Table
) -> None:
    phone = tables.phone()
    tables.played(phone, ["Anna", "Ben", "Cleo"], rounds=2)
    before = phone.get("/players/Anna")
    numbers = stat_values(before.get_data(as_text=True))
    stranger = tables.phone()
    throwaway = tables.start(stranger, ["anna", "X1", "X2"], rounds=1)
    table.record(throwaway, THREE)
    after = phone.get("/players/Anna", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code in (200, 304)
    if after.status_code == 200:
        assert stat_values(after.get_data(as_text=True)) == numbers
    assert games_of(stranger.get("/players/anna")) == "1"
    assert stat_values(stranger.get("/players/anna").get_data(as_text=True))["Finished game"] == "1"
    assert numbers["Finished games"] == "0"


def test_a_phone_outside_a_circle_sees_none_of_its_history(tables: Tables) -> None:
    built = two_tables(tables)
    phone_a, phone_b = built["phone_a"], built["phone_b"]
    assert isinstance(phone_a, FlaskClient) and isinstance(phone_b, FlaskClient)
    outsider = tables.phone()
    page = outsider.get("/history")
    assert page.status_code == 200
    assert listed_codes(page) == set()
    assert read_page(page.get_data(as_text=True)).find("p", data_circle="none")
    assert "in no circle yet" in text_of(page.get_data(as_text=True))
    for url in ("/players/Anna", "/players/Anna/vs/Ben", "/players/Ben", "/players/Ben/vs/Anna"):
        assert outsider.get(url).status_code == 404, url
    for url in ("/players/Ben", "/players/Ben/vs/Anna", "/players/Anna/vs/Ben"):  # A's Ben
        answer = phone_b.get(url)
        assert answer.status_code == 404, url
        assert "Cleo" not in answer.get_data(as_text=True)
    # the ETag of circle A's pages opens nothing elsewhere: no 304, no A's content
    for url in ("/history", "/players/Anna", "/players/Anna/vs/Ben"):
        seen = phone_a.get(url)
        assert seen.status_code == 200
        tag = {"If-None-Match": seen.headers["ETag"]}
        assert phone_a.get(url, headers=tag).status_code == 304
        assert outsider.get(url, headers=tag).status_code in (200, 404)
        other = phone_b.get(url, headers=tag)
        assert other.status_code in (200, 404), url
        assert other.headers.get("ETag") != seen.headers["ETag"]
        assert other.get_data(as_text=True) != seen.get_data(as_text=True)
    a_tag = {"If-None-Match": phone_a.get("/players/Anna").headers["ETag"]}
    assert games_of(phone_b.get("/players/Anna", headers=a_tag)) == "2"
    assert "private" in phone_a.get("/players/Anna").headers["Cache-Control"]


def test_a_phone_in_two_circles_switches_between_them(tables: Tables) -> None:
    built = two_tables(tables)
    phone_b = built["phone_b"]
    assert isinstance(phone_b, FlaskClient)
    both = tables.join(phone_b, built["a"])  # type: ignore[arg-type]
    page = read_page(both.get("/history").get_data(as_text=True))
    switch = page.find("nav", class_="circle-switch").find_all("a")
    assert len(switch) == 2
    current = [link for link in switch if link.get("aria-current") == "page"]
    assert len(current) == 1
    other = next(link for link in switch if link.get("aria-current") is None)
    shown_first = listed_codes(both.get("/history"))
    switched = both.get(str(other.get("href")))
    assert listed_codes(switched) != shown_first
    assert listed_codes(switched) | shown_first == {
        game["id"]  # type: ignore[index]
        for game in (built["a"], built["b1"], built["b2"])
    }
    # viewing a circle by its link makes it the one used last: the plain URL shows it now
    assert listed_codes(both.get("/history")) == listed_codes(switched)
    marked = read_page(both.get("/history").get_data(as_text=True)).find(
        "a", class_="circle-switch__circle", aria_current="page"
    )
    assert marked.text == other.text
    # links between the pages carry the circle, and its Anna is that circle's
    switched_page = read_page(switched.get_data(as_text=True))
    anna = next(
        link
        for link in switched_page.find_all("a", class_="history-seat__name")
        if link.text == "Anna"
    )
    href = str(anna.get("href"))
    assert "circle=" in href
    games = "1" if built["a"]["id"] in listed_codes(switched) else "2"  # type: ignore[index]
    assert games_of(both.get(href)) == games
    a_circle = next(
        str(link.get("href")).split("circle=")[1]
        for link in switch
        if built["a"]["id"] in listed_codes(both.get(str(link.get("href"))))  # type: ignore[index]
    )
    assert games_of(both.get(f"/players/Anna?circle={a_circle}")) == "1"
    assert both.get(f"/players/Anna/vs/Ben?circle={a_circle}").status_code == 200


def test_a_phone_with_one_circle_sees_no_switch_and_short_links(tables: Tables) -> None:
    phone = tables.phone()
    tables.played(phone, ["Anna", "Ben", "Cleo"])
    page = read_page(phone.get("/history").get_data(as_text=True))
    assert page.find_all("nav", class_="circle-switch") == []
    links = [str(link.get("href")) for link in page.find_all("a", class_="history-seat__name")]
    assert links and all("circle=" not in link for link in links)


def test_a_round_recorded_shows_at_once_on_the_circles_pages(tables: Tables, table: Table) -> None:
    phone = tables.phone()
    game = tables.played(phone, ["Anna", "Ben", "Cleo"], rounds=2)
    seen = {url: phone.get(url) for url in ("/history", "/players/Anna", "/players/Anna/vs/Ben")}
    table.record(game, THREE)
    for url, before in seen.items():
        after = phone.get(url, headers={"If-None-Match": before.headers["ETag"]})
        assert after.status_code == 200, url
        assert after.get_data(as_text=True) != before.get_data(as_text=True), url
    assert stat_values(phone.get("/players/Anna").get_data(as_text=True))["Finished game"] == "1"


def test_on_a_club_server_every_phone_sees_the_one_history(app: Flask, table: Table) -> None:
    """``CLUB_SERVER``: today's behaviour, one circle open to every phone; the same phone on
    a server of circles sees none of it."""
    game = table.new_game(["Anna", "Ben", "Cleo"])
    table.record(game, THREE)
    visitor = app.test_client()
    assert listed_codes(visitor.get("/history")) == {game["id"]}
    assert games_of(visitor.get("/players/Anna")) == "1"
    assert visitor.get("/players/Anna/vs/Ben").status_code == 200
    app.config["CLUB_SERVER"] = False
    assert listed_codes(visitor.get("/history")) == set()
    assert visitor.get("/players/Anna").status_code == 404
