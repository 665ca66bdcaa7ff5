"""Why a seat scored what it did: the terms that add up to a round score (R10, R12-R16, R22).

A term is one line of the sum a player would write on paper: "+9 for nine cards of other
colours", "-19 for red 4 (indicator), red 7, red 8", "-2 for one pass card". Its points come
from the same scoring the round was scored with, so the points of a seat's terms always add up
to its score. Where the table named the cards (a full entry), a term lists them; where it only
counted them (quick entry), the term has the count alone. A delayed round (R16) also says which
colours were chosen, what the proposal was and what every other legal choice would have scored.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules.cards import Card, Colour
from companion.rules.deck import HAT_TRICK_COLOURS
from companion.rules.entries import (
    DelayedEntry,
    Entry,
    FullEntry,
    HatTrickFullEntry,
    QuickEntry,
)
from companion.rules.hat_trick import PASS_PENALTY
from companion.rules.scoring import (
    HatTrickSeatScore,
    SeatScore,
    delayed_choices,
    score_choice,
    score_round,
)
from companion.rules.table import TableSetup
from companion.rules.variants import ClassicVariant, HatTrickVariant, Scoring


class TermKind(enum.Enum):
    """What a term counts; the value is its name in the JSON API."""

    #: R10, R12, R13: the cards of one marked colour, indicators included.
    MARKED_CARDS = "marked-cards"
    #: R10, R12, R13: every card not of a marked colour.
    OTHER_CARDS = "other-cards"
    #: R16 (and a Hat Trick seat holding nothing): no card, no point.
    NOTHING_CAPTURED = "nothing-captured"
    #: R22: the colour with the most face-up cards, +1 each.
    BEST_COLOUR = "best-colour"
    #: R22: any other colour's face-up cards, -1 each.
    OTHER_COLOUR = "other-colour"
    #: R22: the face-down pass cards, -2 each.
    PASS_CARDS = "pass-cards"


@dataclass(frozen=True)
class CountedCard:
    """A card a term counts; ``indicator`` for the card laid out to mark the colour (R4)."""

    card: Card
    indicator: bool = False

    def as_json(self) -> dict[str, str | int | bool]:
        """A card of the API, with ``"indicator": true`` on an indicator card."""
        data: dict[str, str | int | bool] = {**self.card.as_json()}
        if self.indicator:
            data["indicator"] = True
        return data


@dataclass(frozen=True)
class Term:
    """One part of a seat's round score: ``count`` cards worth ``points`` together.

    ``colour`` is the colour the term is about (none for "other cards"); ``cards`` the cards
    counted, in the order the table named them, or ``None`` where the entry only counted them.
    """

    kind: TermKind
    points: int
    count: int
    colour: Colour | None = None
    cards: tuple[CountedCard, ...] | None = None

    def as_json(self) -> dict[str, object]:
        """The API's shape of a term: kind, points, count, then colour and cards if known."""
        data: dict[str, object] = {"kind": self.kind.value, "points": self.points}
        data["count"] = self.count
        if self.colour is not None:
            data["colour"] = self.colour.value
        if self.cards is not None:
            data["cards"] = [card.as_json() for card in self.cards]
        return data


@dataclass(frozen=True)
class Choice:
    """A legal choice of colours at the end of a delayed round (R16) and what it scores."""

    colours: tuple[Colour, ...]
    score: int

    def as_json(self) -> dict[str, object]:
        """The API's shape: the colours and their score."""
        return {"colours": [colour.value for colour in self.colours], "score": self.score}


@dataclass(frozen=True)
class DelayedChoice:
    """R16: the colours scored, the app's proposal (the best choice) and every other legal
    choice with its score, best first (ties in the order the colours were captured)."""

    colours: tuple[Colour, ...]
    proposed: Choice
    others: tuple[Choice, ...]

    @property
    def by_table(self) -> bool:
        """Whether the table overrode the proposal with a choice of its own."""
        return set(self.colours) != set(self.proposed.colours)

    @property
    def next_best(self) -> Choice | None:
        """The best of the choices not scored: why the one scored was the best, or what the
        proposal would have given when the table chose otherwise."""
        if self.by_table:
            return self.proposed
        return self.others[0] if self.others else None

    @property
    def equally_good(self) -> tuple[Choice, ...]:
        """The choices not scored that score as much as the proposal scored (R16: any of
        them is the best), so the explanation names no "next best" of the same score."""
        if self.by_table:
            return ()
        return tuple(other for other in self.others if other.score == self.proposed.score)

    def as_json(self) -> dict[str, object]:
        """The API's shape of the choice."""
        return {
            "colours": [colour.value for colour in self.colours],
            "by_table": self.by_table,
            "proposed": self.proposed.as_json(),
            "others": [choice.as_json() for choice in self.others],
        }


@dataclass(frozen=True)
class SeatExplanation:
    """A seat's round score and the terms that add up to it; ``choice`` for a delayed round
    in which the seat captured something (R16)."""

    score: int
    terms: tuple[Term, ...]
    choice: DelayedChoice | None = None

    def as_json(self) -> dict[str, object]:
        """The API's shape: the score, its terms and (delayed rounds) the choice."""
        data: dict[str, object] = {
            "score": self.score,
            "terms": [term.as_json() for term in self.terms],
        }
        if self.choice is not None:
            data["choice"] = self.choice.as_json()
        return data


def explain_round(
    setup: TableSetup, entries: Sequence[Entry], *, stored: bool = False
) -> tuple[SeatExplanation, ...]:
    """Score a complete round (C1-C5, through :func:`score_round`) and explain every seat's
    score, in seat order; ``stored``: a saved round, read back as it was scored."""
    scored = score_round(setup, entries, stored=stored)
    return tuple(
        explain_seat(setup, seat, entry) for seat, entry in zip(scored.seats, entries, strict=True)
    )


def explain_seat(
    setup: TableSetup, seat: SeatScore | HatTrickSeatScore, entry: Entry
) -> SeatExplanation:
    """The terms of one seat's score, from what :func:`score_round` gave it and the entry the
    table made for it (which names the indicators and, in full, the cards)."""
    variant = setup.variant
    if isinstance(seat, HatTrickSeatScore):
        assert isinstance(variant, HatTrickVariant)
        return _explain_hat_trick(seat, entry)
    assert isinstance(variant, ClassicVariant)
    return _explain_classic(seat, entry, variant)


# --------------------------------------------------------------------------------------------
# The classic family (R10, R12-R16)


def _explain_classic(seat: SeatScore, entry: Entry, variant: ClassicVariant) -> SeatExplanation:
    """R10, R12, R13: the other cards, then each marked colour's cards; R16: the choice."""
    scoring = variant.scoring
    indicators = entry.marked if isinstance(entry, FullEntry | QuickEntry) else ()
    terms: list[Term] = []
    if seat.other_cards:
        terms.append(
            Term(
                TermKind.OTHER_CARDS,
                seat.other_cards * scoring.other_card,
                seat.other_cards,
                cards=_other_cards(entry, seat.colours),
            )
        )
    for colour in seat.colours:
        held = [card for card in seat.marked_cards if card.colour is colour]
        if held:
            terms.append(_marked_term(scoring, colour, held, indicators))
    if not terms:
        terms.append(Term(TermKind.NOTHING_CAPTURED, 0, 0))
    choice = None
    if isinstance(entry, DelayedEntry) and seat.colours:
        choice = _delayed_choice(seat, entry, variant)
    return SeatExplanation(seat.score, tuple(terms), choice)


def _marked_term(
    scoring: Scoring, colour: Colour, held: Sequence[Card], indicators: Sequence[Card]
) -> Term:
    """R10, R12, R13: one marked colour's cards, each scored as that scoring says (R4: the
    indicator counts as if captured)."""
    return Term(
        TermKind.MARKED_CARDS,
        sum(scoring.marked_card(card) for card in held),
        len(held),
        colour,
        tuple(CountedCard(card, card in indicators) for card in held),
    )


def _other_cards(entry: Entry, colours: Sequence[Colour]) -> tuple[CountedCard, ...] | None:
    """The cards not of a marked colour, when the entry names them (full or delayed)."""
    if isinstance(entry, FullEntry | DelayedEntry):
        return tuple(CountedCard(card) for card in entry.captured if card.colour not in colours)
    return None


def _delayed_choice(seat: SeatScore, entry: DelayedEntry, variant: ClassicVariant) -> DelayedChoice:
    """R16: the choice scored, the proposal and every other legal choice with its score."""
    assert seat.proposed is not None and seat.proposed_score is not None
    chosen = set(seat.colours)
    others = [
        Choice(choice, score_choice(entry.captured, choice, variant.scoring))
        for choice in delayed_choices(entry.captured, variant.colours)
        if set(choice) != chosen
    ]
    others.sort(key=lambda choice: -choice.score)
    return DelayedChoice(seat.colours, Choice(seat.proposed, seat.proposed_score), tuple(others))


# --------------------------------------------------------------------------------------------
# Hat Trick (R22)


def _explain_hat_trick(seat: HatTrickSeatScore, entry: Entry) -> SeatExplanation:
    """R22: the best colour's cards +1 each, each other colour's -1 each, passes -2 each."""
    face_up = entry.captured if isinstance(entry, HatTrickFullEntry) else None
    terms: list[Term] = []
    colours = [*seat.colours, *(c for c in HAT_TRICK_COLOURS if c is not seat.colour)]
    for colour in colours:
        count = seat.counts.get(colour, 0)
        if not count:
            continue
        best = colour is seat.colour
        cards = None
        if face_up is not None:
            cards = tuple(CountedCard(card) for card in face_up if card.colour is colour)
        kind = TermKind.BEST_COLOUR if best else TermKind.OTHER_COLOUR
        terms.append(Term(kind, count if best else -count, count, colour, cards))
    if seat.passed:
        passed = None
        if isinstance(entry, HatTrickFullEntry):
            passed = tuple(CountedCard(card) for card in entry.passed)
        terms.append(
            Term(TermKind.PASS_CARDS, PASS_PENALTY * seat.passed, seat.passed, None, passed)
        )
    if not terms:
        terms.append(Term(TermKind.NOTHING_CAPTURED, 0, 0))
    return SeatExplanation(seat.score, tuple(terms))
