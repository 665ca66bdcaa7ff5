"""The JSON API and circles (issue 28, point 6): a program names its circle by the circle's
invite key (``Authorization: Bearer <key>``); a game started without one starts a new
circle, whose key the answer holds once; the history and a player's statistics are those of
one circle, and need its key; the app's own pages use the phone's circles as the pages do
(companion/web/api/circle_keys.py, docs/api.md). A club server (``CLUB_SERVER``) is one
circle open to all, as before circles.
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import Circle, Game, Player, db
from companion.web.api import circle_keys
from companion.web.circle_rights import SESSION_INVITES
from companion.web.security import OWN_PAGES
from tests.api.test_games_api import round_entries
from tests.db_snapshot import snapshot
from tests.table import Table, same_phone

#: What the browser adds to a fetch of our own pages (the offline outbox's).
OWN_PAGE = {"Sec-Fetch-Site": OWN_PAGES}
TABLE = {"players": ["Ann", "Ben", "Cleo", "Dan"], "variant": "classic", "rounds": 1}
OTHER_TABLE = {"players": ["ann", "Dora", "Emil", "Finn"], "variant": "classic", "rounds": 1}


@pytest.fixture
def circles_server(app: Flask) -> Flask:
    """The app as the product runs it: each table's games in its own circle."""
    app.config["CLUB_SERVER"] = False
    return app


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def start(client: FlaskClient, body: dict[str, Any] = TABLE, **headers: str) -> Any:
    return client.post("/api/v1/games", json=body, headers=headers)


def circle_of_game(app: Flask, code: str) -> int:
    with app.app_context():
        circle_id: int = db.session.scalar(sa.select(Game.circle_id).where(Game.code == code))
        return circle_id


def count(app: Flask, model: type[Any]) -> int:
    with app.app_context():
        return int(db.session.scalar(sa.select(sa.func.count()).select_from(model)))


def players_named(app: Flask, key: str) -> list[int]:
    """The circles of the players whose name key is ``key``."""
    with app.app_context():
        return list(db.session.scalars(sa.select(Player.circle_id).where(Player.key == key)))


# --------------------------------------------------------------------------------------------
# Starting a game


def test_a_game_started_without_a_key_makes_a_circle_whose_key_is_shown_once(
    circles_server: Flask, client: FlaskClient
) -> None:
    first = start(client)
    assert first.status_code == 201, first.json
    circle = first.json["circle"]
    assert circle["name"] == "Ann, Ben, Cleo, Dan"  # named after its first game's players
    assert circle_of_game(circles_server, first.json["id"]) == circle["id"]
    with circles_server.app_context():
        assert circle["invite_key"] not in repr(snapshot())  # only its hash is stored

    second = start(client, OTHER_TABLE, **bearer(circle["invite_key"]))
    assert second.status_code == 201, second.json
    assert "circle" not in second.json  # shown once: only a new circle's answer holds it
    assert circle_of_game(circles_server, second.json["id"]) == circle["id"]
    assert second.json["players"] == ["Ann", "Dora", "Emil", "Finn"]  # "ann" is the circle's Ann
    assert players_named(circles_server, "ann") == [circle["id"]]


def test_names_are_matched_within_a_circle_only(circles_server: Flask, client: FlaskClient) -> None:
    one, other = start(client).json, start(client, OTHER_TABLE).json
    assert one["circle"]["id"] != other["circle"]["id"]
    assert other["players"] == ["ann", "Dora", "Emil", "Finn"]  # not the other circle's "Ann"
    assert sorted(players_named(circles_server, "ann")) == sorted(
        [one["circle"]["id"], other["circle"]["id"]]
    )


def test_a_wrong_circle_key_is_refused_and_nothing_is_written(
    circles_server: Flask, client: FlaskClient
) -> None:
    game_key = start(client).json["edit_key"]
    with circles_server.app_context():
        before = snapshot()
    refused = start(client, OTHER_TABLE, **bearer("not-a-circle-key"))
    assert refused.status_code == 403
    assert refused.json == {"error": circle_keys.WRONG_CIRCLE_KEY}
    assert start(client, OTHER_TABLE, **bearer(game_key)).status_code == 403  # a game's key
    with circles_server.app_context():
        assert snapshot() == before


def test_a_refused_table_makes_no_circle(circles_server: Flask, client: FlaskClient) -> None:
    refused = start(client, {**TABLE, "players": ["Ann", "ann", "Ben"]})
    assert refused.status_code == 400, refused.json
    assert count(circles_server, Circle) == 0


def test_an_existing_circle_needs_its_key_and_a_key_names_only_its_own(
    circles_server: Flask, client: FlaskClient
) -> None:
    made = start(client).json["circle"]
    other = start(client).json["circle"]
    games = count(circles_server, Game)
    without_key = start(client, {**TABLE, "circle": made["id"]})
    assert without_key.status_code == 401
    assert without_key.json == {"error": circle_keys.NO_CIRCLE_KEY}
    elsewhere = start(client, {**TABLE, "circle": other["id"]}, **bearer(made["invite_key"]))
    assert elsewhere.status_code == 400
    assert elsewhere.json == {"error": circle_keys.OTHER_CIRCLE}
    malformed = start(client, {**TABLE, "circle": "mine"})
    assert malformed.status_code == 400
    assert '"circle"' in malformed.json["error"]
    assert count(circles_server, Game) == games
    same = start(client, {**TABLE, "circle": made["id"]}, **bearer(made["invite_key"]))
    assert same.status_code == 201
    assert circle_of_game(circles_server, same.json["id"]) == made["id"]


def test_play_again_keeps_the_circle(
    circles_server: Flask, client: FlaskClient, table: Table
) -> None:
    game = start(client).json
    table.record(game, round_entries(0))  # its one round: finished
    again = client.post(f"/api/v1/games/{game['id']}/again", headers=bearer(game["edit_key"]))
    assert again.status_code == 201, again.json
    assert "circle" not in again.json
    assert circle_of_game(circles_server, again.json["id"]) == game["circle"]["id"]


# --------------------------------------------------------------------------------------------
# The phone's own pages (the offline outbox)


def test_the_phones_own_pages_start_a_game_in_a_circle_it_is_in(
    circles_server: Flask, client: FlaskClient
) -> None:
    phone = circles_server.test_client()
    mine = start(phone, TABLE, **OWN_PAGE).json  # a new circle: the phone holds its invite
    others = start(client).json["circle"]
    chosen = start(phone, {**OTHER_TABLE, "circle": mine["circle"]["id"]}, **OWN_PAGE)
    assert chosen.status_code == 201, chosen.json
    assert "circle" not in chosen.json
    assert circle_of_game(circles_server, chosen.json["id"]) == mine["circle"]["id"]
    last_used = start(phone, OTHER_TABLE, **OWN_PAGE)  # no choice: the circle it used last
    assert circle_of_game(circles_server, last_used.json["id"]) == mine["circle"]["id"]

    games = count(circles_server, Game)
    not_its = start(phone, {**TABLE, "circle": others["id"]}, **OWN_PAGE)
    assert not_its.status_code == 403
    assert not_its.json == {"error": circle_keys.NOT_IN_CIRCLE}
    assert count(circles_server, Game) == games

    new = start(phone, {**TABLE, "circle": "new"}, **OWN_PAGE)
    assert new.status_code == 201
    made = new.json["circle"]["id"]
    assert made not in (mine["circle"]["id"], others["id"])
    assert circle_of_game(circles_server, new.json["id"]) == made
    with phone.session_transaction() as session:  # the phone holds the invite, as the page's
        assert session[SESSION_INVITES][str(made)] == new.json["circle"]["invite_key"]
    listed = phone.get("/api/v1/games", headers=OWN_PAGE)  # the new circle, used last
    assert [game["id"] for game in listed.json["games"]] == [new.json["id"]]


def test_a_phone_that_starts_no_circle_yet_starts_a_new_one(
    circles_server: Flask, client: FlaskClient
) -> None:
    answer = start(client, TABLE, **OWN_PAGE)
    assert answer.status_code == 201
    assert circle_of_game(circles_server, answer.json["id"]) == answer.json["circle"]["id"]


# --------------------------------------------------------------------------------------------
# Reading a circle's history and players


def two_circles(client: FlaskClient, table: Table) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game in each of two new circles, each with an "Ann", who wins only in the first."""
    one, other = start(client).json, start(client, OTHER_TABLE).json
    table.record(one, round_entries(0))
    return one, other


def test_the_history_and_a_player_need_the_circles_key(
    circles_server: Flask, client: FlaskClient, table: Table
) -> None:
    two_circles(client, table)
    for url in ("/api/v1/games", "/api/v1/players/Ann"):
        refused = client.get(url)
        assert refused.status_code == 401, url
        assert refused.json == {"error": circle_keys.NO_CIRCLE_KEY}
        wrong = client.get(url, headers=bearer("not-a-circle-key"))
        assert wrong.status_code == 403, url
        assert wrong.json == {"error": circle_keys.WRONG_CIRCLE_KEY}


def test_the_history_and_a_player_are_the_circles_own(
    circles_server: Flask, client: FlaskClient, table: Table
) -> None:
    one, other = two_circles(client, table)
    for game, circle in ((one, one["circle"]), (other, other["circle"])):
        listed = client.get("/api/v1/games", headers=bearer(circle["invite_key"]))
        assert listed.status_code == 200, listed.json
        assert [listed_game["id"] for listed_game in listed.json["games"]] == [game["id"]]
        assert listed.json["total"] == 1
    ann = client.get("/api/v1/players/ANN", headers=bearer(one["circle"]["invite_key"])).json
    other_ann = client.get("/api/v1/players/ann", headers=bearer(other["circle"]["invite_key"]))
    assert (ann["name"], ann["rounds"]) == ("Ann", 1)
    assert (other_ann.json["name"], other_ann.json["rounds"]) == ("ann", 0)
    assert {rival["opponent"] for rival in ann["head_to_head"]} == {"Ben", "Cleo", "Dan"}
    dora = client.get("/api/v1/players/Dora", headers=bearer(one["circle"]["invite_key"]))
    assert dora.status_code == 404  # another circle's player


def test_the_phones_own_pages_read_the_circles_it_is_in(
    circles_server: Flask, client: FlaskClient, table: Table
) -> None:
    one, other = two_circles(client, table)
    phone = table.phone(one)  # opened the first game's edit link: in its circle
    listed = phone.get("/api/v1/games", headers=OWN_PAGE)
    assert [game["id"] for game in listed.json["games"]] == [one["id"]]
    asked = phone.get(f"/api/v1/games?circle={one['circle']['id']}", headers=OWN_PAGE)
    assert asked.status_code == 200
    assert phone.get("/api/v1/players/Ann", headers=OWN_PAGE).json["rounds"] == 1
    not_its = phone.get(f"/api/v1/games?circle={other['circle']['id']}", headers=OWN_PAGE)
    assert not_its.status_code == 403
    assert not_its.json == {"error": circle_keys.NOT_IN_CIRCLE}
    assert phone.get("/api/v1/games").status_code == 401  # not from our pages: no right
    stranger = circles_server.test_client()
    assert stranger.get("/api/v1/games", headers=OWN_PAGE).status_code == 401


def test_a_game_and_its_export_stay_open_to_anyone_with_its_code(
    circles_server: Flask, client: FlaskClient
) -> None:
    game = start(client).json
    stranger = circles_server.test_client()
    assert stranger.get(f"/api/v1/games/{game['id']}").status_code == 200
    assert stranger.get(f"/api/v1/games/{game['id']}/export").status_code == 200


# --------------------------------------------------------------------------------------------
# A club server, and replays


def test_a_club_server_needs_no_circle_key(app: Flask, client: FlaskClient, table: Table) -> None:
    game = start(client)
    assert game.status_code == 201
    assert "circle" not in game.json
    other = start(client, OTHER_TABLE)
    assert other.json["players"] == ["Ann", "Dora", "Emil", "Finn"]  # one circle: one Ann
    assert count(app, Circle) == 1
    assert client.get("/api/v1/games").json["total"] == 2
    assert client.get("/api/v1/players/Ann").json["games"] == 2


def test_a_new_circle_sent_again_is_answered_the_same_and_its_key_never_stored(
    circles_server: Flask, client: FlaskClient
) -> None:
    sent = {**OWN_PAGE, "Idempotency-Key": "start-in-a-new-circle"}
    first, again = start(client, TABLE, **sent), start(client, TABLE, **sent)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert count(circles_server, Circle) == 1
    assert count(circles_server, Game) == 1
    invite = first.json["circle"]["invite_key"]
    assert invite != first.json["edit_key"]
    with circles_server.app_context():
        stored = repr(snapshot())
    assert invite not in stored
    assert first.json["edit_key"] not in stored
    next_game = start(client, OTHER_TABLE, **bearer(invite))  # the replayed key opens it
    assert circle_of_game(circles_server, next_game.json["id"]) == first.json["circle"]["id"]


def test_a_phones_start_sent_again_keeps_its_circle(circles_server: Flask) -> None:
    """The outbox's start, whose answer was lost, sent again by the phone (its cookie as it
    was before, with the id its new-game page gave it): the replay gives the phone the
    game's right and the circle's invite."""
    first = circles_server.test_client()
    assert first.get("/games/new").status_code == 200
    phone = same_phone(circles_server, first)  # the same phone, the first answer never seen
    sent = {**OWN_PAGE, "Idempotency-Key": "outbox-start-0001"}
    answer = start(first, {**TABLE, "circle": "new"}, **sent)
    again = start(phone, {**TABLE, "circle": "new"}, **sent)
    assert again.get_data() == answer.get_data()
    with phone.session_transaction() as session:
        assert session[SESSION_INVITES] == {
            str(answer.json["circle"]["id"]): answer.json["circle"]["invite_key"]
        }
    listed = phone.get("/api/v1/games", headers=OWN_PAGE)
    assert [game["id"] for game in listed.json["games"]] == [answer.json["id"]]
