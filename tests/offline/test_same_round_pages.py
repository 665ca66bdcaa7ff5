"""The record, correct and mark pages are one page whichever side draws them: for whole games
of every variant and every table size it allows (Hat Trick included), the page's content the
phone's rules worker draws offline (run as on the phone: the archive unpacked alone, no
Flask, no Babel) from the last state the server sent plus the changes queued on the phone
(rounds recorded, one corrected, the next round's colours marked) is the content the server
draws from its database once those changes are sent: the record page in each entry mode the
game offers, a scored round's correct page, the mark page, and a refused form shown again,
in English and Hungarian, once the CSRF token, the version and the round's digest are set
aside."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from companion.pages.record import Kind, entry_values, kinds_of
from companion.rules.table import table_setup
from companion.web.offline import kit
from tests.games.round_helpers import form_fields
from tests.offline.test_offline_game import auth, send
from tests.offline.test_same_scoreboard import CASES, random_entries
from tests.offline.worker_run import archive, ask_worker
from tests.rules.helpers import play_classic_round
from tests.table import Table

SECTION = re.compile(r'<section class="round-page">.*?\n</section>', re.DOTALL)


def content_of(page: str) -> str:
    """A round page's content (its section), as the worker draws it."""
    found = SECTION.search(page)
    assert found, page[:2000]
    return found.group(0)


def set_aside(content: str) -> str:
    """The content without what only the sending side knows: the CSRF token, the version
    the form is based on (the phone's is the one its queue is based on) and the digest of
    a corrected round as the server stored it."""
    for name in ("csrf_token", "version", "digest"):
        content = re.sub(rf'(name="{name}" type="hidden" value=)"[^"]*"', r"\1X", content)
    return content.strip()


@pytest.fixture
def unpacked_with_routes(app: Flask, tmp_path: Path) -> Path:
    """The rules archive as the app serves it (its route map in it), unpacked alone."""
    archive(kit.route_map(app)).extractall(tmp_path)
    return tmp_path


def mark_change(rng: random.Random, setup: Any) -> dict[str, Any]:
    """The next round's colours marked at random, as the phone queues it."""
    played = play_classic_round(setup, rng)
    marked = [[card.as_json() for card in cards] for cards in played.indicators]
    return {"action": "mark", "body": {"version": 0, "marked": marked}}


def refused_fields(rng: random.Random, setup: Any) -> tuple[str, dict[str, list[str]]]:
    """A round played at random, as the record page's fields in its first entry mode, with
    one count or card wrong, so the rules refuse it (C3, C5): the mode and the fields."""
    kind = kinds_of(setup)[0]
    fields = entry_values(kind, random_entries(rng, setup), setup.players)
    if kind in (Kind.QUICK, Kind.HAT_QUICK):
        name = "s0-tricks" if kind is Kind.QUICK else "s0-red"
        fields[name] = [str(int(fields.get(name, ["0"])[0]) + 1)]
    else:
        name = next(
            name for name, values in fields.items() if name.endswith("-captured") and values
        )
        fields[name] = fields[name][:-1]
    return kind.mode, fields


def send_change(client: FlaskClient, game: dict[str, Any], change: dict[str, Any]) -> Any:
    if change["action"] != "mark":
        return send(client, game, change)
    url = f"/api/v1/games/{game['id']}/rounds/marks"
    body = {**change["body"], "version": game["version"]}
    return client.post(url, json=body, headers=auth(game))


def test_the_worker_draws_the_round_pages_the_server_draws_once_the_queue_is_sent(
    app: Flask, client: FlaskClient, table: Table, unpacked_with_routes: Path
) -> None:
    rng = random.Random("same round pages")
    calls: list[tuple[str, Any, str | None]] = []
    expected: list[tuple[str, str]] = []
    for index, (shown, variant, players) in enumerate(CASES):
        setup = table_setup(players, variant)
        rounds = rng.randint(2, 3)
        names = [f"Player {seat}" if index % 2 else f"P{seat}" for seat in range(players)]
        game = table.new_game(names, shown, rounds=rounds, first_leader=rng.randrange(players))
        phone = table.phone(game)
        sent_first = rng.randint(0, 1)  # recorded with the network, before it went
        for _ in range(sent_first):
            change = {"action": "record", "body": {"entries": random_entries(rng, setup)}}
            game.update(send(client, game, change).json)
        last_seen = table.state(game)
        queued: list[dict[str, Any]] = [
            {"action": "record", "body": {"version": 0, "entries": random_entries(rng, setup)}}
            for _ in range(
                rng.randint(1, rounds - 1 - sent_first) if rounds - 1 > sent_first else 0
            )
        ]
        recorded = sent_first + len(queued)
        if recorded:
            corrected = rng.randint(1, recorded)
            entries = random_entries(rng, setup)
            queued.append(
                {
                    "action": "correct",
                    "number": corrected,
                    "body": {"version": 0, "entries": entries},
                }
            )
        lays_out = setup.cards_laid_out > 0
        marks = lays_out and not variant.hides_marks and rng.random() < 0.5
        if marks:
            queued.append(mark_change(rng, setup))
        language = "hu" if index % 3 == 0 else "en"
        code = game["id"]
        base = {"state": last_seen, "queued": queued, "root": "", "token": "kept"}
        pages: list[tuple[str, dict[str, Any], str]] = []
        for kind in kinds_of(setup):
            pages.append(
                ("pages/record", {"mode": kind.mode}, f"/g/{code}/rounds/record?mode={kind.mode}")
            )
        if len(queued) > int(marks):  # a round recorded or corrected here: its entries are held
            number = queued[-1 - int(marks)].get("number") or sent_first + 1
            pages.append(("pages/record", {"number": number}, f"/g/{code}/rounds/{number}"))
        if lays_out and not marks:
            pages.append(("pages/mark", {}, f"/g/{code}/rounds/mark"))
        for call, extra, _ in pages:
            calls.append((call, {**base, **extra}, language))
        refused = None if marks else refused_fields(rng, setup)
        if refused is not None:
            mode, fields = refused
            calls.append(
                ("pages/record", {**base, "mode": mode, "fields": fields, "check": True}, language)
            )
        for change in queued:
            answer = send_change(client, game, change)
            assert answer.status_code in (200, 201), answer.json
            game.update(answer.json)
        headers = {"Accept-Language": language}
        for _, _, url in pages:
            page = phone.get(url, headers=headers)
            assert page.status_code == 200, (url, page.status_code)
            expected.append((url, content_of(page.get_data(as_text=True))))
        if refused is not None:
            url = f"/g/{code}/rounds/record?mode={refused[0]}"
            shown = form_fields(phone.get(url, headers=headers).get_data(as_text=True))
            hidden = [(name, shown[name][0]) for name in ("csrf_token", "version", "number")]
            sent = [(name, value) for name, values in refused[1].items() for value in values]
            posted = MultiDict([*hidden, *sent, ("action", "check")])
            page = phone.post(url, data=posted, headers=headers)
            assert page.status_code == 422, (url, page.status_code)
            expected.append((url + " (refused)", content_of(page.get_data(as_text=True))))
    answers = ask_worker(unpacked_with_routes, calls)
    for (_, _, language), answer, (url, server) in zip(calls, answers, expected, strict=True):
        assert answer["status"] == 200, answer
        drawn = answer["body"]["html"]
        assert set_aside(content_of(drawn)) == set_aside(server), (url, language)
    refusals = [server for url, server in expected if url.endswith("(refused)")]
    assert refusals and all("round-errors round-errors--" in page for page in refusals)
