"""Read-only views of a stored game for the pages: the scoreboard as the table reads it.

The scoreboard page itself is drawn by the page model of companion/pages/scoreboard.py, from
the game's state; this one serves the table display and the confirmations, and lends its
next round to the table setup page.

Nothing here changes a game (that is ``companion.services``' job); it gathers what the
scoreboard shows — seats, rounds, marked colours (hidden while hazy, R15), running totals,
who deals and leads (R3), winners (R11) — into plain values, so the template stays simple.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.data import queries
from companion.data.models import Game, Round
from companion.data.states import GameStatus, RoundStatus
from companion.pages.scoreboard import NextRound, Standing, ranked_standings, short_names
from companion.read_models.chips import Chip
from companion.read_models.live_follow import FollowedRound, followed_round
from companion.read_models.messages import variant_label
from companion.rules import Colour, round_dealer, round_leader


@dataclass(frozen=True)
class SeatCell:
    """One seat in one round: the score, the running total and the marked colours."""

    seat: int
    score: int | None
    total: int | None
    chips: tuple[Chip, ...]
    marks_hidden: bool
    leads: bool


@dataclass(frozen=True)
class RoundRow:
    """One round of the table: its number, status, dealer and leader (R3), a cell per seat."""

    number: int
    status: str
    dealer: int
    leader: int
    cells: tuple[SeatCell, ...]

    @property
    def is_scored(self) -> bool:
        """Whether the round's scores are in (and its hazy colours may be shown, R15)."""
        return self.status == RoundStatus.SCORED


@dataclass(frozen=True)
class Scoreboard:
    """Everything the scoreboard page shows of a game."""

    code: str
    version: int
    status: str
    names: tuple[str, ...]
    short_names: tuple[str, ...]
    variant_label: str
    is_hat_trick: bool
    is_hazy: bool
    rounds_planned: int
    rows: tuple[RoundRow, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    next_round: NextRound | None
    #: Left out of the statistics (played with a wrong rule); still in the history.
    excluded: bool = False
    #: The game this table started after this one ("play again"), once there is one.
    next_game_code: str | None = None
    #: The round being played live, trick by trick, as the table follows it.
    following: FollowedRound | None = None

    @property
    def leader_now(self) -> int | None:
        """Who leads now: the round's first leader (R3), or in a live round the leader of
        the trick being played (R9, R21)."""
        if self.following is not None:
            return self.following.leader
        return self.next_round.leader if self.next_round is not None else None

    @property
    def is_over(self) -> bool:
        """Whether the game takes no more rounds (finished or abandoned): it may be played
        again."""
        return self.status != GameStatus.IN_PROGRESS

    @property
    def scored_rounds(self) -> int:
        """How many rounds have their scores in."""
        return sum(1 for row in self.rows if row.is_scored)

    @property
    def scored_totals(self) -> list[list[int]]:
        """Each seat's running total after every scored round, for the cumulative chart."""
        return [[cell.total or 0 for cell in row.cells] for row in self.rows if row.is_scored]

    @property
    def is_ranked(self) -> bool:
        """Whether the players are listed by rank: once the game is finished."""
        return self.status == GameStatus.FINISHED

    @property
    def standings(self) -> tuple[Standing, ...]:
        """The players' list: by rank once finished, else in seat order."""
        if self.is_ranked:
            return ranked_standings(self.totals)
        return tuple(Standing(seat) for seat in range(len(self.names)))

    @property
    def winner_names(self) -> list[str]:
        """The winners by name, in seat order (R11: equal highest totals share the win)."""
        return [self.names[seat] for seat in self.winners]

    @property
    def winning_total(self) -> int | None:
        """The winners' total, once there are winners."""
        return self.totals[self.winners[0]] if self.winners else None


def chips_of_cards(cards: Sequence[Mapping[str, object]]) -> tuple[Chip, ...]:
    """Chips for indicator cards as stored in a round's entries ({"colour", "value"})."""
    return tuple(Chip(str(card["colour"]), _int_or_none(card.get("value"))) for card in cards)


def chips_of_colours(colours: str) -> tuple[Chip, ...]:
    """Chips for the colours a scored round stored ("red,blue"): delayed and Hat Trick
    rounds lay no indicator, so the scored colours are all there is to show."""
    return tuple(Chip(name, None) for name in colours.split(",") if name in _COLOUR_VALUES)


_COLOUR_VALUES = frozenset(colour.value for colour in Colour)


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) else None


def round_cells(game: Game, round_: Round, totals: Sequence[int]) -> tuple[SeatCell, ...]:
    """Each seat's score, running total and marked colours in ``round_`` (hidden while a
    hazy round is unscored, R15, exactly as ``queries.marked_of`` decides)."""
    marked = queries.marked_of(game, round_)
    scored = round_.status == RoundStatus.SCORED
    results = {result.seat: result for result in round_.results} if scored else {}
    cells = []
    for seat in range(len(game.seats)):
        result = results.get(seat)
        chips: tuple[Chip, ...] = ()
        if marked is not None and seat < len(marked) and marked[seat]:
            chips = chips_of_cards(marked[seat])
        elif marked is not None and result is not None:
            chips = chips_of_colours(result.colour_names)
        cells.append(
            SeatCell(
                seat=seat,
                score=result.score if result is not None else None,
                total=totals[seat] if scored else None,
                chips=chips,
                marks_hidden=marked is None,
                leads=seat == round_.leader,
            )
        )
    return tuple(cells)


def next_round_of(game: Game, playing: Round | None) -> NextRound | None:
    """The round being played (``playing``, its colours marked), or the next one to play;
    ``None`` once no round is left.

    Round n is the one being played, else the number of rounds recorded + 1 (R3, R23).
    """
    number = queries.round_at_table(game)
    if number is None:
        return None
    players = len(game.seats)
    return NextRound(
        number=number,
        planned=game.rounds_planned,
        dealer=round_dealer(number, game.first_leader, players),
        leader=round_leader(number, game.first_leader, players),
        colours_marked=playing is not None,
        lays_out_indicators=queries.setup_of(game).cards_laid_out > 0,
    )


def scoreboard_of(game: Game) -> Scoreboard:
    """The whole scoreboard of ``game``, ready for the template."""
    names = tuple(seat.player.name for seat in game.seats)
    playing = queries.playing_round(game)
    variant = game.variant
    totals = queries.totals_of(game)
    players = len(names)
    rows = tuple(
        RoundRow(
            number=round_.number,
            status=round_.status,
            dealer=round_dealer(round_.number, game.first_leader, players),
            leader=round_.leader,
            cells=round_cells(game, round_, running),
        )
        for round_, running in zip(game.rounds, totals.per_round, strict=True)
    )
    return Scoreboard(
        code=game.code,
        version=game.version,
        status=game.status,
        names=names,
        short_names=tuple(short_names(names)),
        variant_label=variant_label(variant),
        is_hat_trick=variant.has_passes,
        is_hazy=variant.hides_marks,
        rounds_planned=game.rounds_planned,
        rows=rows,
        totals=tuple(totals.totals),
        winners=tuple(totals.winners),
        next_round=next_round_of(game, playing),
        excluded=game.excluded,
        next_game_code=next_game_code(game),
        following=followed_round(game, playing, names),
    )


def next_game_code(game: Game) -> str | None:
    """The public id of the game started after ``game``; no query while there is none."""
    return game.next_game.code if game.next_game is not None else None
