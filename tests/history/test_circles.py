"""Circles, first step (issue 28): every game and player belongs to a circle, and a name is
matched within its circle only. The server is still one circle, so a second one is made here
by hand, as a later step's circle of another table would be: its players never mix with
the server circle's, whether a game is started, played again, imported, or a player renamed,
merged, or a merge undone."""

from __future__ import annotations

import io

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskCliRunner

from companion.data import stats
from companion.data.circles import server_circle_id, unknown_secret_hash
from companion.data.models import Circle, Player, db, name_key
from companion.formats.backup.export import game_for_export, game_json
from companion.formats.backup.importing import import_document
from companion.formats.backup.reading import load
from companion.services import ServiceError
from companion.services.games import delete_game, get_game, play_again
from companion.services.player_changes import PAGE, find_target, merge_players, rename_player
from companion.services.player_journal import undo_change
from tests.history.helpers import quick
from tests.table import Table

ROUND = [quick("red 1", 5), quick("blue 2", 5, ["blue 4"]), quick("green 3", 4)]


def other_circle(app: Flask, *names: str) -> int:
    """A second circle with players of these names; the server's circle is made first, so
    that it stays the server's (the first)."""
    with app.app_context():
        server_circle_id()
        circle = Circle(name="Other table", secret_hash=unknown_secret_hash())
        db.session.add(circle)
        db.session.flush()
        db.session.add_all(
            Player(circle_id=circle.id, name=name, key=name_key(name)) for name in names
        )
        db.session.commit()
        return int(circle.id)


def circles_of(app: Flask, name: str) -> list[int]:
    """The circles of the players called ``name``, in order."""
    with app.app_context():
        query = sa.select(Player.circle_id).where(Player.key == name_key(name))
        return sorted(db.session.scalars(query))


def game_row(app: Flask, code: str) -> tuple[int, list[int]]:
    """A game's circle and the circles of its seated players."""
    with app.app_context():
        game = get_game(code)
        return game.circle_id, [seat.player.circle_id for seat in game.seats]


def ref(app: Flask, name: str, circle: int) -> stats.PlayerRef:
    with app.app_context():
        row = db.session.execute(
            sa.select(Player.id, Player.name).where(
                Player.circle_id == circle, Player.key == name_key(name)
            )
        ).one()
        return stats.PlayerRef(row.id, row.name)


def test_a_new_game_seats_the_players_of_its_own_circle(app: Flask, table: Table) -> None:
    other = other_circle(app, "Ann", "Ben")
    game = table.new_game(["ann", "Ben", "Cleo"])
    with app.app_context():
        server = server_circle_id()
    assert server != other
    assert game_row(app, game["id"]) == (server, [server, server, server])
    assert circles_of(app, "Ann") == sorted([other, server])
    assert circles_of(app, "Cleo") == [server]
    # The next game with the same names finds the circle's players again, adding none.
    table.new_game(["Ann", "Ben", "Cleo"])
    assert circles_of(app, "Ann") == sorted([other, server])


def test_the_next_game_stays_in_its_circle(app: Flask, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=1)
    table.record(game, ROUND)
    with app.app_context():
        following, _key = play_again(get_game(game["id"], for_update=True))
        db.session.commit()
        assert following.circle_id == get_game(game["id"]).circle_id == server_circle_id()


def test_an_imported_game_seats_the_server_circles_players(app: Flask, table: Table) -> None:
    """A game's own download names no circle: it joins the server's (the first)."""
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=1)
    table.record(game, ROUND)
    with app.app_context():
        backup = io.StringIO(game_json(game_for_export(game["id"])))
        gone = get_game(game["id"], for_update=True)
        delete_game(gone, gone.version)
        db.session.commit()
    other = other_circle(app, "Ann", "Dan")
    with app.app_context():
        report = import_document(load(backup.getvalue().encode()))
        db.session.commit()
        server = server_circle_id()
    assert [code for code, _key in report.imported] == [game["id"]]
    assert game_row(app, game["id"]) == (server, [server, server, server])
    assert circles_of(app, "Ann") == sorted([server, other])


def test_another_circles_name_does_not_stop_a_rename(app: Flask, table: Table) -> None:
    table.new_game(["Ann", "Ben", "Cleo"])
    other = other_circle(app, "Clio")
    with app.app_context():
        server = server_circle_id()
    cleo = ref(app, "Cleo", server)
    with app.app_context():
        rename_player(cleo, "Clio", PAGE)
        db.session.commit()
    assert circles_of(app, "Clio") == sorted([other, server])


def test_a_merge_finds_its_target_in_the_circle_and_never_crosses_circles(
    app: Flask, table: Table
) -> None:
    table.new_game(["Ann", "Ben", "Cleo"])
    other = other_circle(app, "Anna", "Cleo")
    with app.app_context():
        server = server_circle_id()
    ann = ref(app, "Ann", server)
    with app.app_context(), pytest.raises(ServiceError):
        find_target("Anna", ann)  # only the other circle has an Anna
    with app.app_context(), pytest.raises(ServiceError, match="different circles"):
        merge_players(ann, ref(app, "Anna", other), PAGE)
    with app.app_context():
        db.session.rollback()
        assert find_target("cleo", ann) == ref(app, "Cleo", server)
    assert circles_of(app, "Ann") == [server]


def test_an_undone_merge_puts_the_player_back_in_their_circle(app: Flask, table: Table) -> None:
    table.new_game(["Ann", "Ben", "Cleo"])
    table.new_game(["Anne", "Dan", "Eve"])
    other = other_circle(app, "Anne")
    with app.app_context():
        server = server_circle_id()
        change = merge_players(ref(app, "Anne", server), ref(app, "Ann", server), PAGE)
        db.session.commit()
        entry = change.id
    assert circles_of(app, "Anne") == [other]
    with app.app_context():
        undo_change(entry)
        db.session.commit()
    assert circles_of(app, "Anne") == sorted([other, server])


def test_the_operator_names_a_player_of_several_circles_by_id(
    app: Flask, table: Table, runner: FlaskCliRunner
) -> None:
    table.new_game(["Ann", "Ben", "Cleo"])
    other_circle(app, "Ann")
    refused = runner.invoke(args=["players", "rename", "Ann", "Annie"])
    assert refused.exit_code == 1
    assert "give the player's id" in refused.output
    with app.app_context():
        server_ann = ref(app, "Ann", server_circle_id())
    renamed = runner.invoke(args=["players", "rename", str(server_ann.id), "Annie"])
    assert renamed.exit_code == 0, renamed.output
    with app.app_context():
        rows = db.session.execute(sa.select(Player.name, Player.circle_id).order_by(Player.id))
        players = [tuple(row) for row in rows]
        server = server_circle_id()
    assert ("Annie", server) in players
    assert players[-1][0] == "Ann"  # the other circle's, untouched
