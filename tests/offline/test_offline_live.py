"""A round played trick by trick offline (``companion.play_state.offline_game``: the actions
``live``, ``trick`` and ``undo``) shows on the phone as the server shows it once the phone's
queue is sent: after every change, in every trick rule (classic, reverse, hazy with its
hidden indicators, R15, delayed, Hat Trick with passes, R19-R21), with tricks taken back
and played again, a round carried on from where the server left it, and the scores of the
finished round. A change the server refuses is refused offline with its status and words."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.play_state import parse
from companion.play_state.offline_game import live_entries_answer, next_game, offline_state
from companion.play_state.parse import ApiError
from companion.rules import PRESETS, table_setup
from companion.rules.hat_trick import Play
from tests.games.test_live_pages import page, tap_and_follow
from tests.offline.test_offline_game import SERVER_ONLY, comparable
from tests.offline.worker_run import ask_worker
from tests.rules.helpers import play_classic_round, play_hat_trick_round
from tests.table import Table, auth

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
PRESETS_PLAYED = ["classic", "reverse", "hazy", "delayed", "mild", "aggravated", "hat-trick"]


def play_json(play: Play, hat_trick: bool) -> dict[str, Any]:
    """A trick's card as the API takes it (Hat Trick: a play, maybe a pass)."""
    return dict(play.as_json()) if hat_trick else play.card.as_json()


def played_round(preset: str, rng: random.Random) -> tuple[int, list[Any] | None, list[Any]]:
    """A round of ``preset`` for four played out at random: the seat leading its first
    trick, the indicators laid out (None where the variant lays out none), and each trick's
    cards as the API takes them."""
    setup = table_setup(4, PRESETS[preset])
    hat_trick = setup.variant.has_passes
    if hat_trick:
        played = play_hat_trick_round(setup, rng, pass_often=0.5)
        tricks = [[play_json(p, True) for p in plays] for _, plays in played.tricks]
        return played.tricks[0][0], None, tricks
    classic = play_classic_round(setup, rng)
    marked = None
    if setup.cards_laid_out:
        marked = [[card.as_json() for card in seat] for seat in classic.indicators]
    tricks = [[card.as_json() for card in cards] for _, cards, _ in classic.trick_log]
    return classic.trick_log[0][0], marked, tricks


def live_queue(
    marked: list[Any] | None, tricks: list[Any], field: str, rng: random.Random
) -> list[dict[str, Any]]:
    """The changes a phone queues playing the round live: open it, then each trick, now and
    then taken back and played again (the last one too, which had scored the round)."""
    start: dict[str, Any] = {"version": 0}
    if marked is not None:
        start["marked"] = marked
    queue: list[dict[str, Any]] = [{"action": "live", "body": start}]
    for index, cards in enumerate(tricks):
        trick = {"action": "trick", "number": 1, "body": {"version": 0, field: cards}}
        queue.append(trick)
        if rng.random() < 0.2 or index == len(tricks) - 1:
            queue.append({"action": "undo", "number": 1, "body": {"version": 0}})
            queue.append(trick)
    return queue


def send(client: FlaskClient, game: dict[str, Any], change: dict[str, Any]) -> Any:
    """A queued change sent as the outbox sends it, on the game's current version."""
    body = {**change["body"], "version": game["version"]}
    api = f"/api/v1/games/{game['id']}/rounds"
    if change["action"] == "live":
        return client.post(f"{api}/live", json=body, headers=auth(game))
    if change["action"] == "trick":
        return client.post(f"{api}/{change['number']}/tricks", json=body, headers=auth(game))
    return client.delete(f"{api}/{change['number']}/tricks/last", json=body, headers=auth(game))


def sent(client: FlaskClient, game: dict[str, Any], change: dict[str, Any]) -> None:
    answer = send(client, game, change)
    assert answer.status_code in (200, 201), answer.json
    game["version"] = answer.json["version"]


def shown_live(state: dict[str, Any]) -> dict[str, Any]:
    """What is compared: the state without what only one side has, and without the phone's
    own copy of its indicators (never sent, R15)."""
    shown = comparable(state)
    shown["rounds"] = [
        {key: value for key, value in round_.items() if key not in ("laid_out", "awaiting_score")}
        for round_ in shown["rounds"]
    ]
    return shown


@pytest.mark.parametrize("preset", PRESETS_PLAYED)
@pytest.mark.parametrize("seed", range(2))
def test_a_live_round_played_offline_shows_as_the_server_shows_it_after_every_change(
    client: FlaskClient, table: Table, preset: str, seed: int
) -> None:
    rng = random.Random(f"{preset}-{seed}")
    leader, marked, tricks = played_round(preset, rng)
    field = "plays" if preset == "hat-trick" else "cards"
    queue = live_queue(marked, tricks, field, rng)
    game = table.new_game(NAMES, preset, rounds=1, first_leader=leader)
    # The server has the first changes (sent online); the phone queues the rest offline.
    online = rng.randrange(len(queue) - 1)
    for change in queue[:online]:
        sent(client, game, change)
    last_seen = table.state(game)
    # A hazy round opened online has its indicators on the server only (R15).
    marks_unknown = preset == "hazy" and online > 0
    for count, change in enumerate(queue[online:], start=1):
        shown = offline_state(last_seen, queue[online : online + count])
        assert shown["refused"] == [] and shown["pending"] == count
        sent(client, game, change)
        server = table.state(game)
        if marks_unknown and shown["rounds"][0].get("awaiting_score"):
            assert_awaiting_score(shown, server)
        else:
            assert shown_live(shown) == shown_live(server), (online, count, change)
    first = shown["rounds"][0]
    assert first["pending"] is True and first["mode"] == "live"
    if marks_unknown:
        assert first["awaiting_score"] and shown["status"] == "in_progress"
    else:
        assert shown["status"] == "finished" and first["scores"] is not None


def assert_awaiting_score(shown: dict[str, Any], server: dict[str, Any]) -> None:
    """A hazy round played out offline whose indicators only the server knows: every trick
    as the server has it, nobody to lead, and no score until the server gives it."""
    round_, scored = shown["rounds"][0], server["rounds"][0]
    assert round_["tricks"] == scored["tricks"] and round_["next_leader"] is None
    assert round_["status"] == "playing" and round_["scores"] is None and round_["marked"] is None
    assert scored["status"] == "scored" and shown["totals"] == [0] * len(NAMES)


def test_a_trick_carried_on_from_the_server_starts_from_the_cards_entered_there(
    client: FlaskClient, table: Table
) -> None:
    """Two cards of the second trick were entered online on the live page: the state the
    phone keeps holds them, and the phone, offline, completes that trick from them."""
    leader, marked, tricks = played_round("classic", random.Random("so far"))
    game = table.new_game(NAMES, "classic", rounds=1, first_leader=leader)
    sent(client, game, {"action": "live", "body": {"marked": marked}})
    sent(client, game, {"action": "trick", "number": 1, "body": {"cards": tricks[0]}})
    phone = table.phone(game)
    live = page(phone, f"/g/{game['id']}/rounds/1/live")
    for card in tricks[1][:2]:
        live = tap_and_follow(phone, live, parse.card(card, "card"))
    last_seen = table.state(game)
    assert last_seen["rounds"][0]["trick_so_far"] == tricks[1][:2]
    assert last_seen["rounds"][0]["tricks"] == [{"leader": leader, "cards": tricks[0]}]
    rest = {"action": "trick", "number": 1, "body": {"version": 0, "cards": tricks[1]}}
    shown = offline_state(last_seen, [rest])
    sent(client, game, rest)
    assert shown_live(shown) == shown_live(table.state(game))
    assert shown["rounds"][0]["trick_so_far"] == [] and shown["rounds"][0]["tricks_played"] == 2


@pytest.mark.parametrize(
    "preset, wrong",
    [
        ("classic", "card played twice"),
        ("classic", "trick of too few cards"),
        ("classic", "undo with no trick"),
        ("classic", "no indicators"),
        ("delayed", "indicators where none are laid out"),
        ("hat-trick", "trick after the last"),
    ],
)
def test_a_live_change_the_server_refuses_is_refused_offline_in_its_words(
    client: FlaskClient, table: Table, preset: str, wrong: str
) -> None:
    leader, marked, tricks = played_round(preset, random.Random(wrong))
    field = "plays" if preset == "hat-trick" else "cards"
    game = table.new_game(NAMES, preset, rounds=1, first_leader=leader)
    start: dict[str, Any] = {"version": 0}
    if marked is not None:
        start["marked"] = marked
    queue: list[dict[str, Any]] = [{"action": "live", "body": start}]
    queue += [
        {"action": "trick", "number": 1, "body": {"version": 0, field: cards}} for cards in tricks
    ]
    bad: dict[str, Any]
    if wrong == "card played twice":
        queue = queue[:2]
        bad = {"action": "trick", "number": 1, "body": {"version": 0, field: tricks[0]}}
    elif wrong == "trick of too few cards":
        queue = queue[:1]
        bad = {"action": "trick", "number": 1, "body": {"version": 0, field: tricks[0][:2]}}
    elif wrong == "undo with no trick":
        queue = queue[:1]
        bad = {"action": "undo", "number": 1, "body": {"version": 0}}
    elif wrong == "no indicators":
        queue = []
        bad = {"action": "live", "body": {"version": 0}}
    elif wrong == "indicators where none are laid out":
        queue = []
        card = tricks[0][0]
        bad = {"action": "live", "body": {"version": 0, "marked": [[card]] * 4}}
    else:
        bad = {"action": "trick", "number": 1, "body": {"version": 0, field: tricks[-1]}}
    last_seen = table.state(game)
    shown = offline_state(last_seen, [*queue, bad])
    for change in queue:
        sent(client, game, change)
    answer = send(client, game, bad)
    assert answer.status_code >= 400
    refused = {"change": len(queue), "status": answer.status_code, "error": answer.json["error"]}
    assert shown["refused"] == [refused]
    assert shown_live(shown) == shown_live(table.state(game))


# --------------------------------------------------------------------------------------------
# Play again


def test_the_next_game_offline_is_the_one_the_server_starts(
    client: FlaskClient, table: Table, unpacked: Path
) -> None:
    """The table's next game as the phone shows it before the server has it: what the
    server answers the play again, but for its id, version and links (R3: the first lead
    one seat on). While the game is still played, play again is refused in the API's
    words, offline as online."""
    leader, _marked, tricks = played_round("hat-trick", random.Random("next game"))
    game = table.new_game(NAMES, "hat-trick", rounds=1, first_leader=leader)
    again = {"action": "again", "body": {}}
    refused = offline_state(table.state(game), [again])["refused"]
    answer = client.post(f"/api/v1/games/{game['id']}/again", headers=auth(game))
    assert answer.status_code == 400
    assert refused == [{"change": 0, "status": 400, "error": answer.json["error"]}]

    sent(client, game, {"action": "live", "body": {}})
    for cards in tricks:
        sent(client, game, {"action": "trick", "number": 1, "body": {"plays": cards}})
    over = table.state(game)
    assert over["status"] == "finished"
    shown = offline_state(over, [again])
    assert shown["refused"] == [] and shown["next_started"] is True
    answer = client.post(f"/api/v1/games/{game['id']}/again", headers=auth(game))
    assert answer.status_code == 201
    started = {key: value for key, value in answer.json.items() if key not in SERVER_ONLY}
    assert next_game(over) == {**started, "id": None, "version": 0}
    assert started["first_leader"] == (leader + 1) % len(NAMES)
    # The rules worker, unpacked as on the phone, starts the same.
    asked = [("games/next", {"state": over}, None), ("games/next", {"state": game}, None)]
    worker = ask_worker(unpacked, asked)
    assert worker[0] == {"status": 200, "body": next_game(over)}
    assert worker[1]["status"] == 400


@pytest.mark.parametrize("preset", [p for p in PRESETS_PLAYED if p != "hazy"])
def test_a_round_played_live_offline_is_sent_whole_with_the_scores_it_had(
    client: FlaskClient, table: Table, preset: str
) -> None:
    """After a clash with another phone, the table may keep the round this phone played
    live: ``rounds/live_entries`` gives it as the entries of a round in full (R10), which
    the server records, or corrects the other phone's round with, to the very scores the
    phone showed. Not before all its tricks are played."""
    rng = random.Random(f"{preset}-kept")
    leader, marked, tricks = played_round(preset, rng)
    field = "plays" if preset == "hat-trick" else "cards"
    queue = live_queue(marked, tricks, field, rng)
    game = table.new_game(NAMES, preset, rounds=2, first_leader=leader)
    state = table.state(game)
    shown = offline_state(state, queue)["rounds"][0]
    answer = live_entries_answer({"state": state, "queued": queue, "number": 1})
    assert answer["scores"] == shown["scores"]  # what the phone shows of it
    other = table.new_game(NAMES, preset, rounds=2, first_leader=leader)  # the other phone's
    recorded = client.post(
        f"/api/v1/games/{other['id']}/rounds",
        json={"version": other["version"], "number": 1, "entries": answer["entries"]},
        headers=auth(other),
    )
    assert recorded.status_code == 201, recorded.json
    assert recorded.json["rounds"][0]["scores"] == shown["scores"]
    assert recorded.json["rounds"][0]["mode"] == "full"
    # The same, whatever the server has of round 1 now: the entries the phone played.
    again = {"state": recorded.json, "queued": queue, "number": 1}
    assert live_entries_answer(again) == answer
    with pytest.raises(ApiError, match="not over on this phone"):
        live_entries_answer({"state": state, "queued": queue[:-1], "number": 1})
