"""The operator's ``players`` commands: rename, merge, the journal, and undo that puts back
exactly what was there, with the statistics ledger in step."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from companion.data.models import Game, Player, PlayerChange, RoundResult, Seat, db
from tests.db_snapshot import snapshot
from tests.history.helpers import quick
from tests.history.test_ledger import assert_ledger_exact
from tests.history.test_player_names import confirm, send
from tests.table import Table, auth

THREE = [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)]
#: What a rename or merge and its undo change on purpose: the games' versions move on
#: (and their ``updated_at``), and the journal grows.
MOVING = {"games", "player_changes", "change_counter"}


@pytest.fixture
def history(client: FlaskClient, table: Table) -> dict[str, dict[str, Any]]:
    """Ann, Ben and "Clea" (a typo) in a finished game and one in progress, Ann, Ben and
    Cleo in another."""
    typo = table.new_game(["Ann", "Ben", "Clea"])
    table.record(typo, THREE)
    open_game = table.new_game(["Clea", "Dan", "Eve"], rounds=3)
    table.record(open_game, THREE)
    right = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
    table.record(right, THREE)
    table.record(right, THREE)
    return {"typo": typo, "open": open_game, "right": right}


def run(runner: FlaskCliRunner, *args: str) -> Any:
    return runner.invoke(args=["players", *args])


def assert_refused(runner: FlaskCliRunner, app: Flask, args: tuple[str, ...], message: str) -> None:
    """The command fails, says ``message`` and changes nothing at all."""
    with app.app_context():
        before = snapshot()
    answer = run(runner, *args)
    assert answer.exit_code == 1
    assert message in answer.output
    with app.app_context():
        assert snapshot() == before


def steady(app: Flask) -> dict[str, list[tuple[object, ...]]]:
    """Every table but those a change moves on purpose."""
    with app.app_context():
        return {table: rows for table, rows in snapshot().items() if table not in MOVING}


def entries(app: Flask) -> list[PlayerChange]:
    with app.app_context():
        found = list(db.session.scalars(sa.select(PlayerChange).order_by(PlayerChange.id)))
        db.session.expunge_all()
        return found


def game_versions(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {
            row.code: row.version for row in db.session.execute(sa.select(Game.code, Game.version))
        }


def test_the_merge_command_moves_the_history_and_journals_the_rows(
    runner: FlaskCliRunner, app: Flask, history: dict[str, dict[str, Any]]
) -> None:
    with app.app_context():
        clea = db.session.scalar(sa.select(Player).where(Player.name == "Clea"))
        assert clea is not None
        clea_id, created = clea.id, clea.created_at
        seats = sorted(
            tuple(row)
            for row in db.session.execute(
                sa.select(Seat.game_id, Seat.position).where(Seat.player_id == clea_id)
            )
        )
        results = sorted(
            tuple(row)
            for row in db.session.execute(
                sa.select(RoundResult.round_id, RoundResult.seat).where(
                    RoundResult.player_id == clea_id
                )
            )
        )
    answer = run(runner, "merge", "clea", "CLEO")
    assert answer.exit_code == 0, answer.output
    assert "merged Clea (player" in answer.output and "2 seats and 2 results moved" in answer.output
    (entry,) = entries(app)
    assert (entry.kind, entry.origin, entry.player_id, entry.player_name) == (
        "merge",
        "command",
        clea_id,
        "Clea",
    )
    assert entry.player_created_at.replace(tzinfo=None) == created.replace(tzinfo=None)
    assert [tuple(seat) for seat in entry.moved["seats"]] == seats
    assert [tuple(result) for result in entry.moved["results"]] == results
    assert entry.new_name == "Cleo" and entry.undone_at is None
    assert_ledger_exact(app, "a merge from the command line")
    listed = run(runner, "journal")
    assert listed.exit_code == 0
    (line,) = listed.output.splitlines()
    assert line.startswith(entry.made_at.strftime("%Y-%m-%d %H:%M"))
    assert f"#{entry.id}: merged Clea" in line and "from the command line" in line


def test_undoing_a_merge_puts_back_exactly_what_was_there(
    runner: FlaskCliRunner, app: Flask, history: dict[str, dict[str, Any]]
) -> None:
    before = steady(app)
    versions = game_versions(app)
    assert run(runner, "merge", "Clea", "Cleo").exit_code == 0
    assert steady(app) != before
    assert_ledger_exact(app, "a merge")
    (entry,) = entries(app)
    answer = run(runner, "undo", str(entry.id))
    assert answer.exit_code == 0, answer.output
    assert "Undone" in answer.output
    assert steady(app) == before  # Clea back with her id, her seats, her results, her sums
    assert_ledger_exact(app, "undoing a merge")
    moved = {history["typo"]["id"], history["open"]["id"]}
    assert game_versions(app) == {
        code: version + (2 if code in moved else 0) for code, version in versions.items()
    }
    (undone,) = entries(app)
    assert undone.undone_at is not None
    assert "(undone " in run(runner, "journal").output


def test_undoing_a_merge_gives_back_the_rounds_recorded_at_her_seat_since(
    client: FlaskClient,
    runner: FlaskCliRunner,
    app: Flask,
    history: dict[str, dict[str, Any]],
    table: Table,
) -> None:
    assert run(runner, "merge", "Clea", "Cleo").exit_code == 0
    game = history["open"]
    game.update(client.get(f"/api/v1/games/{game['id']}").json)
    table.record(game, THREE)  # Cleo, as she is called now, plays on
    (entry,) = entries(app)
    assert run(runner, "undo", str(entry.id)).exit_code == 0
    clea = client.get("/api/v1/players/Clea").json
    assert (clea["games"], clea["rounds"]) == (2, 3)
    assert client.get("/api/v1/players/Cleo").json["rounds"] == 2
    assert_ledger_exact(app, "undoing a merge after a round")


def test_the_rename_command_and_its_undo(
    client: FlaskClient, runner: FlaskCliRunner, app: Flask, history: dict[str, dict[str, Any]]
) -> None:
    before = steady(app)
    versions = game_versions(app)
    answer = run(runner, "rename", "clea", "Clara")
    assert answer.exit_code == 0, answer.output
    assert "renamed Clea (player" in answer.output and "to Clara" in answer.output
    assert client.get(f"/api/v1/games/{history['typo']['id']}").json["players"][2] == "Clara"
    assert game_versions(app)[history["typo"]["id"]] == versions[history["typo"]["id"]] + 1
    (entry,) = entries(app)
    assert (entry.kind, entry.player_name, entry.new_name) == ("rename", "Clea", "Clara")
    assert run(runner, "undo", str(entry.id)).exit_code == 0
    assert steady(app) == before
    assert game_versions(app)[history["typo"]["id"]] == versions[history["typo"]["id"]] + 2


def test_a_player_may_be_named_by_id(
    runner: FlaskCliRunner, app: Flask, history: dict[str, dict[str, Any]]
) -> None:
    with app.app_context():
        clea = db.session.scalar(sa.select(Player.id).where(Player.name == "Clea"))
    answer = run(runner, "rename", str(clea), "Clara")
    assert answer.exit_code == 0, answer.output
    assert entries(app)[0].player_id == clea


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("rename", "Zed", "Zoe"), "There is no player called Zed."),
        (("merge", "Zed", "Ann"), "There is no player called Zed."),
        (("merge", "Ann", "Zed"), "There is no player called Zed."),
        (
            ("rename", "Clea", "cleo"),
            "Cleo is already another player's name. If both are the same person, merge them "
            "instead.",
        ),
        (
            ("merge", "Clea", "Ann"),
            "Clea and Ann played in the same game, so they are two people: a game cannot seat "
            "the same person twice.",
        ),
        (("merge", "Ann", "ann"), "Ann cannot be merged into themselves."),
        (("undo", "99"), "There is no journal entry 99."),
    ],
)
def test_a_command_that_cannot_be_done_says_why_and_changes_nothing(
    runner: FlaskCliRunner,
    app: Flask,
    history: dict[str, dict[str, Any]],
    args: tuple[str, ...],
    message: str,
) -> None:
    assert_refused(runner, app, args, f"Error: {message}")


def test_an_entry_is_undone_once(
    runner: FlaskCliRunner, app: Flask, history: dict[str, dict[str, Any]]
) -> None:
    run(runner, "merge", "Clea", "Cleo")
    run(runner, "undo", "1")
    assert_refused(runner, app, ("undo", "1"), "Journal entry 1 was undone already.")


def test_a_merge_merged_again_later_cannot_be_undone_before_the_later_one(
    runner: FlaskCliRunner, app: Flask, history: dict[str, dict[str, Any]], table: Table
) -> None:
    run(runner, "merge", "Clea", "Cleo")
    run(runner, "rename", "Dan", "Danny")
    assert run(runner, "merge", "Cleo", "Danny").exit_code == 1  # they shared a game
    run(runner, "rename", "Danny", "Dan")
    table.new_game(["Zoe", "Yan", "Xia"])
    assert run(runner, "merge", "Cleo", "Zoe").exit_code == 0
    assert_refused(
        runner, app, ("undo", "1"), "Entry 1 cannot be undone exactly: Cleo changed since"
    )
    assert run(runner, "undo", "4").exit_code == 0  # the later merge first
    assert run(runner, "undo", "1").exit_code == 0
    assert_ledger_exact(app, "undoing two merges")


def test_a_merge_cannot_be_undone_while_another_player_has_the_name(
    runner: FlaskCliRunner, app: Flask, history: dict[str, dict[str, Any]], table: Table
) -> None:
    run(runner, "merge", "Clea", "Cleo")
    table.new_game(["clea", "Yan", "Xia"])  # a new Clea sits down
    assert_refused(runner, app, ("undo", "1"), "the name clea belongs to another player now")


def test_a_merge_made_on_a_page_is_journalled_and_undone_by_the_operator(
    client: FlaskClient,
    runner: FlaskCliRunner,
    app: Flask,
    history: dict[str, dict[str, Any]],
    table: Table,
) -> None:
    for game in history.values():
        table.give_edit_rights(client, game)
    before = steady(app)
    confirm(client, send(client, "Clea", "merge", into="Cleo"), "merge")
    (entry,) = entries(app)
    assert (entry.kind, entry.origin) == ("merge", "page")
    assert "from a page" in run(runner, "journal").output
    assert run(runner, "undo", str(entry.id)).exit_code == 0
    assert steady(app) == before
    assert_ledger_exact(app, "undoing a page's merge")
    stale = client.post(
        f"/api/v1/games/{history['typo']['id']}/rounds",
        json={"version": history["typo"]["version"], "entries": THREE},
        headers=auth(history["typo"]),
    )
    assert stale.status_code == 409  # the scoreboard phones are told the game changed


def test_the_journal_of_an_untouched_history_is_empty(runner: FlaskCliRunner) -> None:
    answer = run(runner, "journal")
    assert answer.exit_code == 0
    assert answer.output.strip() == "No player was renamed or merged yet."
