"""Each seat's copy of its game's time and status (``companion.data.seat_copies``) is the
game's after every write that changes them, in the writer's transaction: a game started,
finished, taken back into play, abandoned, played again, dated or deleted, a hand edit of
either table, and a write rolled back; the migrations make the same triggers as
``create_all``. (A restored backup: ``tests/backup/test_seat_copies_restored.py``.)"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from companion.data.change_counter import trigger_names
from companion.data.models import Game, Seat, db
from companion.data.seat_copies import GAME_TRIGGER, SEAT_TRIGGER
from companion.data.states import GameStatus
from companion.services.games import abandon_game, delete_game, get_game
from tests.history.helpers import play_live_round, quick, set_created
from tests.schema import drop_everything
from tests.table import Table, auth

ROUND = [quick("red 1", 5), quick("blue 2", 5, ["blue 4"]), quick("green 3", 4)]


def out_of_step(app: Flask) -> list[Any]:
    """Every seat whose copies are not its game's (a copy never set included)."""
    with app.app_context(), db.engine.connect() as connection:
        return list(
            connection.execute(
                sa.select(Seat.game_id, Seat.position, Seat.game_created_at, Seat.game_status)
                .join(Game, Game.id == Seat.game_id)
                .where(
                    sa.or_(
                        Seat.game_created_at.is_distinct_from(Game.created_at),
                        Seat.game_status.is_distinct_from(Game.status),
                    )
                )
            )
        )


def copies(app: Flask, code: str) -> list[tuple[Any, str]]:
    """The copies held by the seats of the game ``code``, in seat order, with the game's
    time as read back (SQLite answers it naive: UTC)."""
    with app.app_context(), db.engine.connect() as connection:
        rows = connection.execute(
            sa.select(Seat.game_created_at, Seat.game_status)
            .join(Game, Game.id == Seat.game_id)
            .where(Game.code == code)
            .order_by(Seat.position)
        ).all()
    return [(utc(moment), status) for moment, status in rows]


def game_row(app: Flask, code: str) -> tuple[datetime, str]:
    with app.app_context(), db.engine.connect() as connection:
        row = connection.execute(
            sa.select(Game.created_at, Game.status).where(Game.code == code)
        ).one()
    return utc(row.created_at), row.status


def utc(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def assert_copies(app: Flask, code: str, status: str, seats: int = 3) -> None:
    """The game ``code`` has ``status``, and each of its ``seats`` seats holds its time and
    status; no seat of any game is out of step."""
    created_at, stored = game_row(app, code)
    assert stored == status
    assert copies(app, code) == [(created_at, status)] * seats
    assert out_of_step(app) == []


def with_game(app: Flask, code: str, change: Any) -> None:
    """Run ``change(game)`` on the game ``code`` through the services, and commit."""
    with app.app_context():
        game = get_game(code, for_update=True)
        change(game)
        db.session.commit()


def test_a_new_game_and_its_next_game_seat_their_time_and_status(app: Flask, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=1)
    assert_copies(app, game["id"], GameStatus.IN_PROGRESS)
    table.record(game, ROUND)
    answer = table.client.post(f"/api/v1/games/{game['id']}/again", headers=auth(game))
    assert answer.status_code == 201, answer.json
    following = answer.json
    assert_copies(app, following["id"], GameStatus.IN_PROGRESS)
    assert_copies(app, game["id"], GameStatus.FINISHED)


def test_finishing_taking_back_and_abandoning_a_game_moves_its_seats_with_it(
    app: Flask, table: Table
) -> None:
    game = table.new_game(["Ann", "Ben", "Dan"], rounds=1)
    play_live_round(table.client, game)
    assert game["status"] == GameStatus.FINISHED
    assert_copies(app, game["id"], GameStatus.FINISHED)

    # the last trick taken back: the round is played again, the game is in progress again
    undone = table.client.delete(
        f"/api/v1/games/{game['id']}/rounds/1/tricks/last",
        json={"version": game["version"]},
        headers=auth(game),
    )
    assert undone.status_code == 200, undone.json
    assert undone.json["status"] == GameStatus.IN_PROGRESS
    assert_copies(app, game["id"], GameStatus.IN_PROGRESS)

    with_game(app, game["id"], lambda stored: abandon_game(stored, stored.version))
    assert_copies(app, game["id"], GameStatus.ABANDONED)


def test_a_correction_keeps_a_finished_games_seats_in_step(app: Flask, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=1)
    table.record(game, ROUND)
    table.correct(game, 1, [quick("red 1", 4), quick("blue 2", 6), quick("green 3", 4)])
    assert_copies(app, game["id"], GameStatus.FINISHED)


def test_a_dated_game_dates_its_seats(app: Flask, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    when = datetime(2024, 5, 6, 7, 8, 9, tzinfo=UTC)
    set_created(app, game["id"], when)
    assert copies(app, game["id"]) == [(when, GameStatus.IN_PROGRESS)] * 3
    assert out_of_step(app) == []


def test_a_deleted_game_takes_its_seats_with_it(app: Flask, table: Table) -> None:
    kept = table.new_game(["Ann", "Ben", "Cleo"])
    gone = table.new_game(["Ann", "Ben", "Dan"])
    with_game(app, gone["id"], lambda stored: delete_game(stored, stored.version))
    assert copies(app, gone["id"]) == []
    assert_copies(app, kept["id"], GameStatus.IN_PROGRESS)


def test_hand_edits_of_either_table_leave_the_copies_the_games(app: Flask, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    other = table.new_game(["Ann", "Ben", "Dan"])
    when = datetime(2023, 1, 2, 3, 4, 5, tzinfo=UTC)
    with app.app_context():
        game_id = db.session.scalar(sa.select(Game.id).where(Game.code == game["id"]))
        other_id = db.session.scalar(sa.select(Game.id).where(Game.code == other["id"]))
        # Cleo, who does not play the other game
        player_id = db.session.scalar(
            sa.select(Seat.player_id).where(Seat.game_id == game_id, Seat.position == 2)
        )
    with app.app_context(), db.engine.begin() as connection:
        # the game's row written as psql would: its seats follow
        connection.execute(
            sa.update(Game)
            .where(Game.id == game_id)
            .values(created_at=when, status=GameStatus.ABANDONED)
        )
    assert copies(app, game["id"]) == [(when, GameStatus.ABANDONED)] * 3
    with app.app_context(), db.engine.begin() as connection:
        # a seat given wrong copies, or its copies overwritten: they are the game's again
        connection.execute(
            sa.insert(Seat).values(
                game_id=other_id,
                position=3,
                player_id=player_id,
                game_created_at=when,
                game_status=GameStatus.FINISHED,
            )
        )
        connection.execute(
            sa.update(Seat)
            .where(Seat.game_id == game_id)
            .values(game_status=GameStatus.IN_PROGRESS, game_created_at=None)
        )
    assert_copies(app, game["id"], GameStatus.ABANDONED)
    assert_copies(app, other["id"], GameStatus.IN_PROGRESS, seats=4)


def test_a_write_rolled_back_takes_its_copies_back_with_it(app: Flask, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"])
    with app.app_context():
        stored = get_game(game["id"], for_update=True)
        abandon_game(stored, stored.version)
        # inside the writer's transaction the seats already say so
        inside = db.session.scalars(
            sa.select(Seat.game_status).where(Seat.game_id == stored.id)
        ).all()
        db.session.rollback()
    assert inside == [GameStatus.ABANDONED] * 3
    assert_copies(app, game["id"], GameStatus.IN_PROGRESS)


def test_the_migrations_make_the_same_copying_triggers_as_create_all(app: Flask) -> None:
    names = {
        ("seats", SEAT_TRIGGER),
        ("seats", f"{SEAT_TRIGGER}_insert"),
        ("seats", f"{SEAT_TRIGGER}_update"),
        ("games", GAME_TRIGGER),
    }
    with app.app_context():
        postgres = db.engine.dialect.name == "postgresql"
        with db.engine.connect() as connection:
            created = trigger_names(connection) & names
        drop_everything()
        upgrade()
        with db.engine.connect() as connection:
            migrated = trigger_names(connection) & names
        drop_everything()
    assert migrated == created
    assert created == (
        {("seats", SEAT_TRIGGER), ("games", GAME_TRIGGER)}
        if postgres
        else {
            ("seats", f"{SEAT_TRIGGER}_insert"),
            ("seats", f"{SEAT_TRIGGER}_update"),
            ("games", GAME_TRIGGER),
        }
    )
