"""Who may rename or merge a player on a server of circles (issue 28 point 2): any phone in
the player's circle, and no other. A stranger's game seating the same name is in another
circle: it neither gives a right nor blocks one, and the change never touches it. (The club
server's rule, every game kept, is tests/history/test_player_rights.py.)"""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import Game, db
from companion.services.games import get_game, rotate_edit_key
from scripts.page_reader import csrf_token
from tests.circles.conftest import THREE, Tables
from tests.db_snapshot import snapshot
from tests.history.helpers import text_of
from tests.history.test_player_names import confirm, send
from tests.table import Table, auth

NO_CIRCLE = "this phone is in no circle yet"


def players_of(table: Table, game: dict[str, object]) -> list[str]:
    """A game's names, as its own read-only link shows them to anyone."""
    return list(table.state(game)["players"])


def test_a_phone_of_the_circle_renames_even_when_a_strangers_game_seats_the_name(
    tables: Tables, table: Table
) -> None:
    phone = tables.phone()
    first = tables.played(phone, ["Anna", "Ben", "Cleo"], rounds=2)
    stranger = tables.phone()
    throwaway = tables.played(stranger, ["anna", "X1", "X2"])
    # a second phone of the table, given the edit link of a later game only
    second = tables.played(phone, ["Ben", "Anna", "Dan"], rounds=2)
    other_phone = tables.join(tables.phone(), second)
    done = confirm(other_phone, send(other_phone, "Anna", "rename", new_name="Annie"), "rename")
    assert done.status_code == 302 and done.headers["Location"] == "/players/Annie"
    assert players_of(table, first) == ["Annie", "Ben", "Cleo"]
    assert players_of(table, second) == ["Ben", "Annie", "Dan"]
    assert players_of(table, throwaway) == ["anna", "X1", "X2"]
    assert other_phone.get("/players/Anna").status_code == 404
    assert stranger.get("/players/anna").status_code == 200
    assert stranger.get("/players/Annie").status_code == 404


def test_a_phone_of_the_circle_merges_its_players(tables: Tables, table: Table) -> None:
    phone = tables.phone()
    tables.played(phone, ["Anna", "Ben", "Cleo"])
    typo = tables.played(phone, ["Anne", "Dan", "Eve"])
    tables.played(tables.phone(), ["Anna", "Anne", "X1"])  # a stranger's, both names
    joined = tables.join(tables.phone(), typo)
    done = confirm(joined, send(joined, "Anne", "merge", into="Anna"), "merge")
    assert done.status_code == 302 and done.headers["Location"] == "/players/Anna"
    assert players_of(table, typo) == ["Anna", "Dan", "Eve"]
    assert joined.get("/players/Anne").status_code == 404


def test_a_phone_outside_the_circle_cannot_rename_or_merge(app: Flask, tables: Tables) -> None:
    phone = tables.phone()
    tables.played(phone, ["Anna", "Ben", "Cleo"])
    outsider = tables.phone()
    stranger = tables.phone()
    tables.played(stranger, ["Dan", "Eve", "Finn"])
    with app.app_context():
        before = snapshot()
    refused = outsider.get("/players/Anna/rename")
    assert refused.status_code == 403
    assert NO_CIRCLE in text_of(refused.get_data(as_text=True))
    token = csrf_token(outsider.get("/games/new").get_data(as_text=True))
    for action, field, value in (("merge", "into", "Ben"), ("rename", "new_name", "Zed")):
        answer = outsider.post(
            f"/players/Anna/{action}",
            data={"csrf_token": token, field: value, "confirmed": "yes"},
        )
        assert answer.status_code == 403
        assert NO_CIRCLE in text_of(answer.get_data(as_text=True))
        # a phone of another circle does not even learn that the name exists
        other = stranger.post(
            f"/players/Anna/{action}",
            data={"csrf_token": token, field: value, "confirmed": "yes"},
        )
        assert other.status_code in (400, 404)
    assert stranger.get("/players/Anna/rename").status_code == 404
    with app.app_context():
        assert snapshot() == before


def test_the_refusal_is_in_the_players_language(tables: Tables) -> None:
    tables.played(tables.phone(), ["Anna", "Ben", "Cleo"])
    page = tables.phone().get("/players/Anna/rename", headers={"Accept-Language": "de"})
    assert page.status_code == 403
    assert NO_CIRCLE not in text_of(page.get_data(as_text=True))
    assert "Kreis" in text_of(page.get_data(as_text=True))


def test_a_phone_that_left_the_circle_meanwhile_cannot_confirm_a_rename(
    app: Flask, tables: Tables
) -> None:
    phone = tables.phone()
    game = tables.played(phone, ["Anna", "Ben", "Cleo"])
    joined = tables.join(tables.phone(), game)
    answer = send(joined, "Anna", "rename", new_name="Annie")
    assert answer.status_code == 200
    with app.app_context():  # the table takes the edit link back (a new one on the share page)
        locked = get_game(game["id"], for_update=True)
        rotate_edit_key(locked, locked.version)
        db.session.commit()
        before = snapshot()
    refused = confirm(joined, answer, "rename")
    assert refused.status_code == 403
    with app.app_context():
        assert snapshot() == before


def test_a_rename_moves_the_versions_on_so_a_stale_round_is_refused(
    app: Flask, tables: Tables, table: Table
) -> None:
    phone = tables.phone()
    game = tables.played(phone, ["Anna", "Ben", "Cleo"], rounds=2)
    with app.app_context():
        version = db.session.scalar(sa.select(Game.version).where(Game.code == game["id"]))
    confirm(phone, send(phone, "Anna", "rename", new_name="Annie"), "rename")
    stale = phone.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": version, "entries": THREE},
        headers=auth(game),
    )
    assert stale.status_code == 409
    assert stale.json["version"] == version + 1


def test_leaving_a_game_out_of_the_statistics_still_needs_the_games_own_rights(
    app: Flask, tables: Tables, client: FlaskClient
) -> None:
    phone = tables.phone()
    kept = tables.played(phone, ["Anna", "Ben", "Cleo"])
    other = tables.played(phone, ["Anna", "Dan", "Eve"])
    member = tables.join(tables.phone(), kept)  # in the circle, without the other's key
    token = csrf_token(member.get("/games/new").get_data(as_text=True))
    answer = member.post(
        f"/g/{other['id']}/exclude",
        data={"csrf_token": token, "version": str(other["version"]), "excluded": "1"},
    )
    assert answer.status_code == 403
    with app.app_context():
        assert not db.session.scalar(sa.select(Game.excluded).where(Game.code == other["id"]))
