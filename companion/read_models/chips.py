"""Card chips: how every page draws a card or a colour, and how a chip's card comes back.

A chip's colour alone would leave colour-blind players guessing, so every chip also carries
the colour's shape (``messages.colour_symbol``) and names its card for screen readers. This
model serves the round pages' card fields, the history pages and the table setup; the pages
the phone draws too (the scoreboard, the trick resolver, the live page and the followed trick)
draw companion/pages/trick.py's chips, which say their card the same way (``CardWords``). The
templates draw both with one macro (``macros.html``'s ``chip``) and static/style.css with one
block keyed by ``data-colour``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.pages.trick import CardWords, ChipRange
from companion.read_models.messages import colour_name, colour_symbol
from companion.rules import Card, Colour, Deck
from companion.rules.cards import TOKEN_SEPARATOR as TOKEN_SEPARATOR  # split where forms split it
from companion.rules.cards import card_of_token as card_of_token  # read where the phone reads it
from companion.rules.cards import card_token as card_token  # written where the phone writes it


class Coloured:
    """A colour's words and shape, in the player's language, for what is drawn in it."""

    colour: str

    @property
    def name(self) -> str:
        """The colour's name in the player's language."""
        return colour_name(self.colour)

    @property
    def symbol(self) -> str:
        """The shape that tells the colour without seeing it."""
        return colour_symbol(self.colour)


@dataclass(frozen=True)
class Chip(CardWords, Coloured):
    """One card (or, with no value, a colour) as drawn: its colour is the API name, which
    the page's ``data-colour`` and the form value carry too. ``checked`` is a tapped chip,
    ``refused`` one the rules just turned down."""

    colour: str
    value: int | None = None
    checked: bool = False
    refused: bool = False

    @classmethod
    def of(cls, card: Card, checked: bool = False, refused: bool = False) -> Chip:
        """The chip drawing ``card``."""
        return cls(card.colour.value, card.value, checked, refused)


@dataclass(frozen=True)
class ChipGroup(ChipRange, Coloured):
    """The chips of one colour. ``hidden`` when the colour cannot be meant here (e.g. not a
    marked colour in quick entry) and none of its chips is tapped."""

    colour: str
    chips: tuple[Chip, ...]
    hidden: bool = False

    @property
    def tapped(self) -> int:
        """How many of the group's chips are tapped."""
        return sum(chip.checked for chip in self.chips)


def colour_group(colour: Colour, values: Iterable[int]) -> ChipGroup:
    """Chips for ``values`` of one colour, lowest first."""
    return ChipGroup(colour.value, tuple(Chip.of(Card(colour, value)) for value in sorted(values)))


def deck_groups(deck: Deck, keep: Callable[[Card], bool] = lambda _card: True) -> list[ChipGroup]:
    """One group per colour of the deck, in the rulebook's order, of the cards ``keep``s."""
    groups = []
    for colour in deck.colours:
        values = [card.value for card in deck if card.colour is colour and keep(card)]
        if values:
            groups.append(colour_group(colour, values))
    return groups
