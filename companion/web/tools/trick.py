"""The trick resolver's state: the plays so far, what a tap does to them, and what the page
shows about them (who is winning and why, or the Hat Trick piles, passes and next leader).

The resolver stores nothing: the trick travels in a hidden field, read and tapped by
``companion.formats.trick_taps`` (which the offline rules worker runs too), checked again
with ``companion.rules`` at every request (C1, R19).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext

from companion.read_models.chips import ChipGroup, deck_groups
from companion.read_models.trick import TrickView
from companion.read_models.trick import trick_view as build_trick_view
from companion.rules import Play, TableSetup, seat_order


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


def trick_view(plays: Sequence[Play], table: TrickTable) -> TrickView:
    """Who is winning so far and why (R7, R8, R13), or the piles, passes and next leader of a
    Hat Trick trick (R19-R21), with the players named as the table knows them."""
    players = [table.player(index) for index in range(table.setup.players)]
    return build_trick_view(table.setup, players, plays, seats=table.seats)


def picker_groups(table: TrickTable) -> list[ChipGroup]:
    """The chips to tap: every card of the deck in use (R2, R17), a row per colour."""
    return deck_groups(table.setup.deck)
