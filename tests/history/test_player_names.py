"""Rename and merge players (typo fixes) without losing history: behind a confirmation,
CSRF-protected, only from a phone that keeps the score of one of the player's games."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.data.models import Player, RoundResult, Seat, db
from scripts.page_reader import csrf_token, read_page
from tests.db_snapshot import snapshot
from tests.history.helpers import quick, text_of
from tests.table import Table

THREE = [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)]  # 14, 13, 9


def errors_of(page: str, list_id: str) -> list[str]:
    return [item.text for item in read_page(page).find("ul", id=list_id).find_all("li")]


def send(client: FlaskClient, name: str, action: str, **fields: str) -> TestResponse:
    """Fill the rename or merge form of ``name``'s fix page and send it."""
    page = client.get(f"/players/{name}/rename").get_data(as_text=True)
    return client.post(f"/players/{name}/{action}", data={"csrf_token": csrf_token(page), **fields})


def confirm(client: FlaskClient, answer: TestResponse, action: str) -> TestResponse:
    """Press "yes" on the confirmation page ``answer`` shows."""
    page = answer.get_data(as_text=True)
    forms = read_page(page).find_all("form", method="post", class_="confirm-form")
    form = next(f for f in forms if str(f.get("action")).endswith(f"/{action}"))
    fields = {
        str(field.get("name")): str(field.get("value"))
        for field in form.find_all(name=True)
        if field.get("value") is not None
    }
    return client.post(str(form.get("action")), data=fields)


def player_rows(app: Flask) -> dict[str, tuple[int, int]]:
    """Each player's seats and round results, by name."""
    with app.app_context():
        rows = {}
        for player in db.session.scalars(sa.select(Player)):
            seats = db.session.scalar(
                sa.select(sa.func.count()).select_from(Seat).where(Seat.player_id == player.id)
            )
            results = db.session.scalar(
                sa.select(sa.func.count())
                .select_from(RoundResult)
                .where(RoundResult.player_id == player.id)
            )
            rows[player.name] = (seats, results)
        return rows


@pytest.fixture
def games(client: FlaskClient, table: Table) -> dict[str, dict[str, Any]]:
    """Ann, Ben and "Clea" (a typo) in one game, Ann, Ben and Cleo in another; this phone
    keeps the score of both."""
    typo = table.new_game(["Ann", "Ben", "Clea"])
    table.record(typo, THREE)
    right = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
    table.record(right, THREE)
    table.record(right, THREE)
    table.give_edit_rights(client, typo)
    table.give_edit_rights(client, right)
    return {"typo": typo, "right": right}


def test_renaming_asks_first_then_keeps_the_history(
    client: FlaskClient, app: Flask, games: dict[str, dict[str, Any]]
) -> None:
    before = client.get("/api/v1/players/Clea").json
    answer = send(client, "Clea", "rename", new_name="  Clara  ")
    assert answer.status_code == 200
    assert "Rename Clea to Clara?" in text_of(answer.get_data(as_text=True))
    assert client.get("/api/v1/players/Clea").status_code == 200  # nothing changed yet

    done = confirm(client, answer, "rename")
    assert done.status_code == 302
    assert done.headers["Location"] == "/players/Clara"
    after = client.get("/api/v1/players/Clara").json
    assert {**before, "name": "Clara"} == after
    assert client.get("/api/v1/players/Clea").status_code == 404
    listed = {g["id"]: g for g in client.get("/api/v1/games").json["games"]}
    assert listed[games["typo"]["id"]]["players"] == ["Ann", "Ben", "Clara"]
    assert client.get(f"/api/v1/games/{games['typo']['id']}").json["players"][2] == "Clara"


def test_renaming_may_change_only_the_case(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    done = confirm(client, send(client, "Clea", "rename", new_name="CLEA"), "rename")
    assert done.headers["Location"] == "/players/CLEA"
    assert client.get("/api/v1/players/clea").json["name"] == "CLEA"


def test_renaming_to_another_players_name_suggests_merging(
    client: FlaskClient, app: Flask, games: dict[str, dict[str, Any]]
) -> None:
    with app.app_context():
        before = snapshot()
    answer = send(client, "Clea", "rename", new_name="cleo")
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert errors_of(page, "new-name-errors") == [
        "Cleo is already another player's name. If both are the same person, merge them instead."
    ]
    merge_field = read_page(page).find("input", name="into")
    assert merge_field.get("value") == "Cleo"  # the merge form, filled in
    with app.app_context():
        assert snapshot() == before


@pytest.mark.parametrize(
    ("new_name", "message"),
    [
        ("", "Enter the new name."),
        ("   ", "Every player needs a name."),
        ("Clea", "Clea already has this name."),
        ("x" * 41, "A name has at most 40 characters: " + "x" * 40 + "… is longer."),
    ],
)
def test_a_rename_that_cannot_be_done_says_why(
    client: FlaskClient, games: dict[str, dict[str, Any]], new_name: str, message: str
) -> None:
    answer = send(client, "Clea", "rename", new_name=new_name)
    assert answer.status_code == 400
    assert errors_of(answer.get_data(as_text=True), "new-name-errors") == [message]


def test_merging_moves_every_seat_and_round_then_removes_the_typo(
    client: FlaskClient, app: Flask, games: dict[str, dict[str, Any]]
) -> None:
    assert player_rows(app) == {"Ann": (2, 3), "Ben": (2, 3), "Clea": (1, 1), "Cleo": (1, 2)}
    answer = send(client, "Clea", "merge", into="cleo")
    assert answer.status_code == 200
    assert "Merge Clea into Cleo?" in text_of(answer.get_data(as_text=True))
    assert player_rows(app)["Clea"] == (1, 1)  # nothing moved yet

    done = confirm(client, answer, "merge")
    assert done.status_code == 302
    assert done.headers["Location"] == "/players/Cleo"
    assert player_rows(app) == {"Ann": (2, 3), "Ben": (2, 3), "Cleo": (2, 3)}
    cleo = client.get("/api/v1/players/Cleo").json
    assert (cleo["games"], cleo["finished_games"], cleo["rounds"]) == (2, 2, 3)
    assert cleo["average_round_score"] == 9.0 and cleo["colours"] == {"green": 3}
    assert client.get("/api/v1/players/Clea").status_code == 404
    ann = client.get("/api/v1/players/Ann").json["head_to_head"]
    assert {r["opponent"]: r["games"] for r in ann} == {"Ben": 2, "Cleo": 2}


def test_two_players_of_the_same_game_cannot_be_merged(
    client: FlaskClient, app: Flask, games: dict[str, dict[str, Any]]
) -> None:
    with app.app_context():
        before = snapshot()
    answer = send(client, "Clea", "merge", into="Ben")
    assert answer.status_code == 400
    assert errors_of(answer.get_data(as_text=True), "into-errors") == [
        "Clea and Ben played in the same game, so they are two people: a game cannot seat "
        "the same person twice."
    ]
    with app.app_context():
        assert snapshot() == before


@pytest.mark.parametrize(
    ("into", "message"),
    [
        (
            "Zed",
            "There is no player called Zed. To give this player that name, rename them instead.",
        ),
        ("clea", "Clea cannot be merged into themselves."),
        ("", "Enter the name to merge into."),
    ],
)
def test_a_merge_that_cannot_be_done_says_why(
    client: FlaskClient, games: dict[str, dict[str, Any]], into: str, message: str
) -> None:
    answer = send(client, "Clea", "merge", into=into)
    assert answer.status_code == 400
    assert errors_of(answer.get_data(as_text=True), "into-errors") == [message]


def test_a_merge_refused_after_the_confirmation_changes_nothing(
    client: FlaskClient, app: Flask, games: dict[str, dict[str, Any]], table: Table
) -> None:
    answer = send(client, "Clea", "merge", into="Cleo")
    # meanwhile Clea and Cleo sit down at the same table, at a game this phone keeps too
    table.give_edit_rights(client, table.new_game(["Clea", "Cleo", "Dan"]))
    with app.app_context():
        before = snapshot()
    refused = confirm(client, answer, "merge")
    assert refused.status_code == 400
    assert "played in the same game" in refused.get_data(as_text=True)
    with app.app_context():
        assert snapshot() == before


def test_a_phone_without_rights_to_any_of_the_players_games_is_refused(
    client: FlaskClient, app: Flask, games: dict[str, dict[str, Any]]
) -> None:
    stranger = app.test_client()
    page = stranger.get("/players/Clea/rename")
    assert page.status_code == 403
    assert "only a phone that keeps the score of every one of those games may do it" in (
        text_of(page.get_data(as_text=True))
    )
    token = csrf_token(stranger.get("/games/new").get_data(as_text=True))
    with app.app_context():
        before = snapshot()
    for action, field in (("rename", "new_name"), ("merge", "into")):
        answer = stranger.post(
            f"/players/Clea/{action}",
            data={"csrf_token": token, field: "Cleo", "confirmed": "yes"},
        )
        assert answer.status_code == 403
    with app.app_context():
        assert snapshot() == before


def test_the_player_page_explains_who_may_fix_a_name(
    client: FlaskClient, app: Flask, games: dict[str, dict[str, Any]]
) -> None:
    text = text_of(client.get("/players/Clea").get_data(as_text=True))
    assert "it needs a phone that keeps the score of every one of those games." in text
    assert "Rename or merge" in text
    stranger = text_of(app.test_client().get("/players/Clea").get_data(as_text=True))
    assert "Rename or merge" not in stranger
    assert "ask whoever runs this server to fix the name" in stranger


def test_forms_without_their_csrf_token_are_refused(
    client: FlaskClient, app: Flask, games: dict[str, dict[str, Any]]
) -> None:
    with app.app_context():
        before = snapshot()
    answer = client.post("/players/Clea/rename", data={"new_name": "Clara", "confirmed": "yes"})
    assert answer.status_code == 400
    assert "This form has expired" in answer.get_data(as_text=True)
    answer = client.post("/players/Clea/merge", data={"into": "Cleo", "confirmed": "yes"})
    assert answer.status_code == 400
    with app.app_context():
        assert snapshot() == before
