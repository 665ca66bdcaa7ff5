"""A round's scores with their reasons are one page whichever side draws it: for whole games
of every variant and every table size it allows (Hat Trick included), the page the phone's
rules worker draws offline (run as on the phone: the archive unpacked alone, no Flask, no
Babel) from the last state the server sent plus the rounds queued on the phone (recorded, and
one corrected) is the page the server draws from its database once they are sent, for every
round, in every language, once the "not yet sent" mark is set aside."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from companion.rules.table import table_setup
from tests.offline.test_offline_game import send
from tests.offline.test_same_scoreboard import CASES, sent_then_queued
from tests.offline.test_worker_words import LANGUAGES
from tests.offline.worker_run import ask_worker
from tests.table import Table

ROUND = '<div class="round-scores" id="round-scores">'
PENDING_MARK = re.compile(r' <span class="row-pending" role="img" aria-label="[^"]*">⇡</span>')


def reasons_of(page: str) -> str:
    """The scores and reasons of a whole round page, as the worker draws them."""
    start = page.index(ROUND) + len(ROUND)
    end = page.index("\n</div>", start)
    return page[start:end].strip()


def test_the_worker_draws_every_round_s_reasons_as_the_server_does_once_sent(
    client: FlaskClient, table: Table, routed: Path
) -> None:
    rng = random.Random("same round scores")
    calls: list[tuple[str, Any, str]] = []
    expected: list[str | None] = []
    for index, (shown, variant, players) in enumerate(CASES):
        setup = table_setup(players, variant)
        rounds = rng.randint(2, 3)
        names = [f"Ádám {seat}" if index % 2 else f"P{seat}" for seat in range(players)]
        game, last_seen, queued = sent_then_queued(client, table, rng, shown, setup, names, rounds)
        language = LANGUAGES[index % len(LANGUAGES)]
        for number in range(1, rounds + 2):  # and one past the last: no scores
            body = {"state": last_seen, "queued": queued, "number": number, "root": ""}
            calls.append(("pages/round_scores", body, language))
        for change in queued:
            answer = send(client, game, change)
            assert answer.status_code in (200, 201), answer.json
            game.update(answer.json)
        for number in range(1, rounds + 2):
            page = client.get(
                f"/g/{game['id']}/rounds/{number}/scores", headers={"Accept-Language": language}
            )
            assert page.status_code in (200, 404)
            expected.append(
                reasons_of(page.get_data(as_text=True)) if page.status_code == 200 else None
            )
    answers = ask_worker(routed, calls)
    marked = 0
    for (_, body, language), answer, server in zip(calls, answers, expected, strict=True):
        assert answer["status"] == 200, answer
        drawn = answer["body"]["html"]
        if server is None:
            assert drawn is None, (body["number"], language)
            continue
        assert drawn is not None, (body["number"], language)
        marked += bool(PENDING_MARK.search(drawn))
        assert PENDING_MARK.sub("", drawn).strip() == server, (body, language)
    assert marked, "the rounds queued on the phone are marked"
    assert sum(server is not None for server in expected) > len(CASES)
