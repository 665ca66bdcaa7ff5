"""``flask demo-data``: realistic finished games, every score as the rules give it."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterator
from datetime import date

import pytest
import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import Flask
from flask.testing import FlaskCliRunner

from companion.cli.demo import add_demo_games
from companion.cli.demo.names import FIRST_NAMES
from companion.data import queries
from companion.data.circles import server_circle_id
from companion.data.history import HistoryFilter, history_page
from companion.data.models import Game, Player, Round, RoundResult, Seat, db, name_key
from companion.formats.backup import export, reading
from companion.rules import winners
from companion.services.games import get_game
from tests.db_snapshot import snapshot
from tests.schema import (
    assert_planner_knows,
    drop_everything,
    latest_revision,
    migrated_revision,
)

GAMES = 30
SEED = 7
END = "2026-01-01"


def run_demo(runner: FlaskCliRunner, *extra: str) -> str:
    result = runner.invoke(
        args=["demo-data", "--games", str(GAMES), "--seed", str(SEED), "--end", END, *extra]
    )
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def demo(app: Flask, runner: FlaskCliRunner) -> Iterator[Flask]:
    """``app`` with a seeded demo run of ``GAMES`` games in its database."""
    run_demo(runner)
    with app.app_context():
        yield app


def test_a_seeded_run_adds_that_many_finished_games_and_says_so(
    app: Flask, runner: FlaskCliRunner
) -> None:
    output = run_demo(runner)
    assert output.startswith(f"Added {GAMES} games, ")
    with app.app_context():
        statuses = db.session.scalars(sa.select(Game.status)).all()
        rounds = db.session.scalar(sa.select(sa.func.count()).select_from(Round))
    assert statuses == ["finished"] * GAMES
    assert f"{rounds} rounds" in output


def test_after_a_run_the_planner_knows_the_history(demo: Flask) -> None:
    """A bulk load is followed by ANALYZE on PostgreSQL: else the planner reads the whole
    history for one page until autovacuum comes."""
    assert_planner_knows("games", GAMES)


def test_a_run_on_an_empty_database_makes_its_tables_first(
    app: Flask, runner: FlaskCliRunner
) -> None:
    """Demo data asked for before the app was ever served: the migrations build the tables
    (as ``manage.py serve`` would), then the games go in."""
    with app.app_context():
        drop_everything()
    try:
        output = run_demo(runner)
        with app.app_context():
            assert migrated_revision() == latest_revision()
            assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == GAMES
        assert "The database was empty: its tables were made." in output
    finally:
        with app.app_context():
            drop_everything()


def test_a_run_without_a_seed_adds_its_games_too(app: Flask, runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["demo-data", "--games", "3"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 3


def test_every_stored_round_scores_the_same_when_the_import_checks_it(demo: Flask) -> None:
    """The import's checks (C1-C6) replay live rounds and score every round again through
    the rules; the stored results are exactly what they give."""
    exported = io.StringIO()
    assert export.write_history(exported) == GAMES
    plans = reading.read_document(reading.load(exported.getvalue().encode()))
    checked = {
        (plan.code, round_.number): round_.scored for plan in plans for round_ in plan.rounds
    }
    stored: dict[tuple[str, int], list[tuple[int, int | None, str]]] = {}
    query = (
        sa.select(Game.code, Round.number, RoundResult.score, RoundResult.tricks)
        .add_columns(RoundResult.colour_names)
        .join(Round, Round.game_id == Game.id)
        .join(RoundResult, RoundResult.round_id == Round.id)
        .order_by(Game.code, Round.number, RoundResult.seat)
    )
    for code, number, score, tricks, colours in db.session.execute(query):
        stored.setdefault((code, number), []).append((score, tricks, colours))
    assert stored == checked


def test_every_game_has_a_table_its_variant_allows_and_all_its_planned_rounds(
    demo: Flask,
) -> None:
    everything = (
        so.selectinload(Game.seats),
        so.selectinload(Game.rounds).selectinload(Round.results),
    )
    for game in db.session.scalars(sa.select(Game).options(*everything)):
        variant = game.variant
        assert variant.min_players <= len(game.seats) <= variant.max_players
        assert [round_.number for round_ in game.rounds] == list(range(1, game.rounds_planned + 1))
        for round_ in game.rounds:
            assert round_.status == "scored"
            assert round_.leader == (game.first_leader + round_.number - 1) % len(game.seats)
            assert [result.player_id for result in round_.results] == [
                seat.player_id for seat in game.seats
            ]
            assert game.created_at < round_.created_at <= round_.updated_at <= game.updated_at


def test_the_history_shows_the_totals_and_winners_the_rules_give(demo: Flask) -> None:
    for page in (1, 2):
        for listed in history_page(HistoryFilter(), page).games:
            game = get_game(listed.code)
            totals = queries.totals_of(game)
            assert listed.totals == totals.totals
            assert listed.winners == totals.winners == winners(totals.totals)


def test_the_demo_mixes_variants_table_sizes_entry_modes_and_keen_players(demo: Flask) -> None:
    games = db.session.scalars(sa.select(Game)).all()
    assert len({g.variant for g in games}) >= 4
    assert len({len(game.seats) for game in games}) >= 3
    modes = Counter(db.session.scalars(sa.select(Round.mode)))
    assert set(modes) == {"quick", "full", "live"}
    seats = Counter(db.session.scalars(sa.select(Seat.player_id)))
    assert max(seats.values()) >= 4 * min(seats.values())
    keys = db.session.scalars(sa.select(Player.key)).all()
    assert len(keys) == len(set(keys))


def games_rows() -> dict[str, list[tuple[object, ...]]]:
    """Every row but the change counter's, whose epoch each database draws at random, and
    the circle's, whose secret (and time) each database's first game draws."""
    drawn = {"change_counter", "circles"}
    return {table: rows for table, rows in snapshot().items() if table not in drawn}


def test_the_same_seed_gives_the_same_rows_with_one_process_or_two(app: Flask) -> None:
    with app.app_context():
        add_demo_games(12, seed=SEED, end=date(2026, 1, 1), workers=1)
        first = games_rows()
        db.drop_all()
        db.create_all()
        add_demo_games(12, seed=SEED, end=date(2026, 1, 1), workers=2)
        assert games_rows() == first
        db.drop_all()
        db.create_all()
        add_demo_games(12, seed=SEED + 1, end=date(2026, 1, 1), workers=1)
        assert games_rows()["games"] != first["games"]


def test_a_database_with_games_takes_demo_games_only_when_asked_and_shares_players(
    app: Flask, runner: FlaskCliRunner
) -> None:
    run_demo(runner)
    with app.app_context():
        players = db.session.scalar(sa.select(sa.func.count()).select_from(Player))
    refused = runner.invoke(args=["demo-data", "--games", "5", "--seed", str(SEED)])
    assert refused.exit_code != 0
    assert f"already holds {GAMES} games" in refused.output and "--add" in refused.output

    output = run_demo(runner, "--add")
    assert "(0 new)" in output  # the same seed seats the same players, found by name
    with app.app_context():
        codes = db.session.scalars(sa.select(Game.code)).all()
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Player)) == players
    assert len(codes) == 2 * GAMES and len(set(codes)) == 2 * GAMES


def test_players_already_here_are_found_by_name_whatever_its_case(
    app: Flask, runner: FlaskCliRunner
) -> None:
    with app.app_context():
        names = [name.upper() for names in FIRST_NAMES.values() for name in names]
        circle = server_circle_id()
        db.session.add_all(
            Player(circle_id=circle, name=name, key=name_key(name)) for name in names
        )
        db.session.commit()
    assert "(0 new)" in run_demo(runner)
    with app.app_context():
        seated = db.session.scalars(
            sa.select(Player.name).join(Seat, Seat.player_id == Player.id).distinct()
        ).all()
    assert seated and all(name.isupper() for name in seated)
