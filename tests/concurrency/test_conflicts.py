"""No lost updates: phones that change the same game at the same moment, against gunicorn
with four worker processes. Exactly one change wins; every other phone is told the game
changed on another phone, with the current version, and nothing of its change is kept."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from scripts import server_harness
from scripts.page_reader import csrf_token
from scripts.server_harness import Client, PlannedRound, Reply, Table

#: Phones sending at once: twice the server's workers, so some race and some queue.
PHONES = 8


def new_table(http: Client, label: str, rounds: int = 5, players: int = 4) -> Table:
    """A game started through the API, as its scorekeeping phone knows it."""
    reply, table = server_harness.create_game(
        http, server_harness.table_names(label, players), "classic", rounds
    )
    assert table is not None, reply.text
    return table


def winner_of(replies: Sequence[Reply], won: int) -> int:
    """The index of the one reply with status ``won``; every other one must be a 409 that
    names the winner's version and says the game changed on another phone."""
    statuses = [reply.status for reply in replies]
    assert sorted(statuses) == sorted([won] + [409] * (len(replies) - 1)), statuses
    winner = statuses.index(won)
    version = replies[winner].json()["version"]
    for reply in replies:
        if reply.status == 409:
            refusal = reply.json()
            assert refusal["version"] == version
            assert server_harness.CONFLICT_TEXT in refusal["error"]
    return winner


def assert_stored(http: Client, table: Table, rounds: Sequence[PlannedRound]) -> None:
    """The game holds exactly ``rounds``, in order, and its totals are their sum."""
    stored = server_harness.stored_rounds(http, table.code)
    assert [round_["number"] for round_ in stored] == list(range(1, len(rounds) + 1))
    assert [round_["entries"] for round_ in stored] == [planned.entries for planned in rounds]
    assert [round_["scores"] for round_ in stored] == [planned.scores for planned in rounds]
    state = http.get(f"/api/v1/games/{table.code}").json()
    assert state["totals"] == [sum(seat) for seat in zip(*(p.scores for p in rounds), strict=True)]
    assert state["version"] == table.version


def test_of_phones_recording_the_same_round_at_once_exactly_one_wins_every_round(
    http: Client,
) -> None:
    rng = random.Random(71)
    table = new_table(http, "record race")
    kept: list[PlannedRound] = []
    for number in range(1, 5):
        plans = server_harness.distinct_rounds(table.setup, rng, PHONES)
        replies = server_harness.at_once(
            [partial(server_harness.post_round, http, table, p, table.version) for p in plans]
        )
        winner = winner_of(replies, 201)
        state = replies[winner].json()
        assert state["version"] == table.version + 1
        assert len(state["rounds"]) == number
        assert state["rounds"][-1]["scores"] == plans[winner].scores
        table.version = state["version"]
        kept.append(plans[winner])
        assert_stored(http, table, kept)


def test_of_phones_correcting_the_same_round_at_once_exactly_one_wins_every_time(
    http: Client,
) -> None:
    rng = random.Random(72)
    table = new_table(http, "correct race")
    kept = server_harness.distinct_rounds(table.setup, rng, 2)
    for planned in kept:
        reply = server_harness.post_round(http, table, planned, table.version)
        assert reply.status == 201, reply.text
        table.version = reply.json()["version"]
    for correction in range(3):
        number = 1 + correction % 2
        plans = server_harness.distinct_rounds(table.setup, rng, PHONES)
        replies = server_harness.at_once(
            [
                partial(server_harness.put_round, http, table, number, p, table.version)
                for p in plans
            ]
        )
        winner = winner_of(replies, 200)
        table.version = replies[winner].json()["version"]
        kept[number - 1] = plans[winner]
        assert_stored(http, table, kept)


def test_of_phones_recording_the_next_round_and_correcting_the_last_at_once_one_wins(
    http: Client,
) -> None:
    rng = random.Random(73)
    table = new_table(http, "mixed race")
    first = server_harness.random_round(table.setup, rng)
    reply = server_harness.post_round(http, table, first, table.version)
    assert reply.status == 201, reply.text
    table.version = reply.json()["version"]
    plans = server_harness.distinct_rounds(table.setup, rng, PHONES)
    version = table.version
    calls: list[Callable[[], Reply]] = [
        partial(server_harness.post_round, http, table, p, version)
        if index % 2
        else partial(server_harness.put_round, http, table, 1, p, version)
        for index, p in enumerate(plans)
    ]
    replies = server_harness.at_once(calls)
    statuses = [reply.status for reply in replies]
    winners = [index for index, status in enumerate(statuses) if status in (200, 201)]
    assert len(winners) == 1, statuses
    assert statuses.count(409) == PHONES - 1, statuses
    winner = winners[0]
    assert statuses[winner] == (201 if winner % 2 else 200)
    table.version = replies[winner].json()["version"]
    expected = [first, plans[winner]] if winner % 2 else [plans[winner]]
    assert_stored(http, table, expected)


def send_form(
    http: Client,
    table: Table,
    cookie: dict[str, str],
    token: str,
    number: int,
    planned: PlannedRound,
) -> Reply:
    """The record page's quick-entry form of round ``number``, sent as a phone without
    JavaScript sends it."""
    form = {
        "csrf_token": token,
        "version": str(table.version),
        "number": str(number),
        **server_harness.form_fields(planned),
    }
    return http.request(
        "POST", f"/g/{table.code}/rounds/record?mode=quick", headers=cookie, form=form
    )


def test_of_phones_sending_the_record_page_form_at_once_exactly_one_is_saved(
    http: Client,
) -> None:
    rng = random.Random(74)
    table = new_table(http, "form race")
    granted = http.get(f"/g/{table.code}/edit/{table.key}")
    assert granted.status == 302 and granted.session
    kept: list[PlannedRound] = []
    for number in range(1, 3):
        page = http.get(
            f"/g/{table.code}/rounds/record?mode=quick",
            server_harness.session_header(granted.session),
        )
        assert page.status == 200, page.text[:300]
        cookie = server_harness.session_header(page.session or granted.session)
        token = csrf_token(page.text)
        plans = server_harness.distinct_rounds(table.setup, rng, PHONES)
        replies = server_harness.at_once(
            [partial(send_form, http, table, cookie, token, number, p) for p in plans]
        )
        statuses = [reply.status for reply in replies]
        assert sorted(statuses) == [302] + [409] * (PHONES - 1), statuses
        winner = statuses.index(302)
        assert replies[winner].headers["Location"].endswith(f"/g/{table.code}")
        for reply in replies:
            if reply.status == 409:  # the round was taken: never filed as the next one
                assert f"Round {number} was recorded on another phone." in reply.text
        table.version += 1
        kept.append(plans[winner])
        assert_stored(http, table, kept)


def test_of_tables_playing_at_the_same_time_none_is_refused_and_each_keeps_its_rounds(
    http: Client,
) -> None:
    tables = [new_table(http, f"table {index}", rounds=3) for index in range(6)]
    plans = {
        table.code: [
            server_harness.random_round(table.setup, random.Random(index)) for _ in range(3)
        ]
        for index, table in enumerate(tables)
    }

    def play(table: Table) -> list[int]:
        statuses = []
        for planned in plans[table.code]:
            reply = server_harness.post_round(http, table, planned, table.version)
            statuses.append(reply.status)
            if reply.status == 201:
                table.version = reply.json()["version"]
        return statuses

    with ThreadPoolExecutor(max_workers=len(tables)) as pool:
        outcomes = list(pool.map(play, tables))
    assert outcomes == [[201, 201, 201]] * len(tables)
    for table in tables:
        assert_stored(http, table, plans[table.code])
        assert http.get(f"/api/v1/games/{table.code}").json()["status"] == "finished"
