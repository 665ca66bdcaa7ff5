"""What the mark and record pages show: the card chips, count chips and delayed choices of
each seat's part of the form, the C3/C5 progress line, and the refusals placed next to the
seat they name. Built from a round form; nothing here reads a request or saves.

It is a little over 400 lines: one small view per field kind (card chips, count chips,
delayed choices) and one filler per entry kind, side by side, so the four entry kinds of the
record page are shown alike and a change of one is made in one place."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from wtforms import Field, Form

from companion.read_models.chips import Chip, ChipGroup, card_token
from companion.read_models.messages import colour_name, colour_symbol, render_message, signed_number
from companion.rules import (
    Colour,
    Refusal,
    RuleError,
    TableSetup,
    hat_trick_count_limits,
    tricks_of_cards,
)
from companion.rules.deck import HAT_TRICK_COLOURS
from companion.rules.scoring import best_delayed_choice, delayed_choices, score_choice
from companion.web.games.entry.forms import (
    CHOICE_SEPARATOR,
    Kind,
    RoundForm,
    choice_token,
)

# --------------------------------------------------------------------------------------------
# Chips, counts and each seat's part of the form


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
    def tapped(self) -> tuple[Chip, ...]:
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
    """What the rules refused, at the top of the page or next to a seat."""

    top: list[str] = field(default_factory=list)
    by_seat: dict[int, list[str]] = field(default_factory=dict)
    cards: dict[int, set[str]] = field(default_factory=dict)

    def add(self, error: Refusal, names: Sequence[str]) -> None:
        """Place a refusal next to the seat it names (and its card, a rules refusal's), else
        at the top."""
        message = render_message(error.message, names)
        if error.seat is None or not 0 <= error.seat < len(names):
            self.top.append(message)
            return
        self.by_seat.setdefault(error.seat, []).append(message)
        if isinstance(error, RuleError) and error.card is not None:
            self.cards.setdefault(error.seat, set()).add(card_token(error.card))

    def __bool__(self) -> bool:
        return bool(self.top or self.by_seat)


# --------------------------------------------------------------------------------------------
# Building the seat parts


def chip_groups(
    setup: TableSetup,
    tapped: set[str],
    refused: set[str],
    shown_colours: Iterable[Colour] | None = None,
    taken: set[str] = frozenset(),  # type: ignore[assignment]
) -> tuple[ChipGroup, ...]:
    """The deck in use as chips, a group per colour. Cards ``taken`` elsewhere (indicators)
    are left out unless tapped here; colours not in ``shown_colours`` start hidden."""
    shown = None if shown_colours is None else set(shown_colours)
    groups = []
    for colour in setup.deck.colours:
        chips = tuple(
            Chip.of(card, card_token(card) in tapped, card_token(card) in refused)
            for card in setup.deck
            if card.colour is colour
            and (card_token(card) not in taken or card_token(card) in tapped)
        )
        any_tapped = any(c.checked for c in chips)
        groups.append(
            ChipGroup(
                colour.value,
                chips,
                hidden=shown is not None and colour not in shown and not any_tapped,
            )
        )
    return tuple(groups)


def seat_field(form_field: Field) -> dict[str, Any]:
    """The parts of a seat field's view that come from its form field as they are."""
    return {
        "name": form_field.name,
        "label": str(form_field.label.text),
        "errors": tuple(form_field.errors),
    }


def card_picker(
    form: Form,
    name: str,
    setup: TableSetup,
    refused: set[str],
    *,
    multiple: bool = True,
    compact: bool = False,
    shown_colours: Iterable[Colour] | None = None,
    taken: set[str] = frozenset(),  # type: ignore[assignment]
) -> CardPicker:
    """The chips of the card field ``name`` of a seat's form."""
    chips_field = form[name]
    return CardPicker(
        **seat_field(chips_field),
        multiple=multiple,
        groups=chip_groups(setup, chips_field.tokens, refused, shown_colours, taken),
        compact=compact,
    )


def count_chips(
    form: RoundForm, seat_form: Form, name: str, most: int, colour: Colour | None = None
) -> CountChips:
    """The number chips of the count field ``name`` of a seat's form: 0..``most``, and the
    number sent if it lies beyond (so a refused count still shows, next to its error)."""
    count = seat_form[name]
    entered = count.entered
    values = list(range(most + 1))
    if entered is not None and entered not in values:
        values.append(entered)
        values.sort()
    return CountChips(
        **seat_field(count),
        chips=tuple(CountChip(value, value == entered) for value in values),
        colour=colour.value if colour else None,
        symbol=colour_symbol(colour) if colour else None,
        implied=count.name == form.implied,
    )


def indicator_tokens(form: RoundForm) -> set[str]:
    """Every seat's indicator chips: no one can have captured an indicator (R4)."""
    if not form.kind.names_indicators:
        return set()
    return {token for seat in form.seats for token in seat["marked"].tokens}


def seat_part(
    form: RoundForm, seat: int, names: Sequence[str], leader: int, problems: Problems
) -> SeatPart:
    """One seat's part of the form, as its kind of entry asks for it."""
    part = SeatPart(seat, names[seat], seat == leader, problems=problems.by_seat.get(seat, []))
    refused = problems.cards.get(seat, set())
    if form.kind.names_indicators:
        part.indicators = card_picker(
            form.seats[seat],
            "marked",
            form.setup,
            refused,
            multiple=form.setup.cards_laid_out > 1,
            compact=True,
        )
    if form.kind in SEAT_FILLERS:
        SEAT_FILLERS[form.kind](part, form, form.seats[seat], refused)
    if form.zero_passes:
        asked = ", ".join(names[other] for other in form.zero_passes)
        part.counts = [
            replace(count, zero_passes=asked) if count.implied else count for count in part.counts
        ]
    part.waiting = form.kind is Kind.QUICK and waits_for_indicator(form.seats[seat])
    return part


def waits_for_indicator(seat_form: Form) -> bool:
    """Quick entry asks a seat's indicator first: its captures are of the marked colour(s)
    (C4), so until the indicator is known every colour's chips would show. A seat with
    anything else entered, or refused, shows it all."""
    rest = (seat_form["tricks"], seat_form["marked_captured"])
    return not (
        seat_form["marked"].tokens
        or seat_form["tricks"].shown
        or seat_form["marked_captured"].tokens
        or any(field.errors for field in rest)
    )


def _fill_quick(part: SeatPart, form: RoundForm, seat_form: Form, refused: set[str]) -> None:
    """Tricks won (C3) and the captures of the marked colour(s) only (C4): the chips of the
    seat's marked colours show; the others stay hidden until the indicators say otherwise."""
    setup = form.setup
    marked = {card.colour for card in seat_form["marked"].cards}
    part.counts = [count_chips(form, seat_form, "tricks", setup.tricks_per_round)]
    part.captures = card_picker(
        seat_form,
        "marked_captured",
        setup,
        refused,
        shown_colours=marked or None,
        taken=indicator_tokens(form),
    )


def _fill_full(part: SeatPart, form: RoundForm, seat_form: Form, refused: set[str]) -> None:
    """Every captured card, every colour at once as on the mark page (each card one tap, no
    tab to open first); delayed seats also choose colours (R16)."""
    setup = form.setup
    part.captures = card_picker(
        seat_form,
        "captured",
        setup,
        refused,
        compact=True,
        taken=indicator_tokens(form),
    )
    part.cards_entered = len(seat_form["captured"].data or ())
    part.tricks_entered = tricks_of_cards(part.cards_entered, setup.players)
    if form.kind is Kind.DELAYED:
        part.choice = delayed_choice(seat_form, setup)


def _fill_hat_trick_full(
    part: SeatPart, form: RoundForm, seat_form: Form, refused: set[str]
) -> None:
    """Every face-up card and every face-down pass card (C5)."""
    _fill_full(part, form, seat_form, refused)
    part.passes = card_picker(seat_form, "passed", form.setup, refused, compact=True)
    part.cards_entered = (part.cards_entered or 0) + len(seat_form["passed"].data or ())


def _fill_hat_trick_quick(
    part: SeatPart, form: RoundForm, seat_form: Form, refused: set[str]
) -> None:
    """Face-up cards per colour and passes, as counts (R22, C5)."""
    setup = form.setup
    limits = hat_trick_count_limits(setup)  # every card of the colour; one pass a trick
    colours = [
        count_chips(form, seat_form, colour.value, most, colour)
        for colour, most in zip(HAT_TRICK_COLOURS, limits, strict=False)
    ]
    part.counts = [*colours, count_chips(form, seat_form, "passed", limits[-1])]


SEAT_FILLERS: dict[Kind, Callable[[SeatPart, RoundForm, Form, set[str]], None]] = {
    Kind.QUICK: _fill_quick,
    Kind.FULL: _fill_full,
    Kind.DELAYED: _fill_full,
    Kind.HAT_FULL: _fill_hat_trick_full,
    Kind.HAT_QUICK: _fill_hat_trick_quick,
}


def delayed_choice(seat_form: Form, setup: TableSetup) -> DelayedChoice | None:
    """R16: the proposed colours of a seat's captures and the choices the table may make
    instead; nothing to choose before any capture is entered."""
    variant = setup.variant.settings
    assert variant is not None  # only the classic family chooses its colours (R16)
    captured = seat_form["captured"].cards
    if not captured:
        return None
    proposal, proposal_score = best_delayed_choice(captured, variant.colours, variant.scoring)
    chosen = seat_form["choose"].data or ""
    options = tuple(
        ChoiceOption(
            value=choice_token(choice),
            label=colours_label(choice),
            score=signed_number(score_choice(captured, choice, variant.scoring)),
            selected=choice_token(choice) == chosen,
        )
        for choice in delayed_choices(captured, variant.colours)
    )
    return DelayedChoice(
        **seat_field(seat_form["choose"]),
        proposal=colours_label(proposal),
        proposal_score=signed_number(proposal_score),
        options=options,
    )


def colours_label(colours: Sequence[Colour]) -> str:
    """Colours as the table reads them: "red + blue"."""
    return f" {CHOICE_SEPARATOR} ".join(colour_name(colour) for colour in colours)


def progress_of(form: RoundForm) -> Progress | None:
    """C3 or C5 as far as the form is filled in: tricks (or cards) placed and expected."""
    setup, kind = form.setup, form.kind
    if kind is Kind.MARK:
        return None
    if kind is Kind.QUICK:
        placed = sum(seat["tricks"].entered or 0 for seat in form.seats)
        return Progress("tricks", placed, setup.tricks_per_round)
    if kind is Kind.HAT_QUICK:
        placed = sum(count.entered or 0 for count in form.counts())
    else:
        fields = ("captured", "passed") if kind is Kind.HAT_FULL else ("captured",)
        placed = sum(len(seat[name].data or ()) for seat in form.seats for name in fields)
    return Progress("cards", placed, setup.cards_per_round)
