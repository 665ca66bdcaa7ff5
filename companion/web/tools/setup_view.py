"""What the table setup page shows: the cards to take out of the box and those that stay in
(R1, R2, R17), hands, cards left out and tricks (R5, R14, R16, R18), and, inside a game, the
players in seating order (who deals and leads comes from ``read_models.scoreboard``, R3).

Every number comes from ``companion.rules``; this module only sorts it for the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.data.models import Game
from companion.read_models.chips import ChipGroup, colour_group, deck_groups
from companion.rules import (
    HAT_TRICK,
    Card,
    Colour,
    TableSetup,
    Variant,
    in_box,
)
from companion.rules.variants import TrumpOrder

#: The highest value printed in any colour (R1): the box is searched up to it.
TOP_OF_BOX = max(colour.top_value for colour in Colour)


@dataclass(frozen=True)
class BoxView:
    """The setup of one table, sorted for the page."""

    setup: TableSetup
    taken: tuple[ChipGroup, ...]
    kept: tuple[ChipGroup, ...]

    @property
    def is_hat_trick(self) -> bool:
        """Hat Trick lays nothing out and plays every card but the last (R18)."""
        return self.setup.variant.has_passes

    @property
    def kept_count(self) -> int:
        """Cards that stay in the box: the box (R1) less the deck in use."""
        return sum(len(group.chips) for group in self.kept)


def box_view(setup: TableSetup) -> BoxView:
    """Split the box (R1) into the deck in use (R2, R17) and the cards that stay in it."""
    deck = setup.deck
    taken = deck_groups(deck)
    used = set(deck.colours)
    order = (*deck.colours, *(colour for colour in Colour if colour not in used))
    kept = []
    for colour in order:
        values = [
            value
            for value in range(TOP_OF_BOX + 1)
            if in_box(Card(colour, value)) and Card(colour, value) not in deck
        ]
        if values:
            kept.append(colour_group(colour, values))
    return BoxView(setup, tuple(taken), tuple(kept))


def seat_names(game: Game) -> list[str]:
    """The players' names in seating order (clockwise, R3)."""
    return [seat.player.name for seat in game.seats]


def trick_rule_of(variant: Variant) -> str:
    """The resolver's choice for a variant: Hat Trick, Reverse's lowest trump (R13), or the
    highest trump of every other classic-family variant (R8)."""
    settings = variant.settings
    if settings is None:
        return HAT_TRICK
    return "reverse" if settings.scoring.trump_order is TrumpOrder.LOWEST else "classic"
