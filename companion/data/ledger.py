"""The statistics ledger: each player's running sums, kept in step with every write.

A player page must cost the same whether the player sat in 5 games or in 5,000, so the
sums it shows are not added up at each request but kept in the ``player_*`` tables
(companion.data.models). What a game adds to them, its *contribution*, depends on that game
alone (its seats, its scored rounds, its status, whether it is excluded), so every write
keeps the ledger exact the same way: read the touched games as they were, change them, read
them again, and add the difference. Correcting a round, deleting or excluding a game and
merging two players are all just that difference.

- Writes through the ORM session (every service) are followed by flush hooks
  (``install``): the games touched by a flush are read before and after it, in its
  transaction, so the ledger commits or rolls back with the change itself.
- Writes that bypass the session's unit of work (bulk updates, the demo data's core
  inserts) say which games they touch: ``tracking`` or ``add_games``.
- A game is read as its facts (``companion.data.ledger_facts``), before and after a change.
- ``rebuild`` makes the whole ledger again from the games (migration 0005, and the tests,
  which check after every kind of write that the kept ledger equals a rebuilt one).

The rules of counting are those of companion.data.stats; the totals of a game are added up here,
in Python, from its stored round scores, and its winners are the rules' (``rules.winners``,
R11: equal highest totals share the win).

It is a little over 400 lines: the ledger's difference, its upserts on both databases, the
flush hooks that keep it and the rebuild that checks it belong together, since they must
agree row for row.
"""

from __future__ import annotations

import contextlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.dialects import postgresql, sqlite

from companion.data.ledger_facts import (
    BATCH,
    TABLES,
    GameFacts,
    ResultFacts,
    StoredTables,
    as_utc,
    load_facts,
)
from companion.data.models import (
    Game,
    PlayerColour,
    PlayerGame,
    PlayerMonth,
    PlayerOpponent,
    PlayerRoundScore,
    PlayerTotals,
    Round,
    RoundResult,
    Seat,
)
from companion.data.states import GameStatus
from companion.rules import HAT_TRICK, Colour, winners

COLOURS = frozenset(colour.value for colour in Colour)

TOTALS = ("games", "finished_games", "wins", "rounds", "points", "live_rounds", "live_tricks")
TOTALS_ALL = (*TOTALS, "excluded_games")
MONTH_SUMS = ("games", "finished_games", "wins", "rounds", "points")
OPPONENT_SUMS = ("games", "finished_games", "wins", "opponent_wins")


# --------------------------------------------------------------------------------------------
# Contributions and their differences


def seat_totals(facts: GameFacts) -> list[tuple[int, int, bool]]:
    """Each seat's total, number of scored rounds, and whether it won (R11: a finished
    game's highest total wins; equal highest totals share the win)."""
    totals = [0] * len(facts.seats)
    rounds = [0] * len(facts.seats)
    for result in facts.results:
        if 0 <= result.seat < len(totals):
            totals[result.seat] += result.score
            rounds[result.seat] += 1
    won = set(winners(totals)) if facts.status == GameStatus.FINISHED else set()
    return [
        (total, count, seat in won)
        for seat, (total, count) in enumerate(zip(totals, rounds, strict=True))
    ]


def _marked_colours(facts: GameFacts, result: ResultFacts) -> set[str]:
    """The colours a classic-family round's result marked (Hat Trick stores the colour
    that scored, which no player marked)."""
    if facts.kind == HAT_TRICK:
        return set()
    return set(result.colours.split(",")) & COLOURS


@dataclass
class Ledger:
    """Sums to add to the ledger's tables, keyed like their rows; negative to take away."""

    totals: dict[int, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    colours: Counter[tuple[int, str]] = field(default_factory=Counter)
    scores: Counter[tuple[int, int]] = field(default_factory=Counter)
    months: dict[tuple[int, int, int], Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    opponents: dict[tuple[int, int], Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    #: The games whose rows in player_games are replaced, and their new rows.
    games: set[int] = field(default_factory=set)
    game_rows: list[dict[str, Any]] = field(default_factory=list)

    def add(self, facts: GameFacts, sign: int = 1) -> None:
        """Add (``sign`` 1) or take away (-1) what ``facts``' game contributes."""
        if facts.excluded:
            for player in facts.seats:
                self.totals[player]["excluded_games"] += sign
            return
        finished = int(facts.status == GameStatus.FINISHED)
        year, month = facts.created_at.year, facts.created_at.month
        seats = seat_totals(facts)
        for position, (player, (total, rounds, won)) in enumerate(
            zip(facts.seats, seats, strict=True)
        ):
            self.totals[player].update(
                {"games": sign, "finished_games": sign * finished, "wins": sign * won}
            )
            self.months[player, year, month].update(
                {
                    "games": sign,
                    "finished_games": sign * finished,
                    "wins": sign * won,
                    "rounds": sign * rounds,
                    "points": sign * total,
                }
            )
            for other, (opponent, (_total, _rounds, opponent_won)) in enumerate(
                zip(facts.seats, seats, strict=True)
            ):
                if other != position:
                    self.opponents[player, opponent].update(
                        {
                            "games": sign,
                            "finished_games": sign * finished,
                            "wins": sign * won,
                            "opponent_wins": sign * opponent_won,
                        }
                    )
        for result in facts.results:
            live = result.live and result.tricks is not None
            tricks = (result.tricks or 0) if live else 0
            self.totals[result.player_id].update(
                {
                    "rounds": sign,
                    "points": sign * result.score,
                    "live_rounds": sign * live,
                    "live_tricks": sign * tricks,
                }
            )
            self.scores[result.player_id, result.score] += sign
            for colour in _marked_colours(facts, result):
                self.colours[result.player_id, colour] += sign

    def replace_games(self, old: dict[int, GameFacts], new: dict[int, GameFacts]) -> None:
        """The difference between games as they were and as they are, and their new rows of
        the score history (a game whose facts did not change, a live trick played, say,
        changes nothing)."""
        changed = {id_ for id_ in set(old) | set(new) if old.get(id_) != new.get(id_)}
        for id_ in sorted(changed):
            if id_ in old:
                self.add(old[id_], -1)
            if id_ in new:
                self.add(new[id_])
        self.games |= changed
        self.game_rows += history_rows(new[id_] for id_ in sorted(changed) if id_ in new)

    def apply(self, connection: sa.Connection) -> None:
        """Write the sums (rows in a fixed order, so two writers lock alike on PostgreSQL)."""
        _add_rows(connection, PlayerTotals, ("player_id",), TOTALS_ALL, self.totals.items())
        _add_counts(connection, PlayerColour, ("player_id", "colour"), self.colours)
        _add_counts(connection, PlayerRoundScore, ("player_id", "score"), self.scores)
        _add_rows(
            connection, PlayerMonth, ("player_id", "year", "month"), MONTH_SUMS, self.months.items()
        )
        _add_rows(
            connection,
            PlayerOpponent,
            ("player_id", "opponent_id"),
            OPPONENT_SUMS,
            self.opponents.items(),
        )
        table = PlayerGame.__table__
        if self.games:
            connection.execute(sa.delete(table).where(table.c.game_id.in_(sorted(self.games))))
        if self.game_rows:
            connection.execute(sa.insert(table), self.game_rows)


def history_rows(games: Iterable[GameFacts]) -> list[dict[str, Any]]:
    """The score history's rows of finished, counted games: one per seat."""
    return [
        {
            "player_id": player,
            "game_id": facts.id,
            "created_at": facts.created_at,
            "total": total,
            "won": won,
        }
        for facts in games
        if facts.status == GameStatus.FINISHED and not facts.excluded
        for player, (total, _rounds, won) in zip(facts.seats, seat_totals(facts), strict=True)
    ]


def _upsert(connection: sa.Connection, table: sa.Table) -> Any:
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def _add_rows(
    connection: sa.Connection,
    model: Any,
    keys: tuple[str, ...],
    sums: tuple[str, ...],
    items: Iterable[tuple[Any, Counter[str]]],
) -> None:
    """Add each key's sums to its row (made if missing); drop the rows left at zero."""
    rows = []
    for key, counter in sorted(items, key=lambda item: item[0]):
        if any(counter[name] for name in sums):
            values = key if isinstance(key, tuple) else (key,)
            rows.append({**dict(zip(keys, values, strict=True)), **{n: counter[n] for n in sums}})
    if not rows:
        return
    table = model.__table__
    insert = _upsert(connection, table)
    connection.execute(
        insert.on_conflict_do_update(
            index_elements=list(keys),
            set_={name: table.c[name] + insert.excluded[name] for name in sums},
        ),
        rows,
    )
    if any(row[name] < 0 for row in rows for name in sums):
        _drop_empty(connection, table, rows, sa.and_(*(table.c[n] == 0 for n in sums)))


def _add_counts(
    connection: sa.Connection, model: Any, keys: tuple[str, str], counts: Counter[Any]
) -> None:
    _add_rows(
        connection,
        model,
        keys,
        ("rounds",),
        ((key, Counter({"rounds": count})) for key, count in counts.items()),
    )


def _drop_empty(
    connection: sa.Connection,
    table: sa.Table,
    rows: list[dict[str, Any]],
    empty: sa.ColumnElement[bool],
) -> None:
    players = sorted({row["player_id"] for row in rows})
    connection.execute(sa.delete(table).where(table.c.player_id.in_(players), empty))


# --------------------------------------------------------------------------------------------
# Keeping it: explicit tracking, flush hooks, bulk additions, rebuild


@contextlib.contextmanager
def tracking(connection: sa.Connection, game_ids: Iterable[int]) -> Iterator[None]:
    """Keep the ledger through a change of ``game_ids`` made by statements the session's
    flush does not see (bulk updates): the games are read before and after it."""
    ids = set(game_ids)
    old = load_facts(connection, ids)
    yield
    ledger = Ledger()
    ledger.replace_games(old, load_facts(connection, ids))
    ledger.apply(connection)


def add_games(connection: sa.Connection, game_ids: Iterable[int]) -> None:
    """Add games just inserted without the session (the demo data)."""
    ledger = Ledger()
    ledger.replace_games({}, load_facts(connection, game_ids))
    ledger.apply(connection)


LEDGER_TABLES = (
    PlayerTotals,
    PlayerColour,
    PlayerRoundScore,
    PlayerMonth,
    PlayerOpponent,
    PlayerGame,
)


def rebuild(connection: sa.Connection, stored: StoredTables = TABLES) -> None:
    """Make the whole ledger again from the stored games."""
    for model in LEDGER_TABLES:
        connection.execute(sa.delete(model.__table__))
    games = Game.__table__
    ids = list(connection.scalars(sa.select(games.c.id).order_by(games.c.id)))
    ledger = Ledger()
    for start in range(0, len(ids), BATCH):
        batch = load_facts(connection, ids[start : start + BATCH], stored)
        for facts in batch.values():
            ledger.add(facts)
        ledger.game_rows += history_rows(batch.values())
    ledger.apply(connection)


def snapshot(connection: sa.Connection) -> dict[str, set[tuple[Any, ...]]]:
    """Every row of the ledger, comparable with another snapshot (the tests' check)."""
    taken = {}
    for model in LEDGER_TABLES:
        table = model.__table__
        rows = connection.execute(sa.select(table)).all()
        taken[table.name] = {
            tuple(as_utc(v) if isinstance(v, datetime) else v for v in row) for row in rows
        }
    return taken


# Game ids touched by a flush, and the games as they were before it.
_PENDING = "ledger_pending"


def _game_of(target: object) -> int | Game | tuple[str, int] | None:
    """The game an object belongs to, from what is in memory (a flush must not load
    anything): its id, the Game itself before its first flush, or ``("round", id)`` when
    only the round's id is known."""
    state = vars(target)
    identity = sa.inspect(target).identity
    if isinstance(target, Game):
        return identity[0] if identity else target
    if isinstance(target, Seat | Round):
        if state.get("game_id"):
            return int(state["game_id"])
        if state.get("game") is not None:
            return _game_of(state["game"])
        if isinstance(target, Seat):
            return identity[0] if identity else None
        return ("round", identity[0]) if identity else None
    if isinstance(target, RoundResult):
        if state.get("round") is not None:
            return _game_of(state["round"])
        round_id = state.get("round_id") or (identity[0] if identity else None)
        return ("round", round_id) if round_id else None
    return None


def _before_flush(session: so.Session, _context: Any, _instances: Any) -> None:
    ids: set[int] = set()
    pending: list[Game] = []
    round_ids: set[int] = set()
    for target in (*session.new, *session.dirty, *session.deleted):
        game = _game_of(target)
        if isinstance(game, Game):
            pending.append(game)
        elif isinstance(game, tuple):
            round_ids.add(game[1])
        elif game is not None:
            ids.add(game)
    session.info.pop(_PENDING, None)
    if not ids and not pending and not round_ids:
        return
    connection = session.connection()
    if round_ids:
        rounds = Round.__table__
        ids |= set(
            connection.scalars(sa.select(rounds.c.game_id).where(rounds.c.id.in_(round_ids)))
        )
    session.info[_PENDING] = (ids, pending, load_facts(connection, ids))


def _after_flush(session: so.Session, _context: Any) -> None:
    if _PENDING not in session.info:
        return
    ids, pending, old = session.info.pop(_PENDING)
    now = ids | {game.id for game in pending if game.id is not None}
    connection = session.connection()
    ledger = Ledger()
    ledger.replace_games(old, load_facts(connection, now))
    ledger.apply(connection)


def _forget(session: so.Session, *_args: Any) -> None:
    session.info.pop(_PENDING, None)


def install() -> None:
    """Keep the ledger on every flush of every session (once per process)."""
    if not sa.event.contains(so.Session, "before_flush", _before_flush):
        sa.event.listen(so.Session, "before_flush", _before_flush)
        sa.event.listen(so.Session, "after_flush", _after_flush)
        sa.event.listen(so.Session, "after_rollback", _forget)
