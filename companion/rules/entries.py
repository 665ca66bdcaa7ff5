"""What the table enters for a seat's round (R10, R12-R16, R22): full, quick, delayed, and
Hat Trick's full and quick shapes.

Pages, the API, backups and the demo data each build these from their own input; scoring
(``scoring.score_round``) takes them all. Each also answers its shape in the JSON API.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.rules.cards import Card, Colour
from companion.rules.deck import HAT_TRICK_COLOURS


@dataclass(frozen=True)
class FullEntry:
    """A seat's round in full: indicator cards and every card captured (indicators apart)."""

    #: Entered in short (counts instead of every card): the round's mode is then quick.
    is_quick: ClassVar[bool] = False

    marked: tuple[Card, ...]
    captured: tuple[Card, ...]

    def as_json(self) -> dict[str, object]:
        """The API's shape of a full entry."""
        return {"marked": _cards_json(self.marked), "captured": _cards_json(self.captured)}


@dataclass(frozen=True)
class QuickEntry:
    """A seat's round in short: indicators, tricks won and only the marked-colour captures."""

    is_quick: ClassVar[bool] = True

    marked: tuple[Card, ...]
    tricks: int
    marked_captured: tuple[Card, ...]

    def as_json(self) -> dict[str, object]:
        """The API's shape of a quick entry."""
        return {
            "marked": _cards_json(self.marked),
            "tricks": self.tricks,
            "marked_captured": _cards_json(self.marked_captured),
        }


@dataclass(frozen=True)
class DelayedEntry:
    """A seat's captures when colours are chosen at the end (R16), with an optional override
    of the proposed choice."""

    is_quick: ClassVar[bool] = False

    captured: tuple[Card, ...]
    choose: tuple[Colour, ...] | None = None

    def as_json(self) -> dict[str, object]:
        """The API's shape of a delayed entry."""
        data: dict[str, object] = {"captured": _cards_json(self.captured)}
        if self.choose is not None:
            data["choose"] = [colour.value for colour in self.choose]
        return data


@dataclass(frozen=True)
class HatTrickFullEntry:
    """A seat's Hat Trick round: face-up cards and face-down pass cards."""

    is_quick: ClassVar[bool] = False

    captured: tuple[Card, ...]
    passed: tuple[Card, ...]

    def as_json(self) -> dict[str, object]:
        """The API's shape of a full Hat Trick entry."""
        return {"captured": _cards_json(self.captured), "passed": _cards_json(self.passed)}


@dataclass(frozen=True)
class HatTrickQuickEntry:
    """A seat's Hat Trick round as counts: face-up cards per colour, and passes."""

    is_quick: ClassVar[bool] = True

    counts: Mapping[Colour, int]
    passed: int

    def as_json(self) -> dict[str, object]:
        """The API's shape of a quick Hat Trick entry."""
        counts = {colour.value: self.counts.get(colour, 0) for colour in HAT_TRICK_COLOURS}
        return {"counts": counts, "passed": self.passed}


def _cards_json(cards: Sequence[Card]) -> list[dict[str, str | int]]:
    return [card.as_json() for card in cards]


ClassicEntry = FullEntry | QuickEntry | DelayedEntry
HatTrickEntry = HatTrickFullEntry | HatTrickQuickEntry
Entry = ClassicEntry | HatTrickEntry
