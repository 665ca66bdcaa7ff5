"""What the table needs before a round: deck, hands, cards left out, tricks (R2, R5, R14,
R16, R17, R18), and who deals and leads each round (R3, R23)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.rules.cards import Card
from companion.rules.deck import Deck
from companion.rules.errors import RuleError
from companion.rules.text import N_
from companion.rules.variants import Variant

MIN_ROUNDS = 1
MAX_ROUNDS = 10
DEFAULT_ROUNDS = 5


@dataclass(frozen=True)
class TableSetup:
    """Everything fixed by the player count and the variant."""

    players: int
    variant: Variant

    @property
    def deck(self) -> Deck:
        """R2 / R17."""
        return self.variant.deck(self.players)

    @property
    def hand_size(self) -> int:
        """R2 / R17."""
        return self.variant.hand_size(self.players)

    @property
    def left_out(self) -> int:
        """R2: cards shown and set aside at 7 (3 cards) and 8 players (2 cards)."""
        return self.deck.size - self.players * self.hand_size

    @property
    def cards_laid_out(self) -> int:
        """Indicator cards per player (R4, R14, R16); none in Hat Trick."""
        return self.variant.cards_laid_out

    @property
    def tricks_per_round(self) -> int:
        """R5, R14, R16, R18."""
        return self.variant.tricks_per_round(self.players)

    @property
    def cards_per_trick(self) -> int:
        """C3 / C5: each trick gives exactly one card per player (a pass card included)."""
        return self.players

    @property
    def cards_per_round(self) -> int:
        """C3 / C5: the cards the whole table captures in a round, tricks x players."""
        return self.variant.cards_per_round(self.players)

    def as_json(self) -> dict[str, object]:
        """The shape of ``GET /api/v1/setup``."""
        return {
            "players": self.players,
            "variant": self.variant.as_json(),
            "deck": self.deck.as_json(),
            "hand_size": self.hand_size,
            "left_out": self.left_out,
            "tricks_per_round": self.tricks_per_round,
        }


def table_setup(players: int, variant: Variant) -> TableSetup:
    """The setup for ``players`` at ``variant``; refuses a player count it cannot seat."""
    variant.deck(players)  # raises PlayerCountError (R2, R17)
    return TableSetup(players, variant)


@dataclass(frozen=True)
class Deal:
    """One shuffled deal: a hand per seat and the cards left out (R2)."""

    hands: tuple[tuple[Card, ...], ...]
    left_out: tuple[Card, ...]


def deal(setup: TableSetup, rng: random.Random) -> Deal:
    """Shuffle the deck in use and deal it, as the table would."""
    cards = list(setup.deck)
    rng.shuffle(cards)
    size = setup.hand_size
    hands = tuple(tuple(cards[seat * size : (seat + 1) * size]) for seat in range(setup.players))
    return Deal(hands, tuple(cards[setup.players * size :]))


def check_round_count(rounds: int) -> int:
    """R11: a game has 1 to 10 rounds (5 by default)."""
    if not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
        raise RuleError.saying(
            N_("A game has 1 to 10 rounds, not %(rounds)s."), field="rounds", rounds=rounds
        )
    return rounds


def rounds_one_per_player(players: int) -> int:
    """R11: the English edition (Stick 'Em, 2020) plays as many rounds as there are players,
    a count R11 allows (3 to 8 players, R2, within 1 to 10 rounds)."""
    return players


def round_leader(round_number: int, first_leader: int, players: int) -> int:
    """R3: the seat that leads the first trick of round ``round_number`` (1-based).

    Round 1 is led by the seat the table names; each later round the deal moves one seat
    clockwise, and so does the lead.
    """
    if round_number < 1 or not 0 <= first_leader < players:
        raise ValueError("round numbers start at 1 and the first leader is one of the seats")
    return (first_leader + round_number - 1) % players


def seat_order(leader: int, players: int) -> list[int]:
    """R3, R9: the seats in playing order, clockwise from ``leader``."""
    return [(leader + offset) % players for offset in range(players)]


def tricks_of_cards(cards: int, players: int) -> int | None:
    """C3: the tricks a seat's ``cards`` captured make, one card per player each; ``None``
    while the count is no whole number of tricks."""
    tricks, rest = divmod(cards, players)  # one card per player each (C3)
    return tricks if rest == 0 else None


def round_dealer(round_number: int, first_leader: int, players: int) -> int:
    """R3: the dealer sits just before (counter-clockwise of) the round's first leader."""
    return (round_leader(round_number, first_leader, players) - 1) % players


def running_totals(round_scores: list[list[int]] | tuple[tuple[int, ...], ...]) -> list[list[int]]:
    """Each seat's total after every round (R11)."""
    totals: list[list[int]] = []
    current: list[int] = []
    for scores in round_scores:
        current = [a + b for a, b in zip(current, scores, strict=True)] if current else list(scores)
        totals.append(current)
    return totals


def winners(totals: list[int] | tuple[int, ...]) -> list[int]:
    """R11: every seat with the highest total; equal highest totals share the win."""
    if not totals:
        return []
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
