"""The benchmark's server of circles (scripts/bench/databases.py, ``copy_circle``): the first
circle's players, games, seats, rounds and results are copied into more circles, each copy
complete and its own (no row of it points into another circle), on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask

from companion.data.models import Game, Player, Round, RoundResult, Seat, db
from scripts.bench.databases import copy_circle
from tests.history.helpers import quick
from tests.table import Table


def test_each_copied_circle_holds_the_first_ones_games_and_only_its_own(
    app: Flask, table: Table
) -> None:
    table.new_game(["Ann", "Ben", "Cleo"])
    game = table.new_game(["Ann", "Dan", "Eve", "Finn"])
    table.record(
        game, [quick("red 1", 4), quick("blue 2", 3), quick("green 3", 4), quick("yellow 0", 3)]
    )
    with app.app_context():
        url = db.engine.url.render_as_string(hide_password=False)
        db.session.remove()
        db.engine.dispose()
    copy_circle(url, 2)
    with app.app_context():
        per_circle = {
            circle: count
            for circle, count in db.session.execute(
                sa.select(Game.circle_id, sa.func.count()).group_by(Game.circle_id)
            )
        }
        assert sorted(per_circle.values()) == [2, 2, 2]
        # every seat's player and every result's round are of the seat's game's circle
        seats = db.session.execute(
            sa.select(Game.circle_id, Player.circle_id)
            .join(Seat, Seat.game_id == Game.id)
            .join(Player, Player.id == Seat.player_id)
        ).all()
        assert len(seats) == 3 * 7 and all(game == player for game, player in seats)
        results = db.session.execute(
            sa.select(Game.circle_id, Player.circle_id)
            .join(Round, Round.game_id == Game.id)
            .join(RoundResult, RoundResult.round_id == Round.id)
            .join(Player, Player.id == RoundResult.player_id)
        ).all()
        assert len(results) == 3 * 4 and all(game == player for game, player in results)
        codes = db.session.scalars(sa.select(Game.code)).all()
        assert len(set(codes)) == 6
