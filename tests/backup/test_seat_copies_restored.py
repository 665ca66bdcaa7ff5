"""A restored backup's seats hold their games' time and status (``data.seat_copies``):
an import writes games and seats as any writer does, and the triggers copy them."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import Game, Seat, db
from companion.data.states import GameStatus
from tests.backup.history import build_history
from tests.backup.test_round_trip import export, import_file
from tests.history.test_seat_copies import out_of_step
from tests.table import Table


def test_a_restored_history_seats_every_games_time_and_status(
    app: Flask, client: FlaskClient, second_app: Flask, tmp_path: Path, table: Table
) -> None:
    games = build_history(table)
    export(app, tmp_path / "backup.json")
    result = import_file(second_app, tmp_path / "backup.json")
    assert result.exit_code == 0, result.output

    assert out_of_step(second_app) == []
    with second_app.app_context():
        seated = db.session.execute(
            sa.select(Game.code, Game.status, sa.func.count(Seat.position))
            .join(Seat, Seat.game_id == Game.id)
            .where(Seat.game_status == Game.status, Seat.game_created_at == Game.created_at)
            .group_by(Game.code, Game.status)
        ).all()
    assert {code for code, _, _ in seated} == {game["id"] for game in games.values()}
    assert {status for _, status, _ in seated} == set(GameStatus)
    assert sum(seats for _, _, seats in seated) == sum(
        len(game["players"]) for game in games.values()
    )
