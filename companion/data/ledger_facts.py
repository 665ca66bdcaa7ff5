"""A game as the statistics ledger sees it: the few facts its contribution depends on.

Read in two statements per batch of games, from the tables or, during an old migration,
from what stands in their place (``StoredTables``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa

from companion.data.models import Game, Round, RoundResult, Seat
from companion.data.states import RoundMode, RoundStatus

#: Games read at once when the ledger is rebuilt or the demo data adds games.
BATCH = 500


@dataclass(frozen=True)
class ResultFacts:
    """One seat's stored result of a scored round."""

    seat: int
    player_id: int
    score: int
    tricks: int | None
    colours: str
    live: bool


@dataclass(frozen=True)
class GameFacts:
    """What a game contributes to the ledger depends on these facts only."""

    id: int
    kind: str  #: "classic", "hat-trick", ... (Game.family)
    status: str
    excluded: bool
    created_at: datetime
    seats: tuple[int, ...]  #: the player of each seat, in seat order
    results: tuple[ResultFacts, ...] = ()


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were stored in UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@dataclass(frozen=True)
class StoredTables:
    """Where the ledger reads games and results from: the tables, or what a migration older
    than a column's rename gives in their place (columns named as the models name them)."""

    games: sa.FromClause = Game.__table__
    results: sa.FromClause = RoundResult.__table__


#: The tables themselves, as every write but an old migration reads them.
TABLES = StoredTables()


def load_facts(
    connection: sa.Connection, game_ids: Iterable[int], stored: StoredTables = TABLES
) -> dict[int, GameFacts]:
    """The facts of the games ``game_ids`` that exist, in two statements per ``BATCH``."""
    wanted = sorted(set(game_ids))
    facts: dict[int, GameFacts] = {}
    for start in range(0, len(wanted), BATCH):
        facts.update(_load_batch(connection, wanted[start : start + BATCH], stored))
    return facts


def _load_batch(
    connection: sa.Connection, ids: list[int], stored: StoredTables
) -> dict[int, GameFacts]:
    games, results = stored.games, stored.results
    seats = Seat.__table__
    rounds = Round.__table__
    seated: dict[int, dict[int, int]] = defaultdict(dict)
    rows = connection.execute(
        sa.select(
            games.c.id,
            games.c.family,
            games.c.status,
            games.c.excluded,
            games.c.created_at,
            seats.c.position,
            seats.c.player_id,
        )
        .select_from(games)
        .outerjoin(seats, seats.c.game_id == games.c.id)
        .where(games.c.id.in_(ids))
    ).all()
    heads = {}
    for row in rows:
        heads[row.id] = row
        if row.position is not None:
            seated[row.id][row.position] = row.player_id
    scored: dict[int, list[ResultFacts]] = defaultdict(list)
    for row in connection.execute(
        sa.select(
            rounds.c.game_id,
            rounds.c.mode,
            results.c.seat,
            results.c.player_id,
            results.c.score,
            results.c.tricks,
            results.c.colour_names,
        )
        .select_from(results)
        .join(rounds, rounds.c.id == results.c.round_id)
        .where(rounds.c.game_id.in_(ids), rounds.c.status == RoundStatus.SCORED)
    ):
        scored[row.game_id].append(
            ResultFacts(
                row.seat,
                row.player_id,
                row.score,
                row.tricks,
                row.colour_names or "",
                row.mode == RoundMode.LIVE,
            )
        )
    return {
        id_: GameFacts(
            id=id_,
            kind=head.family,
            status=head.status,
            excluded=bool(head.excluded),
            created_at=as_utc(head.created_at),
            seats=tuple(seated[id_][position] for position in sorted(seated[id_])),
            results=tuple(scored[id_]),
        )
        for id_, head in heads.items()
    }
