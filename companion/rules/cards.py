"""Cards and the box they come in (R1)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

#: Between a card's colour and value when a card is named in one word, as a page's card chip
#: sends it: ``red-7``.
TOKEN_SEPARATOR = "-"
#: The most digits of a value in such a word: no deck holds a card above 99 (R1), and more
#: digits are noise.
MOST_VALUE_DIGITS = 3


class Colour(enum.Enum):
    """The six colours of the box; the value is the colour's name in the JSON API."""

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    YELLOW = "yellow"
    BROWN = "brown"
    VIOLET = "violet"

    @property
    def top_value(self) -> int:
        """The highest value printed in this colour (R1): 20 or 18."""
        return 20 if self in (Colour.RED, Colour.BLUE, Colour.GREEN) else 18

    @classmethod
    def named(cls, name: str) -> Colour:
        """The colour called ``name`` in the API; :class:`UnknownColourError` otherwise."""
        from companion.rules.errors import UnknownColourError

        try:
            return cls(name)
        except ValueError:
            raise UnknownColourError(name) from None


@dataclass(frozen=True)
class Card:
    """One card: a colour and a value. Every (colour, value) pair exists once (R1)."""

    colour: Colour
    value: int

    def __str__(self) -> str:
        return f"{self.colour.value} {self.value}"

    def as_json(self) -> dict[str, str | int]:
        """The API's shape of a card."""
        return {"colour": self.colour.value, "value": self.value}


def card_token(card: Card) -> str:
    """The one-word name of a card that its chip sends as a form value: ``red-7``."""
    return f"{card.colour.value}{TOKEN_SEPARATOR}{card.value}"


def card_of_token(token: str) -> Card | None:
    """The card a one-word name such as ``red-7`` stands for (a chip's form value); ``None``
    for anything no chip sends.

    A token is what a request says, not a play: whether the card is in the deck in use is
    for the checks to answer (C1). The server's pages and the phone's offline reading of
    them (companion/play_state/round_fields.py) both read tokens here, so they read them alike.
    """
    colour, separator, value = token.partition(TOKEN_SEPARATOR)
    if not separator or not value.isascii() or not value.isdigit():
        return None
    if len(value) > MOST_VALUE_DIGITS:
        return None
    try:
        return Card(Colour(colour), int(value))
    except ValueError:
        return None
