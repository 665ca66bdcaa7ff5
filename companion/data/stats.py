"""A player's statistics, read at each request so that every change shows at once.

A player's numbers come from the statistics ledger (companion.data.ledger), which every
write keeps in step in its own transaction: a player page reads a handful of rows by primary
key, so it costs the same few statements and the same time whether the player sat in 5 games
or in 5,000. Nothing here loads every game into Python. The history's pages of games are
``companion.data.history``; both count as follows.

Rules of counting:

- A player's *games* are the games they sat in; *finished* games are those whose planned
  rounds are all scored (an abandoned game is played but never finished, and nobody wins it).
- The *winners* of a finished game are the seats with the highest total; equal highest
  totals share the win, and a shared win counts as a win for each of them (R11).
- *Rounds* are scored rounds; averages, best and worst are over their stored scores.
- An excluded game (played with a wrong rule) stays in the history, marked, but counts in
  no statistic.

It is a little over 400 lines because these rules of counting are written once, here, for
all five views of a player (statistics, head to head, score history, versus, months):
each view is one function and its result type, and they share the player's seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.data import ledger
from companion.data.circles import first_circle_id
from companion.data.history import as_utc
from companion.data.models import (
    Game,
    Player,
    PlayerColour,
    PlayerGame,
    PlayerMonth,
    PlayerOpponent,
    PlayerRoundScore,
    PlayerTotals,
    db,
    name_key,
    variant_of_columns,
)
from companion.rules import Colour, Variant

#: The opponents the player page compares with: the most frequent ones.
HEAD_TO_HEAD_OPPONENTS = 8

#: The opponents the player page offers to compare with one by one (its select).
OPPONENTS_TO_PICK = 60

#: The games a head-to-head page lists, the latest ones.
VERSUS_GAMES = 10


#: The player page's score history covers this many finished games, the latest ones.
SCORE_HISTORY_GAMES = 30


#: The player page's trend table covers this many months (those with games), the latest.
TREND_MONTHS = 12


@dataclass(frozen=True)
class PlayerRef:
    """A stored player: id and display name."""

    id: int
    name: str


def find_player(name: str, circle_id: int | None = None) -> PlayerRef | None:
    """The player of the circle ``circle_id`` called ``name`` (case and edge spaces aside),
    if any: a name is matched within its circle only. ``None`` for the circle:
    the server's first, a club server's one circle."""
    circle = first_circle_id() if circle_id is None else sa.literal(circle_id, sa.Integer)
    row = db.session.execute(
        sa.select(Player.id, Player.name).where(
            Player.circle_id == circle, Player.key == name_key(name)
        )
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


def per_round(points: int, rounds: int) -> float | None:
    """Points per scored round, so that games of 2, 3 and 5 rounds compare (``None``
    without a round)."""
    return points / rounds if rounds else None


@dataclass(frozen=True)
class GamePoint:
    """One of the player's finished games: when, their total over how many rounds, and
    whether they won."""

    code: str
    created_at: datetime
    total: int
    rounds: int
    won: bool

    @property
    def per_round(self) -> float | None:
        """The total divided by the rounds scored: what the player's chart draws."""
        return per_round(self.total, self.rounds)


def score_history(player: PlayerRef, most: int = SCORE_HISTORY_GAMES) -> list[GamePoint]:
    """The player's totals in their latest ``most`` finished, counted games, oldest first,
    each with its number of rounds (read backwards along the ledger's index, however many
    games there are). A finished game has scored all its planned rounds and no more (the
    services refuse a round past them), so its planned rounds are its scored rounds."""
    rows = db.session.execute(
        sa.select(
            Game.code,
            PlayerGame.created_at,
            PlayerGame.total,
            PlayerGame.won,
            Game.rounds_planned.label("rounds"),
        )
        .join(Game, Game.id == PlayerGame.game_id)
        .where(PlayerGame.player_id == player.id)
        .order_by(PlayerGame.created_at.desc(), PlayerGame.game_id.desc())
        .limit(most)
    ).all()
    return [
        GamePoint(row.code, as_utc(row.created_at), int(row.total), int(row.rounds), bool(row.won))
        for row in reversed(rows)
    ]


# --------------------------------------------------------------------------------------------
# Two players compared


@dataclass(frozen=True)
class VersusGame:
    """A finished, counted game both players sat in, with each one's total."""

    code: str
    created_at: datetime
    variant: Variant
    rounds: int
    total: int  #: the player's
    other_total: int  #: the other player's
    won: bool
    other_won: bool


@dataclass(frozen=True)
class Versus:
    """Two players compared over the counted games they played together.

    Wins and the difference are over the finished games (an unfinished game has no
    winner yet). A shared win (equal highest totals, R11) counts as a win for each of them,
    as everywhere in the statistics; ``shared_wins`` says how many wins were shared.
    """

    games: int
    finished_games: int
    wins: int
    other_wins: int
    shared_wins: int
    difference: int  #: the player's points minus the other's, summed over finished games
    rounds: int  #: the rounds of those games
    latest: tuple[VersusGame, ...]

    @property
    def difference_per_round(self) -> float | None:
        """The player's points per round minus the other's, over their finished games
        together (the player page's chart is in points per round too)."""
        return per_round(self.difference, self.rounds)


def _pairs(player: PlayerRef, other: PlayerRef, name: str) -> sa.Subquery:
    """The finished, counted games of both players, a row each with both results and the
    game's variant (read from the ledger by the player's primary key)."""
    mine = so.aliased(PlayerGame)
    theirs = so.aliased(PlayerGame)
    return (
        sa.select(
            mine.game_id.label("game_id"),
            mine.created_at.label("created_at"),
            mine.total.label("total"),
            theirs.total.label("other_total"),
            mine.won.label("won"),
            theirs.won.label("other_won"),
            Game.rounds_planned.label("rounds"),  # a finished game's scored rounds
            Game.code.label("code"),
            Game.family.label("family"),
            Game.scoring.label("scoring"),
            Game.colours_marked.label("colours_marked"),
            Game.reveal.label("reveal"),
        )
        .join(theirs, sa.and_(theirs.game_id == mine.game_id, theirs.player_id == other.id))
        .join(Game, Game.id == mine.game_id)
        .where(mine.player_id == player.id)
        .subquery(name)
    )


def versus(player: PlayerRef, other: PlayerRef, most: int = VERSUS_GAMES) -> Versus:
    """``player`` against ``other``: their games together, each one's wins, the average
    difference of their points per round, and their latest ``most`` finished games together.

    Two statements: the sums (with the games together from the ledger's row of the pair),
    then the latest games.
    """
    pairs = _pairs(player, other, "pairs")
    games_together = (
        sa.select(PlayerOpponent.games)
        .where(PlayerOpponent.player_id == player.id, PlayerOpponent.opponent_id == other.id)
        .scalar_subquery()
    )

    def count_of(condition: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
        return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)

    sums = db.session.execute(
        sa.select(
            sa.func.coalesce(games_together, 0).label("games"),
            sa.func.count(pairs.c.game_id).label("finished_games"),
            count_of(pairs.c.won).label("wins"),
            count_of(pairs.c.other_won).label("other_wins"),
            count_of(sa.and_(pairs.c.won, pairs.c.other_won)).label("shared_wins"),
            sa.func.coalesce(sa.func.sum(pairs.c.total - pairs.c.other_total), 0).label(
                "difference"
            ),
            sa.func.coalesce(sa.func.sum(pairs.c.rounds), 0).label("rounds"),
        ).select_from(pairs)
    ).one()
    latest = _pairs(player, other, "latest")
    rows = db.session.execute(
        sa.select(latest).order_by(latest.c.created_at.desc(), latest.c.game_id.desc()).limit(most)
    ).all()
    return Versus(
        games=int(sums.games),
        finished_games=int(sums.finished_games),
        wins=int(sums.wins),
        other_wins=int(sums.other_wins),
        shared_wins=int(sums.shared_wins),
        difference=int(sums.difference),
        rounds=int(sums.rounds),
        latest=tuple(
            VersusGame(
                code=row.code,
                created_at=as_utc(row.created_at),
                variant=variant_of_columns(row.family, row.scoring, row.colours_marked, row.reveal),
                rounds=int(row.rounds),
                total=int(row.total),
                other_total=int(row.other_total),
                won=bool(row.won),
                other_won=bool(row.other_won),
            )
            for row in rows
        ),
    )


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
