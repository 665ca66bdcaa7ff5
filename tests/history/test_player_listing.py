"""A player's games, as the history and the API list them from the player's seats (their
index holds each game's time and status, ``data.seat_copies``), are the games the player
sat at, of the circle listed, newest first (the later id first at equal times), page after
page, counted with those in progress: the same as filtering every game of the server by
hand. Many games in two circles, a player of each name in both, times that repeat, every
status and several variants, with and without the variant and period filters, and with
the games in progress first as the history page shows them."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from companion.data.circles import server_circle_id
from companion.data.database import read_once
from companion.data.history import (
    PAGE_SIZE,
    HistoryFilter,
    history_page,
    history_state,
    page_count,
)
from companion.data.models import Circle, Game, Player, Seat, db, variant_columns
from companion.data.states import GameStatus
from companion.rules import PRESETS

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve")
VARIANTS = ("classic", "mild", "hat-trick")
START = datetime(2025, 1, 1, tzinfo=UTC)
#: Games in each circle.
GAMES = 150


def store(app: Flask) -> tuple[list[dict[str, Any]], list[int]]:
    """Both circles' games, stored, and the two circles' ids; each game as a dict of its
    circle, code, time, status, variant and players' names, in the order of its id."""
    rng = random.Random(44)
    games: list[dict[str, Any]] = []
    with app.app_context():
        club = server_circle_id()
        other = Circle(name="Other", secret_hash="0" * 64, created_at=START)
        db.session.add(other)
        db.session.flush()
        circles = [club, other.id]
        players = {
            (circle, name): Player(circle_id=circle, name=name, key=name.lower())
            for circle in circles
            for name in NAMES
        }
        db.session.add_all(players.values())
        for number in range(2 * GAMES):
            circle = circles[number % 2]
            # a time repeats every few games: the order falls back on the id
            moment = START + timedelta(days=rng.randrange(GAMES // 3), hours=rng.choice([0, 6]))
            variant = rng.choice(VARIANTS)
            seated = rng.sample(NAMES, rng.randint(3, 4))
            status = rng.choice(list(GameStatus))
            game = Game(
                circle_id=circle,
                code=f"g{number:04d}",
                edit_key_hash="-",
                rounds_planned=3,
                first_leader=0,
                status=status,
                created_at=moment,
                updated_at=moment,
                **variant_columns(PRESETS[variant]),
            )
            game.seats = [
                Seat(position=seat, player=players[(circle, name)])
                for seat, name in enumerate(seated)
            ]
            db.session.add(game)
            db.session.flush()
            games.append(
                {
                    "id": game.id,
                    "circle": circle,
                    "code": game.code,
                    "created_at": moment,
                    "status": status,
                    "variant": variant,
                    "players": seated,
                }
            )
        db.session.commit()
    return games, circles


def by_hand(
    games: list[dict[str, Any]], circle: int, filters: HistoryFilter, in_progress_first: bool
) -> list[str]:
    """The codes ``filters`` lets through, in the history's order, found by hand."""
    kept = [
        game
        for game in games
        if game["circle"] == circle
        and filters.player is not None
        and filters.player.lower() in (name.lower() for name in game["players"])
        and (filters.variant is None or game["variant"] == filters.variant)
        and (filters.since is None or game["created_at"] >= filters.since)
        and (filters.until is None or game["created_at"] < filters.until)
    ]
    kept.sort(key=lambda game: (game["created_at"], game["id"]), reverse=True)
    if in_progress_first:
        kept.sort(key=lambda game: game["status"] != GameStatus.IN_PROGRESS)
    return [game["code"] for game in kept]


def listed(app: Flask, filters: HistoryFilter, in_progress_first: bool) -> tuple[list[str], int]:
    """Every page's codes in turn, and the count the first page gave with them."""
    codes: list[str] = []
    with app.app_context():
        first = history_page(filters, 1, in_progress_first)
        for page in range(1, first.pages + 1):
            listing = history_page(filters, page, in_progress_first)
            assert listing.pages == first.pages and listing.total == first.total
            assert len(listing.games) == min(PAGE_SIZE, first.total - (page - 1) * PAGE_SIZE)
            codes += [game.code for game in listing.games]
    return codes, first.total


@pytest.mark.parametrize("in_progress_first", [False, True])
def test_a_players_games_are_listed_and_counted_as_by_hand(
    app: Flask, in_progress_first: bool
) -> None:
    games, circles = store(app)
    middle = START + timedelta(days=GAMES // 6)
    checked = 0
    for circle in circles:
        for name in ("Ann", "cleo", "EVE"):
            for extra in (
                {},
                {"variant": "mild"},
                {"since": middle},
                {"until": middle},
                {"variant": "hat-trick", "since": middle},
            ):
                filters = HistoryFilter(player=name, circle_id=circle, **extra)
                expected = by_hand(games, circle, filters, in_progress_first)
                codes, total = listed(app, filters, in_progress_first)
                assert codes == expected, (name, circle, extra)
                assert total == len(expected)
                with app.app_context():
                    assert history_page(filters, 1, in_progress_first).pages == page_count(total)
                checked += len(expected)
    # the filters let many games through, over several pages each
    assert checked > 10 * PAGE_SIZE


def test_a_players_count_of_games_in_progress_is_their_seats(app: Flask) -> None:
    games, circles = store(app)
    with app.app_context():
        filters = HistoryFilter(player="Ben", circle_id=circles[1])
        listing = history_page(filters, 1, in_progress_first=True)
        playing = sum(
            1
            for game in games
            if game["circle"] == circles[1]
            and "Ben" in game["players"]
            and game["status"] == GameStatus.IN_PROGRESS
        )
        assert 0 < playing < listing.total
        first = [game.in_progress for game in listing.games]
        assert first == sorted(first, reverse=True)
        assert sum(first) == min(playing, PAGE_SIZE)
        # nobody else's games: every listed game seats Ben
        codes = {game.code for game in listing.games}
        seated = db.session.scalars(
            sa.select(Game.code)
            .join(Seat, Seat.game_id == Game.id)
            .join(Player, Player.id == Seat.player_id)
            .where(Player.name == "Ben", Game.code.in_(codes))
        ).all()
        assert set(seated) == codes


def test_a_players_counts_per_circle_are_each_circles_own(app: Flask) -> None:
    """The ETag's read of a history with a period counts the player's games of each circle
    of the phone in one statement: each circle's own player, of the same name."""
    games, circles = store(app)
    since = START + timedelta(days=GAMES // 6)
    filters = HistoryFilter(player="Dan", since=since)
    with app.app_context():
        rows = read_once(history_state(filters, Circle.id.in_(circles)))
        counted = {row.circle_id: (row.total, row.in_progress) for row in rows}
    expected = {}
    for circle in circles:
        kept = [
            game
            for game in games
            if game["circle"] == circle and "Dan" in game["players"] and game["created_at"] >= since
        ]
        playing = sum(1 for game in kept if game["status"] == GameStatus.IN_PROGRESS)
        expected[circle] = (len(kept), playing)
    assert counted == expected
    assert expected[circles[0]] != expected[circles[1]]
