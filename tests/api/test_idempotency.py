"""Idempotency keys (issue 26, point 5): a change a phone's outbox sends again is answered as
the first time and applied once (docs/api.md, "Sending a change again")."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.database import hold_write_lock
from companion.data.models import IdempotentAnswer, db, utcnow
from companion.services import games, idempotent_answers
from companion.web.api import idempotency
from tests.api.test_games_api import blocked_on_a_lock, round_entries, wait_until
from tests.api.test_live_api import open_classic, trick
from tests.db_snapshot import snapshot
from tests.table import Table, auth, same_phone

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
KEY = "outbox-change-0001"

#: A change as a test sends it: method, URL and the test client's keyword arguments.
Change = tuple[str, str, dict[str, Any]]


def create_a_game(table: Table) -> Change:
    """A start from the phone's own pages (its outbox sending a game started offline): the
    phone, told apart by the id its new-game page gave it, is whom a replay goes to (a
    start that names nobody is not kept, tests/security/test_replayed_answers.py)."""
    table.client.get("/games/new")
    body = {"players": NAMES, "variant": "classic", "rounds": 3, "first_leader": 1}
    return "POST", "/api/v1/games", {"json": body, "headers": {"Sec-Fetch-Site": "same-origin"}}


def record_a_round(table: Table) -> Change:
    game = table.new_game(NAMES, "classic", 3)
    body = {"version": game["version"], "entries": round_entries(0), "number": 1}
    return "POST", f"/api/v1/games/{game['id']}/rounds", {"json": body, "headers": auth(game)}


def correct_a_round(table: Table) -> Change:
    game = table.new_game(NAMES, "classic", 3)
    table.record(game, round_entries(0))
    body = {"version": game["version"], "entries": round_entries(1)}
    return "PUT", f"/api/v1/games/{game['id']}/rounds/1", {"json": body, "headers": auth(game)}


def open_a_live_round(table: Table) -> Change:
    game = table.new_game(NAMES, "classic", 3)
    marked = [[{"colour": c, "value": 0}] for c in ("red", "blue", "green", "yellow")]
    body = {"version": game["version"], "marked": marked}
    return "POST", f"/api/v1/games/{game['id']}/rounds/live", {"json": body, "headers": auth(game)}


def play_a_trick(table: Table) -> Change:
    game, state = open_classic(table)
    cards = [{"colour": "red", "value": 5}, {"colour": "red", "value": 6}]
    cards += [{"colour": "blue", "value": 7}, {"colour": "green", "value": 1}]
    body = {"version": state["version"], "cards": cards}
    url = f"/api/v1/games/{game['id']}/rounds/1/tricks"
    return "POST", url, {"json": body, "headers": auth(game)}


def undo_a_trick(table: Table) -> Change:
    game, state = open_classic(table)
    played = trick(table.client, game, state["version"], ["red 5", "red 6", "blue 7", "green 1"])
    body = {"version": played.json["version"]}
    url = f"/api/v1/games/{game['id']}/rounds/1/tricks/last"
    return "DELETE", url, {"json": body, "headers": auth(game)}


def take_back_a_card(table: Table) -> Change:
    """The version in the query, as a DELETE without a body may send it."""
    game, state = open_classic(table)
    played = trick(table.client, game, state["version"], ["red 5", "red 6", "blue 7", "green 1"])
    url = f"/api/v1/games/{game['id']}/rounds/1/tricks/last/cards/last"
    query = {"version": played.json["version"]}
    return "DELETE", url, {"query_string": query, "headers": auth(game)}


CHANGES: dict[str, Callable[[Table], Change]] = {
    "create a game": create_a_game,
    "record a round": record_a_round,
    "correct a round": correct_a_round,
    "open a live round": open_a_live_round,
    "play a trick": play_a_trick,
    "undo a trick": undo_a_trick,
    "take back a card": take_back_a_card,
}


def send(client: FlaskClient, change: Change, key: str | None = KEY, **headers: str) -> Any:
    """Send ``change`` with the idempotency key ``key`` (and any other ``headers``)."""
    method, url, arguments = change
    sent = {**arguments.get("headers", {}), **headers}
    if key is not None:
        sent["Idempotency-Key"] = key
    return client.open(url, method=method, **{**arguments, "headers": sent})


def stored_answers(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(IdempotentAnswer)) or 0


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_change_sent_again_is_answered_as_the_first_time_and_applied_once(
    app: Flask, table: Table, name: str
) -> None:
    change = CHANGES[name](table)
    first = send(table.client, change)
    assert first.status_code in (200, 201), first.json
    assert "Idempotent-Replayed" not in first.headers
    with app.app_context():
        before = snapshot()
    again = send(table.client, change)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.status_code == first.status_code
    assert again.data == first.data  # byte for byte
    for header in ("Content-Type", "Cache-Control"):
        assert again.headers.get(header) == first.headers.get(header)
    with app.app_context():
        assert snapshot() == before  # the replay changed nothing: the change is applied once


def test_a_round_sent_three_times_is_one_round(app: Flask, table: Table) -> None:
    change = record_a_round(table)
    answers_ = [send(table.client, change) for _ in range(3)]
    assert [a.status_code for a in answers_] == [201, 201, 201]
    state = table.client.get(change[1].removesuffix("/rounds")).json
    assert [r["number"] for r in state["rounds"]] == [1]
    assert state["version"] == answers_[0].json["version"]


def test_a_new_game_sent_again_is_one_game_and_its_edit_key_is_never_stored(
    app: Flask, table: Table
) -> None:
    """The replay hands out the same edit key, which still opens the game; the stored
    answer holds only a placeholder for it (a leaked database grants no edit rights)."""
    change = create_a_game(table)
    first, again = send(table.client, change), send(table.client, change)
    assert again.json["id"] == first.json["id"]
    key = first.json["edit_key"]
    assert again.json["edit_key"] == key
    assert table.client.get("/api/v1/games").json["total"] == 1
    with app.app_context():
        assert key not in repr(snapshot())
    game = {**first.json, "version": first.json["version"]}
    recorded = table.record(game, round_entries(0))
    assert recorded["rounds"][0]["number"] == 1


def test_the_same_key_with_another_request_is_refused_and_changes_nothing(
    app: Flask, table: Table
) -> None:
    method, url, arguments = record_a_round(table)
    first = send(table.client, (method, url, arguments))
    assert first.status_code == 201
    other = {**arguments, "json": {**arguments["json"], "entries": round_entries(1)}}
    with app.app_context():
        before = snapshot()
    refused = send(table.client, (method, url, other))
    assert refused.status_code == 422
    assert "Idempotency-Key" in refused.json["error"]
    assert "Idempotent-Replayed" not in refused.headers
    with app.app_context():
        assert snapshot() == before


def test_a_replay_after_another_phone_changed_the_game_answers_as_the_first_time(
    table: Table,
) -> None:
    method, url, arguments = record_a_round(table)
    first = send(table.client, (method, url, arguments))
    assert first.status_code == 201
    game = {**first.json, "edit_key": arguments["headers"]["Authorization"].split()[1]}
    table.record(game, round_entries(1))  # the other phone, without a key
    again = send(table.client, (method, url, arguments))
    assert again.status_code == 201 and again.data == first.data
    assert again.json["version"] == first.json["version"] < game["version"]
    rounds = table.state(game)["rounds"]
    assert [r["number"] for r in rounds] == [1, 2]


def test_a_refused_change_sent_again_is_refused_as_the_first_time(app: Flask, table: Table) -> None:
    """A stale change stays the 409 it got, with the version it was told then, though the
    game moved on since: the outbox opens the conflict view with what it was told."""
    method, url, arguments = record_a_round(table)
    code, key = url.split("/")[4], arguments["headers"]["Authorization"].split()[1]
    stale = {**arguments, "json": {**arguments["json"], "version": 0}}
    first = send(table.client, (method, url, stale))
    assert first.status_code == 409
    moved = table.record({"id": code, "edit_key": key, "version": 1}, round_entries(1))
    assert moved["version"] > first.json["version"]
    with app.app_context():
        before = snapshot()
    again = send(table.client, (method, url, stale))
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.status_code == 409 and again.data == first.data
    with app.app_context():
        assert snapshot() == before


def test_a_key_never_passes_the_edit_rights(app: Flask, table: Table) -> None:
    method, url, arguments = record_a_round(table)
    without = {k: v for k, v in arguments.items() if k != "headers"}
    assert send(table.client, (method, url, without)).status_code == 401
    wrong = {**arguments, "headers": {"Authorization": "Bearer not-the-key"}}
    assert send(table.client, (method, url, wrong)).status_code == 403
    assert stored_answers(app) == 0  # refused before the key was looked at: not kept
    first = send(table.client, (method, url, arguments))
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    assert send(table.client, (method, url, without)).status_code == 401
    replay_wrong = send(table.client, (method, url, wrong))
    assert replay_wrong.status_code == 403 and "Idempotent-Replayed" not in replay_wrong.headers


@pytest.mark.parametrize("key", ["short", "x" * 101, "with space", "ümlaut-key", "a/b/c/d/e"])
def test_a_malformed_key_is_refused_with_400_and_changes_nothing(
    app: Flask, table: Table, key: str
) -> None:
    change = record_a_round(table)
    with app.app_context():
        before = snapshot()
    refused = send(table.client, change, key=key)
    assert refused.status_code == 400
    assert "Idempotency-Key" in refused.json["error"]
    with app.app_context():
        assert snapshot() == before


@pytest.mark.parametrize("name", ["create a game", "record a round", "play a trick"])
def test_a_change_without_a_key_runs_no_statement_more(app: Flask, table: Table, name: str) -> None:
    """A client that sends no key pays nothing: not one statement about kept answers."""
    change = CHANGES[name](table)
    statements: list[str] = []

    def count(*arguments: Any) -> None:
        statements.append(arguments[2])

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        answer = send(table.client, change, key=None)
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
    assert answer.status_code in (200, 201)
    assert statements
    assert not [s for s in statements if IdempotentAnswer.__tablename__ in s]
    assert stored_answers(app) == 0


@pytest.mark.parametrize("name", ["create a game", "record a round"])
def test_two_requests_with_one_key_at_once_apply_the_change_once(
    app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The twin arrives while the first request holds its lock with its answer written but
    not committed: it waits (the game's row lock, SQLite's write lock, or on PostgreSQL the
    unique key of a new game's answer), then answers the first request's answer."""
    change = CHANGES[name](table)
    original = idempotent_answers.keep_answer
    twin: dict[str, Any] = {}

    def twin_phone() -> None:
        twin["thread_id"] = threading.get_ident()
        twin["answer"] = send(same_phone(app, table.client), change)

    def asking_for_the_write_lock() -> None:
        """The twin is about to ask for the write lock (SQLite) the first request holds:
        ``blocked_on_a_lock`` reads this flag there (PostgreSQL shows the wait itself)."""
        if threading.get_ident() == twin.get("thread_id"):
            twin["asking"] = True
        hold_write_lock()

    def racing(*arguments: Any) -> None:
        original(*arguments)
        if "thread" not in twin:
            thread = threading.Thread(target=twin_phone)
            twin["thread"] = thread
            thread.start()
            wait_until(lambda: not thread.is_alive() or blocked_on_a_lock(twin))

    monkeypatch.setattr(idempotent_answers, "keep_answer", racing)
    for module in (idempotency, games):  # where a new game's, and a game's, lock is taken
        monkeypatch.setattr(module, "hold_write_lock", asking_for_the_write_lock)
    games_before = table.client.get("/api/v1/games").json["total"]
    first = send(table.client, change)
    thread = twin["thread"]
    thread.join(timeout=30)
    assert not thread.is_alive()
    again = twin["answer"]
    assert first.status_code == 201, first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.status_code == 201 and again.data == first.data
    assert table.client.get("/api/v1/games").json["total"] == games_before + (
        1 if name == "create a game" else 0
    )
    state = table.client.get(f"/api/v1/games/{first.json['id']}").json
    assert len(state["rounds"]) == (0 if name == "create a game" else 1)
    assert stored_answers(app) == 1


def age_answers(app: Flask, days: int) -> None:
    with app.app_context():
        db.session.execute(
            sa.update(IdempotentAnswer).values(created_at=utcnow() - timedelta(days=days))
        )
        db.session.commit()


def test_an_expired_key_is_forgotten(app: Flask, table: Table) -> None:
    """After IDEMPOTENCY_KEY_DAYS the same request is processed again (here: refused as
    stale, since its round was recorded the first time), not replayed."""
    change = record_a_round(table)
    assert send(table.client, change).status_code == 201
    age_answers(app, app.config["IDEMPOTENCY_KEY_DAYS"] - 1)
    assert send(table.client, change).headers["Idempotent-Replayed"] == "true"
    age_answers(app, app.config["IDEMPOTENCY_KEY_DAYS"] + 1)
    again = send(table.client, change)
    assert again.status_code == 409 and "Idempotent-Replayed" not in again.headers
    assert stored_answers(app) == 1  # the expired answer gave way to the new one


def test_storing_an_answer_purges_expired_ones(app: Flask, table: Table) -> None:
    days = app.config["IDEMPOTENCY_KEY_DAYS"]
    for number in range(3):
        assert send(table.client, create_a_game(table), key=f"old-key-{number:04d}").status_code
    age_answers(app, days + 1)
    assert send(table.client, create_a_game(table), key="young-key-0001").status_code == 201
    age_answers(app, days - 1)  # every answer now young: the purge must keep them
    assert stored_answers(app) == 1
    assert send(table.client, create_a_game(table), key="new-key-0001").status_code == 201
    assert stored_answers(app) == 2
    with app.app_context():
        keys = set(db.session.scalars(sa.select(IdempotentAnswer.key)))
    assert keys == {"young-key-0001", "new-key-0001"}


def without_ids(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without what differs from game to game (its id, links and edit key)."""
    links = {"id", "url", "share_url", "bg_stats_url", "edit_key"}
    return {k: v for k, v in answer.items() if k not in links}


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_change_with_a_key_answers_what_it_answers_without(table: Table, name: str) -> None:
    """With a key the change is committed with its answer, after the answer is made: the
    answer must be the one a commit before it would have given (read afresh)."""
    plain = send(table.client, CHANGES[name](table), key=None)
    keyed = send(table.client, CHANGES[name](table))
    assert keyed.status_code == plain.status_code
    assert without_ids(keyed.json) == without_ids(plain.json)


def test_a_crash_before_the_commit_keeps_neither_the_change_nor_its_answer(
    app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round and its answer are written in one transaction: a failure once both are
    written, before the commit, leaves neither; sent again, the round is recorded then."""
    change = record_a_round(table)
    original = idempotent_answers.keep_answer

    def crashing(*arguments: Any) -> None:
        original(*arguments)
        raise RuntimeError("the server died before the commit")

    monkeypatch.setattr(idempotent_answers, "keep_answer", crashing)
    with app.app_context():
        before = snapshot()
    with pytest.raises(RuntimeError):
        send(table.client, change)
    with app.app_context():
        assert snapshot() == before
    monkeypatch.setattr(idempotent_answers, "keep_answer", original)
    again = send(table.client, change)
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers
    assert [r["number"] for r in again.json["rounds"]] == [1]
    assert stored_answers(app) == 1
