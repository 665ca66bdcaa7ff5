"""A replayed answer goes to the client that made the request, and nobody can fill the
store of answers (companion/web/api/idempotency.py, docs/operators/security.md).

A game's start answers its edit key and a new circle's invite key. Another client sending
the same ``Idempotency-Key`` and body (a fresh cookie, or none) is answered as if the key
had never been used: never with the first client's secrets, nor with rights in its session;
a start into an existing circle is checked against the circle's rights first. A refused
request stores nothing before a right is established, no stored answer grows with what the
client sent, and each holder keeps a bounded number of answers.
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import Game, IdempotentAnswer, db
from companion.services import idempotent_answers
from companion.web.api import circle_keys
from companion.web.security import OWN_PAGES
from tests.api.test_games_api import round_entries
from tests.table import Table, auth, same_phone

OWN_PAGE = {"Sec-Fetch-Site": OWN_PAGES}
TABLE: dict[str, Any] = {
    "players": ["Ann", "Ben", "Cleo", "Dan"],
    "variant": "classic",
    "rounds": 2,
}
KEY = "c0ffee00-1234-4abc-8def-000000000040"


@pytest.fixture
def circles_server(app: Flask) -> Flask:
    """The app as the product runs it: each table's games in its own circle."""
    app.config["CLUB_SERVER"] = False
    return app


def start(client: FlaskClient, body: dict[str, Any], key: str = KEY, **headers: str) -> Any:
    return client.post("/api/v1/games", json=body, headers={"Idempotency-Key": key, **headers})


def phone_with_id(app: Flask) -> FlaskClient:
    """A phone that opened the new-game page (its cookie holds its id)."""
    phone = app.test_client()
    assert phone.get("/games/new").status_code == 200
    return phone


def stored(app: Flask) -> list[IdempotentAnswer]:
    with app.app_context():
        found = db.session.scalars(sa.select(IdempotentAnswer).order_by(IdempotentAnswer.id))
        rows = list(found)
        db.session.expunge_all()
        return rows


def games(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(sa.select(sa.func.count()).select_from(Game)) or 0)


def secrets_of(answer: Any) -> list[str]:
    """The edit key and the new circle's invite key an answer to a start holds."""
    found = [answer.json["edit_key"]]
    if "circle" in answer.json:
        found.append(answer.json["circle"]["invite_key"])
    return found


def assert_no_right(client: FlaskClient, code: str) -> None:
    """``client``'s session gives it no right to the game ``code``: our own pages' fetch
    is refused for want of a key (401)."""
    body = {"version": 1, "entries": round_entries(0), "number": 1}
    refused = client.post(f"/api/v1/games/{code}/rounds", json=body, headers=OWN_PAGE)
    assert refused.status_code == 401, refused.json


# --------------------------------------------------------------------------------------------
# 1. A replay goes to the client that made the request


STARTERS = {
    "a program, no key": {},
    "a phone's own pages": OWN_PAGE,
}
STRANGERS = {
    "no cookie, no Sec-Fetch-Site": (False, {}),
    "no cookie, as our pages": (False, OWN_PAGE),
    "a fresh cookie, as our pages": (True, OWN_PAGE),
}


@pytest.mark.parametrize("first_headers", list(STARTERS.values()), ids=list(STARTERS))
@pytest.mark.parametrize("stranger", list(STRANGERS.values()), ids=list(STRANGERS))
def test_a_start_sent_again_by_another_client_hands_it_none_of_its_secrets(
    circles_server: Flask, first_headers: dict[str, str], stranger: tuple[bool, dict[str, str]]
) -> None:
    starter = phone_with_id(circles_server)
    body = {**TABLE, "circle": "new"}
    first = start(starter, body, **first_headers)
    assert first.status_code == 201, first.json
    fresh_cookie, headers = stranger
    other = phone_with_id(circles_server) if fresh_cookie else circles_server.test_client()
    again = start(other, body, **headers)
    for secret in secrets_of(first):
        assert secret.encode() not in again.get_data()
    assert "Idempotent-Replayed" not in again.headers
    assert again.status_code == 201, again.json  # a start of its own, in a circle of its own
    assert again.json["id"] != first.json["id"]
    assert again.json["circle"]["id"] != first.json["circle"]["id"]
    assert_no_right(other, first.json["id"])
    taken = other.post(
        f"/api/v1/games/{first.json['id']}/edit-key",
        json={"version": first.json["version"]},
        headers={**auth(again.json), **headers},
    )
    assert taken.status_code == 403  # its own key opens its own game only


def test_a_stranger_replaying_a_start_into_an_existing_circle_is_refused_by_the_circle(
    circles_server: Flask,
) -> None:
    """The circle's rights are checked before any replay: a stranger naming a circle it is
    not in is refused (403 from our pages, 401 from a program), however the key was used."""
    owner = phone_with_id(circles_server)
    founded = start(owner, {**TABLE, "circle": "new"}, key="founding-start-0001", **OWN_PAGE)
    assert founded.status_code == 201, founded.json
    circle = founded.json["circle"]["id"]
    body = {**TABLE, "circle": circle}
    first = start(owner, body, **OWN_PAGE)
    assert first.status_code == 201, first.json
    before = games(circles_server)

    stranger = phone_with_id(circles_server)
    again = start(stranger, body, **OWN_PAGE)
    assert again.status_code == 403
    assert again.json == {"error": circle_keys.NOT_IN_CIRCLE}
    program = start(circles_server.test_client(), body)
    assert program.status_code == 401
    assert program.json == {"error": circle_keys.NO_CIRCLE_KEY}
    for answer in (again, program):
        assert first.json["edit_key"].encode() not in answer.get_data()
    assert games(circles_server) == before
    assert_no_right(stranger, first.json["id"])
    history = stranger.get(f"/api/v1/games?circle={circle}", headers=OWN_PAGE)
    assert history.status_code == 403

    replay = start(owner, body, **OWN_PAGE)  # the owner still gets its own answer
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replay.get_data() == first.get_data()


def test_a_game_started_offline_leads_no_one_else_to_its_secrets(circles_server: Flask) -> None:
    """The offline start's address holds its start's key: another phone opening it is not
    led to the game, and replaying the start with the body the game's public state gives
    away gets nothing of the phone's."""
    phone = phone_with_id(circles_server)
    body = {**TABLE, "circle": "new", "first_leader": 1}
    first = start(phone, body, **OWN_PAGE)  # the outbox sending the game started offline
    assert first.status_code == 201, first.json
    assert phone.get(f"/games/new/{KEY}").headers["Location"] == f"/g/{first.json['id']}"

    stranger = phone_with_id(circles_server)
    assert stranger.get(f"/games/new/{KEY}").status_code == 404
    assert circles_server.test_client().get(f"/games/new/{KEY}").status_code == 404
    public = stranger.get(f"/api/v1/games/{first.json['id']}").json
    guessed = {
        "players": public["players"],
        "variant": "classic",
        "rounds": public["rounds_planned"],
        "first_leader": public["first_leader"],
        "circle": "new",
    }
    assert guessed == body
    again = start(stranger, guessed, **OWN_PAGE)
    for secret in secrets_of(first):
        assert secret.encode() not in again.get_data()
    assert again.json["id"] != first.json["id"]
    assert_no_right(stranger, first.json["id"])


def test_the_phone_whose_answer_was_lost_still_gets_it(circles_server: Flask) -> None:
    """The phone's cookie as it was before its start (the answer, and the cookie it set,
    never arrived): the start sent again is answered as the first time, with its rights."""
    phone = phone_with_id(circles_server)
    before_the_answer = same_phone(circles_server, phone)
    first = start(phone, {**TABLE, "circle": "new"}, **OWN_PAGE)
    again = start(before_the_answer, {**TABLE, "circle": "new"}, **OWN_PAGE)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert games(circles_server) == 1
    body = {"version": first.json["version"], "entries": round_entries(0), "number": 1}
    recorded = before_the_answer.post(
        f"/api/v1/games/{first.json['id']}/rounds", json=body, headers=OWN_PAGE
    )
    assert recorded.status_code == 201, recorded.json


def test_no_answer_is_stored_for_nobody(circles_server: Flask) -> None:
    """A start that names nobody (a program with no circle key) is not kept: no row has an
    empty holder, and every holder is a hash."""
    start(circles_server.test_client(), {**TABLE, "circle": "new"})
    start(phone_with_id(circles_server), TABLE, key="phone-start-0001", **OWN_PAGE)
    rows = stored(circles_server)
    assert len(rows) == 1
    assert all(len(row.holder) == 64 and int(row.holder, 16) >= 0 for row in rows)


# --------------------------------------------------------------------------------------------
# 2. Nobody can fill the store of answers


def test_refused_starts_store_nothing(circles_server: Flask) -> None:
    """Bad bodies, circles not joined, and tables the rules refuse: from a program or from
    fresh phones, with fresh keys, none is stored."""
    huge = {**TABLE, "x" * 20_000: 1}
    twice = {**TABLE, "players": ["Ann", "Ann", "Ben"]}
    for number in range(30):
        key = f"flood-key-{number:06d}"
        assert start(circles_server.test_client(), huge, key=key).status_code == 400
        fresh = circles_server.test_client()
        assert start(fresh, huge, key=key, **OWN_PAGE).status_code == 400
        assert start(fresh, twice, key=key + "b", **OWN_PAGE).status_code in (400, 422)
        assert start(fresh, {**TABLE, "circle": 999}, key=key + "c", **OWN_PAGE).status_code == 403
    assert stored(circles_server) == []
    assert games(circles_server) == 0


def test_a_refusal_never_grows_with_the_request(app: Flask, table: Table) -> None:
    """The unknown fields a refusal names are cut: a stored refusal of a game's change stays
    small, however long the names sent."""
    game = table.new_game(TABLE["players"], "classic", 2)
    body = {"version": game["version"], "entries": round_entries(0)}
    body.update({f"{n}" + "y" * 10_000: n for n in range(5)})
    refused = table.client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json=body,
        headers={**auth(game), "Idempotency-Key": "long-fields-0001"},
    )
    assert refused.status_code == 400
    assert len(refused.get_data()) < 400
    assert "and 2 more" in refused.json["error"]
    rows = stored(app)
    assert len(rows) == 1 and len(rows[0].body) < 400


def test_each_holder_keeps_a_bounded_number_of_answers(
    app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Storing one more deletes the holder's oldest; another holder's are kept; the newest
    still replay."""
    monkeypatch.setattr(idempotent_answers, "ANSWERS_PER_HOLDER", 5)
    game, other = table.new_game(), table.new_game()
    refused = {"version": game["version"], "entries": []}

    def refuse(of: dict[str, Any], key: str) -> Any:
        return table.client.post(
            f"/api/v1/games/{of['id']}/rounds",
            json=refused,
            headers={**auth(of), "Idempotency-Key": key},
        )

    assert refuse(other, "other-holder-0001").status_code == 400
    for number in range(12):
        assert refuse(game, f"one-holder-{number:04d}").status_code == 400
    keys = [row.key for row in stored(app)]
    assert keys == ["other-holder-0001"] + [f"one-holder-{n:04d}" for n in range(7, 12)]
    assert refuse(game, "one-holder-0011").headers["Idempotent-Replayed"] == "true"


def test_a_new_edit_key_forgets_the_answers_of_the_old_one(app: Flask, table: Table) -> None:
    """No request can be sent with the old key again; its answers go (a holder is not made
    anew, with a bound of its own, by each new key)."""
    game = table.new_game(TABLE["players"], "classic", 2)
    body = {"version": game["version"], "entries": round_entries(0), "number": 1}
    recorded = table.client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json=body,
        headers={**auth(game), "Idempotency-Key": "before-new-key-1"},
    )
    assert recorded.status_code == 201
    assert len(stored(app)) == 1
    rotated = table.client.post(
        f"/api/v1/games/{game['id']}/edit-key",
        json={"version": recorded.json["version"]},
        headers=auth(game),
    )
    assert rotated.status_code == 200
    assert stored(app) == []


@pytest.mark.no_database_queries
def test_a_query_s_unknown_parameter_is_named_cut(client: FlaskClient) -> None:
    """No refusal echoes what a client sent at any length, stored or not."""
    refused = client.get("/api/v1/setup", query_string={"z" * 5_000: "1", "players": "4"})
    assert refused.status_code == 400
    assert len(refused.get_data()) < 200
