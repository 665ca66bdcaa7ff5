"""History and statistics, computed by the database from the stored rows at each request.

Nothing is cached: every number is an SQL aggregate (COUNT, SUM, AVG, MIN, MAX, and a
window MAX per game for the winners, R11) over indexed columns, so recording, correcting,
deleting or excluding a game shows at once, and a page costs the same few statements
however long the history grows. Nothing here loads every game into Python.

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

from companion.models import Game, Player, Round, RoundResult, Seat, db, name_key
from companion.rules import PRESETS, ClassicVariant, Colour, Variant
from companion.rules.variants import variant_from_settings, variant_named

#: Games per page of the history (page and API).
PAGE_SIZE = 20
#: The opponents the player page compares with: the most frequent ones.
HEAD_TO_HEAD_OPPONENTS = 8
#: The player page's score history covers this many finished games, the latest ones.
SCORE_HISTORY_GAMES = 30
#: The player page's trend table covers this many months (those with games), the latest.
TREND_MONTHS = 12

HAT_TRICK = "hat-trick"
STATUS_IN_PROGRESS = "in_progress"
STATUS_FINISHED = "finished"


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
    variant = PRESETS[preset]
    if not isinstance(variant, ClassicVariant):
        return Game.game == HAT_TRICK
    return sa.and_(
        Game.game == variant.game,
        Game.scoring == variant.scoring.name,
        Game.colours == variant.colours,
        Game.reveal == variant.reveal.value,
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
    window MAX over the game's seats, so no game is ever loaded to find them.
    """
    scored = (
        sa.select(
            Round.game_id.label("game_id"),
            RoundResult.seat.label("seat"),
            sa.func.sum(RoundResult.score).label("total"),
            sa.func.count().label("rounds"),
        )
        .join(Round, Round.id == RoundResult.round_id)
        .where(Round.status == "scored", Round.game_id.in_(games))
        .group_by(Round.game_id, RoundResult.seat)
        .subquery("scored")
    )
    total = sa.func.coalesce(scored.c.total, 0)
    highest = sa.func.max(total).over(partition_by=Seat.game_id)
    won = sa.case((sa.and_(Game.status == STATUS_FINISHED, total == highest), 1), else_=0)
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


def counted_games_of(player_id: int) -> sa.Select[Any]:
    """The ids of the games ``player_id`` sat in that count in statistics."""
    return (
        sa.select(Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.player_id == player_id, Game.excluded == sa.false())
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
        return self.status == STATUS_IN_PROGRESS


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


def variant_of_row(
    game: str, scoring: str | None, colours: int | None, reveal: str | None
) -> Variant:
    """The variant a stored game row describes (as ``services.variant_of``, without a Game)."""
    if game == HAT_TRICK:
        return variant_named(HAT_TRICK)
    assert scoring is not None and colours is not None and reveal is not None
    return variant_from_settings(scoring, colours, reveal)


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
    playing = Game.status == STATUS_IN_PROGRESS
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
            Game.game.label("game"),
            Game.scoring.label("scoring"),
            Game.colours.label("colours"),
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
        variant=variant_of_row(first.game, first.scoring, first.colours, first.reveal),
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


def _marks(colour: Colour) -> sa.ColumnElement[int]:
    """1 when a classic-family round's stored colours ("red,blue") hold ``colour``
    (Hat Trick stores the colour that scored, which no player marked)."""
    listed = sa.literal(",") + RoundResult.colours + sa.literal(",")
    return sa.case(
        (sa.and_(Game.game != HAT_TRICK, listed.like(f"%,{colour.value},%")), 1), else_=0
    )


def player_stats(player: PlayerRef) -> PlayerStats:
    """``player``'s statistics in one statement: round aggregates joined to game aggregates
    (each a single row), and the count of their excluded games."""
    live = sa.and_(Round.mode == "live", RoundResult.tricks.is_not(None))
    round_numbers = (
        sa.select(
            sa.func.count().label("rounds"),
            sa.func.avg(RoundResult.score).label("average"),
            sa.func.max(RoundResult.score).label("best"),
            sa.func.min(RoundResult.score).label("worst"),
            sa.func.coalesce(sa.func.sum(sa.case((live, 1), else_=0)), 0).label("live_rounds"),
            sa.func.coalesce(sa.func.sum(sa.case((live, RoundResult.tricks), else_=0)), 0).label(
                "live_tricks"
            ),
            *(
                sa.func.coalesce(sa.func.sum(_marks(colour)), 0).label(f"colour_{colour.value}")
                for colour in Colour
            ),
        )
        .select_from(RoundResult)
        .join(Round, Round.id == RoundResult.round_id)
        .join(Game, Game.id == Round.game_id)
        .where(
            RoundResult.player_id == player.id,
            Round.status == "scored",
            Game.excluded == sa.false(),
        )
        .subquery("round_numbers")
    )
    results = seat_results(counted_games_of(player.id))
    game_numbers = (
        sa.select(
            sa.func.count().label("games"),
            sa.func.coalesce(
                sa.func.sum(sa.case((results.c.status == STATUS_FINISHED, 1), else_=0)), 0
            ).label("finished"),
            sa.func.coalesce(sa.func.sum(results.c.won), 0).label("wins"),
        )
        .where(results.c.player_id == player.id)
        .subquery("game_numbers")
    )
    excluded = (
        sa.select(sa.func.count())
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.player_id == player.id, Game.excluded == sa.true())
        .scalar_subquery()
    )
    row = db.session.execute(
        sa.select(round_numbers, game_numbers, excluded.label("excluded"))
        .select_from(round_numbers)
        .join(game_numbers, sa.true())
    ).one()
    counts = [ColourCount(c.value, int(row._mapping[f"colour_{c.value}"])) for c in Colour]
    return PlayerStats(
        name=player.name,
        games=int(row.games),
        finished_games=int(row.finished),
        wins=int(row.wins),
        rounds=int(row.rounds),
        average_round_score=float(row.average) if row.average is not None else None,
        best_round=row.best,
        worst_round=row.worst,
        live_rounds=int(row.live_rounds),
        live_tricks=int(row.live_tricks),
        colours=tuple(sorted((c for c in counts if c.rounds), key=lambda c: -c.rounds)),
        excluded_games=int(row.excluded),
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
    """The player against their ``most`` most frequent opponents, in one statement (a
    self-join of the seats' results per game, grouped by opponent)."""
    results = seat_results(counted_games_of(player.id))
    me = results.alias("me")
    them = results.alias("them")
    together = sa.func.count()
    rows = db.session.execute(
        sa.select(
            Player.name,
            together.label("games"),
            sa.func.sum(sa.case((me.c.status == STATUS_FINISHED, 1), else_=0)).label("finished"),
            sa.func.sum(me.c.won).label("wins"),
            sa.func.sum(them.c.won).label("their_wins"),
        )
        .select_from(me)
        .join(them, sa.and_(them.c.game_id == me.c.game_id, them.c.player_id != player.id))
        .join(Player, Player.id == them.c.player_id)
        .where(me.c.player_id == player.id)
        .group_by(Player.id, Player.name, Player.key)
        .order_by(together.desc(), Player.key)
        .limit(most)
    ).all()
    return [
        HeadToHead(row.name, int(row.games), int(row.finished), int(row.wins), int(row.their_wins))
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
    """The player's totals in their latest ``most`` finished, counted games, oldest first."""
    results = seat_results(counted_games_of(player.id))
    rows = db.session.execute(
        sa.select(results.c.code, results.c.created_at, results.c.total, results.c.won)
        .where(results.c.player_id == player.id, results.c.status == STATUS_FINISHED)
        .order_by(results.c.created_at.desc(), results.c.game_id.desc())
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
    games, newest first (one GROUP BY)."""
    results = seat_results(counted_games_of(player.id))
    year = sa.extract("year", results.c.created_at)
    month = sa.extract("month", results.c.created_at)
    rows = db.session.execute(
        sa.select(
            year.label("year"),
            month.label("month"),
            sa.func.count().label("games"),
            sa.func.sum(sa.case((results.c.status == STATUS_FINISHED, 1), else_=0)).label(
                "finished"
            ),
            sa.func.sum(results.c.won).label("wins"),
            sa.func.sum(results.c.total).label("points"),
            sa.func.sum(results.c.rounds).label("rounds"),
        )
        .where(results.c.player_id == player.id)
        .group_by(year, month)
        .order_by(year.desc(), month.desc())
        .limit(most)
    ).all()
    return [
        MonthTrend(
            year=int(row.year),
            month=int(row.month),
            games=int(row.games),
            finished_games=int(row.finished),
            wins=int(row.wins),
            rounds=int(row.rounds),
            average_round_score=int(row.points) / int(row.rounds) if row.rounds else None,
        )
        for row in rows
    ]
