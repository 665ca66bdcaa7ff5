"""What the table enters for a seat's round (R10, R12-R16, R22): full, quick, delayed, and
Hat Trick's full and quick shapes.

Pages, the API, backups and the demo data each build these from their own input; scoring
(``scoring.score_round``) takes them all. Each also answers its shape in the JSON API
(``as_json``) and is read back from it (``from_json``): ``entry_from_json`` is the one reading
of a stored or sent entry, the API checking each field first to name the one it refuses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Self

from companion.rules.cards import Card, Colour
from companion.rules.deck import HAT_TRICK_COLOURS

if TYPE_CHECKING:
    from companion.rules.table import TableSetup


class MalformedEntry(ValueError):
    """An entry's JSON that is not the shape of any entry: a missing field, a count that is
    no whole number, a card or colour that does not exist by that name."""


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

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Self:
        """A full entry back from its API shape."""
        return cls(_cards_of(data, "marked"), _cards_of(data, "captured"))


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

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Self:
        """A quick entry back from its API shape."""
        return cls(
            _cards_of(data, "marked"),
            _count_of(data, "tricks"),
            _cards_of(data, "marked_captured"),
        )


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

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Self:
        """A delayed entry back from its API shape; no ``choose`` keeps the proposal."""
        choose = data.get("choose")
        if choose is None:
            return cls(_cards_of(data, "captured"))
        return cls(_cards_of(data, "captured"), tuple(_colour_of(name) for name in _list(choose)))


@dataclass(frozen=True)
class HatTrickFullEntry:
    """A seat's Hat Trick round: face-up cards and face-down pass cards."""

    is_quick: ClassVar[bool] = False

    captured: tuple[Card, ...]
    passed: tuple[Card, ...]

    def as_json(self) -> dict[str, object]:
        """The API's shape of a full Hat Trick entry."""
        return {"captured": _cards_json(self.captured), "passed": _cards_json(self.passed)}

    def face_up_counts(self) -> dict[Colour, int]:
        """R22: the face-up cards per colour of red, blue and green."""
        return {c: sum(card.colour is c for card in self.captured) for c in HAT_TRICK_COLOURS}

    @property
    def pass_count(self) -> int:
        """How many times the seat passed (one face-down card a pass, R20)."""
        return len(self.passed)

    @property
    def pass_cards(self) -> tuple[Card, ...]:
        """The face-down cards, named."""
        return self.passed

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Self:
        """A full Hat Trick entry back from its API shape."""
        return cls(_cards_of(data, "captured"), _cards_of(data, "passed"))


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

    def face_up_counts(self) -> dict[Colour, int]:
        """R22: the face-up cards per colour of red, blue and green, as counted."""
        return {colour: self.counts.get(colour, 0) for colour in HAT_TRICK_COLOURS}

    @property
    def pass_count(self) -> int:
        """How many times the seat passed (R20)."""
        return self.passed

    @property
    def pass_cards(self) -> tuple[Card, ...]:
        """A count names no face-down card."""
        return ()

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Self:
        """A quick Hat Trick entry back from its API shape: a count per colour named."""
        counts = _field(data, "counts")
        if not isinstance(counts, Mapping):
            raise MalformedEntry("counts must be an object of colours")
        return cls(
            {_colour_of(name): _count(count) for name, count in counts.items()},
            _count_of(data, "passed"),
        )


def entry_from_json(setup: TableSetup, data: object) -> Entry:
    """A seat's entry back from the API's shape, the kind told by the game (Hat Trick's
    passes, R17-R22; colours chosen at the end, R16) and then by the fields given."""
    if not isinstance(data, Mapping):
        raise MalformedEntry("an entry must be an object")
    if setup.variant.has_passes:
        if "counts" in data:
            return HatTrickQuickEntry.from_json(data)
        return HatTrickFullEntry.from_json(data)
    if not setup.cards_laid_out:
        return DelayedEntry.from_json(data)
    if "tricks" in data or "marked_captured" in data:
        return QuickEntry.from_json(data)
    return FullEntry.from_json(data)


def _cards_json(cards: Sequence[Card]) -> list[dict[str, str | int]]:
    return [card.as_json() for card in cards]


def _field(data: Mapping[str, object], name: str) -> object:
    if name not in data:
        raise MalformedEntry(f"the field {name!r} is missing")
    return data[name]


def _list(value: object) -> list[object]:
    if not isinstance(value, list | tuple):
        raise MalformedEntry("a list was expected")
    return list(value)


def _count(value: object) -> int:
    """A whole number of cards or tricks (``true`` is none)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MalformedEntry(f"{value!r} is not a whole number")
    return value


def _count_of(data: Mapping[str, object], name: str) -> int:
    return _count(_field(data, name))


def _colour_of(name: object) -> Colour:
    if not isinstance(name, str):
        raise MalformedEntry(f"{name!r} is not a colour's name")
    try:
        return Colour(name)
    except ValueError:
        raise MalformedEntry(f"{name!r} is not a colour") from None


def _card_of(value: object) -> Card:
    """A card ``{"colour": ..., "value": ...}``; whether the deck holds it is C1's question."""
    if not isinstance(value, Mapping):
        raise MalformedEntry("a card must be an object")
    return Card(_colour_of(_field(value, "colour")), _count(_field(value, "value")))


def _cards_of(data: Mapping[str, object], name: str) -> tuple[Card, ...]:
    return tuple(_card_of(item) for item in _list(_field(data, name)))


ClassicEntry = FullEntry | QuickEntry | DelayedEntry
HatTrickEntry = HatTrickFullEntry | HatTrickQuickEntry
Entry = ClassicEntry | HatTrickEntry
