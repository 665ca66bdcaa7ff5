"""Live rounds through the API: every trick checked against the rules engine."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import PRESETS, HatTrickFullEntry, QuickEntry, score_round, table_setup
from companion.rules.hat_trick import Play
from companion.rules.table import DEFAULT_ROUNDS
from tests.db_snapshot import snapshot
from tests.rules.helpers import play_classic_round, play_hat_trick_round
from tests.table import Table, auth

NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def start(table: Table, variant: str, first_leader: int) -> dict[str, Any]:
    """A new game of the four players, as many rounds as the API plans by default."""
    return table.new_game(NAMES, variant, DEFAULT_ROUNDS, first_leader)


def play_json(play: Play) -> dict[str, Any]:
    data: dict[str, Any] = play.card.as_json()
    if play.passed:
        data["pass"] = True
    return data


@pytest.mark.parametrize("preset", ["classic", "reverse", "hazy", "aggravated", "delayed", "mild"])
def test_a_whole_live_round_scores_like_a_quick_entry_of_the_same_captures(
    client: FlaskClient, preset: str, table: Table
) -> None:
    setup = table_setup(4, PRESETS[preset])
    played = play_classic_round(setup, random.Random(preset))
    game = start(table, preset, played.trick_log[0][0])
    body: dict[str, Any] = {"version": game["version"]}
    if setup.cards_laid_out:
        body["marked"] = [[card.as_json() for card in ind] for ind in played.indicators]
    answer = client.post(f"/api/v1/games/{game['id']}/rounds/live", json=body, headers=auth(game))
    assert answer.status_code == 201, answer.json
    state = answer.json
    if preset == "hazy":
        assert state["rounds"][0]["marked"] is None  # R15
    for count, (leader, cards, winner) in enumerate(played.trick_log, start=1):
        assert state["rounds"][0]["next_leader"] == leader
        answer = client.post(
            f"/api/v1/games/{game['id']}/rounds/1/tricks",
            json={"version": state["version"], "cards": [card.as_json() for card in cards]},
            headers=auth(game),
        )
        assert answer.status_code == 201, answer.json
        state = answer.json
        assert state["winner"] == winner  # the rules engine's winner (R7, R8, R13)
        assert state["rounds"][0]["tricks_played"] == count
    assert state["round_complete"] and state["rounds"][0]["status"] == "scored"
    if setup.cards_laid_out:
        quick = [
            QuickEntry(ind, tricks, tuple(c for c in cap if c.colour in {i.colour for i in ind}))
            for ind, tricks, cap in zip(
                played.indicators, played.tricks, played.captured, strict=True
            )
        ]
        assert state["rounds"][0]["scores"] == score_round(setup, quick).scores
        assert state["rounds"][0]["marked"] == [
            [card.as_json() for card in ind] for ind in played.indicators
        ]
    assert state["totals"] == state["rounds"][0]["scores"]


def test_a_whole_live_hat_trick_round_with_double_tricks_and_passes(
    client: FlaskClient, table: Table
) -> None:
    setup = table_setup(4, PRESETS["hat-trick"])
    played = play_hat_trick_round(setup, random.Random(11))
    assert any(p.passed for _, plays in played.tricks for p in plays), "the deal has a pass"
    game = start(table, "hat-trick", played.tricks[0][0])
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"]},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    state = answer.json
    for index, (leader, plays) in enumerate(played.tricks):
        assert state["rounds"][0]["next_leader"] == leader
        answer = client.post(
            f"/api/v1/games/{game['id']}/rounds/1/tricks",
            json={"version": state["version"], "plays": [play_json(p) for p in plays]},
            headers=auth(game),
        )
        assert answer.status_code == 201, answer.json
        state = answer.json
        following = played.tricks[index + 1][0] if index + 1 < len(played.tricks) else None
        if following is not None:
            assert state["next_leader"] == following  # R21
    assert state["round_complete"]
    expected = score_round(
        setup,
        [
            HatTrickFullEntry(tuple(up), tuple(down))
            for up, down in zip(played.face_up, played.face_down, strict=True)
        ],
    ).scores
    assert state["rounds"][0]["scores"] == expected


def test_r21_a_live_hat_trick_trick_answers_the_pile_winner_and_the_deciding_cards_player(
    client: FlaskClient,
    table: Table,
) -> None:
    """R21: red 14, green 14, green 12, red 3 - seat 2 (green 12) leads next; ``winner``
    stays the taker of the deciding (green) pile. 002: "celui qui a posé la 2e (ou 3e, ou 4e,
    etc.) carte la plus élevée commence"."""
    game = start(table, "hat-trick", 1)
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"]},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    plays = [
        {"colour": t.split()[0], "value": int(t.split()[1])}
        for t in ("red 14", "green 14", "green 12", "red 3")
    ]
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/1/tricks",
        json={"version": answer.json["version"], "plays": plays},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    # Seat 1 leads: Ben red 14, Cleo green 14, Dan green 12, Ann red 3.
    assert answer.json["pile_winners"] == [1, 2]
    assert answer.json["winner"] == 2
    assert answer.json["next_leader"] == 3
    assert answer.json["rounds"][0]["next_leader"] == 3


def test_r21_a_live_round_recorded_before_the_correction_keeps_its_seats(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """A Hat Trick round stored before R21 was corrected gave the lead to the deciding pile's taker;
    it is replayed from the leader each stored trick names, not moved to other seats."""
    from companion.data.models import Game, db

    game = start(table, "hat-trick", 0)
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"]},
        headers=auth(game),
    )
    plays = [
        {"colour": t.split()[0], "value": int(t.split()[1])}
        for t in ("red 15", "blue 15", "red 3", "blue 2")
    ]
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/1/tricks",
        json={"version": answer.json["version"], "plays": plays},
        headers=auth(game),
    )
    assert answer.json["next_leader"] == 2
    with app.app_context():
        stored = db.session.scalar(db.select(Game).filter_by(code=game["id"]))
        round_ = stored.rounds[0]
        greens = [{"colour": "green", "value": value} for value in (5, 6, 7, 8)]
        round_.tricks = [*round_.tricks, {"leader": 0, "plays": greens}]  # Ann led, as then
        db.session.commit()

    state = client.get(f"/api/v1/games/{game['id']}").json

    # Seat 0 led green 5, so green 8 was seat 3's card: seat 3 took the trick and leads.
    assert state["rounds"][0]["tricks_played"] == 2
    assert state["rounds"][0]["next_leader"] == 3


def open_classic(table: Table) -> tuple[dict[str, Any], dict[str, Any]]:
    client = table.client
    game = start(table, "classic", 0)
    marked = [[{"colour": c, "value": 0}] for c in ("red", "blue", "green", "yellow")]
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"], "marked": marked},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    assert answer.json["version"] == game["version"] + 1  # one change, one version
    return game, answer.json


def trick(client: FlaskClient, game: dict[str, Any], version: int, cards: list[str]) -> Any:
    return client.post(
        f"/api/v1/games/{game['id']}/rounds/1/tricks",
        json={
            "version": version,
            "cards": [{"colour": t.split()[0], "value": int(t.split()[1])} for t in cards],
        },
        headers=auth(game),
    )


def test_undo_takes_back_the_last_trick_and_the_lead(client: FlaskClient, table: Table) -> None:
    game, state = open_classic(table)
    first = trick(client, game, state["version"], ["red 5", "red 6", "blue 7", "green 1"])
    # Seats 0-3 play red 5, red 6, blue 7, green 1: blue 7 is the highest trump (R8).
    assert first.json["winner"] == 2 and first.json["next_leader"] == 2
    answer = client.delete(
        f"/api/v1/games/{game['id']}/rounds/1/tricks/last",
        json={"version": first.json["version"]},
        headers=auth(game),
    )
    assert answer.status_code == 200, answer.json
    assert answer.json["rounds"][0]["tricks_played"] == 0
    assert answer.json["rounds"][0]["next_leader"] == 0
    again = trick(client, game, answer.json["version"], ["red 5", "red 6", "blue 7", "green 1"])
    assert again.status_code == 201


def test_undo_last_card_reopens_the_trick_and_answers_the_cards_it_keeps(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    game, state = open_classic(table)
    first = trick(client, game, state["version"], ["red 5", "red 6", "blue 7", "green 1"])
    url = f"/api/v1/games/{game['id']}/rounds/1/tricks/last/cards/last"
    with app.app_context():
        before = snapshot()
    stale = client.delete(url, json={"version": state["version"]}, headers=auth(game))
    assert stale.status_code == 409 and stale.json["version"] == first.json["version"]
    with app.app_context():
        assert snapshot() == before
    answer = client.delete(url, query_string={"version": first.json["version"]}, headers=auth(game))
    assert answer.status_code == 200, answer.json
    assert answer.json["reopened"] == {
        "leader": 0,
        "cards": [
            {"colour": "red", "value": 5},
            {"colour": "red", "value": 6},
            {"colour": "blue", "value": 7},
        ],
        "taken_back": {"colour": "green", "value": 1},
        "seat": 3,
    }
    assert answer.json["rounds"][0]["tricks_played"] == 0
    assert answer.json["version"] == first.json["version"] + 1
    again = trick(client, game, answer.json["version"], ["red 5", "red 6", "blue 7", "green 2"])
    assert again.status_code == 201 and again.json["winner"] == 2
    without_key = client.delete(
        f"/api/v1/games/{game['id']}/rounds/1/tricks/last/cards/last",
        json={"version": again.json["version"]},
        headers={},
    )
    assert without_key.status_code == 401


def test_undo_last_card_reopens_a_hat_trick_round_it_had_scored(
    client: FlaskClient, table: Table
) -> None:
    setup = table_setup(4, PRESETS["hat-trick"])
    played = play_hat_trick_round(setup, random.Random(5))
    game = start(table, "hat-trick", played.tricks[0][0])
    url = f"/api/v1/games/{game['id']}/rounds"
    state = client.post(f"{url}/live", json={"version": game["version"]}, headers=auth(game)).json
    for _, plays in played.tricks:
        body = {"version": state["version"], "plays": [play_json(play) for play in plays]}
        state = client.post(f"{url}/1/tricks", json=body, headers=auth(game)).json
    assert state["rounds"][0]["status"] == "scored"
    scores = state["rounds"][0]["scores"]
    answer = client.delete(
        f"{url}/1/tricks/last/cards/last", json={"version": state["version"]}, headers=auth(game)
    )
    assert answer.status_code == 200, answer.json
    leader, plays = played.tricks[-1]
    assert answer.json["reopened"] == {
        "leader": leader,
        "plays": [play_json(play) for play in plays[:-1]],
        "taken_back": play_json(plays[-1]),
        "seat": (leader + 3) % 4,
    }
    assert answer.json["rounds"][0]["status"] == "playing"
    assert answer.json["rounds"][0]["scores"] is None
    body = {"version": answer.json["version"], "plays": [play_json(play) for play in plays]}
    state = client.post(f"{url}/1/tricks", json=body, headers=auth(game)).json
    assert state["rounds"][0]["scores"] == scores


def test_undo_last_card_without_a_trick_is_refused(client: FlaskClient, table: Table) -> None:
    game, state = open_classic(table)
    answer = client.delete(
        f"/api/v1/games/{game['id']}/rounds/1/tricks/last/cards/last",
        json={"version": state["version"]},
        headers=auth(game),
    )
    assert answer.status_code in (400, 422)
    assert "No trick has been played yet in round 1" in answer.json["error"]


@pytest.mark.parametrize(
    ("cards", "needle"),
    [
        (["red 5", "red 6", "blue 7"], "4 players"),
        (["red 5", "red 6", "blue 0", "green 1"], "blue 0"),  # an indicator (C6)
        (["red 5", "red 6", "blue 7", "red 5"], "red 5"),
        (["red 5", "red 6", "blue 7", "violet 1"], "violet 1"),
    ],
    ids=["too few cards", "indicator played", "card twice", "not in the deck"],
)
def test_a_refused_trick_changes_nothing(
    client: FlaskClient, app: Flask, cards: list[str], needle: str, table: Table
) -> None:
    game, state = open_classic(table)
    with app.app_context():
        before = snapshot()
    answer = trick(client, game, state["version"], cards)
    assert answer.status_code in (400, 422)
    assert needle in answer.json["error"].lower()
    with app.app_context():
        assert snapshot() == before


def test_c6_a_card_played_in_an_earlier_trick_is_refused(client: FlaskClient, table: Table) -> None:
    game, state = open_classic(table)
    first = trick(client, game, state["version"], ["red 5", "red 6", "blue 7", "green 1"])
    # Seat 2 leads now; seat 0 (third to play) tries red 5 again.
    answer = trick(client, game, first.json["version"], ["green 2", "red 7", "red 5", "red 8"])
    assert answer.status_code == 422
    assert "seat 0" in answer.json["error"].lower() and "red 5" in answer.json["error"].lower()


def test_live_changes_need_the_key_and_the_current_version(
    client: FlaskClient, table: Table
) -> None:
    game, state = open_classic(table)
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/1/tricks",
        json={"version": state["version"], "cards": []},
    )
    assert answer.status_code == 401
    stale = trick(client, game, game["version"], ["red 5", "red 6", "blue 7", "green 1"])
    assert stale.status_code == 409 and stale.json["version"] == state["version"]
