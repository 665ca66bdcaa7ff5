"""Play again through the API (``POST /api/v1/games/<id>/again``), as the page's button does:
the table's next game (the same players in the same seats, the same variant and rounds, the
first lead one seat on, R3), started once however often and by whomever it is asked for,
with an edit key every holder of the old game's key gets; a phone's own right (its session,
from our own pages: the offline outbox) is given that game too. Refused, nothing is made."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.data.models import Game, db
from companion.rules import round_leader
from companion.web.api import rights
from scripts.page_reader import csrf_token
from tests.api.test_games_api import NAMES, round_entries
from tests.api.test_session_rights import OWN_PAGE
from tests.table import Table, auth


def finished(client: FlaskClient, table: Table, first_leader: int = 2) -> dict[str, Any]:
    """A game of one round, played to its end."""
    game = table.new_game(NAMES, "classic", rounds=1, first_leader=first_leader)
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": game["version"], "entries": round_entries(0)},
        headers=auth(game),
    )
    assert answer.status_code == 201 and answer.json["status"] == "finished"
    return game


def games_made(app_client: FlaskClient) -> int:
    with app_client.application.app_context():
        return db.session.query(Game).count()


def test_the_next_game_is_the_table_s_and_its_key_records_a_round(
    client: FlaskClient, table: Table
) -> None:
    game = finished(client, table, first_leader=3)
    answer = client.post(f"/api/v1/games/{game['id']}/again", headers=auth(game))
    assert answer.status_code == 201, answer.json
    following = answer.json
    assert following["id"] != game["id"] and following["players"] == NAMES
    assert following["variant"] == table.state(game)["variant"]
    assert following["rounds_planned"] == 1 and following["rounds"] == []
    assert following["first_leader"] == round_leader(2, 3, len(NAMES)) == 0  # one seat on (R3)
    assert following["status"] == "in_progress"
    assert answer.headers["Cache-Control"] == "no-store"
    recorded = client.post(
        f"/api/v1/games/{following['id']}/rounds",
        json={"version": following["version"], "entries": round_entries(1)},
        headers=auth(following),
    )
    assert recorded.status_code == 201, recorded.json


def test_asked_again_by_anyone_with_the_key_it_is_the_same_game(
    client: FlaskClient, table: Table
) -> None:
    game = finished(client, table)
    first = client.post(f"/api/v1/games/{game['id']}/again", headers=auth(game))
    count = games_made(client)
    again = table.phone().post(
        f"/api/v1/games/{game['id']}/again",
        headers={**auth(game), "Idempotency-Key": "play-again-0001"},
    )
    assert first.status_code == 201 and again.status_code == 200
    assert again.json["id"] == first.json["id"]
    assert again.json["edit_key"] == first.json["edit_key"]
    assert games_made(client) == count
    # The page's button, on a phone holding the old key, opens that same game.
    phone = table.phone(game)
    pressed = phone.post(f"/g/{game['id']}/again", data={"csrf_token": csrf(phone, game)})
    assert pressed.status_code == 302
    assert pressed.headers["Location"].startswith(f"/g/{first.json['id']}")


def csrf(phone: FlaskClient, game: dict[str, Any]) -> str:
    return csrf_token(phone.get(f"/g/{game['id']}").get_data(as_text=True))


def test_a_phone_s_own_right_is_given_the_next_game(client: FlaskClient, table: Table) -> None:
    """The offline outbox sends with the phone's session, not a key: the phone then holds
    the next game's right as if it had pressed the page's button."""
    game = finished(client, table)
    phone = table.phone(game)
    answer = phone.post(f"/api/v1/games/{game['id']}/again", headers=OWN_PAGE)
    assert answer.status_code == 201, answer.json
    following = answer.json
    recorded = phone.post(
        f"/api/v1/games/{following['id']}/rounds",
        json={"version": following["version"], "entries": round_entries(1)},
        headers=OWN_PAGE,
    )
    assert recorded.status_code == 201, recorded.json


@pytest.mark.parametrize(
    ("case", "status"),
    [("still being played", 400), ("no key", 401), ("wrong key", 403), ("unknown game", 404)],
)
def test_a_refused_play_again_makes_nothing(
    client: FlaskClient, table: Table, case: str, status: int
) -> None:
    game = finished(client, table)
    other = table.new_game(NAMES, "classic", rounds=2)
    headers, code = auth(game), game["id"]
    if case == "still being played":
        headers, code = auth(other), other["id"]
    elif case == "no key":
        headers = {}
    elif case == "wrong key":
        headers = auth(other)
    else:
        code = "nosuchgame0"
    count = games_made(client)
    answer = client.post(f"/api/v1/games/{code}/again", headers=headers)
    assert answer.status_code == status, answer.json
    assert set(answer.json) == {"error"} and answer.json["error"]
    if case == "wrong key":
        assert answer.json["error"] == rights.WRONG_KEY
    assert games_made(client) == count
