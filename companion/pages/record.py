"""The round pages' model: what the record page (quick entry and every card), the correct
page and the mark page show, from the game's state in the JSON API's shape and the form's
values (as posted, or filled in from the round as stored), with the refusals beside the seat
or the field they name.

The server reads a post with WTForms and hands this model the fields' values and errors
(companion/web/games/entry/page.py); the phone's rules worker hands it the kept state plus
the queued changes (companion/play_state/offline_game.py) and the fields the page posted. Both
render ``templates/games/round_record_page.html`` or ``round_mark_page.html`` with
:func:`round_context`: the same page, whichever side draws it. Nothing here reads a request,
a stored row or a form class.

It holds one small view per field kind (card chips, count chips, delayed choices) and one
filler per entry kind, side by side, so the entry kinds of the record page are shown alike
and a change of one is made in one place. That is why it is over 450 lines: three pages and
every entry kind share these views and fillers, which a split by page would write again or
pass between modules.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.pages.charts import signed_number
from companion.pages.scoreboard import SCORED, Url, variant_of
from companion.rules import (
    Card,
    Colour,
    Refusal,
    RuleError,
    TableSetup,
    hat_trick_count_limits,
    round_leader,
    seat_order,
    table_setup,
    tricks_of_cards,
)
from companion.rules.cards import card_of_token, card_token
from companion.rules.deck import HAT_TRICK_COLOURS
from companion.rules.scoring import best_delayed_choice, delayed_choices, score_choice
from companion.rules.text import N_
from companion.rules.wording import COLOUR_SYMBOLS, Reader, colour_words, say

#: A form's values by field name (``s2-tricks``), as posted: a list of strings each.
Values = Mapping[str, Sequence[str]]
#: What a field refused, by field name, in the reader's words.
Errors = Mapping[str, Sequence[str]]

#: A seat's field in a round form: ``s2-tricks``.
SEAT_FIELD = re.compile(r"^s(\d+)-")
#: How a delayed seat's chosen colours travel in one value: ``red+blue``.
CHOICE_SEPARATOR = "+"
#: The ``action`` of a round form's buttons: check without saving, switch between quick entry
#: and every card, show every seat once the indicators are chosen (quick entry).
CHECK, SWITCH, CONTINUE = "check", "switch", "continue"


class Kind(enum.Enum):
    """What a round form asks of each seat (the values the page's ``data-kind`` and the
    phone's reading of its fields, companion/play_state/round_fields.py, name)."""

    MARK = "mark"  # indicator cards only, at the start of the round (R4, R14)
    QUICK = "quick"  # indicators, tricks won and marked-colour captures (C4)
    FULL = "full"  # indicators and every captured card
    DELAYED = "delayed"  # every captured card; colours are chosen at the end (R16)
    HAT_QUICK = "hat-quick"  # Hat Trick: face-up cards per colour and passes (R22)
    HAT_FULL = "hat-full"  # Hat Trick: every face-up and face-down card

    @property
    def mode(self) -> str:
        """The ``?mode=`` of the page: quick or full entry."""
        return "full" if self in (Kind.FULL, Kind.DELAYED, Kind.HAT_FULL) else "quick"

    @property
    def names_indicators(self) -> bool:
        """Whether each seat picks its indicator cards in this form."""
        return self in (Kind.MARK, Kind.QUICK, Kind.FULL)

    @property
    def counts_tricks(self) -> bool:
        """Whether the table is asked for tricks (C3) rather than cards (C5)."""
        return self in (Kind.QUICK, Kind.FULL, Kind.DELAYED)


def kinds_of(setup: TableSetup) -> tuple[Kind, ...]:
    """The forms a game offers for a whole round, the default first: delayed rounds are
    entered in full because the colours are chosen from the captures (R16)."""
    if setup.variant.has_passes:  # Hat Trick: the forms count the passes too (R19, R22)
        return (Kind.HAT_QUICK, Kind.HAT_FULL)
    if not setup.cards_laid_out:
        return (Kind.DELAYED,)
    return (Kind.QUICK, Kind.FULL)


def kind_of(
    setup: TableSetup, mode: str | None, stored: Sequence[Mapping[str, Any]] | None = None
) -> Kind:
    """The form to show: the one ``?mode=`` asks for, else the shape the round was stored in
    (a correction shows what was entered), else quick entry."""
    kinds = kinds_of(setup)
    for kind in kinds:
        if kind.mode == mode:
            return kind
    if stored and all("captured" in entry for entry in stored):
        return kinds[-1]
    return kinds[0]


#: Each field's label, by its name within a seat (a kind of its own where it differs).
LABELS = {
    "marked": N_("Indicator"),
    "tricks": N_("Tricks won"),
    "marked_captured": N_("Marked-colour cards captured"),
    "captured": N_("Cards captured"),
    "choose": N_("Colours scored"),
    "red": N_("Red cards"),
    "blue": N_("Blue cards"),
    "green": N_("Green cards"),
    "passed": N_("Pass cards"),
}
HAT_FULL_LABELS = {"captured": N_("Face-up cards"), "passed": N_("Pass cards (face down)")}
#: The counts of a seat, by form, in the order the rules take them (C3, C5).
COUNTS = {Kind.QUICK: ("tricks",), Kind.HAT_QUICK: ("red", "blue", "green", "passed")}
#: A count that starts at a number rather than empty: Hat Trick passes (C5's totals catch a
#: forgotten pass).
COUNT_DEFAULTS = {(Kind.HAT_QUICK, "passed"): "0"}


# --------------------------------------------------------------------------------------------
# Chips, counts and each seat's part of the form


@dataclass(frozen=True)
class CardChip:
    """One card to tap: its colour (the API name), value, name in the reader's words, and
    whether it is tapped or was just refused."""

    colour: str
    value: int
    name: str
    checked: bool = False
    refused: bool = False

    @property
    def label(self) -> str:
        """The card in words: "red 7"."""
        return f"{self.name} {self.value}"

    @property
    def token(self) -> str:
        """How the card travels in a form: ``red-7``."""
        return card_token(Card(Colour(self.colour), self.value))


@dataclass(frozen=True)
class ChipGroup:
    """The chips of one colour, ``hidden`` when the colour cannot be meant here (not a marked
    colour in quick entry) and none of its chips is tapped."""

    colour: str
    name: str
    symbol: str
    chips: tuple[CardChip, ...]
    hidden: bool = False


@dataclass(frozen=True)
class SeatField:
    """What every field of a seat's part shows: its name in the form, its label and what
    it refused."""

    name: str
    label: str
    errors: tuple[str, ...]


@dataclass(frozen=True)
class CardPicker(SeatField):
    """A field of card chips: radio-like for one indicator, checkboxes otherwise."""

    multiple: bool
    groups: tuple[ChipGroup, ...]
    compact: bool = False  # every colour at once, small chips: one tap whatever the colour

    @property
    def tapped(self) -> tuple[CardChip, ...]:
        """The tapped chips, to show a picked indicator without opening the picker."""
        return tuple(chip for group in self.groups for chip in group.chips if chip.checked)


@dataclass(frozen=True)
class CountChip:
    """One number of a row of count chips."""

    value: int
    checked: bool


@dataclass(frozen=True)
class CountChips(SeatField):
    """A count said aloud, tapped once: a row of number chips 0..the most possible (tricks
    won, Hat Trick cards per colour, passes). ``implied``: filled in from the others."""

    chips: tuple[CountChip, ...]
    colour: str | None = None
    symbol: str | None = None
    implied: bool = False
    #: Hat Trick, when implied: the players whose passes are still at 0 ("Ann, Ben"), for
    #: the table to check (a forgotten pass hides in the implied count, C5).
    zero_passes: str = ""

    @property
    def count_name(self) -> str:
        """The field's name within its seat (``tricks``, ``red``...), for the page's script."""
        return self.name.split("-", 1)[1]


@dataclass(frozen=True)
class ChoiceOption:
    """One allowed delayed choice of colours with what it scores (R16)."""

    value: str
    label: str
    score: str
    selected: bool


@dataclass(frozen=True)
class DelayedChoice(SeatField):
    """The proposed colours of a delayed seat and the select to override them (R16)."""

    proposal: str
    proposal_score: str
    options: tuple[ChoiceOption, ...]


@dataclass
class SeatPart:
    """One seat's part of a round form, with what the checks said about it."""

    seat: int
    name: str
    leads: bool
    indicators: CardPicker | None = None
    captures: CardPicker | None = None
    passes: CardPicker | None = None
    counts: list[CountChips] = field(default_factory=list)
    choice: DelayedChoice | None = None
    problems: list[str] = field(default_factory=list)
    cards_entered: int | None = None  # full forms: cards named, for the C3/C5 line
    tricks_entered: int | None = None  # the tricks those cards make, if whole (C3)
    preview: str | None = None  # the score a check found
    waiting: bool = False  # quick entry before marking: only the indicator is asked yet


@dataclass(frozen=True)
class Progress:
    """C3 (tricks) or C5 (cards) as the table fills the form in: how many are placed."""

    unit: str  # "tricks" or "cards"
    placed: int
    expected: int

    @property
    def missing(self) -> int:
        """How many are still to place (negative: too many)."""
        return self.expected - self.placed


@dataclass
class Problems:
    """What the rules refused, at the top of the page or next to a seat (and its card)."""

    top: list[str] = field(default_factory=list)
    by_seat: dict[int, list[str]] = field(default_factory=dict)
    cards: dict[int, set[str]] = field(default_factory=dict)

    def add(self, error: Refusal, names: Sequence[str], reader: Reader) -> None:
        """Place a refusal next to the seat it names (and its card, a rules refusal's), else
        at the top."""
        message = say(error.message, reader, names)
        if error.seat is None or not 0 <= error.seat < len(names):
            self.top.append(message)
            return
        self.by_seat.setdefault(error.seat, []).append(message)
        if isinstance(error, RuleError) and error.card is not None:
            self.cards.setdefault(error.seat, set()).add(card_token(error.card))

    def __bool__(self) -> bool:
        return bool(self.top or self.by_seat)


# --------------------------------------------------------------------------------------------
# Reading the values


@dataclass(frozen=True)
class Seat:
    """One seat's values: its fields' values and errors, by the name within the seat."""

    number: int
    kind: Kind
    values: Values
    errors: Errors

    def name(self, short: str) -> str:
        return f"s{self.number}-{short}"

    def tokens(self, short: str) -> list[str]:
        """A chip field's values as sent."""
        return list(self.values.get(self.name(short), ()))

    def cards(self, short: str) -> tuple[Card, ...]:
        """The cards a chip field names (values that name none left out)."""
        return tuple(card for token in self.tokens(short) if (card := card_of_token(token)))

    def shown(self, short: str) -> str:
        """What a count or a choice holds: the first value sent, else its default."""
        sent = self.values.get(self.name(short), ())
        if sent:
            return str(sent[0])
        return COUNT_DEFAULTS.get((self.kind, short), "")

    def entered(self, short: str) -> int | None:
        """The number a count holds; ``None`` if none (or no number) was sent."""
        try:
            return int(self.shown(short))
        except ValueError:
            return None

    def field_errors(self, short: str) -> tuple[str, ...]:
        return tuple(self.errors.get(self.name(short), ()))

    def view(self, short: str, reader: Reader) -> dict[str, Any]:
        """The parts of a field's view every kind of field shares."""
        labels = HAT_FULL_LABELS if self.kind is Kind.HAT_FULL else {}
        label = labels.get(short) or LABELS[short]
        return {
            "name": self.name(short),
            "label": reader.gettext(label),
            "errors": self.field_errors(short),
        }


def entry_values(
    kind: Kind, entries: Sequence[Mapping[str, Any]] | None, players: int
) -> dict[str, list[str]]:
    """Stored entries (the API's shape, one per seat) as the form ``kind`` shows them. A
    full entry shown in short keeps its tricks and its marked-colour cards, so a correction
    can switch forms."""
    values: dict[str, list[str]] = {}
    for seat, entry in enumerate(entries or ()):
        if seat >= players or not entry:
            continue
        for short, value in seat_data(kind, entry, players).items():
            if isinstance(value, list):
                values[f"s{seat}-{short}"] = [str(item) for item in value]
            elif value is not None and value != "":
                values[f"s{seat}-{short}"] = [str(value)]
    return values


def json_tokens(cards: object) -> list[str]:
    """Tokens of cards stored in the API's shape (``{"colour": ..., "value": ...}``)."""
    if not isinstance(cards, list):
        return []
    return [
        f"{card['colour']}-{card['value']}"
        for card in cards
        if isinstance(card, Mapping) and "colour" in card and "value" in card
    ]


def _colour_of(token: str) -> str:
    return token.partition("-")[0]


def seat_data(kind: Kind, entry: Mapping[str, Any], players: int) -> dict[str, Any]:
    """A stored entry (API shape) as the form ``kind`` shows it."""
    marked = json_tokens(entry.get("marked"))
    captured = json_tokens(entry.get("captured"))
    if kind is Kind.MARK:
        return {"marked": marked}
    if kind is Kind.QUICK:
        if "tricks" in entry:
            return {
                "marked": marked,
                "tricks": entry["tricks"],
                "marked_captured": json_tokens(entry.get("marked_captured")),
            }
        colours = {_colour_of(token) for token in marked}
        # A round only marked so far has no tricks yet: nobody entered 0.
        tricks = tricks_of_cards(len(captured), players) if "captured" in entry else None
        return {
            "marked": marked,
            "tricks": tricks,
            "marked_captured": [t for t in captured if _colour_of(t) in colours],
        }
    if kind is Kind.FULL:
        return {"marked": marked, "captured": captured or json_tokens(entry.get("marked_captured"))}
    if kind is Kind.DELAYED:
        choose = entry.get("choose")
        return {"captured": captured, "choose": CHOICE_SEPARATOR.join(choose) if choose else ""}
    if kind is Kind.HAT_QUICK:
        return _hat_trick_counts(entry)
    return {"captured": captured, "passed": json_tokens(entry.get("passed"))}


def _hat_trick_counts(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A Hat Trick entry as counts, whichever shape it was stored in."""
    counts = entry.get("counts")
    if isinstance(counts, Mapping):
        data = {colour.value: counts.get(colour.value, 0) for colour in HAT_TRICK_COLOURS}
    else:
        colours = [_colour_of(token) for token in json_tokens(entry.get("captured"))]
        data = {colour.value: colours.count(colour.value) for colour in HAT_TRICK_COLOURS}
    passed = entry.get("passed", 0)
    data["passed"] = passed if isinstance(passed, int) else len(json_tokens(passed))
    return data


# --------------------------------------------------------------------------------------------
# Building the seat parts


def chip_groups(
    setup: TableSetup,
    tapped: Iterable[str],
    refused: set[str],
    reader: Reader,
    shown_colours: Iterable[Colour] | None = None,
    taken: set[str] = frozenset(),  # type: ignore[assignment]
) -> tuple[ChipGroup, ...]:
    """The deck in use as chips, a group per colour. Cards ``taken`` elsewhere (indicators)
    are left out unless tapped here; colours not in ``shown_colours`` start hidden."""
    shown = None if shown_colours is None else set(shown_colours)
    picked = set(tapped)
    groups = []
    for colour in setup.deck.colours:
        name = colour_words(colour, reader)
        chips = tuple(
            CardChip(colour.value, card.value, name, token in picked, token in refused)
            for card in setup.deck
            if card.colour is colour
            for token in [card_token(card)]
            if token not in taken or token in picked
        )
        any_tapped = any(chip.checked for chip in chips)
        hidden = shown is not None and colour not in shown and not any_tapped
        groups.append(ChipGroup(colour.value, name, COLOUR_SYMBOLS[colour], chips, hidden))
    return tuple(groups)


def card_picker(
    seat: Seat,
    short: str,
    setup: TableSetup,
    refused: set[str],
    reader: Reader,
    *,
    multiple: bool = True,
    compact: bool = False,
    shown_colours: Iterable[Colour] | None = None,
    taken: set[str] = frozenset(),  # type: ignore[assignment]
) -> CardPicker:
    """The chips of the card field ``short`` of a seat."""
    groups = chip_groups(setup, seat.tokens(short), refused, reader, shown_colours, taken)
    return CardPicker(**seat.view(short, reader), multiple=multiple, groups=groups, compact=compact)


def count_chips(
    seat: Seat,
    short: str,
    most: int,
    reader: Reader,
    implied: str | None,
    colour: Colour | None = None,
) -> CountChips:
    """The number chips of the count ``short`` of a seat: 0..``most``, and the number sent
    if it lies beyond (so a refused count still shows, next to its error)."""
    entered = seat.entered(short)
    values = list(range(most + 1))
    if entered is not None and entered not in values:
        values.append(entered)
        values.sort()
    return CountChips(
        **seat.view(short, reader),
        chips=tuple(CountChip(value, value == entered) for value in values),
        colour=colour.value if colour else None,
        symbol=COLOUR_SYMBOLS[colour] if colour else None,
        implied=seat.name(short) == implied,
    )


@dataclass(frozen=True)
class FormShown:
    """What every seat's part is built from: the form's kind, the table, the values and
    errors, the count filled in from the others and, in Hat Trick, the seats then at 0
    passes (C3, C5)."""

    kind: Kind
    setup: TableSetup
    values: Values
    errors: Errors
    implied: str | None = None
    zero_passes: tuple[int, ...] = ()

    def seat(self, number: int) -> Seat:
        return Seat(number, self.kind, self.values, self.errors)

    def indicator_tokens(self) -> set[str]:
        """Every seat's indicator chips: no one can have captured an indicator (R4)."""
        if not self.kind.names_indicators:
            return set()
        return {
            token
            for number in range(self.setup.players)
            for token in self.seat(number).tokens("marked")
        }


def seat_part(
    shown: FormShown,
    number: int,
    names: Sequence[str],
    leader: int,
    problems: Problems,
    reader: Reader,
) -> SeatPart:
    """One seat's part of the form, as its kind of entry asks for it."""
    seat = shown.seat(number)
    part = SeatPart(
        number, names[number], number == leader, problems=problems.by_seat.get(number, [])
    )
    refused = problems.cards.get(number, set())
    if shown.kind.names_indicators:
        part.indicators = card_picker(
            seat,
            "marked",
            shown.setup,
            refused,
            reader,
            multiple=shown.setup.cards_laid_out > 1,
            compact=True,
        )
    if shown.kind in SEAT_FILLERS:
        SEAT_FILLERS[shown.kind](part, shown, seat, refused, reader)
    if shown.zero_passes:
        asked = ", ".join(names[other] for other in shown.zero_passes)
        part.counts = [
            replace(count, zero_passes=asked) if count.implied else count for count in part.counts
        ]
    part.waiting = shown.kind is Kind.QUICK and waits_for_indicator(seat)
    return part


def waits_for_indicator(seat: Seat) -> bool:
    """Quick entry asks a seat's indicator first: its captures are of the marked colour(s)
    (C4), so until the indicator is known every colour's chips would show. A seat with
    anything else entered, or refused, shows it all."""
    return not (
        seat.tokens("marked")
        or seat.shown("tricks")
        or seat.tokens("marked_captured")
        or seat.field_errors("tricks")
        or seat.field_errors("marked_captured")
    )


Filler = Callable[[SeatPart, FormShown, Seat, set[str], Reader], None]


def _fill_quick(
    part: SeatPart, shown: FormShown, seat: Seat, refused: set[str], reader: Reader
) -> None:
    """Tricks won (C3) and the captures of the marked colour(s) only (C4): the chips of the
    seat's marked colours show; the others stay hidden until the indicators say otherwise."""
    setup = shown.setup
    marked = {card.colour for card in seat.cards("marked")}
    part.counts = [count_chips(seat, "tricks", setup.tricks_per_round, reader, shown.implied)]
    part.captures = card_picker(
        seat,
        "marked_captured",
        setup,
        refused,
        reader,
        shown_colours=marked or None,
        taken=shown.indicator_tokens(),
    )


def _fill_full(
    part: SeatPart, shown: FormShown, seat: Seat, refused: set[str], reader: Reader
) -> None:
    """Every captured card, every colour at once as on the mark page (each card one tap, no
    tab to open first); delayed seats also choose colours (R16)."""
    setup = shown.setup
    part.captures = card_picker(
        seat, "captured", setup, refused, reader, compact=True, taken=shown.indicator_tokens()
    )
    part.cards_entered = len(seat.tokens("captured"))
    part.tricks_entered = tricks_of_cards(part.cards_entered, setup.players)
    if shown.kind is Kind.DELAYED:
        part.choice = delayed_choice(seat, setup, reader)


def _fill_hat_trick_full(
    part: SeatPart, shown: FormShown, seat: Seat, refused: set[str], reader: Reader
) -> None:
    """Every face-up card and every face-down pass card (C5)."""
    _fill_full(part, shown, seat, refused, reader)
    part.passes = card_picker(seat, "passed", shown.setup, refused, reader, compact=True)
    part.cards_entered = (part.cards_entered or 0) + len(seat.tokens("passed"))


def _fill_hat_trick_quick(
    part: SeatPart, shown: FormShown, seat: Seat, refused: set[str], reader: Reader
) -> None:
    """Face-up cards per colour and passes, as counts (R22, C5)."""
    limits = hat_trick_count_limits(shown.setup)  # every card of the colour; one pass a trick
    colours = [
        count_chips(seat, colour.value, most, reader, shown.implied, colour)
        for colour, most in zip(HAT_TRICK_COLOURS, limits, strict=False)
    ]
    part.counts = [*colours, count_chips(seat, "passed", limits[-1], reader, shown.implied)]


SEAT_FILLERS: dict[Kind, Filler] = {
    Kind.QUICK: _fill_quick,
    Kind.FULL: _fill_full,
    Kind.DELAYED: _fill_full,
    Kind.HAT_FULL: _fill_hat_trick_full,
    Kind.HAT_QUICK: _fill_hat_trick_quick,
}


def delayed_choice(seat: Seat, setup: TableSetup, reader: Reader) -> DelayedChoice | None:
    """R16: the proposed colours of a seat's captures and the choices the table may make
    instead; nothing to choose before any capture is entered."""
    variant = setup.variant.settings
    assert variant is not None  # only the classic family chooses its colours (R16)
    captured = seat.cards("captured")
    if not captured:
        return None
    proposal, proposal_score = best_delayed_choice(captured, variant.colours, variant.scoring)
    chosen = seat.shown("choose")
    options = tuple(
        ChoiceOption(
            value=choice_token(choice),
            label=colours_label(choice, reader),
            score=signed_number(score_choice(captured, choice, variant.scoring)),
            selected=choice_token(choice) == chosen,
        )
        for choice in delayed_choices(captured, variant.colours)
    )
    return DelayedChoice(
        **seat.view("choose", reader),
        proposal=colours_label(proposal, reader),
        proposal_score=signed_number(proposal_score),
        options=options,
    )


def choice_token(colours: Sequence[Colour]) -> str:
    """The select value of a delayed colour choice."""
    return CHOICE_SEPARATOR.join(colour.value for colour in colours)


def colours_label(colours: Sequence[Colour], reader: Reader) -> str:
    """Colours as the table reads them: "red + blue"."""
    return f" {CHOICE_SEPARATOR} ".join(colour_words(colour, reader) for colour in colours)


#: What the page warns about before a switch of entry modes, as the ``data-warn`` of the
#: warning shown (companion/web/games/entry/forms.py carries the entries over).
TO_FULL = "to-full"  # trick counts beyond the listed cards
TO_QUICK = "to-quick"  # cards of other colours, kept only as a trick count
NO_WHOLE_TRICKS = "no-whole-tricks"  # cards of other colours making no whole tricks
HAT_TO_FULL = "hat-to-full"  # counts, which have no cards
HAT_TO_QUICK = "hat-to-quick"  # cards, kept only as counts


def seat_losses(kind: Kind, seat: Seat, per_trick: int) -> set[str]:
    """What switching one seat of a form of ``kind`` to its other mode would not keep."""
    if kind is Kind.QUICK:
        tricks = seat.entered("tricks")
        unlisted = (tricks or 0) * per_trick - len(seat.cards("marked_captured"))
        return {TO_FULL} if tricks and unlisted > 0 else set()
    if kind is Kind.FULL:
        colours = {card.colour for card in seat.cards("marked")}
        captured = seat.cards("captured")
        others = sum(1 for card in captured if card.colour not in colours)
        if not others:
            return set()
        return {
            TO_QUICK if tricks_of_cards(len(captured), per_trick) is not None else NO_WHOLE_TRICKS
        }
    if kind is Kind.HAT_FULL:
        return {HAT_TO_QUICK} if seat.cards("captured") or seat.cards("passed") else set()
    if kind is Kind.HAT_QUICK:
        counted = sum(seat.entered(name) or 0 for name in COUNTS[kind])
        return {HAT_TO_FULL} if counted > 0 else set()
    return set()


def losses_of(shown: FormShown) -> frozenset[str]:
    """What switching the form to its other mode would not keep now: the warnings the page
    shows next to the switch (rounds.js keeps them current while typing)."""
    found = set()
    for number in range(shown.setup.players):
        found |= seat_losses(shown.kind, shown.seat(number), shown.setup.cards_per_trick)
    if NO_WHOLE_TRICKS in found:
        found.add(TO_QUICK)  # what quick entry keeps, then where it keeps less
    return frozenset(found)


def progress_of(shown: FormShown) -> Progress | None:
    """C3 or C5 as far as the form is filled in: tricks (or cards) placed and expected."""
    setup, kind = shown.setup, shown.kind
    seats = [shown.seat(number) for number in range(setup.players)]
    if kind is Kind.MARK:
        return None
    if kind is Kind.QUICK:
        placed = sum(seat.entered("tricks") or 0 for seat in seats)
        return Progress("tricks", placed, setup.tricks_per_round)
    if kind is Kind.HAT_QUICK:
        placed = sum(seat.entered(name) or 0 for seat in seats for name in COUNTS[kind])
    else:
        names = ("captured", "passed") if kind is Kind.HAT_FULL else ("captured",)
        placed = sum(len(seat.tokens(name)) for seat in seats for name in names)
    return Progress("cards", placed, setup.cards_per_round)


# --------------------------------------------------------------------------------------------
# The page


@dataclass(frozen=True)
class GameNow:
    """The game as it is now, after a conflict: rounds scored, the round being played, each
    seat's total."""

    scored: int
    planned: int
    playing: int | None
    totals: tuple[tuple[str, str], ...]


def game_now(state: Mapping[str, Any]) -> GameNow:
    """What another phone's change left: enough to decide whether to send the input again."""
    rounds = state["rounds"]
    playing = [round_["number"] for round_ in rounds if round_["status"] != SCORED]
    return GameNow(
        scored=sum(1 for round_ in rounds if round_["status"] == SCORED),
        planned=int(state["rounds_planned"]),
        playing=int(playing[-1]) if playing else None,
        totals=tuple(
            (str(name), signed_number(total))
            for name, total in zip(state["players"], state["totals"], strict=True)
        ),
    )


@dataclass(frozen=True)
class RoundPage:
    """Everything a round page (mark, record, correct) shows of its form."""

    code: str
    kind: Kind
    setup: TableSetup
    number: int
    names: tuple[str, ...]
    leader_name: str
    parts: tuple[SeatPart, ...]
    problems: Problems
    progress: Progress | None
    hazy: bool
    checked: bool
    conflict: GameNow | None
    #: The seats with a field that could not be read.
    refused_seats: frozenset[int] = frozenset()
    #: What a switch to the other entry mode would not keep now.
    losses: frozenset[str] = frozenset()

    @property
    def seats_to_fix(self) -> list[int]:
        """The seats whose entries were refused, to jump to."""
        return [
            part.seat for part in self.parts if part.problems or part.seat in self.refused_seats
        ]

    @property
    def indicators_first(self) -> bool:
        """Quick entry asks every seat's indicator before the rest."""
        return any(part.waiting for part in self.parts)


def setup_of(state: Mapping[str, Any]) -> TableSetup:
    """The table of the game in ``state``."""
    return table_setup(len(state["players"]), variant_of(state["variant"]))


def round_page(
    state: Mapping[str, Any],
    kind: Kind,
    number: int,
    values: Values,
    reader: Reader,
    *,
    errors: Errors | None = None,
    problems: Problems | None = None,
    implied: str | None = None,
    zero_passes: tuple[int, ...] = (),
    scores: Sequence[int] | None = None,
    conflict: bool = False,
) -> RoundPage:
    """The round page of round ``number`` of the game in ``state``, its form of ``kind``
    holding ``values`` (and what its fields refused, ``errors``), the seats clockwise from
    the round's leader (R3) with their refusals (``problems``) and, after a check, the
    ``scores`` it found."""
    setup = setup_of(state)
    names = tuple(str(name) for name in state["players"])
    leader = round_leader(number, int(state["first_leader"]), setup.players)
    problems = problems or Problems()
    shown = FormShown(kind, setup, values, errors or {}, implied, zero_passes)
    parts = tuple(
        seat_part(shown, seat, names, leader, problems, reader)
        for seat in seat_order(leader, setup.players)
    )
    if scores is not None:
        for part in parts:
            part.preview = signed_number(scores[part.seat])
    return RoundPage(
        code=str(state["id"]),
        kind=kind,
        setup=setup,
        number=number,
        names=names,
        leader_name=names[leader],
        parts=parts,
        problems=problems,
        progress=progress_of(shown),
        losses=losses_of(shown),
        hazy=setup.variant.hides_marks,
        checked=scores is not None and not problems,
        conflict=game_now(state) if conflict else None,
        refused_seats=frozenset(
            int(found.group(1))
            for name, said in (errors or {}).items()
            if said and (found := SEAT_FIELD.match(name))
        ),
    )


MODE_LABELS = {"quick": N_("Quick entry"), "full": N_("Every card")}


def mode_links(
    page: RoundPage, reader: Reader, link: Callable[[str], str]
) -> list[tuple[str, str, bool]]:
    """Links between quick and full entry, when the game offers both: (label, url, current);
    ``link`` gives the page's address in a mode."""
    kinds = kinds_of(page.setup)
    if len(kinds) < 2:
        return []
    return [
        (reader.gettext(MODE_LABELS[other.mode]), link(other.mode), other is page.kind)
        for other in kinds
    ]


def round_context(
    page: RoundPage,
    url: Url,
    hidden: Sequence[tuple[str, str]],
    *,
    correcting: bool = False,
    modes: Sequence[tuple[str, str, bool]] = (),
    switched: Sequence[str] | None = None,
) -> dict[str, Any]:
    """What the round pages' templates take: the page, its hidden fields (the CSRF token,
    the version and the round the form was opened for), the links between the entry modes
    (``modes``) and what a switch of modes kept (``switched``)."""
    return {
        "page": page,
        "code": page.code,
        "names": page.names,
        "kind": page.kind,
        "setup": page.setup,
        "parts": page.parts,
        "problems": page.problems,
        "progress": page.progress,
        "conflict": page.conflict,
        "seats_to_fix": page.seats_to_fix,
        "checked": page.checked,
        "indicators_first": page.indicators_first,
        "number": page.number,
        "leader_name": page.leader_name,
        "hazy": page.hazy,
        "hidden": list(hidden),
        "correcting": correcting,
        "modes": list(modes),
        "switched": list(switched) if switched else None,
        "switch_losses": page.losses,
        "switch_action": SWITCH,
        "continue_action": CONTINUE,
        "scoreboard_url": url("games.scoreboard", code=page.code),
    }


def live_start_context(
    state: Mapping[str, Any], reader: Reader, url: Url, token: str
) -> dict[str, Any]:
    """What templates/games/live_start_page.html takes to start the game's next round live:
    the mark page's chips when the variant lays out indicators and the round is not marked
    yet (R4, R14-R16), else one button (the colours marked already, or none laid out). The
    rules worker draws it so for a game the phone holds; ``token``: the CSRF token."""
    setup = setup_of(state)
    number = int(state["next_round"])
    rounds = state["rounds"]
    playing = bool(rounds) and rounds[-1]["status"] != SCORED
    hidden = [("csrf_token", token), ("version", str(state["version"])), ("number", str(number))]
    if setup.cards_laid_out and not playing:
        values = entry_values(Kind.MARK, None, setup.players)
        page = round_page(state, Kind.MARK, number, values, reader)
        return {**round_context(page, url, hidden), "with_indicators": True, "continue_url": None}
    names = [str(name) for name in state["players"]]
    return {
        "with_indicators": False,
        "marked_already": playing and setup.cards_laid_out > 0,
        "hat_trick": setup.variant.has_passes,
        "setup": setup,
        "number": number,
        "leader_name": names[round_leader(number, int(state["first_leader"]), setup.players)],
        "hazy": setup.variant.hides_marks,
        "conflict": None,
        "problems": [],
        "hidden": hidden,
        "scoreboard_url": url("games.scoreboard", code=str(state["id"])),
        "continue_url": None,
    }
