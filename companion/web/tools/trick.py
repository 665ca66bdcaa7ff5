"""The trick resolver's state: the plays so far, what a tap does to them, and what the page
shows about them (who is winning and why, or the Hat Trick piles, passes and next leader).

The resolver stores nothing: the trick travels in a hidden field as ``red-7 blue-9
pass:green-3`` and every request checks it again with ``companion.rules`` (C1, R19), so a
forged or stale field can only be refused, never believed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext

from companion.read_models.chips import ChipGroup, card_of_token, card_token, deck_groups
from companion.read_models.trick import TrickView
from companion.read_models.trick import trick_view as build_trick_view
from companion.rules import (
    Card,
    Message,
    Play,
    RuleError,
    TableSetup,
    check_hat_trick_plays,
    check_trick_cards,
    seat_order,
)
from companion.rules.text import N_

#: More plays than any game seats (R2): a longer hidden field is not even read.
MOST_PLAYS = 8
#: A pass in the trick's hidden field: ``pass:green-3`` (R19).
PASS_PREFIX = "pass:"


class TrickFieldError(RuleError):
    """A card or trick sent back by the page that cannot be used: not a card name (a forged
    form), or a pass after the trick rule changed from Hat Trick."""


def card_of_field(token: str) -> Card:
    """The card a chip of the resolver sent; anything else is refused in one sentence."""
    card = card_of_token(token)
    if card is None:
        raise TrickFieldError(
            Message(
                N_("%(token)s is not a card; cards are named like red-7."), {"token": token[:20]}
            )
        )
    return card


@dataclass(frozen=True)
class TrickTable:
    """Where the trick is played: the setup in use and, inside a game, the seats' names in
    seating order and the seat leading this trick."""

    setup: TableSetup
    names: tuple[str, ...] = ()
    leader: int = 0

    @property
    def is_hat_trick(self) -> bool:
        """Hat Trick tricks have passes and piles (R19-R21)."""
        return self.setup.variant.has_passes

    @property
    def seats(self) -> tuple[int, ...]:
        """Inside a game, the seats in play order from the leader (R3, R9)."""
        return tuple(seat_order(self.leader, len(self.names))) if self.names else ()

    def player(self, index: int) -> str:
        """Who plays the trick's ``index``-th card: play goes clockwise from the leader (R3,
        R9), so in a game that is a seat's name; outside one, players count from the leader."""
        if self.names:
            return self.names[self.seats[index]]
        return str(gettext("Player %(number)s", number=index + 1))


def write_trick(plays: Sequence[Play]) -> str:
    """The hidden field's text for ``plays``."""
    return " ".join((PASS_PREFIX if play.passed else "") + card_token(play.card) for play in plays)


def read_trick(text: str | None, table: TrickTable) -> tuple[Play, ...]:
    """The plays in the hidden field, checked against the table's rules (raises RuleError)."""
    tokens = (text or "").split()
    if len(tokens) > MOST_PLAYS:
        raise TrickFieldError(Message(N_("A trick holds one card per player.")))
    plays = tuple(
        Play(card_of_field(token.removeprefix(PASS_PREFIX)), token.startswith(PASS_PREFIX))
        for token in tokens
    )
    check_plays(plays, table)
    return plays


def check_plays(plays: Sequence[Play], table: TrickTable) -> None:
    """C1, R2, R17, R19: refuse a card not in the deck in use, a card twice, too many plays,
    a third colour or a pass out of place. An empty trick is simply not started yet."""
    if not plays:
        return
    setup = table.setup
    if table.is_hat_trick:
        check_hat_trick_plays(plays, setup.deck, setup.players)
        return
    if any(play.passed for play in plays):
        raise TrickFieldError(
            Message(N_("Only Hat Trick has passes: in Sticheln every player plays a card (R6)."))
        )
    check_trick_cards([play.card for play in plays], setup.deck, setup.players)


def add_play(
    plays: Sequence[Play], token: str, passed: bool, table: TrickTable
) -> tuple[Play, ...]:
    """The trick with one more play; a refused play raises RuleError and changes nothing.

    A pass is a Hat Trick play only (R19); the pass toggle is not offered otherwise.
    """
    played = (*plays, Play(card_of_field(token), passed and table.is_hat_trick))
    check_plays(played, table)
    return played


def trick_view(plays: Sequence[Play], table: TrickTable) -> TrickView:
    """Who is winning so far and why (R7, R8, R13), or the piles, passes and next leader of a
    Hat Trick trick (R19-R21), with the players named as the table knows them."""
    players = [table.player(index) for index in range(table.setup.players)]
    return build_trick_view(table.setup, players, plays, seats=table.seats)


def picker_groups(table: TrickTable) -> list[ChipGroup]:
    """The chips to tap: every card of the deck in use (R2, R17), a row per colour."""
    return deck_groups(table.setup.deck)
