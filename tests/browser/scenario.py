"""What the browser tests play: rounds, tricks, the games set up for the page checks.

Scores and winners are computed here through ``companion.rules``, never copied from a page,
so a page that shows a wrong number fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.read_models.messages import signed_number
from companion.rules import (
    PRESETS,
    Card,
    Colour,
    QuickEntry,
    running_totals,
    score_round,
    table_setup,
    trick_winner,
    winners,
)

CLASSIC = PRESETS["classic"]
#: Three players take 14 tricks of 3 cards from the 45 cards green, brown, red, blue and
#: yellow 0-8 (R2, R5), after laying out one indicator each (R4).
THREE_PLAYERS = table_setup(3, CLASSIC)


def card(text: str) -> Card:
    """``"red 4"`` as a card."""
    colour, value = text.split()
    return Card(Colour(colour), int(value))


@dataclass(frozen=True)
class QuickSeat:
    """One seat's quick entry: the indicator, tricks won and marked-colour cards captured."""

    indicator: str
    tricks: int
    captured: tuple[str, ...] = ()

    def entry(self) -> QuickEntry:
        """The rules' entry."""
        return QuickEntry((card(self.indicator),), self.tricks, tuple(map(card, self.captured)))

    def as_json(self) -> dict[str, Any]:
        """The API's shape of the entry."""
        return self.entry().as_json()


Round = tuple[QuickSeat, ...]


def seat(indicator: str, tricks: int, *captured: str) -> QuickSeat:
    """A seat's quick entry, briefly: ``seat("red 4", 6, "red 2", "red 5")``."""
    return QuickSeat(indicator, tricks, captured)


#: Five rounds of Ann, Ben and Cleo (seats 0, 1, 2). Worked by hand (R10: each card +1,
#: each card of the marked colour, the indicator included, minus its value):
#:   1: Ann 18-2 cards -(4+2+5) = +5,  Ben 15 - 0 = +15,        Cleo 9-1 -(1+8) = -1
#:   2: Ann 12 - 3 = +9,               Ben 12-1 -(2+7) = +2,    Cleo 18-1 -(0+6) = +11
#:   3: Ann 6 - 0 = +6,                Ben 21-1 -(1+3) = +16,   Cleo 15 - 6 = +9
#:   4: Ann 15-1 -(2+8) = +4,          Ben 15 - 5 = +10,        Cleo 12 - 0 = +12
#:   5: Ann 18 - 1 = +17,              Ben 12-1 -(3+5) = +3,    Cleo 12-1 -(2+0) = +9
#: Totals Ann +41, Ben +46, Cleo +40: Ben wins.
FIVE_ROUNDS: tuple[Round, ...] = (
    (seat("red 4", 6, "red 2", "red 5"), seat("blue 0", 5), seat("green 1", 3, "green 8")),
    (seat("yellow 3", 4), seat("brown 2", 4, "brown 7"), seat("red 0", 6, "red 6")),
    (seat("green 0", 2), seat("red 1", 7, "red 3"), seat("blue 6", 5)),
    (seat("blue 2", 5, "blue 8"), seat("yellow 5", 5), seat("brown 0", 4)),
    (seat("brown 1", 6), seat("green 3", 4, "green 5"), seat("yellow 2", 4, "yellow 0")),
)
#: The correction of round 2: Ben had also captured brown 8, so he scores 12-2 -(2+7+8) = -7
#: instead of +2, and his total falls to +37: Ann (+41) wins.
CORRECTED_ROUND = 2
CORRECTION: Round = (FIVE_ROUNDS[1][0], seat("brown 2", 4, "brown 7", "brown 8"), FIVE_ROUNDS[1][2])


def round_scores(rounds: Sequence[Round]) -> list[list[int]]:
    """Each round's scores per seat, as the rules compute them (C1-C4, R10)."""
    return [
        [seat.score for seat in score_round(THREE_PLAYERS, [s.entry() for s in played]).seats]
        for played in rounds
    ]


def totals_of(rounds: Sequence[Round]) -> list[int]:
    """The seats' totals after ``rounds`` (R11)."""
    return running_totals(round_scores(rounds))[-1]


def winner_line(names: Sequence[str], totals: Sequence[int]) -> str:
    """The scoreboard's result sentence, in English (R11)."""
    best = winners(list(totals))
    assert len(best) == 1, "the scenario has a single winner"
    return f"{names[best[0]]} wins with {signed_number(totals[best[0]])} points."


def signed(totals: Sequence[int]) -> list[str]:
    """Totals as the scoreboard writes them: +41, −7, 0."""
    return [signed_number(total) for total in totals]


@dataclass(frozen=True)
class TrickVerdict:
    """Who takes (or is winning) a trick and the rules' reason, in English."""

    winner: int  # index into the cards
    card: str  # "blue 7"
    reason: str


def verdict(cards: Sequence[str]) -> TrickVerdict:
    """The rules' verdict on a classic trick (R7, R8)."""
    outcome = trick_winner([card(text) for text in cards], CLASSIC.scoring)
    return TrickVerdict(outcome.winner, str(outcome.card), outcome.reason.render())
