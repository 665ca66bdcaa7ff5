"""Which cards are in play for a player count (R2 for the classic family, R17 for Hat Trick)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from companion.rules.cards import Card, Colour

FIVE_COLOURS = (Colour.GREEN, Colour.BROWN, Colour.RED, Colour.BLUE, Colour.YELLOW)
SIX_COLOURS = (*FIVE_COLOURS, Colour.VIOLET)
HAT_TRICK_COLOURS = (Colour.RED, Colour.BLUE, Colour.GREEN)


@dataclass(frozen=True)
class Deck:
    """The cards taken out of the box: every value from ``min_value`` to ``max_value`` of
    each colour in ``colours`` (listed in the rulebook's order)."""

    colours: tuple[Colour, ...]
    min_value: int
    max_value: int

    @property
    def size(self) -> int:
        """How many cards the deck holds."""
        return len(self.colours) * (self.max_value - self.min_value + 1)

    def __contains__(self, card: object) -> bool:
        return (
            isinstance(card, Card)
            and card.colour in self.colours
            and self.min_value <= card.value <= self.max_value
        )

    def __iter__(self) -> Iterator[Card]:
        for colour in self.colours:
            for value in range(self.min_value, self.max_value + 1):
                yield Card(colour, value)

    def cards_of(self, colour: Colour) -> int:
        """How many cards of ``colour`` the deck holds (0 if the colour is not used)."""
        return self.max_value - self.min_value + 1 if colour in self.colours else 0

    def as_json(self) -> dict[str, object]:
        """The API's shape of a deck."""
        return {
            "colours": [colour.value for colour in self.colours],
            "min_value": self.min_value,
            "max_value": self.max_value,
            "size": self.size,
        }


#: R2: players -> (colours, highest value). Every classic-family deck starts at 0.
CLASSIC_DECKS: dict[int, tuple[tuple[Colour, ...], int]] = {
    3: (FIVE_COLOURS, 8),
    4: (FIVE_COLOURS, 11),
    5: (FIVE_COLOURS, 14),
    6: (SIX_COLOURS, 14),
    7: (SIX_COLOURS, 17),
    8: (SIX_COLOURS, 18),
}

#: R17: players -> (lowest value, hand size) for Hat Trick, always red, blue and green to 20.
HAT_TRICK_DECKS: dict[int, tuple[int, int]] = {4: (1, 15), 5: (1, 12), 6: (1, 10), 7: (0, 9)}

#: The whole box (R1), used to check cards when no player count is known.
BOX = tuple(Deck((colour,), 0, colour.top_value) for colour in Colour)


def in_box(card: Card) -> bool:
    """Whether ``card`` exists at all (R1)."""
    return any(card in deck for deck in BOX)
