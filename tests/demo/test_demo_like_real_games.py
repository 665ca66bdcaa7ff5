"""Demo games are indistinguishable from games recorded through the app: the same rows as the
services write for the same rounds, and every page and API answer works on them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskCliRunner

from companion.data import queries
from companion.data.models import Game, Player, Round, Seat, db
from companion.play_state import parse
from companion.play_state.entries import read_entries
from companion.rules import ClassicVariant
from companion.rules.hat_trick import Play
from companion.services.games import create_game
from companion.services.live import open_live_round, play_live_trick
from companion.services.rounds import mark_colours, record_round

GAMES = 24


@pytest.fixture
def demo(app: Flask, runner: FlaskCliRunner) -> Iterator[Flask]:
    result = runner.invoke(
        args=["demo-data", "--games", str(GAMES), "--seed", "3", "--end", "2025-06-30"]
    )
    assert result.exit_code == 0, result.output
    with app.app_context():
        yield app


def _rows(game: Game) -> dict[str, Any]:
    """What a game's rows hold, but for ids, the code, the key and the times."""
    db.session.refresh(game)
    as_stored = {  # the JSON text itself, and whether tricks are SQL NULL
        number: rest
        for number, *rest in db.session.execute(
            sa.select(
                Round.number,
                sa.cast(Round.entries, sa.Text),
                sa.cast(Round.tricks, sa.Text),
                Round.tricks.is_(None),
            ).where(Round.game_id == game.id)
        )
    }
    return {
        "game": (game.family, game.scoring, game.colours_marked, game.reveal, game.rounds_planned),
        "state": (game.first_leader, game.status, game.version, game.excluded),
        "seats": [(seat.position, seat.player_id) for seat in game.seats],
        "rounds": [
            (
                round_.number,
                round_.leader,
                round_.mode,
                round_.status,
                round_.entries,
                round_.tricks,
                as_stored[round_.number],
                [(r.seat, r.player_id, r.score, r.tricks, r.colour_names) for r in round_.results],
            )
            for round_ in game.rounds
        ],
    }


def _record_again(demo_game: Game) -> Game:
    """The demo game entered again through the services, round by round, as the pages and
    the API enter one: quick and full rounds recorded (colours marked first when the round
    was opened before it was scored), live rounds trick by trick."""
    names = [seat.player.name for seat in demo_game.seats]
    variant = demo_game.variant
    game, _key = create_game(names, variant, demo_game.rounds_planned, demo_game.first_leader)
    setup = queries.setup_of(game)
    for round_ in demo_game.rounds:
        marked = [parse.cards(entry.get("marked", []), "marked") for entry in round_.entries]
        if round_.mode == "live":
            opened = open_live_round(game, game.version, marked if setup.cards_laid_out else None)
            for trick in round_.tricks or []:
                plays = [
                    parse.play(play, "play")
                    if not isinstance(variant, ClassicVariant)
                    else Play(parse.card(play, "card"))
                    for play in trick["plays"]
                ]
                play_live_trick(game, opened.number, game.version, plays)
            continue
        if round_.created_at != round_.updated_at:
            mark_colours(game, game.version, marked)
        record_round(game, game.version, read_entries(round_.entries, setup))
    db.session.commit()
    return game


def test_the_services_store_the_same_rows_for_the_same_rounds(demo: Flask) -> None:
    demo_games = db.session.scalars(sa.select(Game).order_by(Game.id)).all()
    covered: set[tuple[object, ...]] = set()
    chosen = []
    for game in demo_games:  # a game for every variant and entry mode the run has
        kinds = {(game.variant, r.mode) for r in game.rounds}
        if not kinds <= covered:
            covered |= kinds
            chosen.append(game)
    assert {kind[-1] for kind in covered} == {"quick", "full", "live"}
    for demo_game in chosen:
        expected = _rows(demo_game)
        assert _rows(_record_again(demo_game)) == expected


def test_history_pages_player_pages_and_the_api_work_on_demo_games(demo: Flask) -> None:
    client = demo.test_client()
    keenest_id, _ = Counter(db.session.scalars(sa.select(Seat.player_id))).most_common(1)[0]
    keenest = db.session.get(Player, keenest_id)
    assert keenest is not None
    code = db.session.scalar(sa.select(Game.code).order_by(Game.created_at.desc()).limit(1))

    for url in (
        "/history",
        "/history?page=2",
        f"/history?player={keenest.name}",
        "/history?variant=hat-trick",
        f"/players/{keenest.name}",
        f"/g/{code}",
        f"/g/{code}/view",
        f"/g/{code}/export.csv",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
    assert keenest.name in client.get(f"/players/{keenest.name}").get_data(as_text=True)

    listed = client.get("/api/v1/games?page=1").json
    assert listed is not None and listed["total"] == GAMES and listed["games"][0]["id"] == code
    player = client.get(f"/api/v1/players/{keenest.name}").json
    assert player is not None
    assert player["games"] == player["finished_games"] >= 2 and player["rounds"] > 0
    state = client.get(f"/api/v1/games/{code}").json
    assert state is not None and state["status"] == "finished" and state["winners"]
    assert client.get(f"/api/v1/games/{code}/export").status_code == 200
