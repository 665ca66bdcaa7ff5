"""The scoreboard's page weight budget: at most 40,000 bytes, uncompressed, for the page with
every stylesheet and script it links.

The game is the benchmark's (scripts/benchmark.py): 8 players, 10 rounds planned, 5 scored
through the JSON API. Each scoreboard, read-only and editing, is weighed as the benchmark's
``weigh()`` does: the HTML body asked for with ``Accept-Encoding: identity``, plus each
``<link rel="stylesheet" href>`` and ``<script src>`` it names, fetched plain. In English and
in the languages with the longest words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scripts.page_reader import csrf_token, loads, read_page
from tests.table import Table

#: The budget, in bytes (HTML, stylesheets and scripts, uncompressed).
SCOREBOARD_BYTES = 40_000
PLAIN = {"Accept-Encoding": "identity"}

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]
#: Each seat's indicator colour (deck of R2 for 8 players: six colours, 0-18).
COLOURS = ["red", "blue", "green", "yellow", "brown", "violet", "red", "blue"]
#: Tricks per seat in an 8-player round (13 tricks), turned by one seat every round.
TRICKS = [2, 2, 2, 2, 2, 1, 1, 1]


def round_entries(number: int) -> list[dict[str, Any]]:
    """A quick entry per seat of an 8-player classic round, as the benchmark records them."""
    turn = number % len(TRICKS)
    tricks = TRICKS[turn:] + TRICKS[:turn]
    return [
        {
            "marked": [{"colour": colour, "value": 10 + seat}],
            "tricks": tricks[seat],
            "marked_captured": [{"colour": colour, "value": seat}] if seat % 3 == 0 else [],
        }
        for seat, colour in enumerate(COLOURS)
    ]


def table_game(table: Table, rounds: int = 5) -> dict[str, Any]:
    """The benchmark's game: 8 players, 10 rounds planned, ``rounds`` scored."""
    game = table.new_game(NAMES, "classic", rounds=10)
    for number in range(rounds):
        table.record(game, round_entries(number))
    assert [r["status"] for r in game["rounds"]] == ["scored"] * rounds
    return game


@dataclass
class Weight:
    """A page and what it loads, in bytes."""

    html: int
    css: int
    js: int
    assets: list[str]
    page: str

    @property
    def total(self) -> int:
        return self.html + self.css + self.js


def weigh(client: FlaskClient, path: str, language: str) -> Weight:
    """The page, uncompressed, and every stylesheet and script it links, fetched plain."""
    answer = client.get(path, headers={**PLAIN, "Accept-Language": language})
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers
    page = answer.get_data(as_text=True)
    assert f'<html lang="{language}">' in page
    weight = Weight(len(answer.get_data()), 0, 0, loads(page), page)
    assert weight.assets, "the page links no stylesheet and no script"
    for url in weight.assets:
        asset = client.get(url, headers=PLAIN)
        assert asset.status_code == 200 and "Content-Encoding" not in asset.headers, url
        size = len(asset.get_data())
        if url.endswith(".css"):
            weight.css += size
        else:
            weight.js += size
    return weight


@pytest.mark.parametrize("language", ["en", "de", "hu"])
@pytest.mark.parametrize("page", ["read-only", "editing"])
def test_the_scoreboard_of_8_players_and_5_rounds_weighs_at_most_40000_bytes(
    app: Flask, client: FlaskClient, page: str, language: str, table: Table
) -> None:
    game = table_game(table)
    code = game["id"]
    phone = app.test_client()
    if page == "editing":  # the phone that keeps the score, which opened the edit link
        assert phone.get(f"/g/{code}/edit/{game['edit_key']}").status_code == 302
        weight = weigh(phone, f"/g/{code}", language)
    else:
        weight = weigh(phone, f"/g/{code}/view", language)
    editing = f'href="/g/{code}/rounds/record"' in weight.page
    assert editing == (page == "editing")  # the page meant, with its controls or without
    assert weight.page.count('<td class="leads">') == 5  # five rounds scored, a leader each
    print(
        f"{page} scoreboard ({language}): {weight.total:,} bytes (HTML {weight.html:,}, "
        f"CSS {weight.css:,}, JS {weight.js:,})"
    )
    assert weight.total <= SCOREBOARD_BYTES, (
        f"the {page} scoreboard weighs {weight.total:,} bytes (HTML {weight.html:,}, "
        f"CSS {weight.css:,}, JS {weight.js:,}; budget {SCOREBOARD_BYTES:,})"
    )


def live_mid_trick(table: Table, game: dict[str, Any]) -> FlaskClient:
    """Round 6 of the benchmark's game played live, 7 of its 8 cards in the trick so far;
    answers the phone that enters them (it holds the edit key)."""
    code = game["id"]
    marked = [[{"colour": colour, "value": 10 + seat}] for seat, colour in enumerate(COLOURS)]
    started = table.client.post(
        f"/api/v1/games/{code}/rounds/live",
        json={"version": game["version"], "marked": marked},
        headers={"Authorization": f"Bearer {game['edit_key']}"},
    )
    assert started.status_code == 201, started.json
    phone = table.phone(game)
    for value in range(1, len(NAMES)):
        live = phone.get(f"/g/{code}/rounds/6/live").get_data(as_text=True)
        fields = {"csrf_token": csrf_token(live), "version": str(table.state(game)["version"])}
        tapped = phone.post(
            f"/g/{code}/rounds/6/live/card", data={**fields, "card": f"red-{value}"}
        )
        assert tapped.status_code == 302, tapped.get_data(as_text=True)[:500]
    return phone


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize("page", ["read-only", "editing"])
def test_the_scoreboard_in_the_middle_of_a_live_trick_weighs_at_most_40000_bytes(
    app: Flask, page: str, language: str, table: Table
) -> None:
    game = table_game(table)
    code = game["id"]
    phone = live_mid_trick(table, game)
    path = f"/g/{code}" if page == "editing" else f"/g/{code}/view"
    weight = weigh(phone if page == "editing" else app.test_client(), path, language)
    follow = read_page(weight.page).find("div", class_="follow")
    assert len(follow.find("ol", class_="trick-cards").find_all("li")) == len(NAMES) - 1
    print(
        f"{page} scoreboard mid-trick ({language}): {weight.total:,} bytes "
        f"(HTML {weight.html:,}, CSS {weight.css:,}, JS {weight.js:,})"
    )
    assert weight.total <= SCOREBOARD_BYTES, (
        f"the {page} scoreboard in the middle of a live trick weighs {weight.total:,} bytes "
        f"(HTML {weight.html:,}, CSS {weight.css:,}, JS {weight.js:,}; "
        f"budget {SCOREBOARD_BYTES:,})"
    )
