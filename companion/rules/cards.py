"""Cards and the box they come in (R1)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


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
