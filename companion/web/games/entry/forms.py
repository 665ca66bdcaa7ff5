"""The forms of a round's pages, the way between them and the rules' entries, and the switch
between quick entry and every card.

A round form is one small form per seat (fields named ``s<seat>-<field>``, so a seat's
input can never slide into another seat's) behind a Flask-WTF form that carries the CSRF
token and the game's version. Cards travel as tokens such as ``red-7``, one per tapped chip.
The checks themselves (C1-C5) stay in ``companion.rules``: this module only reads the form.
What the phone must read the same way offline (the kinds of form and their fields, a seat's
values into an entry, the count the others imply) is in ``companion.play_state.round_fields``,
which reads the same posted fields without WTForms in the rules worker; the page takes those
pieces from there.

Each entry kind's seat form and the entry it reads stand side by side, so a change of one
kind is a change in one place; the stored entry a form is filled from again (``seat_data``)
is the page model's (companion/pages/record.py), which the phone shares.

A switch of modes is a post of the form to the other mode's address (``action=switch``):
nothing is checked or saved, the entries are read as the mode they were typed in and filled
into the other. What the other mode has no field for is dropped, and both the page before
the switch (``losses``: the warning next to the switch) and the page after it
(``Switch.notice``) say so, naming the players it concerned.

- quick to every card: the indicators and the marked-colour cards carry; a trick count has
  no cards, so tricks won beyond the listed cards are not kept.
- every card to quick: the indicators, the marked-colour cards and the tricks the cards make
  (C3) carry; the cards of other colours are kept only in that count, or not at all when
  the cards make no whole number of tricks.
- Hat Trick, every card to counts: how many cards of each colour and how many passes carry,
  not which cards; counts to every card: nothing carries.

The module is longer than most (over 450 lines) because the switch reads and fills the very
seat forms defined here, one mode's fields into the other's: kept apart, each half would
import the other's seat forms and kinds, and a change of a seat form would touch both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Form, IntegerField, SelectField, SelectMultipleField, StringField
from wtforms.validators import InputRequired, Length, Optional, ValidationError
from wtforms.widgets import HiddenInput

from companion import rules, services
from companion.pages import record
from companion.pages.record import (
    HAT_TO_FULL,
    HAT_TO_QUICK,
    NO_WHOLE_TRICKS,
    TO_FULL,
    TO_QUICK,
    seat_data,
)
from companion.pages.record import Kind as Kind
from companion.play_state import round_fields
from companion.play_state.round_fields import MOST_COUNT
from companion.read_models.chips import TOKEN_SEPARATOR, card_of_token
from companion.rules.deck import HAT_TRICK_COLOURS


class CardChipsField(SelectMultipleField):
    """Cards tapped on chips. Any card may be sent: whether it is in the deck in use, and
    named once, is for the rules to say (C1), naming the seat and the card."""

    def __init__(self, label: Any = None, **kwargs: Any) -> None:
        super().__init__(label, validate_choice=False, **kwargs)

    def pre_validate(self, form: Form) -> None:
        """Refuse values no chip sends (a tampered or garbled form)."""
        for token in self.data or ():
            if card_of_token(token) is None:
                # gettext, not the lazy _l: a lazy string is marked safe HTML, and the value
                # comes from the request.
                raise ValidationError(gettext("“%(value)s” is not a card.", value=token[:20]))

    @property
    def cards(self) -> tuple[rules.Card, ...]:
        """The tapped cards, in the order sent."""
        return tuple(card for token in self.data or () if (card := card_of_token(token)))

    @property
    def tokens(self) -> set[str]:
        """The tapped chips, to draw them tapped again."""
        return set(self.data or ())


class CountField(IntegerField):
    """A count tapped on a row of number chips; one nobody tapped is refused next to the
    field (a count nobody entered is not 0), unless it starts at ``default``."""

    def __init__(self, label: Any = None, default: int | None = None, **kwargs: Any) -> None:
        super().__init__(
            label,
            validators=[InputRequired(message=_l("Enter a number."))],
            default=default,
            **kwargs,
        )

    def pre_validate(self, form: Form) -> None:
        """A count is a whole number of sensible size; the rules check it against the round."""
        if self.data is not None and not -MOST_COUNT <= self.data <= MOST_COUNT:
            raise ValidationError(_l("Enter a number from 0 to %(most)s.", most=MOST_COUNT))

    @property
    def shown(self) -> str:
        """What the field holds: the number, or the text sent if it was no number."""
        if self.raw_data:
            return str(self.raw_data[0])
        return "" if self.data is None else str(self.data)

    @property
    def entered(self) -> int | None:
        """The number the table entered; ``None`` if none (or no number) was sent."""
        try:
            return int(self.shown)
        except ValueError:
            return None

    def fill(self, value: int) -> None:
        """Enter ``value`` as if tapped (the count the others imply)."""
        self.data = value
        self.raw_data = [str(value)]
        self.errors = []


class ChoiceField(SelectField):
    """A delayed seat's colour choice (R16): empty takes the proposal."""

    def __init__(self, label: Any = None, **kwargs: Any) -> None:
        super().__init__(label, validate_choice=False, default="", **kwargs)

    def pre_validate(self, form: Form) -> None:
        """Only colour names may be chosen; whether the choice is allowed is R16's to say."""
        if self.data and self.colours is None:
            raise ValidationError(_l("Choose among the colours offered."))

    @property
    def colours(self) -> tuple[rules.Colour, ...] | None:
        """The chosen colours; ``None`` if the value names no colour."""
        return round_fields.colours_of_choice(self.data or "")


class MarkSeatForm(Form):
    """A seat's indicator cards at the start of a round (R4, R14)."""

    marked = CardChipsField(_l("Indicator"))


class QuickSeatForm(MarkSeatForm):
    """A seat's round in short: the indicators as marked, tricks won, marked-colour
    captures (C3, C4)."""

    tricks = CountField(_l("Tricks won"))
    marked_captured = CardChipsField(_l("Marked-colour cards captured"))


class FullSeatForm(MarkSeatForm):
    """A seat's round in full: the indicators as marked, and every captured card."""

    captured = CardChipsField(_l("Cards captured"))


class DelayedSeatForm(Form):
    """A seat's captures when colours are chosen at the end, and the table's choice (R16)."""

    captured = CardChipsField(_l("Cards captured"))
    choose = ChoiceField(_l("Colours scored"))


class HatTrickQuickSeatForm(Form):
    """A Hat Trick seat as counts: face-up cards per colour and passes (R22)."""

    red = CountField(_l("Red cards"))
    blue = CountField(_l("Blue cards"))
    green = CountField(_l("Green cards"))
    passed = CountField(_l("Pass cards"), default=0)  # C5's totals catch a forgotten pass


class HatTrickFullSeatForm(Form):
    """A Hat Trick seat card by card: face-up captures and face-down pass cards."""

    captured = CardChipsField(_l("Face-up cards"))
    passed = CardChipsField(_l("Pass cards (face down)"))


SEAT_FORMS: dict[Kind, type[Form]] = {
    Kind.MARK: MarkSeatForm,
    Kind.QUICK: QuickSeatForm,
    Kind.FULL: FullSeatForm,
    Kind.DELAYED: DelayedSeatForm,
    Kind.HAT_QUICK: HatTrickQuickSeatForm,
    Kind.HAT_FULL: HatTrickFullSeatForm,
}

#: The counts of a seat, by form, in the order the rules take them (C3, C5).
COUNT_FIELDS = {Kind(kind): names for kind, names in round_fields.COUNT_FIELDS.items()}


class VersionForm(FlaskForm):
    """The CSRF token, the version of the game the page was based on and the round it was
    opened for: its number and, for a correction, the digest of the round as shown. A form
    belongs to that round and never moves on to another by itself."""

    version = IntegerField(widget=HiddenInput())
    number = IntegerField(widget=HiddenInput(), validators=[Optional()])
    digest = StringField(widget=HiddenInput(), validators=[Optional(), Length(max=64)])

    @property
    def opened_for(self) -> int | None:
        """The round the page was opened for; ``None`` from a page that did not say."""
        data = self.number.data
        return data if isinstance(data, int) else None


class LiveTrickForm(VersionForm):
    """A live form that changes the unfinished trick: it also says how many of the trick's
    cards its page showed, since those cards do not move the game's version."""

    cards = IntegerField(widget=HiddenInput(), validators=[Optional()])


class LiveCardForm(LiveTrickForm):
    """A tapped chip on the live page: the card, whether it is a Hat Trick pass (R19), the
    version and the cards of the trick its page showed."""

    card = StringField()
    pass_next = BooleanField()


@dataclass
class RoundForm:
    """A round's form: the version form and one form per seat, in seat order."""

    kind: Kind
    setup: rules.TableSetup
    #: What every round form carries besides the seats: the CSRF token, the game's version
    #: and the round it was opened for.
    stamp: VersionForm
    seats: list[Form]
    implied: str | None = None  # the count filled in from the others, for the table to confirm
    #: Hat Trick: the seats whose passes are still at 0 when a count was implied (C5).
    zero_passes: tuple[int, ...] = ()

    @classmethod
    def build(
        cls,
        kind: Kind,
        setup: rules.TableSetup,
        version: int,
        prefill: Sequence[Mapping[str, Any]] | None = None,
        number: int | None = None,
        digest: str | None = None,
    ) -> RoundForm:
        """The form as posted, or (on a first visit) pre-filled from ``prefill``, a stored
        entry per seat in the API's shape, for round ``number`` (as ``digest`` says it was
        shown, if corrected)."""
        submitted = request.method == "POST"
        shown = {"version": version, "number": number, "digest": digest}
        stamp = VersionForm() if submitted else VersionForm(data=shown)
        seats = []
        for seat in range(setup.players):
            stored = prefill[seat] if prefill and seat < len(prefill) else None
            data = seat_data(kind, stored, setup.players) if stored else None
            form_class = SEAT_FORMS[kind]
            seats.append(
                form_class(
                    formdata=request.form if submitted else None, prefix=f"s{seat}", data=data
                )
            )
        return cls(kind, setup, stamp, seats)

    @property
    def version(self) -> int:
        """The version the table's input was based on (-1 if the page sent none)."""
        data = self.stamp.version.data
        return data if isinstance(data, int) else -1

    def move_to_version(self, version: int) -> None:
        """After a conflict: the input stays, the next save is based on the current game."""
        self.stamp.version.data = version
        self.stamp.version.raw_data = [str(version)]

    def validate(self) -> bool:
        """Every seat's fields are readable (the rules then judge the round)."""
        results = [self.stamp.validate()] + [seat.validate() for seat in self.seats]
        return all(results)

    def counts(self) -> list[CountField]:
        """Every count of the form, seat after seat, in the order the rules take them."""
        names = COUNT_FIELDS.get(self.kind, ())
        return [seat[name] for seat in self.seats for name in names]

    def fill_implied(self) -> str | None:
        """Fill in the one count nobody entered when the others imply it (C3, C5); answers
        the name of the field filled, or ``None``."""
        counts = self.counts()
        entered = [count.entered for count in counts]
        implied = round_fields.implied_of(self.kind.value, entered, self.setup)
        if implied is None or counts[implied.index].shown:
            return None  # open only if nothing at all was sent (not a typing slip)
        counts[implied.index].fill(implied.value)
        self.implied = counts[implied.index].name
        self.zero_passes = implied.zero_passes
        return self.implied

    def marked(self) -> list[tuple[rules.Card, ...]]:
        """Each seat's indicator cards."""
        return [seat["marked"].cards for seat in self.seats]

    def entries(self) -> list[rules.Entry]:
        """One rules entry per seat, in seat order (call after :meth:`validate`)."""
        return [round_fields.seat_entry(self.kind.value, seat_values(seat)) for seat in self.seats]

    def sent(self) -> services.RoundSent:
        """The round as sent, for ``services.submit`` (call after :meth:`validate`)."""
        return services.RoundSent(
            self.version, tuple(self.entries()), self.stamp.opened_for, self.stamp.digest.data
        )


def seat_values(seat: Form) -> round_fields.SeatValues:
    """A seat's fields as ``round_fields`` builds its entry from them: the cards of each chip
    field, each count (``None`` if unreadable, for the conflict view) and the colour choice."""
    cards = {f.short_name: f.cards for f in seat if isinstance(f, CardChipsField)}
    counts = {f.short_name: f.data for f in seat if isinstance(f, CountField)}
    choice = next((f.colours if f.data else None for f in seat if isinstance(f, ChoiceField)), None)
    return round_fields.SeatValues(cards, counts, choice)


# --------------------------------------------------------------------------------------------
# Switching between quick entry and every card

#: The ``action`` of the switch buttons.
SWITCH = record.SWITCH

#: The order the notice after a switch tells them in.
LOSSES = (TO_FULL, TO_QUICK, NO_WHOLE_TRICKS, HAT_TO_QUICK, HAT_TO_FULL)


@dataclass
class Switch:
    """A switch done: the form in the new mode and, per kind of loss, the seats it concerned
    with how many (tricks or cards)."""

    source: Kind
    form: RoundForm
    dropped: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    def notice(self, names: Sequence[str]) -> list[str]:
        """What the page says after the switch: what was kept, then what was not."""
        lines = [kept_sentence(self.form.kind)]
        for loss, seats in sorted(self.dropped.items(), key=lambda item: LOSSES.index(item[0])):
            listed = ", ".join(f"{names[seat]} ({count})" for seat, count in seats)
            lines.append(dropped_sentence(loss, listed))
        return lines


def kept_sentence(kind: Kind) -> str:
    """What a switch into ``kind`` keeps."""
    if kind is Kind.FULL:
        return gettext("Switched to every card. Kept: the indicators and the marked-colour cards.")
    if kind is Kind.QUICK:
        return gettext(
            "Switched to quick entry. Kept: the indicators, the marked-colour cards and the "
            "tricks the cards make."
        )
    if kind is Kind.HAT_QUICK:
        return gettext(
            "Switched to quick entry. Kept: how many cards of each colour and how many pass cards."
        )
    return gettext("Switched to every card.")


def dropped_sentence(loss: str, players: str) -> str:
    """What a switch did not keep, for the players listed with their counts."""
    if loss == TO_FULL:
        return gettext(
            "Not kept: the tricks won by %(players)s; enter every card of their tricks.",
            players=players,
        )
    if loss == TO_QUICK:
        return gettext(
            "Kept only in the trick count: the cards of other colours of %(players)s.",
            players=players,
        )
    if loss == NO_WHOLE_TRICKS:
        return gettext(
            "Not kept: the cards of other colours of %(players)s, which make no whole number "
            "of tricks.",
            players=players,
        )
    if loss == HAT_TO_QUICK:
        return gettext(
            "Kept only as counts: the cards of %(players)s, not which cards they were.",
            players=players,
        )
    return gettext(
        "Not kept: the counts of %(players)s; enter their cards one by one.", players=players
    )


# --------------------------------------------------------------------------------------------
# Reading a seat as typed, and filling it into the other mode


def colour_of(token: str) -> str:
    """The colour part of a chip's value (``red`` of ``red-7``)."""
    return token.partition(TOKEN_SEPARATOR)[0]


def tapped(seat: Form, name: str) -> list[str]:
    """The chips of ``name`` as sent, those no chip sends left out (whether the card is in
    the deck is for the rules to say later, C1)."""
    return [token for token in seat[name].data or () if card_of_token(token) is not None]


def quick_to_full(seat: Form, per_trick: int) -> tuple[dict[str, Any], dict[str, int]]:
    """Indicators and marked-colour cards carry; tricks won beyond those cards do not."""
    listed = tapped(seat, "marked_captured")
    tricks = seat["tricks"].entered
    unlisted = (tricks or 0) * per_trick - len(listed)
    lost = {TO_FULL: tricks} if tricks and unlisted > 0 else {}
    return {"marked": tapped(seat, "marked"), "captured": listed}, lost


def full_to_quick(seat: Form, per_trick: int) -> tuple[dict[str, Any], dict[str, int]]:
    """Indicators, marked-colour cards and the tricks the cards make (C3) carry; the other
    cards only in that count (none if the cards make no whole number of tricks)."""
    marked = tapped(seat, "marked")
    colours = {colour_of(token) for token in marked}
    captured = tapped(seat, "captured")
    listed = [token for token in captured if colour_of(token) in colours]
    others = len(captured) - len(listed)
    tricks = rules.tricks_of_cards(len(captured), per_trick) if captured else None
    lost = {}
    if others:
        lost = {TO_QUICK if tricks is not None else NO_WHOLE_TRICKS: others}
    return {"marked": marked, "tricks": tricks, "marked_captured": listed}, lost


def hat_full_to_quick(seat: Form, per_trick: int) -> tuple[dict[str, Any], dict[str, int]]:
    """How many face-up cards of each colour and how many pass cards carry (R22)."""
    captured = [colour_of(token) for token in tapped(seat, "captured")]
    passed = tapped(seat, "passed")
    if not captured and not passed:
        return {}, {}  # a count nobody entered is not 0
    data: dict[str, Any] = {
        colour.value: captured.count(colour.value) for colour in HAT_TRICK_COLOURS
    }
    data["passed"] = len(passed)
    return data, {HAT_TO_QUICK: len(captured) + len(passed)}


def hat_quick_to_full(seat: Form, per_trick: int) -> tuple[dict[str, Any], dict[str, int]]:
    """Counts have no cards: nothing carries."""
    names = [colour.value for colour in HAT_TRICK_COLOURS] + ["passed"]
    counted = sum(seat[name].entered or 0 for name in names)
    return {}, ({HAT_TO_FULL: counted} if counted > 0 else {})


CARRY = {
    (Kind.QUICK, Kind.FULL): quick_to_full,
    (Kind.FULL, Kind.QUICK): full_to_quick,
    (Kind.HAT_FULL, Kind.HAT_QUICK): hat_full_to_quick,
    (Kind.HAT_QUICK, Kind.HAT_FULL): hat_quick_to_full,
}


def other_kind(kind: Kind) -> Kind | None:
    """The mode a switch from ``kind`` goes to (``None``: the form has no other)."""
    return next((target for source, target in CARRY if source is kind), None)


def is_switch() -> bool:
    """Whether the post is a switch of modes (nothing to check or save)."""
    return request.method == "POST" and request.form.get("action") == SWITCH


def switched(target: Kind, setup: rules.TableSetup) -> Switch | None:
    """The posted form, typed in the other mode, filled into ``target``; ``None`` when
    ``target`` has no other mode to come from."""
    source = next((s for s, t in CARRY if t is target), None)
    if source is None:
        return None
    stamp = VersionForm()
    seats: list[Form] = []
    switch = Switch(source, RoundForm(target, setup, stamp, seats))
    for seat in range(setup.players):
        typed = SEAT_FORMS[source](formdata=request.form, prefix=f"s{seat}")
        data, lost = CARRY[(source, target)](typed, setup.cards_per_trick)
        seats.append(SEAT_FORMS[target](prefix=f"s{seat}", data=data))
        for loss, count in lost.items():
            switch.dropped.setdefault(loss, []).append((seat, count))
    return switch


def form_to_show(
    kind: Kind, setup: rules.TableSetup, stored: Callable[[], RoundForm]
) -> tuple[RoundForm, Switch | None]:
    """The form a round page shows in ``kind``: after a switch of modes, the posted entries
    carried over (with the switch, to tell what it kept); else the one ``stored`` builds."""
    switch = switched(kind, setup) if is_switch() else None
    return (switch.form if switch else stored()), switch
