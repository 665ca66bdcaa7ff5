"""A round form's posted fields read into the API's entries: one reading of the record and
correct pages, on the server and on the phone.

The round pages post one small form per seat, its fields named ``s<seat>-<field>`` (card
chips as tokens such as ``red-7``, counts as numbers, a delayed seat's colour choice as
``red+blue``; companion/web/games/entry/forms.py). Offline, the phone shows the server's own
page (a copy its service worker keeps); when the table taps Save with no network, the page's
fields (``FormData`` as ``{name: [values...]}``) come here, in the rules worker (the call
``rounds/fields``), and leave as one entry per seat in the API's shapes (DESIGN.md,
``POST /api/v1/rounds/score``), with the one count the others imply filled in and reported
(C3, C5) so that the table confirms it before anything is saved, as the page asks.

What the page and this module share, so that there is one of each: the kinds of form and
the fields each posts (``SEAT_FIELDS``, ``kinds_for``), the way a seat's values make an entry
(``seat_entry``), the count the others imply and the Hat Trick seats at 0 passes
(``implied_of``, through the rules' own functions), the card tokens
(``companion.rules.cards.card_of_token``), the colour choice (``colours_of_choice``) and the
largest count (``MOST_COUNT``). What the page keeps to itself: reading each field through
WTForms, which keeps the table's input on the page and puts each refusal beside its field in
the page's language. This module cannot use WTForms (it runs under Pyodide with nothing but
the standard library, ``companion.rules`` and the pure readers beside it; the import contract
in pyproject.toml keeps it so), so it reads the same values the same way (a count is the
first value sent, read by ``int``; a chip field is every value sent; a field nobody tapped is
not sent) and refuses in the API's English, naming the seat (1-based, as the table counts)
and the field. tests/offline/test_round_fields.py holds both readings to the same entries.

Where this reading is stricter than the page's, on purpose: a count below 0 (the page takes
-999..999 and lets the checks refuse it, naming the seat, C3/C5), more than two indicator
cards or chosen colours, or more cards in a field than the box holds. The page's rules refuse
each of these rounds anyway; the API's entries cannot hold them, so they are refused here,
naming the seat, instead of leaving the phone with entries the API would not read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.play_state import parse
from companion.play_state.parse import ApiError
from companion.rules import (
    Card,
    Colour,
    DelayedEntry,
    Entry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
    TableSetup,
    implied_hat_trick_count,
    implied_tricks,
    seats_at_zero_passes,
    table_setup,
)
from companion.rules.cards import card_of_token
from companion.rules.deck import HAT_TRICK_COLOURS

#: The round forms that read a whole round, as the page's ``data-kind`` names them (the
#: values of ``Kind`` in companion/pages/record.py).
QUICK = "quick"  # indicators, tricks won and marked-colour captures (C4)
FULL = "full"  # indicators and every captured card
DELAYED = "delayed"  # every captured card; colours are chosen at the end (R16)
HAT_QUICK = "hat-quick"  # Hat Trick: face-up cards per colour and the passes (R22)
HAT_FULL = "hat-full"  # Hat Trick: every face-up and face-down card
#: Every round form of a whole round, as ``rounds/fields`` takes its ``kind``.
KINDS = (QUICK, FULL, DELAYED, HAT_QUICK, HAT_FULL)

#: What a seat's field holds: card chips, a count, or a delayed seat's colour choice.
CARDS, COUNT, CHOICE = "cards", "count", "choice"
#: How a delayed seat's chosen colours travel in one value: ``red+blue``.
CHOICE_SEPARATOR = "+"
#: No trick or card count at a table comes near this; larger input is a typing slip.
MOST_COUNT = 999
#: The most indicator cards a seat lays out, and colours it scores (R14, R16): two.
MOST_COLOURS = 2


@dataclass(frozen=True)
class SeatField:
    """One field of a seat's form: its name after ``s<seat>-``, what it holds, how the API's
    refusals name it, and the count it holds when nothing is sent (Hat Trick passes start at
    0, as their chips do)."""

    name: str
    holds: str
    words: str
    default: int | None = None
    most: int = parse.MAX_CARDS  # cards: the most the field may name


_MARKED = SeatField("marked", CARDS, "indicator cards", most=MOST_COLOURS)
_CAPTURED = SeatField("captured", CARDS, "cards captured")

#: Each form's fields, in the page's order; counts in the order the rules take them.
SEAT_FIELDS: dict[str, tuple[SeatField, ...]] = {
    QUICK: (
        _MARKED,
        SeatField("tricks", COUNT, "tricks won"),
        SeatField("marked_captured", CARDS, "marked-colour cards captured"),
    ),
    FULL: (_MARKED, _CAPTURED),
    DELAYED: (_CAPTURED, SeatField("choose", CHOICE, "colours scored")),
    HAT_QUICK: (
        *(SeatField(colour.value, COUNT, f"{colour.value} cards") for colour in HAT_TRICK_COLOURS),
        SeatField("passed", COUNT, "pass cards", default=0),
    ),
    HAT_FULL: (
        SeatField("captured", CARDS, "face-up cards"),
        SeatField("passed", CARDS, "pass cards"),
    ),
}

#: The counts of a seat, by form, in the order the rules take them (C3, C5).
COUNT_FIELDS: dict[str, tuple[str, ...]] = {
    kind: tuple(f.name for f in fields if f.holds == COUNT)
    for kind, fields in SEAT_FIELDS.items()
    if any(f.holds == COUNT for f in fields)
}


def kinds_for(setup: TableSetup) -> tuple[str, ...]:
    """The forms a game offers for a whole round, the default first: delayed rounds are
    entered in full because the colours are chosen from the captures (R16)."""
    if setup.variant.has_passes:  # Hat Trick: the forms count the passes too (R19, R22)
        return (HAT_QUICK, HAT_FULL)
    if not setup.cards_laid_out:
        return (DELAYED,)
    return (QUICK, FULL)


# --------------------------------------------------------------------------------------------
# A seat's values into an entry, and the count the others imply: shared with the page


@dataclass(frozen=True)
class SeatValues:
    """A seat's fields once read: the cards of each chip field, each count, and the colours
    chosen (``None``: the proposal, R16). The page also builds the entries of a form it could
    not read, for the conflict view to show as typed: a count may then be ``None``."""

    cards: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    counts: Mapping[str, int] = field(default_factory=dict)
    choice: tuple[Colour, ...] | None = None


def seat_entry(kind: str, seat: SeatValues) -> Entry:
    """The rules entry of one seat's form of ``kind``."""
    cards, counts = seat.cards, seat.counts
    if kind == QUICK:
        return QuickEntry(cards["marked"], counts["tricks"], cards["marked_captured"])
    if kind == FULL:
        return FullEntry(cards["marked"], cards["captured"])
    if kind == DELAYED:
        return DelayedEntry(cards["captured"], seat.choice)
    if kind == HAT_QUICK:
        colours = {colour: counts[colour.value] for colour in HAT_TRICK_COLOURS}
        return HatTrickQuickEntry(colours, counts["passed"])
    if kind == HAT_FULL:
        return HatTrickFullEntry(cards["captured"], cards["passed"])
    raise ValueError(f"no round form {kind!r}")


def colours_of_choice(value: str) -> tuple[Colour, ...] | None:
    """The colours a delayed seat's choice names (``red+blue``); ``None`` if it names a
    word that is no colour."""
    try:
        return tuple(Colour(name) for name in value.split(CHOICE_SEPARATOR))
    except ValueError:
        return None


@dataclass(frozen=True)
class Implied:
    """The one count nobody entered that the others imply (C3, C5): its place among the
    form's counts, its seat and field, its value, and in Hat Trick the seats whose passes are
    still at 0 (a forgotten pass hides in the implied count, so the table is asked)."""

    index: int
    seat: int
    field: str
    value: int
    zero_passes: tuple[int, ...] = ()

    def as_json(self) -> dict[str, object]:
        """What ``rounds/fields`` answers of it (seats 0-based, as the API counts them)."""
        return {
            "seat": self.seat,
            "field": self.field,
            "value": self.value,
            "zero_passes": list(self.zero_passes),
        }


def implied_of(kind: str, entered: Sequence[int | None], setup: TableSetup) -> Implied | None:
    """The count the others imply, if exactly one is open (``None`` in ``entered``: every
    count of the form, seat after seat, in the order of ``COUNT_FIELDS``); ``None`` for a
    form without counts or when the counts do not leave a single value."""
    names = COUNT_FIELDS.get(kind, ())
    if kind == QUICK:
        found = implied_tricks(entered, setup)
    elif kind == HAT_QUICK:
        found = implied_hat_trick_count(entered, setup)
    else:
        return None
    if found is None:
        return None
    seat, place = divmod(found.index, len(names))
    zero = seats_at_zero_passes(entered, found) if kind == HAT_QUICK else ()
    return Implied(found.index, seat, names[place], found.value, zero)


# --------------------------------------------------------------------------------------------
# Reading posted fields, as the phone does offline


class FieldRefused(ApiError):
    """A posted field that cannot be read; the words name the seat (1-based) and the field,
    and ``seat`` (0-based) and ``field`` (as posted) say which, for a page to point at it."""

    def __init__(self, seat: int, where: SeatField, message: str) -> None:
        super().__init__(f"Seat {seat + 1}, {where.words}: {message}")
        self.seat = seat
        self.field = f"s{seat}-{where.name}"


@dataclass(frozen=True)
class RoundFields:
    """A round form read: one entry per seat, in seat order, and the count filled in from the
    others, if any (the entries hold it; the table confirms it before saving)."""

    entries: tuple[Entry, ...]
    implied: Implied | None = None

    def as_json(self) -> dict[str, object]:
        """What ``rounds/fields`` answers."""
        return {
            "entries": [entry.as_json() for entry in self.entries],
            "implied": self.implied.as_json() if self.implied else None,
        }


Posted = Mapping[str, Sequence[str]]


def read_round_fields(kind: str, setup: TableSetup, posted: Posted) -> RoundFields:
    """The round that the form ``kind`` posted as ``posted`` (``{name: [values...]}``, other
    fields of the page ignored) at this table, as the page reads it: the one count missing
    that the others imply is filled in and reported (C3, C5). A field that cannot be read, or
    a count missing that the others do not imply, is refused (:class:`FieldRefused`); whether
    the round keeps the rules (C1-C5) is for scoring to say."""
    kinds = kinds_for(setup)
    if kind not in kinds:
        offered = " or ".join(f'"{name}"' for name in kinds)
        raise ApiError(f'A round of this game is entered as {offered}, not "{kind[:20]}".')
    fields = SEAT_FIELDS[kind]
    sent = [
        {f.name: list(posted.get(f"s{seat}-{f.name}", ())) for f in fields}
        for seat in range(setup.players)
    ]
    entered = [
        _entered(sent[seat][f.name], f)
        for seat in range(setup.players)
        for f in fields
        if f.holds == COUNT
    ]
    implied = implied_of(kind, entered, setup)
    if implied is not None and sent[implied.seat][implied.field]:
        implied = None  # open only if nothing at all was sent there (not a typing slip)
    if implied is not None:
        sent[implied.seat][implied.field] = [str(implied.value)]
    entries = tuple(
        seat_entry(kind, _seat_values(seat, fields, sent[seat])) for seat in range(setup.players)
    )
    return RoundFields(entries, implied)


def _entered(values: Sequence[str], where: SeatField) -> int | None:
    """The number a count's field holds, as the page sees it when it looks for the count the
    others imply: the first value sent, or the field's default when none was sent."""
    if not values:
        return where.default
    try:
        return int(values[0])
    except ValueError:
        return None


def _seat_values(
    seat: int, fields: Sequence[SeatField], sent: Mapping[str, list[str]]
) -> SeatValues:
    cards: dict[str, tuple[Card, ...]] = {}
    counts: dict[str, int] = {}
    choice = None
    for where in fields:
        values = sent[where.name]
        if where.holds == CARDS:
            cards[where.name] = _cards(seat, where, values)
        elif where.holds == COUNT:
            counts[where.name] = _count(seat, where, values)
        else:
            choice = _choice(seat, where, values)
    return SeatValues(cards, counts, choice)


def _shown(value: str) -> str:
    """A value sent, quoted in a refusal (the start of it: it may be anything)."""
    return '"' + value[:20] + '"'


def _cards(seat: int, where: SeatField, tokens: Sequence[str]) -> tuple[Card, ...]:
    if len(tokens) > where.most:
        raise FieldRefused(seat, where, f"{len(tokens)} cards named; at most {where.most} can be.")
    cards = []
    for token in tokens:
        card = card_of_token(token)
        if card is None:
            message = f"{_shown(token)} is not a card; cards are named like red-7."
            raise FieldRefused(seat, where, message)
        cards.append(card)
    return tuple(cards)


def _count(seat: int, where: SeatField, values: Sequence[str]) -> int:
    if not values or not values[0]:
        raise FieldRefused(seat, where, "no number was entered.")
    try:
        count = int(values[0])
    except ValueError:
        message = f"{_shown(values[0])} is not a whole number."
        raise FieldRefused(seat, where, message) from None
    if not 0 <= count <= MOST_COUNT:
        shown = count if abs(count) <= MOST_COUNT * 1000 else "a number that large"
        raise FieldRefused(seat, where, f"{shown} is not a number from 0 to {MOST_COUNT}.")
    return count


def _choice(seat: int, where: SeatField, values: Sequence[str]) -> tuple[Colour, ...] | None:
    """The colours chosen; ``None`` (nothing sent, or empty) keeps the proposal (R16)."""
    value = values[0] if values else ""
    if not value:
        return None
    colours = colours_of_choice(value)
    if colours is None:
        message = f"{_shown(value)} names no colours; they are chosen like red+blue."
        raise FieldRefused(seat, where, message)
    if len(colours) > MOST_COLOURS:
        message = f"{len(colours)} colours chosen; at most {MOST_COLOURS} are scored."
        raise FieldRefused(seat, where, message)
    return colours


# --------------------------------------------------------------------------------------------
# The rules worker's call


def fields_answer(request: Mapping[str, Any]) -> dict[str, object]:
    """The rules worker's ``rounds/fields``: ``{"kind", "variant", "players", "fields"}``
    (``fields`` as the page posts them, ``{name: [values...]}``) answered with
    ``{"entries": [...], "implied": null | {"seat", "field", "value", "zero_passes"}}``."""
    body = parse.fields(request, "The request", ("kind", "variant", "players", "fields"))
    kind = parse.string(body["kind"], "kind")
    setup = table_setup(parse.player_count(body["players"]), parse.variant(body["variant"]))
    return read_round_fields(kind, setup, posted_fields(body["fields"])).as_json()


def read_marks(setup: TableSetup, posted: Posted) -> tuple[tuple[Card, ...], ...]:
    """Each seat's indicator cards as the mark page posts them (``s<seat>-marked``), read as
    the page reads them; whether they keep C1 and C2 is for marking to say."""
    return tuple(
        _cards(seat, _MARKED, list(posted.get(f"s{seat}-{_MARKED.name}", ())))
        for seat in range(setup.players)
    )


def marks_answer(request: Mapping[str, Any]) -> dict[str, object]:
    """The rules worker's ``rounds/marks``: ``{"variant", "players", "fields"}`` (the mark
    page's fields) answered with ``{"marked": [[card, ...] per seat]}``, as the API's
    ``POST .../rounds/marks`` takes them."""
    body = parse.fields(request, "The request", ("variant", "players", "fields"))
    setup = table_setup(parse.player_count(body["players"]), parse.variant(body["variant"]))
    marked = read_marks(setup, posted_fields(body["fields"]))
    return {"marked": [[card.as_json() for card in cards] for cards in marked]}


def posted_fields(value: object) -> dict[str, list[str]]:
    """``fields`` as ``FormData`` gives them: an object of lists of strings."""
    if not isinstance(value, dict):
        raise ApiError('"fields" must be an object of the form\'s fields, each a list of values.')
    posted = {}
    for name, values in value.items():
        where = f'fields["{name[:40]}"]'
        posted[name] = [
            parse.string(item, f"{where}[{i}]")
            for i, item in enumerate(parse.listing(values, where))
        ]
    return posted
