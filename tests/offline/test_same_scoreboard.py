"""The scoreboard is one page whichever side draws it: for whole games of every variant and
every table size it allows, the board the phone's rules worker draws offline (run as on the
phone: the archive unpacked alone, no Flask, no Babel) from the last state the server sent
plus the rounds queued on the phone (recorded, and one corrected) is the board the server
draws from its database once those rounds are sent, editing and read-only, in English and
Hungarian, once the "not yet sent" marks and the CSRF token are set aside."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.play_state.new_game import new_game_answer
from companion.play_state.offline_game import next_game_answer
from companion.rules.entries import (
    DelayedEntry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
)
from companion.rules.table import TableSetup, table_setup
from companion.rules.variants import Reveal
from companion.web.offline import kit
from tests.offline.requests import every_variant
from tests.offline.test_offline_game import send
from tests.offline.worker_run import archive, ask_worker
from tests.rules.helpers import legal_delayed_choices, play_classic_round, play_hat_trick_round
from tests.table import Table, auth

BOARD = '<div class="board" data-board>'
#: Every variant of the box, each at one table size or more.
CASES = every_variant("other settings")


def random_entries(rng: random.Random, setup: TableSetup) -> list[Any]:
    """One round played at random at ``setup``'s table, as the API's entries (in full, in
    counts, delayed with or without a choice, Hat Trick in full or in counts)."""
    variant = setup.variant
    if variant.has_passes:
        played = play_hat_trick_round(setup, rng, pass_often=0.3)
        entries = []
        for seat in range(setup.players):
            full = HatTrickFullEntry(tuple(played.face_up[seat]), tuple(played.face_down[seat]))
            quick = HatTrickQuickEntry(full.face_up_counts(), len(played.face_down[seat]))
            entries.append((full if rng.random() < 0.5 else quick).as_json())
        return entries
    played = play_classic_round(setup, rng)
    entries = []
    for seat in range(setup.players):
        captured, marked = tuple(played.captured[seat]), played.indicators[seat]
        if variant.reveal is Reveal.DELAYED:
            choices = legal_delayed_choices(captured, variant.colours)
            choose = rng.choice(choices) if choices and rng.random() < 0.3 else None
            entries.append(DelayedEntry(captured, choose).as_json())
        elif rng.random() < 0.5:
            entries.append(FullEntry(marked, captured).as_json())
        else:
            colours = {card.colour for card in marked}
            in_marked = tuple(card for card in captured if card.colour in colours)
            entries.append(QuickEntry(marked, played.tricks[seat], in_marked).as_json())
    return entries


def sent_then_queued(
    client: FlaskClient,
    table: Table,
    rng: random.Random,
    shown: Any,
    setup: TableSetup,
    names: list[str],
    rounds: int,
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """A game of ``rounds`` whose first rounds were recorded with the network, then rounds
    recorded and one round corrected on a phone without it: the game, the state the phone
    last saw, and its queue."""
    game = table.new_game(names, shown, rounds=rounds, first_leader=rng.randrange(setup.players))
    sent_first = rng.randint(0, rounds - 1)
    for _ in range(sent_first):
        change = {"action": "record", "body": {"entries": random_entries(rng, setup)}}
        game.update(send(client, game, change).json)
    last_seen = table.state(game)
    queued: list[dict[str, Any]] = [
        {"action": "record", "body": {"version": 0, "entries": random_entries(rng, setup)}}
        for _ in range(rng.randint(1, rounds - sent_first))
    ]
    corrected = rng.randint(1, sent_first + len(queued))
    queued.append(
        {
            "action": "correct",
            "number": corrected,
            "body": {"version": 0, "entries": random_entries(rng, setup)},
        }
    )
    return game, last_seen, queued


def board_of(page: str) -> str:
    """The board of a whole scoreboard page, as the worker draws it."""
    start = page.index(BOARD) + len(BOARD)
    inner = page[start : page.index('\n<section class="share"', start)].rstrip()
    assert inner.endswith("</div>")
    return inner.removesuffix("</div>").strip()


def set_aside(board: str, pending: set[str]) -> str:
    """The board without the "not yet sent" marks (a pending round's number links nowhere
    yet) and the CSRF token."""
    board = board.replace(" is-pending", "")
    board = re.sub(r' <span class="row-pending"[^>]*>⇡</span>', "", board)
    board = re.sub(r' <span aria-hidden="true">⇡</span> [^.<\n]*\.', "", board)
    board = re.sub(r'name="csrf_token" type="hidden" value="[^"]*"', "TOKEN", board)
    for number in pending:
        board = re.sub(
            rf'<th scope="row"><a href="[^"]*">{number}</a></th>', f"<th>{number}</th>", board
        )
        board = board.replace(f'<th scope="row">{number}</th>', f"<th>{number}</th>")
    return board.strip()


@pytest.fixture
def unpacked_with_routes(app: Flask, tmp_path: Path) -> Path:
    """The rules archive as the app serves it (its route map in it), unpacked alone."""
    archive(kit.route_map(app)).extractall(tmp_path)
    return tmp_path


def test_the_worker_draws_the_board_the_server_draws_once_the_queue_is_sent(
    app: Flask, client: FlaskClient, table: Table, unpacked_with_routes: Path
) -> None:
    rng = random.Random("same page")
    calls: list[tuple[str, Any, str | None]] = []
    expected: list[str] = []
    for index, (shown, variant, players) in enumerate(CASES):
        setup = table_setup(players, variant)
        rounds = rng.randint(2, 3)
        names = [f"Player {seat}" if index % 2 else f"P{seat}" for seat in range(players)]
        game, last_seen, queued = sent_then_queued(client, table, rng, shown, setup, names, rounds)
        phone = table.phone(game)
        language = "hu" if index % 3 == 0 else "en"
        for view in (False, True):
            body = {
                "state": last_seen,
                "queued": queued,
                "root": "",
                "token": "kept",
                "editable": not view,
                "view": view,
            }
            calls.append(("pages/scoreboard", body, language))
        for change in queued:
            answer = send(client, game, change)
            assert answer.status_code in (200, 201), answer.json
            game.update(answer.json)
        for url, who in ((f"/g/{game['id']}", phone), (f"/g/{game['id']}/view", client)):
            page = who.get(url, headers={"Accept-Language": language})
            assert page.status_code == 200
            expected.append(board_of(page.get_data(as_text=True)))
    answers = ask_worker(unpacked_with_routes, calls)
    for (_, body, language), answer, server in zip(calls, answers, expected, strict=True):
        assert answer["status"] == 200, answer
        drawn = answer["body"]["html"]
        pending = set(re.findall(r'<th scope="row">(\d+) <span class="row-pending"', drawn))
        assert pending, "the queued rounds are marked"
        assert answer["body"]["refused"] == []
        assert set_aside(drawn, pending) == set_aside(server, pending), (body["state"], language)


#: Where the phone keeps a game the server does not have yet (static/offline_play.js).
NEW_ADDRESS = "/games/new/key"


def unsent_aside(board: str, address: str, code: str) -> str:
    """The board of a game the phone started, its links led to the game's address on the
    phone; with those links as the server's, and without what the server's board offers
    only of a game it has (corrections of rounds sent, the table tools)."""
    board = board.replace(f'"{address}', f'"/g/{code}')
    board = re.sub(r'\n  <nav class="corrections".*?</nav>', "", board, flags=re.S)
    return re.sub(r'\n  <p class="table-tools">.*?</p>', "", board, flags=re.S)


def test_a_game_the_server_does_not_have_yet_is_drawn_as_it_will_draw_it(
    app: Flask, client: FlaskClient, table: Table, unpacked_with_routes: Path
) -> None:
    """A new game started on the phone (``games/new``) and the table's next game (play
    again, ``games/next``) are states like any other: their board, drawn from the state
    their start kept with the rounds queued after it, is the board the server draws once
    the start and the rounds are sent, for every variant and table size."""
    rng = random.Random("unsent games")
    calls: list[tuple[str, Any, str | None]] = []
    expected: list[tuple[str, str, str]] = []
    for index, (shown, variant, players) in enumerate(CASES):
        setup = table_setup(players, variant)
        rounds = rng.randint(1, 3)
        names = [f"Player {seat}" for seat in range(players)]
        leader = rng.randrange(players)
        if index % 2 == 0:  # started on the phone
            request = {"players": names, "variant": shown, "rounds": rounds}
            request["first_leader"] = leader
            state = new_game_answer({"game": request})
            game = table.new_game(names, shown, rounds=rounds, first_leader=leader)
            address = NEW_ADDRESS
        else:  # the table's next game, after a game played out on the server
            before = table.new_game(names, shown, rounds=rounds, first_leader=leader)
            for _ in range(rounds):
                change = {"action": "record", "body": {"entries": random_entries(rng, setup)}}
                answer = send(client, before, change)
                assert answer.status_code == 201, answer.json
                before.update(answer.json)
            state = next_game_answer({"state": table.state(before)})
            answer = client.post(f"/api/v1/games/{before['id']}/again", headers=auth(before))
            assert answer.status_code == 201, answer.json
            game = answer.json
            address = f"/g/{before['id']}/next"
        queued: list[dict[str, Any]] = [
            {"action": "record", "body": {"version": 0, "entries": random_entries(rng, setup)}}
            for _ in range(rng.randint(1, rounds))
        ]
        language = "hu" if index % 3 == 0 else "en"
        body = {
            "state": state,
            "queued": queued,
            "root": "",
            "token": "kept",
            "editable": True,
            "address": address,
        }
        calls.append(("pages/scoreboard", body, language))
        phone = table.phone(game)
        for change in queued:
            answer = send(client, game, change)
            assert answer.status_code == 201, answer.json
            game.update(answer.json)
        page = phone.get(f"/g/{game['id']}", headers={"Accept-Language": language})
        assert page.status_code == 200
        expected.append((board_of(page.get_data(as_text=True)), address, game["id"]))
    answers = ask_worker(unpacked_with_routes, calls)
    for answer, (server, address, code) in zip(answers, expected, strict=True):
        assert answer["status"] == 200, answer
        drawn = answer["body"]["html"]
        assert 'class="table-tools"' not in drawn and 'class="corrections"' not in drawn
        assert f'href="{address}/' in drawn or answer["body"]["status"] != "in_progress"
        pending = set(re.findall(r'<th scope="row">(\d+) <span class="row-pending"', drawn))
        assert len(pending) == answer["body"]["pending"], "every queued round, marked"
        mine = set_aside(unsent_aside(drawn, address, code), pending)
        assert mine == set_aside(unsent_aside(server, address, code), pending), code
