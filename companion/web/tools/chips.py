"""Cards as the tool pages draw them: chips that show colour, value and the colour's shape.

A chip's colour alone would leave colour-blind players guessing, so every chip also carries
the colour's shape (``messages.colour_symbol``) and its name for screen readers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.read_models.messages import colour_name, colour_symbol
from companion.rules import Card, Colour, Deck, Message, RuleError
from companion.rules.text import N_

#: A pass in the trick's hidden field: ``pass:green-3`` (R19).
PASS_PREFIX = "pass:"


class TrickFieldError(RuleError):
    """A card or trick sent back by the page that cannot be used: not a card name (a forged
    form), or a pass after the trick rule changed from Hat Trick."""


@dataclass(frozen=True)
class Chip:
    """One card on a page. ``colour`` is the API name, used for the CSS class too."""

    colour: str
    value: int
    symbol: str
    label: str

    @property
    def token(self) -> str:
        """How the card travels in a form: ``red-7``."""
        return f"{self.colour}-{self.value}"


@dataclass(frozen=True)
class ColourGroup:
    """The chips of one colour, with the colour's name, shape and value range."""

    colour: str
    name: str
    symbol: str
    chips: tuple[Chip, ...]

    @property
    def low(self) -> int:
        """The lowest value in the group."""
        return self.chips[0].value

    @property
    def high(self) -> int:
        """The highest value in the group."""
        return self.chips[-1].value


def card_label(card: Card) -> str:
    """A card in words, in the player's language: "red 7" (as rules messages name it)."""
    return f"{colour_name(card.colour)} {card.value}"


def chip_of(card: Card) -> Chip:
    """The chip drawing ``card``."""
    return Chip(card.colour.value, card.value, colour_symbol(card.colour), card_label(card))


def colour_group(colour: Colour, values: Iterable[int]) -> ColourGroup:
    """Chips for ``values`` of one colour, lowest first."""
    chips = tuple(chip_of(Card(colour, value)) for value in sorted(values))
    return ColourGroup(colour.value, colour_name(colour), colour_symbol(colour), chips)


def deck_groups(deck: Deck, keep: Callable[[Card], bool] = lambda _card: True) -> list[ColourGroup]:
    """One group per colour of the deck, in the rulebook's order, of the cards ``keep``s."""
    groups = []
    for colour in deck.colours:
        values = [card.value for card in deck if card.colour is colour and keep(card)]
        if values:
            groups.append(colour_group(colour, values))
    return groups


def card_of_token(token: str) -> Card:
    """Read ``red-7`` back into a card; anything else is refused in one sentence."""
    name, dash, value = token.partition("-")
    if not dash or not value.isascii() or not value.isdigit() or len(value) > 2:
        raise TrickFieldError(
            Message(
                N_("%(token)s is not a card; cards are named like red-7."), {"token": token[:20]}
            )
        )
    return Card(Colour.named(name), int(value))
