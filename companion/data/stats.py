"""History and statistics, read at each request so that every change shows at once.

The history lists a page of games with SQL aggregates over just those games (a window MAX
per game for the winners, R11). A player's numbers come from the statistics ledger
(companion.data.ledger), which every write keeps in step in its own transaction: a player page
reads a handful of rows by primary key, so it costs the same few statements and the same
time whether the player sat in 5 games or in 5,000. Nothing here loads every game into
Python.

Rules of counting:

- A player's *games* are the games they sat in; *finished* games are those whose planned
  rounds are all scored (an abandoned game is played but never finished, and nobody wins it).
- The *winners* of a finished game are the seats with the highest total; equal highest
  totals share the win, and a shared win counts as a win for each of them (R11).
- *Rounds* are scored rounds; averages, best and worst are over their stored scores.
- An excluded game (played with a wrong rule) stays in the history, marked, but counts in
  no statistic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from companion.data import ledger
from companion.data.models import (
    Game,
    Player,
    PlayerColour,
    PlayerGame,
    PlayerMonth,
    PlayerOpponent,
    PlayerRoundScore,
    PlayerTotals,
    Round,
    RoundResult,
    Seat,
    db,
    name_key,
    variant_columns,
    variant_of_columns,
)
from companion.data.states import GameStatus, RoundStatus
from companion.rules import PRESETS, Colour, Variant

#: Games per page of the history (page and API).
PAGE_SIZE = 20
#: The opponents the player page compares with: the most frequent ones.
HEAD_TO_HEAD_OPPONENTS = 8
#: The player page's score history covers this many finished games, the latest ones.
SCORE_HISTORY_GAMES = 30
#: The player page's trend table covers this many months (those with games), the latest.
TREND_MONTHS = 12


# --------------------------------------------------------------------------------------------
# Filters of the history


@dataclass(frozen=True)
class HistoryFilter:
    """Which games the history lists; every filter that is set must hold."""

    player: str | None = None  #: a player's name, matched case-insensitively
    variant: str | None = None  #: a preset name (RULES.md sections 5 and 6)
    since: datetime | None = None  #: created at or after (UTC)
    until: datetime | None = None  #: created before (UTC)


def variant_condition(preset: str) -> sa.ColumnElement[bool]:
    """Games played with exactly the preset's settings."""
    columns = variant_columns(PRESETS[preset])
    return sa.and_(
        *(getattr(Game, column) == value for column, value in columns.items() if value is not None)
    )


def _conditions(filters: HistoryFilter) -> list[sa.ColumnElement[bool]]:
    conditions: list[sa.ColumnElement[bool]] = []
    if filters.player:
        seated = (
            sa.select(Seat.game_id)
            .join(Player, Player.id == Seat.player_id)
            .where(Player.key == name_key(filters.player))
        )
        conditions.append(Game.id.in_(seated))
    if filters.variant:
        conditions.append(variant_condition(filters.variant))
    if filters.since is not None:
        conditions.append(Game.created_at >= filters.since)
    if filters.until is not None:
        conditions.append(Game.created_at < filters.until)
    return conditions


# --------------------------------------------------------------------------------------------
# Totals and winners of many games at once, in SQL


def seat_results(games: sa.Select[Any]) -> sa.CTE:
    """Every seat of ``games`` (a select of game ids) with its total over the scored rounds,
    its number of scored rounds, and ``won`` = 1 for the winners of a finished game (R11:
    the highest total wins; equal highest totals share the win), 0 otherwise.

    A seat whose game has no scored round yet has the total 0. The winners come from a
    window MAX over the game's seats, so no game is ever loaded to find them. This is an
    optimisation: the window repeats ``rules.winners`` (R11) in SQL, and a test
    (tests/history/test_winners_in_sql.py) holds the two to the same answer on many games.
    """
    scored = (
        sa.select(
            Round.game_id.label("game_id"),
            RoundResult.seat.label("seat"),
            sa.func.sum(RoundResult.score).label("total"),
            sa.func.count().label("rounds"),
        )
        .join(Round, Round.id == RoundResult.round_id)
        .where(Round.status == RoundStatus.SCORED, Round.game_id.in_(games))
        .group_by(Round.game_id, RoundResult.seat)
        .subquery("scored")
    )
    total = sa.func.coalesce(scored.c.total, 0)
    highest = sa.func.max(total).over(partition_by=Seat.game_id)
    won = sa.case((sa.and_(Game.status == GameStatus.FINISHED, total == highest), 1), else_=0)
    return (
        sa.select(
            Seat.game_id.label("game_id"),
            Seat.position.label("seat"),
            Seat.player_id.label("player_id"),
            Game.code.label("code"),
            Game.status.label("status"),
            Game.created_at.label("created_at"),
            total.label("total"),
            sa.func.coalesce(scored.c.rounds, 0).label("rounds"),
            won.label("won"),
        )
        .join(Game, Game.id == Seat.game_id)
        .outerjoin(
            scored, sa.and_(scored.c.game_id == Seat.game_id, scored.c.seat == Seat.position)
        )
        .where(Seat.game_id.in_(games))
        .cte("seat_results")
    )


# --------------------------------------------------------------------------------------------
# The history: a page of games, newest first


@dataclass(frozen=True)
class SeatLine:
    """One player of a listed game: name, total so far, and whether they won it."""

    name: str
    total: int
    won: bool


@dataclass(frozen=True)
class HistoryGame:
    """One game as the history lists it."""

    code: str
    created_at: datetime
    status: str
    excluded: bool
    variant: Variant
    rounds_planned: int
    scored_rounds: int
    seats: tuple[SeatLine, ...]

    @property
    def players(self) -> list[str]:
        """The names in seat order."""
        return [seat.name for seat in self.seats]

    @property
    def totals(self) -> list[int]:
        """The totals in seat order."""
        return [seat.total for seat in self.seats]

    @property
    def winners(self) -> list[int]:
        """The winning seats (empty until the game is finished)."""
        return [index for index, seat in enumerate(self.seats) if seat.won]

    @property
    def winner_names(self) -> list[str]:
        """The winners by name, in seat order."""
        return [seat.name for seat in self.seats if seat.won]

    @property
    def in_progress(self) -> bool:
        """Whether the game still takes rounds."""
        return self.status == GameStatus.IN_PROGRESS


@dataclass(frozen=True)
class HistoryPage:
    """One page of the history and where it stands among all pages."""

    games: tuple[HistoryGame, ...]
    page: int
    pages: int
    total: int


class PageOutOfRange(LookupError):
    """A page number below 1 or past the last page."""

    def __init__(self, page: int, pages: int):
        super().__init__(f"page {page} of {pages}")
        self.page = page
        self.pages = pages


def page_count(total: int) -> int:
    """Pages needed for ``total`` games (an empty history still has its one, empty, page)."""
    return max(1, math.ceil(total / PAGE_SIZE))


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def history_page(filters: HistoryFilter, page: int, in_progress_first: bool = False) -> HistoryPage:
    """Page ``page`` (1-based) of the games ``filters`` lets through, newest first; with
    ``in_progress_first``, the games still being played come before all others.

    Two statements whatever the history's length: a COUNT, then the page's games with
    their seats, totals and winners. Raises :class:`PageOutOfRange` for a page that does
    not exist.
    """
    conditions = _conditions(filters)
    playing = Game.status == GameStatus.IN_PROGRESS
    counts = db.session.execute(
        sa.select(sa.func.count(), sa.func.sum(sa.case((playing, 1), else_=0)))
        .select_from(Game)
        .where(*conditions)
    ).one()
    total, in_progress = int(counts[0] or 0), int(counts[1] or 0)
    pages = page_count(total)
    if not 1 <= page <= pages:
        raise PageOutOfRange(page, pages)
    if total == 0:
        return HistoryPage((), page, pages, total)

    start = (page - 1) * PAGE_SIZE
    if in_progress_first:
        # Two slices, each read in the order of the created_at index (no sort of the whole
        # history): the games in progress, then the others.
        first = max(0, min(PAGE_SIZE, in_progress - start))
        parts = [
            _listed_slice(conditions + [playing], 0, first, start),
            _listed_slice(
                conditions + [sa.not_(playing)], 1, PAGE_SIZE - first, max(0, start - in_progress)
            ),
        ]
        listed = sa.union_all(*(sa.select(part) for part in parts)).cte("listed")
    else:
        listed = sa.select(_listed_slice(conditions, 1, PAGE_SIZE, start)).cte("listed")
    results = seat_results(sa.select(listed.c.id))
    rows = db.session.execute(
        sa.select(
            listed, results.c.seat, Player.name, results.c.total, results.c.rounds, results.c.won
        )
        .join(results, results.c.game_id == listed.c.id)
        .join(Player, Player.id == results.c.player_id)
        .order_by(
            listed.c.rank,
            listed.c.created_at.desc(),
            listed.c.id.desc(),
            results.c.seat,
        )
    ).all()

    games: list[HistoryGame] = []
    current: list[sa.Row[tuple[object, ...]]] = []
    for row in rows:
        if current and current[0].id != row.id:
            games.append(_history_game(current))
            current = []
        current.append(row)
    if current:
        games.append(_history_game(current))
    return HistoryPage(tuple(games), page, pages, total)


def _listed_slice(
    conditions: Sequence[sa.ColumnElement[bool]], rank: int, limit: int, offset: int
) -> sa.Subquery:
    """``limit`` games from ``offset`` on, newest first, of those ``conditions`` let through,
    tagged with ``rank`` (the order of the slices on the page)."""
    return (
        sa.select(
            Game.id.label("id"),
            Game.code.label("code"),
            Game.family.label("family"),
            Game.scoring.label("scoring"),
            Game.colours_marked.label("colours_marked"),
            Game.reveal.label("reveal"),
            Game.status.label("status"),
            Game.excluded.label("excluded"),
            Game.rounds_planned.label("rounds_planned"),
            Game.created_at.label("created_at"),
            sa.literal(rank).label("rank"),
        )
        .where(*conditions)
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(limit)
        .offset(offset)
        .subquery()
    )


def _history_game(rows: Sequence[sa.Row[tuple[object, ...]]]) -> HistoryGame:
    first = rows[0]
    return HistoryGame(
        code=first.code,
        created_at=as_utc(first.created_at),
        status=first.status,
        excluded=bool(first.excluded),
        variant=variant_of_columns(first.family, first.scoring, first.colours_marked, first.reveal),
        rounds_planned=first.rounds_planned,
        scored_rounds=max(int(row.rounds) for row in rows),
        seats=tuple(SeatLine(row.name, int(row.total), bool(row.won)) for row in rows),
    )


# --------------------------------------------------------------------------------------------
# A player's statistics


@dataclass(frozen=True)
class PlayerRef:
    """A stored player: id and display name."""

    id: int
    name: str


def find_player(name: str) -> PlayerRef | None:
    """The player called ``name`` (case and edge spaces aside), if any."""
    row = db.session.execute(
        sa.select(Player.id, Player.name).where(Player.key == name_key(name))
    ).first()
    return PlayerRef(row.id, row.name) if row is not None else None


@dataclass(frozen=True)
class ColourCount:
    """How many rounds a colour was the player's marked (cursed or lucky) colour."""

    colour: str
    rounds: int


@dataclass(frozen=True)
class PlayerStats:
    """A player's numbers over the games that count (not excluded)."""

    name: str
    games: int
    finished_games: int
    wins: int
    rounds: int
    average_round_score: float | None
    best_round: int | None
    worst_round: int | None
    live_rounds: int
    live_tricks: int
    colours: tuple[ColourCount, ...]
    excluded_games: int

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game (shared wins count), ``None`` before any finished game."""
        return self.wins / self.finished_games if self.finished_games else None

    @property
    def tricks_per_live_round(self) -> float | None:
        """Average tricks taken in the rounds played live, trick by trick."""
        return self.live_tricks / self.live_rounds if self.live_rounds else None


def player_stats(player: PlayerRef) -> PlayerStats:
    """``player``'s statistics in one statement: their row of the ledger, the ends of their
    round scores and their marked colours, each found by a primary key."""
    totals = PlayerTotals.__table__
    scores = PlayerRoundScore.__table__

    def ends(aggregate: Any) -> sa.ScalarSelect[Any]:
        return (
            sa.select(aggregate(scores.c.score)).where(scores.c.player_id == player.id)
        ).scalar_subquery()

    colours = [
        sa.select(PlayerColour.rounds)
        .where(PlayerColour.player_id == player.id, PlayerColour.colour == colour.value)
        .scalar_subquery()
        .label(f"colour_{colour.value}")
        for colour in Colour
    ]
    row = db.session.execute(
        sa.select(
            *(sa.func.coalesce(totals.c[name], 0).label(name) for name in ledger.TOTALS_ALL),
            ends(sa.func.max).label("best"),
            ends(sa.func.min).label("worst"),
            *colours,
        )
        .select_from(Player)
        .outerjoin(totals, totals.c.player_id == Player.id)
        .where(Player.id == player.id)
    ).one()
    counts = [ColourCount(c.value, int(row._mapping[f"colour_{c.value}"] or 0)) for c in Colour]
    rounds = int(row.rounds)
    return PlayerStats(
        name=player.name,
        games=int(row.games),
        finished_games=int(row.finished_games),
        wins=int(row.wins),
        rounds=rounds,
        average_round_score=int(row.points) / rounds if rounds else None,
        best_round=row.best,
        worst_round=row.worst,
        live_rounds=int(row.live_rounds),
        live_tricks=int(row.live_tricks),
        colours=tuple(sorted((c for c in counts if c.rounds), key=lambda c: -c.rounds)),
        excluded_games=int(row.excluded_games),
    )


@dataclass(frozen=True)
class HeadToHead:
    """The player against one opponent, over the counted games they played together."""

    opponent: str
    games: int
    finished_games: int
    wins: int  #: the player's wins in those games
    opponent_wins: int  #: the opponent's wins in those games


def head_to_head(player: PlayerRef, most: int = HEAD_TO_HEAD_OPPONENTS) -> list[HeadToHead]:
    """The player against their ``most`` most frequent opponents: their rows of the ledger
    (one per opponent they ever met, however many games)."""
    rows = db.session.execute(
        sa.select(
            Player.name,
            PlayerOpponent.games,
            PlayerOpponent.finished_games,
            PlayerOpponent.wins,
            PlayerOpponent.opponent_wins,
        )
        .join(Player, Player.id == PlayerOpponent.opponent_id)
        .where(PlayerOpponent.player_id == player.id)
        .order_by(PlayerOpponent.games.desc(), Player.key)
        .limit(most)
    ).all()
    return [
        HeadToHead(
            row.name,
            int(row.games),
            int(row.finished_games),
            int(row.wins),
            int(row.opponent_wins),
        )
        for row in rows
    ]


@dataclass(frozen=True)
class GamePoint:
    """One of the player's finished games: when, their total, whether they won."""

    code: str
    created_at: datetime
    total: int
    won: bool


def score_history(player: PlayerRef, most: int = SCORE_HISTORY_GAMES) -> list[GamePoint]:
    """The player's totals in their latest ``most`` finished, counted games, oldest first
    (read backwards along the ledger's index, however many games there are)."""
    rows = db.session.execute(
        sa.select(Game.code, PlayerGame.created_at, PlayerGame.total, PlayerGame.won)
        .join(Game, Game.id == PlayerGame.game_id)
        .where(PlayerGame.player_id == player.id)
        .order_by(PlayerGame.created_at.desc(), PlayerGame.game_id.desc())
        .limit(most)
    ).all()
    return [
        GamePoint(row.code, as_utc(row.created_at), int(row.total), bool(row.won))
        for row in reversed(rows)
    ]


@dataclass(frozen=True)
class MonthTrend:
    """The player's games of one calendar month (UTC)."""

    year: int
    month: int
    games: int
    finished_games: int
    wins: int
    rounds: int
    average_round_score: float | None


def monthly_trend(player: PlayerRef, most: int = TREND_MONTHS) -> list[MonthTrend]:
    """Games, wins and the average round score per month, the latest ``most`` months with
    games, newest first (the ledger keeps a row per player and month)."""
    rows = db.session.execute(
        sa.select(PlayerMonth)
        .where(PlayerMonth.player_id == player.id)
        .order_by(PlayerMonth.year.desc(), PlayerMonth.month.desc())
        .limit(most)
    ).scalars()
    return [
        MonthTrend(
            year=row.year,
            month=row.month,
            games=row.games,
            finished_games=row.finished_games,
            wins=row.wins,
            rounds=row.rounds,
            average_round_score=row.points / row.rounds if row.rounds else None,
        )
        for row in rows
    ]
