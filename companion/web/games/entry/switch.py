"""Switching a round form between quick entry and every card, keeping what carries.

A switch is a post of the form to the other mode's address (``action=switch``): nothing is
checked or saved, the entries are read as the mode they were typed in and filled into the
other. What the other mode has no field for is dropped, and both the page before the switch
(``losses``: the warning next to the switch) and the page after it (``Switch.notice``) say
so, naming the players it concerned.

- quick to every card: the indicators and the marked-colour cards carry; a trick count has
  no cards, so tricks won beyond the listed cards are not kept.
- every card to quick: the indicators, the marked-colour cards and the tricks the cards make
  (C3) carry; the cards of other colours are kept only in that count, or not at all when
  the cards make no whole number of tricks.
- Hat Trick, every card to counts: how many cards of each colour and how many passes carry,
  not which cards; counts to every card: nothing carries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import request
from flask_babel import gettext
from wtforms import Form

from companion import rules
from companion.pages import record
from companion.pages.record import (
    HAT_TO_FULL,
    HAT_TO_QUICK,
    NO_WHOLE_TRICKS,
    TO_FULL,
    TO_QUICK,
)
from companion.read_models.chips import TOKEN_SEPARATOR, card_of_token
from companion.rules.deck import HAT_TRICK_COLOURS
from companion.web.games.entry.forms import SEAT_FORMS, Kind, RoundForm, VersionForm

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
