"""The round pages' weight (issue 29): the HTML of the mark, live-start, record, correct and
live pages, uncompressed, for 4 and 8 players of the classic game and 4 and 7 (its most) of
Hat Trick, in English and in the language with the longest words.

Each seat's pickers draw the whole deck, so these pages grow with the players: the record
page of 4 players held 480 chips in 205 KB of HTML before issue 29 (8 players: 732 KB). The
budgets are the issue's for the record page of 4 players (100,000 bytes) and, for the other
pages, what they weigh now with a little room (measured: see BUDGETS). Their stylesheets
and scripts are cached once for every round and are not counted.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.rules import PRESETS, FullEntry, HatTrickFullEntry, table_setup
from scripts.page_reader import read_page
from tests.rules.helpers import play_classic_round, play_hat_trick_round
from tests.table import Table, auth

PLAIN = {"Accept-Encoding": "identity"}
NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]

#: Bytes of HTML per page, by game, set from what they weigh in English (Hungarian is at most
#: 0.6 % heavier), before issue 29 -> after. Classic, 4 players: mark 93,249 -> 39,693,
#: record 204,238 -> 89,274, record every card 193,370 -> 85,298, correct 190,031 -> 85,071,
#: correct in quick entry 200,295 -> 88,667, live 23,648 -> 16,046. 8 players: mark 341,130
#: -> 136,346, record 731,711 -> 299,143, every card 704,018 -> 290,802, correct 685,465 ->
#: 285,849, quick 711,362 -> 293,290, live 40,068 -> 25,526. Hat Trick, 4 players: record
#: 59,318 -> 41,878, every card 191,959 -> 84,751, correct 192,350 -> 85,142, quick 59,479 ->
#: 42,039, live 22,342 -> 14,779; 7 players: record 96,552 -> 67,362, every card 347,137 ->
#: 150,199, correct 347,527 -> 150,589, quick 96,785 -> 67,595, live 24,058 -> 16,114. The
#: live-start page is the mark page's form (113 bytes more).
BUDGETS: dict[tuple[str, int], dict[str, int]] = {
    ("classic", 4): {
        "mark": 44_000,
        "live start": 44_000,
        "record": 100_000,  # the budget
        "record every card": 95_000,
        "correct": 95_000,
        "correct in quick entry": 98_000,
        "live": 18_000,
    },
    ("classic", 8): {
        "mark": 150_000,
        "live start": 150_000,
        "record": 330_000,
        "record every card": 320_000,
        "correct": 315_000,
        "correct in quick entry": 325_000,
        "live": 28_000,
    },
    ("hat-trick", 4): {
        "record": 46_000,
        "record every card": 93_000,
        "correct": 94_000,
        "correct in quick entry": 46_000,
        "live": 17_000,
    },
    ("hat-trick", 7): {
        "record": 74_000,
        "record every card": 165_000,
        "correct": 166_000,
        "correct in quick entry": 74_000,
        "live": 18_500,
    },
}


def played_round(variant: str, players: int) -> list[Any]:
    """Every seat's full entry of a round played out at random (a fixed seed)."""
    setup = table_setup(players, PRESETS[variant])
    if variant == "hat-trick":
        hat = play_hat_trick_round(setup, random.Random(29))
        return [
            HatTrickFullEntry(tuple(hat.face_up[seat]), tuple(hat.face_down[seat]))
            for seat in range(players)
        ]
    classic = play_classic_round(setup, random.Random(29))
    return [
        FullEntry(classic.indicators[seat], tuple(classic.captured[seat]))
        for seat in range(players)
    ]


def round_pages(table: Table, variant: str, players: int, language: str) -> dict[str, bytes]:
    """The HTML of each round page of a game of ``players`` in ``language``, as the phone
    keeping the score gets it: mark and live start before round 1, record (in quick entry
    and every card) before it is marked, correct after it is scored in full, live once
    round 2 is started live."""
    game = table.new_game(NAMES[:players], variant, rounds=5)
    phone = table.phone(game)
    code = game["id"]
    before = {
        "record": f"/g/{code}/rounds/record",
        "record every card": f"/g/{code}/rounds/record?mode=full",
    }
    if variant == "classic":
        before |= {"mark": f"/g/{code}/rounds/mark", "live start": f"/g/{code}/rounds/live"}
    pages = {name: weigh(phone, path, language) for name, path in before.items()}
    entries = played_round(variant, players)
    table.record(game, entries)
    pages["correct"] = weigh(phone, f"/g/{code}/rounds/1", language)
    pages["correct in quick entry"] = weigh(phone, f"/g/{code}/rounds/1?mode=quick", language)
    start: dict[str, Any] = {"version": game["version"]}
    if variant == "classic":  # the indicators are laid out first (R4)
        start["marked"] = [[card.as_json() for card in entry.marked] for entry in entries]
    started = table.client.post(f"/api/v1/games/{code}/rounds/live", json=start, headers=auth(game))
    assert started.status_code == 201, started.json
    pages["live"] = weigh(phone, f"/g/{code}/rounds/2/live", language)
    return pages


def weigh(phone: FlaskClient, path: str, language: str) -> bytes:
    """The page's HTML in ``language``, uncompressed."""
    answer = phone.get(path, headers={**PLAIN, "Accept-Language": language})
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers, path
    assert f'<html lang="{language}">' in answer.get_data(as_text=True)
    return answer.get_data()


def assert_the_page_meant(name: str, page: str, players: int, deck_size: int) -> None:
    """The page is the one meant, so that no error page meets a budget: the live round's
    cards, or every seat with its whole deck of chips in one picker at least (or, in Hat
    Trick's quick entry, its counts)."""
    read = read_page(page)
    if name == "live":
        assert read.find_all("button", name="card"), "the live page shows no card to tap"
        return
    seats = read.find_all("fieldset", class_="round-seat")
    assert len(seats) == players, f"{name}: {len(seats)} seats"
    for seat in seats:
        chips: dict[str, int] = {}
        for control in seat.find_all("input"):
            if "-" in str(control.get("value")):  # a card ("red-7"), not a count
                chips[str(control.get("name"))] = chips.get(str(control.get("name")), 0) + 1
        counts = seat.find_all("fieldset", data_count_field=True)  # Hat Trick's quick entry
        assert deck_size in chips.values() or counts, f"{name}, seat {seat.get('data-seat')}"


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize(("variant", "players"), list(BUDGETS))
def test_the_round_pages_weigh_at_most_their_budget(
    table: Table, variant: str, players: int, language: str
) -> None:
    budgets = BUDGETS[(variant, players)]
    deck_size = table_setup(players, PRESETS[variant]).deck.size
    pages = round_pages(table, variant, players, language)
    assert set(pages) == set(budgets)
    over = []
    for name, page in pages.items():
        assert_the_page_meant(name, page.decode(), players, deck_size)
        print(f"{variant}, {players} players, {name} ({language}): {len(page):,} bytes")
        if len(page) > budgets[name]:
            over.append(f"{name}: {len(page):,} bytes (budget {budgets[name]:,})")
    assert not over, f"{variant}, {players} players ({language}): " + "; ".join(over)
