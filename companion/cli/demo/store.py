"""Demo games into the database: bulk inserts, one transaction per batch of games.

The rows are those the app writes for a game recorded at the table (``services``):
``games`` (finished, its version and times), ``seats``, ``rounds`` (entries and a live
round's tricks in the API's shape) and ``round_results`` (score, tricks, colours).
The statistics ledger (``companion.data.ledger``) is then added to for the batch.
Core ``insert()`` with lists of rows, one statement per table and batch, keeps 10,000 games
to seconds. The statements are portable SQL (SQLite, PostgreSQL); only how JSON text is
handed to a JSON column depends on the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from companion.cli.demo.games import PlayedGame
from companion.cli.demo.plan import GamePlan
from companion.data import ledger
from companion.data.models import Game, Player, Round, RoundResult, Seat, name_key, variant_columns
from companion.data.states import GameStatus, RoundStatus
from companion.services.keys import hash_edit_key

GAMES = Game.__table__
SEATS = Seat.__table__
ROUNDS = Round.__table__
RESULTS = RoundResult.__table__
PLAYERS = Player.__table__


def _json_text(name: str, dialect: str) -> sa.ColumnElement[Any]:
    """A parameter holding JSON already written as text (by the worker that played the
    round), stored as the JSON column stores it; ``None`` is SQL NULL, as for a round the
    app creates (not the JSON ``null`` a JSON parameter would write for ``None``).

    SQLite keeps JSON as the text itself; elsewhere the text is cast to the JSON type (a
    CAST in SQLite would apply the numeric affinity of a type called JSON).
    """
    text = sa.bindparam(name, type_=sa.Text())
    return text if dialect == "sqlite" else sa.cast(text, ROUNDS.c[name].type)


def _insert_rounds(dialect: str) -> sa.Insert:
    return sa.insert(ROUNDS).values(
        entries=_json_text("entries", dialect), tricks=_json_text("tricks", dialect)
    )


def existing_codes(connection: sa.Connection) -> set[str]:
    """The codes of the games already here (a new code must differ from all of them)."""
    return set(connection.scalars(sa.select(GAMES.c.code)))


def player_ids(
    connection: sa.Connection,
    circle_id: int,
    names: Sequence[str],
    first_seen: Sequence[datetime],
) -> tuple[list[int], int]:
    """The ids of the circle's players called ``names``: those already here (matched by
    name, case insensitively, as ``services.players.find_or_add_players`` matches) are
    reused, the others added, created when they first played. Answers the ids and how many
    were added."""
    keys = [name_key(name) for name in names]
    known: dict[str, int] = {}
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        query = sa.select(PLAYERS.c.key, PLAYERS.c.id).where(
            PLAYERS.c.circle_id == circle_id, PLAYERS.c.key.in_(chunk)
        )
        known.update({str(key): int(id_) for key, id_ in connection.execute(query)})
    new: list[dict[str, Any]] = [
        {"circle_id": circle_id, "name": name, "key": key, "created_at": seen}
        for name, key, seen in zip(names, keys, first_seen, strict=True)
        if key not in known
    ]
    if new:
        returning = sa.insert(PLAYERS).returning(PLAYERS.c.id, sort_by_parameter_order=True)
        ids = connection.scalars(returning, new).all()
        known.update({row["key"]: id_ for row, id_ in zip(new, ids, strict=True)})
    return [known[key] for key in keys], len(new)


def _game_row(plan: GamePlan, played: PlayedGame, circle_id: int) -> dict[str, Any]:
    return {
        "circle_id": circle_id,
        "code": plan.code,
        "edit_key_hash": hash_edit_key(plan.edit_key),
        **variant_columns(plan.variant),
        "rounds_planned": plan.rounds,
        "first_leader": plan.first_leader,
        "status": GameStatus.FINISHED,
        "created_at": plan.created_at,
        "updated_at": played.updated_at,
        "version": played.version,
        "excluded": False,
    }


def insert_games(
    connection: sa.Connection,
    games: Iterable[tuple[GamePlan, PlayedGame]],
    player_id: Sequence[int],
    circle_id: int,
) -> int:
    """Insert a batch of played games into the circle; answers how many rounds were added.

    ``player_id`` maps an index of the demo group to the player's id.
    """
    batch = list(games)
    if not batch:
        return 0
    dialect = connection.dialect.name
    # Plain multi-row inserts, then the new ids read back by the unique keys (a game's code,
    # a round's game and number): RETURNING in parameter order would go row by row.
    rows = [_game_row(plan, played, circle_id) for plan, played in batch]
    connection.execute(sa.insert(GAMES), rows)
    codes = [plan.code for plan, _played in batch]
    query = sa.select(GAMES.c.code, GAMES.c.id).where(GAMES.c.code.in_(codes))
    game_id: dict[str, int] = {code: id_ for code, id_ in connection.execute(query)}
    seats: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = []
    for plan, played in batch:
        seats.extend(
            {"game_id": game_id[plan.code], "position": seat, "player_id": player_id[index]}
            for seat, index in enumerate(plan.seats)
        )
        rounds.extend(
            {
                "game_id": game_id[plan.code],
                "number": timed.number,
                "leader": timed.leader,
                "mode": timed.played.mode,
                "status": RoundStatus.SCORED,
                "entries": timed.played.entries,
                "tricks": timed.played.tricks,
                "created_at": timed.created_at,
                "updated_at": timed.updated_at,
            }
            for timed in played.rounds
        )
    connection.execute(sa.insert(SEATS), seats)
    connection.execute(_insert_rounds(dialect), rounds)
    ids = list(game_id.values())
    round_id = {
        (game, number): id_
        for id_, game, number in connection.execute(
            sa.select(ROUNDS.c.id, ROUNDS.c.game_id, ROUNDS.c.number).where(
                ROUNDS.c.game_id.in_(ids)
            )
        )
    }
    results = [
        {
            "round_id": round_id[game_id[plan.code], timed.number],
            "seat": seat,
            "player_id": player_id[plan.seats[seat]],
            "score": score,
            "tricks": tricks,
            "colour_names": colours,
        }
        for plan, played in batch
        for timed in played.rounds
        for seat, (score, tricks, colours) in enumerate(timed.played.results)
    ]
    connection.execute(sa.insert(RESULTS), results)
    ledger.add_games(connection, ids)  # core inserts pass the session's flush by
    return len(rounds)
