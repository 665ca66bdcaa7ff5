"""The history: a page of games, newest first, with SQL aggregates over just those games.

A page costs two statements however long the history is: a COUNT, then the page's games
with their seats, totals and winners (a window MAX per game, R11). Nothing here loads every
game into Python. Counting follows ``companion.data.stats``: a finished game's equal highest
totals share the win; an excluded game is listed, marked.

It is over 450 lines because the page's two statements are built here from the same parts
(the filter's conditions, the listed rows, each seat's result as a CTE), and the page that
holds them is read from their rows; split, each half would need the other's parts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.data.change_counter import counter_columns
from companion.data.circles import beside_circles, first_circle_condition, first_circle_id
from companion.data.database import read_once
from companion.data.models import (
    Circle,
    Game,
    Player,
    Round,
    RoundResult,
    Seat,
    db,
    name_key,
    variant_columns,
    variant_of_columns,
)
from companion.data.prepared_reads import PreparedRead
from companion.data.states import GameStatus, RoundStatus
from companion.rules import PRESETS, Variant

#: Games per page of the history (page and API).
PAGE_SIZE = 20
#: The columns of ``games`` a listed game is shown from (``_history_game``).
LISTED_COLUMNS = (
    "id",
    "code",
    "family",
    "scoring",
    "colours_marked",
    "reveal",
    "status",
    "excluded",
    "rounds_planned",
    "created_at",
)


# --------------------------------------------------------------------------------------------
# Filters of the history


@dataclass(frozen=True)
class HistoryFilter:
    """Which games the history lists; every filter that is set must hold."""

    player: str | None = None  #: a player's name, matched case-insensitively
    variant: str | None = None  #: a preset name (RULES.md sections 5 and 6)
    since: datetime | None = None  #: created at or after (UTC)
    until: datetime | None = None  #: created before (UTC)
    #: The circle whose games are listed (a history shows one circle); ``None``:
    #: the server's first circle, a club server's one circle, found inside the statement.
    circle_id: int | None = None

    @property
    def time_bound(self) -> bool:
        """Whether the filter has a time bound (its games change as time goes by)."""
        return self.since is not None or self.until is not None


def variant_condition(preset: str) -> sa.ColumnElement[bool]:
    """Games played with exactly the preset's settings."""
    columns = variant_columns(PRESETS[preset])
    return sa.and_(
        *(getattr(Game, column) == value for column, value in columns.items() if value is not None)
    )


def circle_of(filters: HistoryFilter) -> sa.ColumnElement[int]:
    """The circle ``filters`` lists, as a value or, for ``None``, the server's first."""
    if filters.circle_id is None:
        return first_circle_id()
    return sa.literal(filters.circle_id, sa.Integer)


@dataclass(frozen=True)
class ListedRows:
    """Where the games a filter lets through are read, one row per game: the games
    themselves, or for a player's games that player's seats, which carry their game's time
    and status (``data.seat_copies``): the player's games are then read newest first in the
    order of the seats' index and counted there, without the games table (migration 0018).
    """

    #: The table (or join) the rows come from.
    source: sa.FromClause
    #: The game, its time and its status in those rows.
    game_id: so.InstrumentedAttribute[int]
    created_at: so.InstrumentedAttribute[Any]
    status: so.InstrumentedAttribute[Any]
    #: What the rows must meet.
    conditions: tuple[sa.ColumnElement[bool], ...]
    #: Whether the rows are seats (a player's games), not games.
    seats: bool

    @property
    def playing(self) -> sa.ColumnElement[bool]:
        """The rows of games in progress."""
        return self.status == GameStatus.IN_PROGRESS


def listed_rows(
    filters: HistoryFilter,
    circle: sa.ColumnElement[int] | so.InstrumentedAttribute[int] | None = None,
) -> ListedRows:
    """The rows of the games ``filters`` lets through, of ``circle`` (a column of another
    table, for counts per circle) or else of the filter's own circle. A name is matched
    within the circle only; a game's players are its circle's (a circle's merge keeps them
    so), so a player's seats are games of the player's circle."""
    circle = circle_of(filters) if circle is None else circle
    if not filters.player:
        conditions = [Game.circle_id == circle]
        if filters.variant:
            conditions.append(variant_condition(filters.variant))
        conditions += _period(filters, Game.created_at)
        return ListedRows(
            Game.__table__, Game.id, Game.created_at, Game.status, tuple(conditions), False
        )
    # the circle, when a column of the statement's circles, is theirs at every level
    player = (
        sa.select(Player.id)
        .where(Player.circle_id == circle, Player.key == name_key(filters.player))
        .correlate_except(Player)
        .scalar_subquery()
    )
    source: sa.FromClause = Seat.__table__
    conditions = [Seat.player_id == player]
    if filters.variant:
        source = sa.join(Seat, Game, Game.id == Seat.game_id)
        conditions += [Game.circle_id == circle, variant_condition(filters.variant)]
    conditions += _period(filters, Seat.game_created_at)
    return ListedRows(
        source, Seat.game_id, Seat.game_created_at, Seat.game_status, tuple(conditions), True
    )


def _period(
    filters: HistoryFilter, created_at: sa.ColumnElement[datetime] | so.InstrumentedAttribute[Any]
) -> list[sa.ColumnElement[bool]]:
    """The conditions of the filter's period on ``created_at``."""
    conditions: list[sa.ColumnElement[bool]] = []
    if filters.since is not None:
        conditions.append(created_at >= filters.since)
    if filters.until is not None:
        conditions.append(created_at < filters.until)
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
# A page of games, newest first


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
    def winning_total(self) -> int | None:
        """The winners' total (equal for all of them, R11); ``None`` until the game is won."""
        return next((seat.total for seat in self.seats if seat.won), None)

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


def history_state(filters: HistoryFilter, circle: sa.ColumnElement[bool]) -> sa.Select[Any]:
    """What a history page of ``filters`` depends on in the database, with the circles it
    may show (those ``circle`` lets through: the phone's), a row per circle
    (``data.circles.beside_circles``; none for a phone in no circle). That is the change
    counter (``change_counter``: every change to a game, a player or the journal moves it
    on), and for a filter with a time bound also how many of the circle's games it lets
    through and how many of those are in progress (``total``, ``in_progress``): a game
    leaves the last 30 days as time goes by, with no write at all. Without a time bound it
    reads one row of the counter and the circles by key, whatever the history's length."""
    columns = counter_columns()
    if not filters.time_bound:
        return beside_circles(circle, *columns)
    rows = listed_rows(filters, circle=Circle.id)
    total, in_progress = _counts(rows)

    def per_circle(aggregate: sa.ColumnElement[int]) -> sa.ScalarSelect[int]:
        return (
            sa.select(aggregate).select_from(rows.source).where(*rows.conditions).scalar_subquery()
        )

    return beside_circles(
        circle,
        *columns,
        per_circle(total).label("total"),
        per_circle(in_progress).label("in_progress"),
    )


#: :func:`history_state` on a club server without a time bound (the server's first circle
#: and the change counter), compiled once: every poll of the unfiltered history asks it.
FIRST_CIRCLE_STATE_READ = PreparedRead(beside_circles(first_circle_condition(), *counter_columns()))


def read_history_state(
    filters: HistoryFilter, circle: sa.ColumnElement[bool], first: bool
) -> list[Any]:
    """The rows of :func:`history_state`, read in one statement; for the server's first
    circle (``first``: a club server) without a time bound, its prepared read."""
    if first and not filters.time_bound:
        return FIRST_CIRCLE_STATE_READ.rows()
    return list(read_once(history_state(filters, circle)))


def _counts(rows: ListedRows) -> tuple[sa.ColumnElement[int], sa.ColumnElement[int]]:
    """The aggregates of :func:`history_counts`, over ``rows``."""
    return sa.func.count(), sa.func.coalesce(sa.func.sum(sa.case((rows.playing, 1), else_=0)), 0)


def history_counts(
    filters: HistoryFilter, beside: sa.Select[Any] | None = None
) -> tuple[tuple[int, int], list[Any]]:
    """How many games ``filters`` lets through and how many of those are in progress (what
    :func:`history_page` needs first), and in the same statement the rows of ``beside`` (a
    select of one column, say the names the page suggests; none without it): the page's
    rendering costs no statement more for its own ETag's read.

    The counts are one row; ``beside``'s rows are joined to it, so there is always a row
    (``None`` in the column where ``beside`` has none)."""
    picked = listed_rows(filters)
    total, in_progress = _counts(picked)
    counts = (
        sa.select(total.label("total"), in_progress.label("in_progress"))
        .select_from(picked.source)
        .where(*picked.conditions)
        .subquery("counts")
    )
    if beside is None:
        row = db.session.execute(sa.select(counts)).one()
        return (int(row.total), int(row.in_progress)), []
    extra = beside.subquery("beside")
    column = next(iter(extra.c))
    rows = db.session.execute(
        sa.select(counts.c.total, counts.c.in_progress, column.label("beside"))
        .select_from(counts)
        .outerjoin(extra, sa.true())
        .order_by(column)
    ).all()
    return (int(rows[0].total), int(rows[0].in_progress)), [
        row.beside for row in rows if row.beside is not None
    ]


def history_page(
    filters: HistoryFilter,
    page: int,
    in_progress_first: bool = False,
    counts: tuple[int, int] | None = None,
) -> HistoryPage:
    """Page ``page`` (1-based) of the games ``filters`` lets through, newest first; with
    ``in_progress_first``, the games still being played come before all others.

    Two statements whatever the history's length: a COUNT, then the page's games with
    their seats, totals and winners; one when the ``counts`` (the games let through, and
    those in progress) were read already, with :func:`history_counts`. Raises
    :class:`PageOutOfRange` for a page that does not exist.
    """
    picked = listed_rows(filters)
    total, in_progress = counts if counts is not None else history_counts(filters)[0]
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
            _listed_slice(filters, picked, [picked.playing], 0, first, start),
            _listed_slice(
                filters,
                picked,
                [sa.not_(picked.playing)],
                1,
                PAGE_SIZE - first,
                max(0, start - in_progress),
            ),
        ]
        listed = sa.union_all(*(sa.select(part) for part in parts)).cte("listed")
    else:
        listed = sa.select(_listed_slice(filters, picked, [], 1, PAGE_SIZE, start)).cte("listed")
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
    filters: HistoryFilter,
    rows: ListedRows,
    conditions: Sequence[sa.ColumnElement[bool]],
    rank: int,
    limit: int,
    offset: int,
) -> sa.Subquery:
    """``limit`` games from ``offset`` on, newest first, of ``rows`` that also meet
    ``conditions``, tagged with ``rank`` (the order of the slices on the page). A player's
    games are picked from their seats alone, in the order of the seats' index, and only the
    page's games are then read (of the circle listed: never another circle's game)."""
    columns = [getattr(Game, column).label(column) for column in LISTED_COLUMNS]
    order = (rows.created_at.desc(), rows.game_id.desc())
    if not rows.seats:
        return (
            sa.select(*columns, sa.literal(rank).label("rank"))
            .where(*rows.conditions, *conditions)
            .order_by(*order)
            .limit(limit)
            .offset(offset)
            .subquery()
        )
    page = (
        sa.select(rows.game_id.label("game_id"))
        .select_from(rows.source)
        .where(*rows.conditions, *conditions)
        .order_by(*order)
        .limit(limit)
        .offset(offset)
        .subquery("page")
    )
    return (
        sa.select(*columns, sa.literal(rank).label("rank"))
        .join(page, page.c.game_id == Game.id)
        .where(Game.circle_id == circle_of(filters))
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
