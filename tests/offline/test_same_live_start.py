"""The page starting a round live is one page whichever side draws it, and a game only the
phone holds is drawn whole into the kept shell: for whole games of every variant and every
table size it allows (Hat Trick included), the page the phone's rules worker draws offline
(``pages/live_start``, run as on the phone: the archive unpacked alone) from the last state
the server sent plus the changes queued on the phone (rounds recorded, the next round's
colours marked) is the page the server draws once they are sent, in English and Hungarian,
once the CSRF token and the version are set aside. A game started on the phone (any variant,
any number of players: no page of another game is borrowed) has its scoreboard, record, mark
and live start pages drawn with every link under the address the phone gave it."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.play_state.new_game import new_game_answer
from companion.rules.table import table_setup
from tests.offline.test_offline_game import send
from tests.offline.test_same_round_pages import mark_change, send_change, set_aside
from tests.offline.test_same_round_pages import unpacked_with_routes as unpacked_with_routes
from tests.offline.test_same_scoreboard import CASES, NEW_ADDRESS, random_entries
from tests.offline.worker_run import ask_worker
from tests.table import Table

SECTION = re.compile(r'<section class="round-page live-start">.*?\n</section>', re.DOTALL)


def content_of(page: str) -> str:
    found = SECTION.search(page)
    assert found, page[:2000]
    return found.group(0)


def test_the_worker_draws_the_live_start_page_the_server_draws(
    app: Flask, client: FlaskClient, table: Table, unpacked_with_routes: Path
) -> None:
    rng = random.Random("same live start")
    calls: list[tuple[str, Any, str | None]] = []
    expected: list[str] = []
    kinds = set()
    for index, (shown, variant, players) in enumerate(CASES):
        setup = table_setup(players, variant)
        names = [f"Player {seat}" for seat in range(players)]
        game = table.new_game(names, shown, rounds=3, first_leader=rng.randrange(players))
        phone = table.phone(game)
        if rng.random() < 0.5:  # a round recorded with the network, before it went
            change = {"action": "record", "body": {"entries": random_entries(rng, setup)}}
            game.update(send(client, game, change).json)
        queued: list[dict[str, Any]] = []
        if rng.random() < 0.5:
            queued.append(
                {"action": "record", "body": {"version": 0, "entries": random_entries(rng, setup)}}
            )
        if setup.cards_laid_out and rng.random() < 0.5:
            queued.append(mark_change(rng, setup))  # one button, the colours marked already
        language = "hu" if index % 3 == 0 else "en"
        body = {"state": table.state(game), "queued": queued, "root": "", "token": "kept"}
        calls.append(("pages/live_start", body, language))
        for change in queued:
            answer = send_change(client, game, change)
            assert answer.status_code in (200, 201), answer.json
            game.update(answer.json)
        page = phone.get(f"/g/{game['id']}/rounds/live", headers={"Accept-Language": language})
        assert page.status_code == 200, page.status_code
        server = content_of(page.get_data(as_text=True))
        kinds.add("chips" if 'data-kind="mark"' in server else "button")
        expected.append(server)
    assert kinds == {"chips", "button"}, "both ways of starting a round are drawn"
    answers = ask_worker(unpacked_with_routes, calls)
    for (_, body, language), answer, server in zip(calls, answers, expected, strict=True):
        assert answer["status"] == 200, answer
        drawn = content_of(answer["body"]["html"])
        assert set_aside(drawn) == set_aside(server), (body["state"]["variant"], language)


def test_a_game_started_on_the_phone_is_drawn_whole_under_its_own_address(
    unpacked_with_routes: Path,
) -> None:
    rng = random.Random("shell pages")
    calls: list[tuple[str, Any, str | None]] = []
    for shown, variant, players in CASES:
        names = [f"Player {seat}" for seat in range(players)]
        request = {"players": names, "variant": shown, "rounds": 2}
        request["first_leader"] = rng.randrange(players)
        state = new_game_answer({"game": request})
        base = {"state": state, "queued": [], "root": "/app", "address": NEW_ADDRESS}
        calls.append(("pages/scoreboard", {**base, "editable": True, "whole": True}, "hu"))
        calls.append(("pages/record", base, "en"))
        calls.append(("pages/live_start", base, "en"))
        if table_setup(players, variant).cards_laid_out:
            calls.append(("pages/mark", base, "en"))
    answers = ask_worker(unpacked_with_routes, calls)
    for (call, _, _), answer in zip(calls, answers, strict=True):
        assert answer["status"] == 200, (call, answer)
        html = answer["body"]["html"]
        links = re.findall(r'(?:href|formaction)="([^"]*)"', html)
        own = [link for link in links if link.startswith(NEW_ADDRESS)]
        assert own, (call, links)
        others = [link for link in links if "/g/" in link]
        assert others == [], (call, others)  # nothing leads to another game's pages
    boards = [
        answer["body"]["html"]
        for (call, _, _), answer in zip(calls, answers, strict=True)
        if call == "pages/scoreboard"
    ]
    assert all(board.startswith("<h1>Eredménytábla</h1>") for board in boards), boards[0][:200]
    assert all('<div class="board" data-board>' in board for board in boards)
