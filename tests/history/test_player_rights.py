"""Who may rename or merge a player from a page on a club server (``CLUB_SERVER``, the
suite's setting): its one circle is every phone's, so the right stays what it was before
circles, a phone that keeps the score of every game the change touches. A throwaway game
seating a name is not enough. On a server of circles the right is the circle's
(tests/circles/test_circle_rights.py)."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import Game, PlayerChange, db
from scripts.page_reader import csrf_token, read_page
from tests.db_snapshot import snapshot
from tests.history.helpers import quick
from tests.history.helpers import text_of as page_text
from tests.history.test_player_names import confirm, send
from tests.table import Table, auth

THREE = [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)]


@pytest.fixture
def club(client: FlaskClient, table: Table) -> dict[str, dict[str, Any]]:
    """Ann's history at the club: two games kept by the club's phone (``client``)."""
    first = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(first, THREE)
    second = table.new_game(["Ann", "Dan", "Eve"], rounds=2)
    table.record(second, THREE)
    table.give_edit_rights(client, first)
    table.give_edit_rights(client, second)
    return {"first": first, "second": second}


def stranger_with_throwaway_games(table: Table) -> FlaskClient:
    """The attack: a phone that starts a throwaway game seating "ann", and one seating
    "Zed" to merge her into; it keeps the score of both."""
    stranger = table.phone()
    table.give_edit_rights(stranger, table.new_game(["ann", "X1", "X2"]))
    table.give_edit_rights(stranger, table.new_game(["Zed", "X3", "X4"]))
    return stranger


def test_a_throwaway_game_gives_no_right_to_rename_or_merge_a_player(
    app: Flask, club: dict[str, dict[str, Any]], table: Table
) -> None:
    stranger = stranger_with_throwaway_games(table)
    page = stranger.get("/players/Ann/rename")
    assert page.status_code == 403
    text = page_text(page.get_data(as_text=True))
    assert "keeps the score of every one of those games" in text
    assert "ask whoever runs this server" in text
    token = csrf_token(stranger.get("/games/new").get_data(as_text=True))
    with app.app_context():
        before = snapshot()
    for action, field, value in (("merge", "into", "Zed"), ("rename", "new_name", "Zed2")):
        answer = stranger.post(
            f"/players/Ann/{action}", data={"csrf_token": token, field: value, "confirmed": "yes"}
        )
        assert answer.status_code == 403
        assert "ask whoever runs this server" in page_text(answer.get_data(as_text=True))
    with app.app_context():
        assert snapshot() == before
    assert stranger.get("/api/v1/players/Ann").json["games"] == 3


def test_the_refusal_is_in_the_players_language(
    app: Flask, club: dict[str, dict[str, Any]], table: Table
) -> None:
    stranger = stranger_with_throwaway_games(table)
    page = stranger.get("/players/Ann/rename", headers={"Accept-Language": "de"})
    assert page.status_code == 403
    text = page_text(page.get_data(as_text=True))
    assert "Spielstand jeder dieser Partien führt" in text
    assert "frag die Person, die diesen Server betreibt" in text


def test_a_phone_that_keeps_every_game_renames_and_the_journal_says_so(
    client: FlaskClient, app: Flask, club: dict[str, dict[str, Any]]
) -> None:
    answer = send(client, "Ann", "rename", new_name="Anna")
    done = confirm(client, answer, "rename")
    assert done.headers["Location"] == "/players/Anna"
    with app.app_context():
        (entry,) = db.session.scalars(sa.select(PlayerChange)).all()
        assert (entry.kind, entry.origin, entry.player_name, entry.new_name) == (
            "rename",
            "page",
            "Ann",
            "Anna",
        )
        assert entry.undone_at is None


def test_a_merge_needs_every_game_of_both_players(
    client: FlaskClient, app: Flask, club: dict[str, dict[str, Any]], table: Table
) -> None:
    # "Anne" sits in a game this phone does not keep: her history would change too
    table.new_game(["Anne", "Finn", "Gus"])
    with app.app_context():
        before = snapshot()
    answer = send(client, "Ann", "merge", into="Anne")
    assert answer.status_code == 403
    assert "Merging Ann into Anne changes every game either of them played" in page_text(
        answer.get_data(as_text=True)
    )
    with app.app_context():
        assert snapshot() == before


def test_a_game_seating_the_player_meanwhile_stops_a_confirmed_rename(
    client: FlaskClient, app: Flask, club: dict[str, dict[str, Any]], table: Table
) -> None:
    answer = send(client, "Ann", "rename", new_name="Anna")
    table.new_game(["Ann", "Finn", "Gus"])  # another phone's game
    with app.app_context():
        before = snapshot()
    refused = confirm(client, answer, "rename")
    assert refused.status_code == 403
    with app.app_context():
        assert snapshot() == before


def test_the_player_page_offers_the_fix_only_where_it_would_be_allowed(
    client: FlaskClient, app: Flask, club: dict[str, dict[str, Any]], table: Table
) -> None:
    assert "Rename or merge" in page_text(client.get("/players/Ann").get_data(as_text=True))
    stranger = stranger_with_throwaway_games(table)
    shown = page_text(stranger.get("/players/Ann").get_data(as_text=True))
    assert "Rename or merge" not in shown
    assert "ask whoever runs this server to fix the name" in shown
    # the stranger's game seats Ann too, and the club's phone does not keep it
    assert "Rename or merge" not in page_text(client.get("/players/Ann").get_data(as_text=True))


@pytest.mark.parametrize("language", ["en", "de", "it", "fr", "hu"])
def test_a_player_is_told_whom_to_ask_and_never_shown_a_command_line(
    club: dict[str, dict[str, Any]], table: Table, language: str
) -> None:
    """The refusal and the player page speak to a player: what to do, not the operator's
    command (that stays in docs/operators/commands.md)."""
    stranger = stranger_with_throwaway_games(table)
    stranger.set_cookie("lang", language)
    refusal = stranger.get("/players/Ann/rename")
    assert refusal.status_code == 403
    shown = page_text(refusal.get_data(as_text=True))
    assert "flask" not in shown
    assert "--app" not in shown
    page = read_page(stranger.get("/players/Ann").get_data(as_text=True))
    hint = page.find("p", data_fix="ask").words()
    assert "flask" not in hint
    assert "--app" not in hint


def versions(app: Flask, club: dict[str, dict[str, Any]]) -> dict[str, int]:
    with app.app_context():
        return {
            name: db.session.scalar(sa.select(Game.version).where(Game.code == game["id"]))
            for name, game in club.items()
        }


def test_a_rename_moves_the_versions_on_so_a_stale_round_is_refused(
    client: FlaskClient, app: Flask, club: dict[str, dict[str, Any]]
) -> None:
    before = versions(app, club)
    etag = client.get(f"/g/{club['second']['id']}/view").headers["ETag"]
    confirm(client, send(client, "Ann", "rename", new_name="Anna"), "rename")
    after = versions(app, club)
    assert after == {name: version + 1 for name, version in before.items()}
    assert client.get(f"/g/{club['second']['id']}/view").headers["ETag"] != etag
    stale = client.post(
        f"/api/v1/games/{club['second']['id']}/rounds",
        json={"version": club["second"]["version"], "entries": THREE},
        headers=auth(club["second"]),
    )
    assert stale.status_code == 409
    assert stale.json["version"] == after["second"]


def test_a_merge_moves_the_versions_of_the_games_it_changes(
    client: FlaskClient, app: Flask, club: dict[str, dict[str, Any]], table: Table
) -> None:
    typo = table.new_game(["Anne", "Finn", "Gus"], rounds=2)
    table.give_edit_rights(client, typo)
    before = versions(app, {**club, "typo": typo})
    confirm(client, send(client, "Anne", "merge", into="Ann"), "merge")
    after = versions(app, {**club, "typo": typo})
    assert after == {**before, "typo": before["typo"] + 1}
    stale = client.post(
        f"/api/v1/games/{typo['id']}/rounds",
        json={"version": typo["version"], "entries": THREE},
        headers=auth(typo),
    )
    assert stale.status_code == 409
