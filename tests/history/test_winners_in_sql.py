"""The history finds a finished game's winners in SQL, a window MAX over its seats, so that no
game is loaded to list a page (companion.data.history.seat_results). That repeats R11 for speed:
these tests hold the SQL, and the ledger's kept ``won`` flags, to ``rules.winners`` on many
games, ties and shared wins included.
"""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa
from flask import Flask

from companion.data.circles import server_circle_id
from companion.data.history import seat_results
from companion.data.models import Game, Player, PlayerGame, Round, RoundResult, Seat, db
from companion.data.states import GameStatus, RoundMode, RoundStatus
from companion.rules import variant_named, winners

#: Round scores per round and seat, and whether the game is finished, chosen by hand.
CASES: list[tuple[list[list[int]], bool]] = [
    ([[3, 1, 2]], True),  # one winner
    ([[2, 2, 1]], True),  # R11: equal highest totals share the win
    ([[0, 0, 0]], True),  # everybody shares the win
    ([[-5, -3, -3, -9]], True),  # a shared win with negative totals
    ([[4, -1, 0], [-4, 1, 0]], True),  # a tie reached over two rounds
    ([[10, 2, 2, 2, 2, 2, 2, 2]], True),  # a full table of eight
    ([[5, 1, 1]], False),  # nobody wins a game still in play
    ([], True),  # no scored round: all totals 0, all share
]


def random_cases(count: int, seed: int) -> list[tuple[list[list[int]], bool]]:
    """Games of 3-8 seats and 0-5 rounds with small scores, so ties come often."""
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        seats = rng.randint(3, 8)
        rounds = [[rng.randint(-3, 3) for _ in range(seats)] for _ in range(rng.randint(0, 5))]
        cases.append((rounds, rng.random() < 0.8))
    return cases


def store_games(app: Flask, cases: list[tuple[list[list[int]], bool]]) -> list[int]:
    """The games as rows, each seat a player of its own; answers their ids in order."""
    with app.app_context():
        circle = server_circle_id()
        players = [Player(circle_id=circle, name=f"P{n}", key=f"p{n}") for n in range(8)]
        db.session.add_all(players)
        db.session.flush()
        games = []
        for index, (rounds, finished) in enumerate(cases):
            seats = len(rounds[0]) if rounds else 3
            game = Game(
                circle_id=circle,
                code=f"G{index:05d}",
                edit_key_hash="-",
                variant=variant_named("classic"),
                rounds_planned=max(1, len(rounds)),
                first_leader=0,
                status=GameStatus.FINISHED if finished else GameStatus.IN_PROGRESS,
            )
            game.seats = [Seat(position=seat, player=players[seat]) for seat in range(seats)]
            game.rounds = [
                Round(
                    number=number,
                    leader=0,
                    mode=RoundMode.QUICK,
                    status=RoundStatus.SCORED,
                    entries=[],
                    results=[
                        RoundResult(seat=seat, player_id=players[seat].id, score=score)
                        for seat, score in enumerate(scores)
                    ],
                )
                for number, scores in enumerate(rounds, start=1)
            ]
            games.append(game)
        db.session.add_all(games)
        db.session.commit()
        return [game.id for game in games]


def expected_winners(rounds: list[list[int]], finished: bool) -> set[int]:
    """R11 as the rules say it: the seats with the highest total, once the game is over."""
    seats = len(rounds[0]) if rounds else 3
    totals = [sum(scores[seat] for scores in rounds) for seat in range(seats)]
    return set(winners(totals)) if finished else set()


def sql_winners(app: Flask, ids: list[int]) -> dict[int, set[int]]:
    """The winning seats of each game, as the history's SQL finds them."""
    with app.app_context():
        results = seat_results(sa.select(Game.id).where(Game.id.in_(ids)))
        rows = db.session.execute(sa.select(results.c.game_id, results.c.seat, results.c.won))
        found: dict[int, set[int]] = {id_: set() for id_ in ids}
        for game_id, seat, won in rows:
            if won:
                found[game_id].add(seat)
        return found


def ledger_winners(app: Flask, ids: list[int]) -> dict[int, set[int]]:
    """The winning seats of each game, as the statistics ledger kept them."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(PlayerGame.game_id, Seat.position)
            .join(
                Seat,
                sa.and_(Seat.game_id == PlayerGame.game_id, Seat.player_id == PlayerGame.player_id),
            )
            .where(PlayerGame.won, PlayerGame.game_id.in_(ids))
        )
        found: dict[int, set[int]] = {id_: set() for id_ in ids}
        for game_id, seat in rows:
            found[game_id].add(seat)
        return found


@pytest.mark.parametrize(
    "cases", [CASES, random_cases(150, seed=15)], ids=["chosen games", "random games"]
)
def test_the_winners_found_in_sql_are_those_of_the_rules(
    app: Flask, cases: list[tuple[list[list[int]], bool]]
) -> None:
    ids = store_games(app, cases)
    expected = {id_: expected_winners(*case) for id_, case in zip(ids, cases, strict=True)}
    assert sql_winners(app, ids) == expected


def test_the_ledger_counts_the_winners_of_the_rules(app: Flask) -> None:
    cases = CASES + random_cases(60, seed=51)
    ids = store_games(app, cases)
    expected = {id_: expected_winners(*case) for id_, case in zip(ids, cases, strict=True)}
    assert ledger_winners(app, ids) == expected


def test_the_random_games_hold_shared_wins() -> None:
    """The random games are worth their time only if ties come up among them."""
    shared = [
        case for case in random_cases(150, seed=15) if case[1] and len(expected_winners(*case)) > 1
    ]
    assert len(shared) >= 10
