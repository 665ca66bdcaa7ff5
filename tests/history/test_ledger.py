"""The statistics ledger (companion.data.ledger) stays equal to one rebuilt from the games, after
every kind of write: recording, correcting, live tricks and their undo, abandoning,
deleting, excluding, merging players, importing a backup and adding demo games.

The player page reads only the ledger, so a ledger that drifted would show wrong numbers;
the hand-computed numbers of test_statistics.py pin down what the rebuilt ledger means.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from companion.cli import demo
from companion.data import ledger
from companion.data.models import Game, Player, PlayerGame, PlayerTotals, db
from companion.data.stats import PlayerRef
from companion.formats.backup.importing import import_document
from companion.services import player_changes
from companion.services.games import abandon_game, delete_game, exclude_game, get_game
from tests.fuzz.legal import legal_entries, legal_marked, next_legal_trick
from tests.table import Table, auth

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus"]
VARIANTS = ["classic", "mild", "reverse", "aggravated", "hazy", "delayed", "hat-trick"]


def kept_and_rebuilt(app: Flask) -> tuple[dict[str, Any], dict[str, Any]]:
    """The ledger as the writes kept it, and as rebuilt from the games (rolled back)."""
    with app.app_context():
        connection = db.session.connection()
        kept = ledger.snapshot(connection)
        ledger.rebuild(connection)
        rebuilt = ledger.snapshot(connection)
        db.session.rollback()
    return kept, rebuilt


def assert_ledger_exact(app: Flask, where: str) -> None:
    kept, rebuilt = kept_and_rebuilt(app)
    for table in rebuilt:
        assert kept[table] == rebuilt[table], f"{table} drifted after {where}"


def rotated(entries: list[Any], turn: int) -> list[Any]:
    """The same legal round with the piles handed round: other seats win."""
    return entries[turn:] + entries[:turn]


def play_live_round(client: FlaskClient, app: Flask, game: dict[str, Any], tricks: int) -> None:
    """Open a live round and play ``tricks`` tricks of it (all of them scores it)."""
    variant = game["variant_name"]
    players = len(game["players"])
    body: dict[str, Any] = {"version": game["version"]}
    if any(legal_marked(players, variant)):
        body["marked"] = legal_marked(players, variant)
    answer = client.post(f"/api/v1/games/{game['id']}/rounds/live", json=body, headers=auth(game))
    assert answer.status_code == 201, answer.json
    game.update(answer.json)
    number = len(game["rounds"])
    field = "plays" if variant == "hat-trick" else "cards"
    for _ in range(tricks):
        cards = next_legal_trick(app, game["id"], number)
        answer = client.post(
            f"/api/v1/games/{game['id']}/rounds/{number}/tricks",
            json={"version": game["version"], field: cards},
            headers=auth(game),
        )
        assert answer.status_code == 201, answer.json
        game.update(answer.json)
        if answer.json["round_complete"]:
            break


def undo_trick(client: FlaskClient, game: dict[str, Any]) -> None:
    number = len(game["rounds"])
    answer = client.delete(
        f"/api/v1/games/{game['id']}/rounds/{number}/tricks/last?version={game['version']}",
        headers=auth(game),
    )
    assert answer.status_code == 200, answer.json
    game.update(answer.json)


def with_game(app: Flask, code: str, change: Any) -> None:
    """Apply a service to the game as its page would, in one transaction."""
    with app.app_context():
        game = get_game(code, for_update=True)
        change(game)
        db.session.commit()


def change_state(game: Game, change: str, version: int) -> None:
    if change == "abandon":
        abandon_game(game, version)
    elif change == "delete":
        delete_game(game, version)
    else:
        exclude_game(game, version, change == "exclude")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_ledger_stays_exact_through_a_random_club_evening(
    client: FlaskClient, app: Flask, seed: int, table: Table
) -> None:
    chance = random.Random(seed)
    games: list[dict[str, Any]] = []
    for step in range(24):
        action = chance.choice(["new", "record", "record", "correct", "live", "state"])
        if action == "new" or not games:
            players = chance.randint(3, 6)
            variant = chance.choice(VARIANTS)
            names = chance.sample(NAMES, players)
            game = table.new_game(names, variant, rounds=chance.randint(1, 3))
            game["variant_name"] = variant
            games.append(game)
            where = f"step {step}: new {variant} game of {players}"
        else:
            game = chance.choice(games)
            variant, players = game["variant_name"], len(game["players"])
            scored = [r for r in game["rounds"] if r["status"] == "scored"]
            playing = game["rounds"] and game["rounds"][-1]["status"] == "playing"
            still_open = game["status"] == "in_progress" and not playing
            if action == "record" and still_open:
                turn = chance.randrange(players)
                table.record(game, rotated(legal_entries(players, variant), turn))
            elif action == "correct" and scored:
                number = chance.choice(scored)["number"]
                turn = chance.randrange(players)
                quick = chance.random() < 0.5
                table.correct(game, number, rotated(legal_entries(players, variant, quick), turn))
            elif action == "live" and still_open:
                play_live_round(client, app, game, chance.randint(1, 40))
                if chance.random() < 0.5:
                    undo_trick(client, game)
            elif action == "state":
                code, version = game["id"], game["version"]
                change = chance.choice(["abandon", "exclude", "include", "delete"])
                with_game(app, code, lambda g, c=change, v=version: change_state(g, c, v))
                if change == "delete":
                    games.remove(game)
                else:
                    game.update(client.get(f"/api/v1/games/{code}", headers=auth(game)).json)
            where = f"step {step}: {action} in {variant}"
        assert_ledger_exact(app, where)
    with app.app_context():
        held = db.session.scalar(sa.select(sa.func.count()).select_from(PlayerTotals))
    assert held, "the evening left something to count"


def test_the_ledger_sums_what_the_games_hold(client: FlaskClient, app: Flask, table: Table) -> None:
    """A direct look at the rows: two finished games of Ann, Ben and Cleo."""
    first = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(first, legal_entries(3, "classic"))
    second = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(second, rotated(legal_entries(3, "classic"), 1))
    with app.app_context():
        rows = db.session.execute(
            sa.select(Player.name, PlayerTotals.games, PlayerTotals.points, PlayerTotals.rounds)
            .join(PlayerTotals, PlayerTotals.player_id == Player.id)
            .order_by(Player.name)
        ).all()
        points = {
            name: sum(r["scores"][seat] for g in (first, second) for r in g["rounds"])
            for seat, name in [(0, "Ann"), (1, "Ben"), (2, "Cleo")]
        }
        assert [tuple(r) for r in rows] == [(n, 2, points[n], 2) for n in ("Ann", "Ben", "Cleo")]
        history = db.session.scalar(sa.select(sa.func.count()).select_from(PlayerGame))
        assert history == 6  # both games are finished: a row per seat


def test_merging_players_moves_their_sums(client: FlaskClient, app: Flask, table: Table) -> None:
    one = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(one, legal_entries(3, "classic"))
    two = table.new_game(["Annie", "Dan", "Eve"], rounds=2)
    table.record(two, rotated(legal_entries(3, "classic"), 2))
    with app.app_context():
        ann, annie = (
            db.session.execute(sa.select(Player.id, Player.name).where(Player.name == name)).one()
            for name in ("Ann", "Annie")
        )
        player_changes.merge_players(
            PlayerRef(annie.id, annie.name), PlayerRef(ann.id, ann.name), player_changes.COMMAND
        )
        db.session.commit()
        games = db.session.scalar(
            sa.select(PlayerTotals.games).where(PlayerTotals.player_id == ann.id)
        )
        assert games == 2
        gone = db.session.scalar(
            sa.select(sa.func.count())
            .select_from(PlayerTotals)
            .where(PlayerTotals.player_id == annie.id)
        )
        assert gone == 0
    assert_ledger_exact(app, "a merge")


def test_a_refused_write_leaves_the_ledger_as_it_was(
    client: FlaskClient, app: Flask, table: Table
) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
    table.record(game, legal_entries(3, "classic"))
    before, _ = kept_and_rebuilt(app)
    stale = {"version": game["version"] - 1, "entries": legal_entries(3, "classic")}
    answer = client.post(f"/api/v1/games/{game['id']}/rounds", json=stale, headers=auth(game))
    assert answer.status_code == 409
    after, _ = kept_and_rebuilt(app)
    assert after == before


def test_imported_games_are_counted(client: FlaskClient, app: Flask, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(game, legal_entries(3, "classic"))
    exported = client.get(f"/api/v1/games/{game['id']}/export", headers=auth(game)).json
    with_game(app, game["id"], lambda g: delete_game(g, g.version))
    kept, _ = kept_and_rebuilt(app)
    assert not any(kept.values()), "a deleted game leaves nothing in the ledger"
    with app.app_context():
        report = import_document(exported)
        db.session.commit()
        assert len(report.imported) == 1
    kept, rebuilt = kept_and_rebuilt(app)
    assert kept == rebuilt and kept["player_totals"]


def test_demo_games_are_counted(app: Flask) -> None:
    with app.app_context():
        demo.add_demo_games(12, seed=3, workers=1)
    kept, rebuilt = kept_and_rebuilt(app)
    assert kept == rebuilt and len(kept["player_games"]) >= 12 * 3


def test_the_rebuild_command_mends_rows_changed_by_hand(
    client: FlaskClient, app: Flask, runner: FlaskCliRunner, table: Table
) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(game, legal_entries(3, "classic"))
    kept, _ = kept_and_rebuilt(app)
    with app.app_context():  # a hand edit that passes the app by
        db.session.execute(sa.update(PlayerTotals).values(points=PlayerTotals.points + 100))
        db.session.commit()
    drifted, _ = kept_and_rebuilt(app)
    assert drifted != kept
    result = runner.invoke(args=["rebuild-statistics"])
    assert result.exit_code == 0, result.output
    assert "Statistics rebuilt for 3 players." in result.output
    mended, rebuilt = kept_and_rebuilt(app)
    assert mended == rebuilt == kept
