"""Scoring a whole round (R10, R12-R16 for the classic family, R22 for Hat Trick).

The table enters each seat's round in one of the shapes of ``entries``; :func:`score_round`
runs the checks of section 7 and scores every seat. Quick and full entries of the same round score
the same, because both reduce to the marked-colour cards held and the count of the rest.

It is over 450 lines on purpose: the whole way from entries to a round's score
(the checks in order, classic and delayed choices, Hat Trick holdings and their C5 limits)
reads top to bottom in one place, and each step is a small function of its own; split by
family, the order of the checks that ``round_problems`` and ``score_checked`` share would
be written twice.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar

from companion.rules.cards import Card, Colour
from companion.rules.checks import (
    check_cards_named_once,
    check_hat_trick_holdings,
    check_hat_trick_playable,
    check_indicators,
    check_marked_captures,
    check_trick_total,
    check_tricks_of_seat,
    tricks_from_captures,
)
from companion.rules.deck import HAT_TRICK_COLOURS
from companion.rules.entries import (
    DelayedEntry,
    Entry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
)
from companion.rules.errors import ChoiceError, HatTrickError, RoundRefused, RuleError
from companion.rules.hat_trick import HatTrickCounts, best_hat_trick_colour, hat_trick_score
from companion.rules.table import TableSetup
from companion.rules.text import N_, ngettext
from companion.rules.variants import ClassicVariant, HatTrickVariant, Reveal, Scoring

_P = ParamSpec("_P")
_T = TypeVar("_T")


@dataclass(frozen=True)
class SeatScore:
    """How one seat scored a classic-family round.

    ``colours`` are the marked colours used; ``marked_cards`` the cards of those colours the
    seat holds (indicators included); ``other_cards`` how many others. For a delayed round,
    ``proposed`` is the best choice and ``proposed_score`` what it scores.
    """

    score: int
    colours: tuple[Colour, ...]
    tricks: int
    marked_cards: tuple[Card, ...]
    other_cards: int
    proposed: tuple[Colour, ...] | None = None
    proposed_score: int | None = None

    def as_json(self) -> dict[str, object]:
        """The API's shape of one entry of a scored round."""
        data: dict[str, object] = {
            "score": self.score,
            "colours": [colour.value for colour in self.colours],
            "tricks": self.tricks,
            "marked_cards": [card.as_json() for card in self.marked_cards],
            "other_cards": self.other_cards,
        }
        if self.proposed is not None:
            data["proposed"] = [colour.value for colour in self.proposed]
            data["proposed_score"] = self.proposed_score
        return data


@dataclass(frozen=True)
class HatTrickSeatScore:
    """How one seat scored a Hat Trick round (R22). ``colour`` is the scoring colour, ``None``
    for a seat that captured nothing (no face-up card, so no colour scores)."""

    score: int
    colour: Colour | None
    counts: Mapping[Colour, int] = field(hash=False)
    passed: int

    @property
    def colours(self) -> tuple[Colour, ...]:
        """The scoring colour, as a one-colour tuple like the classic family's; none for a
        seat that captured nothing."""
        return () if self.colour is None else (self.colour,)

    @property
    def tricks(self) -> None:
        """Hat Trick counts cards, not tricks (double tricks give two winners)."""
        return None

    def as_json(self) -> dict[str, object]:
        """The API's shape of one entry of a scored Hat Trick round."""
        return {
            "score": self.score,
            "colours": [colour.value for colour in self.colours],
            "counts": {colour.value: self.counts.get(colour, 0) for colour in HAT_TRICK_COLOURS},
            "passed": self.passed,
        }


@dataclass(frozen=True)
class RoundScore:
    """Every seat's score for one round, in seat order."""

    seats: tuple[SeatScore | HatTrickSeatScore, ...]

    @property
    def scores(self) -> list[int]:
        """The round's score per seat."""
        return [seat.score for seat in self.seats]

    def as_json(self) -> dict[str, object]:
        """The shape of ``POST /api/v1/rounds/score``."""
        return {"scores": self.scores, "entries": [seat.as_json() for seat in self.seats]}


def score_round(setup: TableSetup, entries: Sequence[Entry], *, stored: bool = False) -> RoundScore:
    """Check (C1-C5) and score a complete round, one entry per seat in seat order; the first
    refusal is raised. ``stored``: a round saved before C5's limits from R19 and R20 were
    checked is read back as it was scored (:func:`unplayable_problems` says what it breaks)."""
    found = Findings()
    scored = _checked_round(setup, entries, found, stored=stored)
    if found.problems:
        raise found.problems[0]
    assert scored is not None
    return scored


def score_checked(setup: TableSetup, entries: Sequence[Entry]) -> RoundScore:
    """Check (C1-C5) and score a round being saved, each check run once: refused with every
    problem at once (:class:`RoundRefused`), so the table fixes the whole round in one go."""
    found = Findings()
    scored = _checked_round(setup, entries, found)
    if found.problems:
        raise RoundRefused(tuple(found.problems))
    assert scored is not None
    return scored


def round_problems(setup: TableSetup, entries: Sequence[Entry]) -> tuple[RuleError, ...]:
    """Every refusal of a round at once (C1-C5, R16), in the order :func:`score_round` meets
    them, so the table can fix the whole round in one go. Each check runs where the checks
    it needs have passed (C4 needs the seat's marked colours and tricks); empty when the
    round scores."""
    found = Findings()
    _checked_round(setup, entries, found)
    return tuple(found.problems)


class Findings:
    """The refusals met while checking one round; each check is run through it so a
    refusal is noted and the next check still runs."""

    def __init__(self) -> None:
        self.problems: list[RuleError] = []

    def value(self, check: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T | None:
        """What ``check`` answers, or ``None`` (and the refusal noted) when it refuses."""
        try:
            return check(*args, **kwargs)
        except RuleError as error:
            self.problems.append(error)
            return None

    def passes(self, check: Callable[_P, object], *args: _P.args, **kwargs: _P.kwargs) -> bool:
        """Whether ``check`` passes; a refusal is noted."""
        before = len(self.problems)
        self.value(check, *args, **kwargs)
        return len(self.problems) == before


def _checked_round(
    setup: TableSetup, entries: Sequence[Entry], found: Findings, *, stored: bool = False
) -> RoundScore | None:
    """The round's score, or ``None`` with every refusal noted in ``found``."""
    if len(entries) != setup.players:
        found.problems.append(
            RuleError.saying(
                N_("A round needs one entry per player: %(players)s, not %(count)s."),
                players=setup.players,
                count=len(entries),
            )
        )
        return None
    if isinstance(setup.variant, HatTrickVariant):
        return _score_hat_trick(setup, entries, found, stored=stored)
    return _score_classic(setup, setup.variant, entries, found)


def _entry_kind_error(seat: int, expected: str) -> RuleError:
    return RuleError.saying(
        N_("%(player)s's entry is not %(expected)s."), seat=seat, expected=expected
    )


def _score_classic(
    setup: TableSetup, variant: ClassicVariant, entries: Sequence[Entry], found: Findings
) -> RoundScore | None:
    delayed = variant.reveal is Reveal.DELAYED
    for seat, entry in enumerate(entries):
        if delayed and not isinstance(entry, DelayedEntry):
            found.problems.append(
                _entry_kind_error(seat, N_("a delayed entry of captured cards (R16)"))
            )
        if not delayed and not isinstance(entry, FullEntry | QuickEntry):
            found.problems.append(
                _entry_kind_error(seat, N_("a full or quick entry with indicator cards"))
            )
    if found.problems:
        return None
    found.passes(check_cards_named_once, _named_cards(entries), setup.deck)
    marked = [
        found.value(check_indicators, seat, entry.marked, variant.colours)
        if isinstance(entry, FullEntry | QuickEntry)
        else ()
        for seat, entry in enumerate(entries)
    ]
    tricks = [found.value(_seat_tricks, seat, entry, setup) for seat, entry in enumerate(entries)]
    counted = [count for count in tricks if count is not None]
    if len(counted) == len(tricks):
        found.passes(check_trick_total, counted, setup.tricks_per_round)
    seats = []
    for seat, entry in enumerate(entries):
        colours, won = marked[seat], tricks[seat]
        if colours is None or won is None:
            continue
        if isinstance(entry, QuickEntry) and not found.passes(
            check_marked_captures, seat, colours, entry.marked_captured, entry.tricks, setup.players
        ):
            continue
        score = found.value(_seat_score, seat, entry, colours, won, setup, variant)
        if score is not None:
            seats.append(score)
    return None if found.problems else RoundScore(tuple(seats))


def _named_cards(entries: Sequence[Entry]) -> list[tuple[int, Card]]:
    """Every card an entry names, with its seat, for C1."""
    named: list[tuple[int, Card]] = []
    for seat, entry in enumerate(entries):
        if isinstance(entry, FullEntry):
            cards: tuple[Card, ...] = entry.marked + entry.captured
        elif isinstance(entry, QuickEntry):
            cards = entry.marked + entry.marked_captured
        elif isinstance(entry, DelayedEntry):
            cards = entry.captured
        elif isinstance(entry, HatTrickFullEntry):
            cards = entry.captured + entry.passed
        else:
            cards = ()
        named.extend((seat, card) for card in cards)
    return named


def _seat_tricks(seat: int, entry: Entry, setup: TableSetup) -> int:
    """C3: the tricks a seat won, counted or derived from its captures."""
    if isinstance(entry, QuickEntry):
        tricks = entry.tricks
    elif isinstance(entry, FullEntry | DelayedEntry):
        tricks = tricks_from_captures(seat, len(entry.captured), setup.players)
    else:  # pragma: no cover - Hat Trick entries never reach the classic family
        raise _entry_kind_error(seat, N_("a classic-family entry"))
    check_tricks_of_seat(seat, tricks, setup.tricks_per_round)
    return tricks


def _seat_score(
    seat: int,
    entry: Entry,
    marked: tuple[Colour, ...],
    tricks: int,
    setup: TableSetup,
    variant: ClassicVariant,
) -> SeatScore:
    """R10, R12, R13 (and R16 for a delayed entry): one seat's round score."""
    scoring = variant.scoring
    if isinstance(entry, DelayedEntry):
        return _delayed_score(seat, entry, tricks, variant)
    captured_count = tricks * setup.players
    if isinstance(entry, FullEntry):
        held = entry.marked + tuple(card for card in entry.captured if card.colour in marked)
    else:
        assert isinstance(entry, QuickEntry)
        held = entry.marked + entry.marked_captured
    others = captured_count - (len(held) - len(entry.marked))
    return SeatScore(scoring.score(held, others), marked, tricks, held, others)


def delayed_choices(captured: Sequence[Card], colours: int) -> list[tuple[Colour, ...]]:
    """R16: the legal choices: ``colours`` colours among those captured (fewer if fewer were
    captured; none if nothing was)."""
    seen = tuple(dict.fromkeys(card.colour for card in captured))
    return list(itertools.combinations(seen, min(colours, len(seen))))


def score_choice(captured: Sequence[Card], choice: Sequence[Colour], scoring: Scoring) -> int:
    """The score of captured cards with ``choice`` as the marked colours."""
    held = [card for card in captured if card.colour in choice]
    return scoring.score(held, len(captured) - len(held))


def best_delayed_choice(
    captured: Sequence[Card], colours: int, scoring: Scoring
) -> tuple[tuple[Colour, ...], int]:
    """R16: the choice that scores best for the player, with its score (the first such
    choice in the order the colours were captured)."""
    best: tuple[tuple[Colour, ...], int] = ((), 0)
    for index, choice in enumerate(delayed_choices(captured, colours)):
        score = score_choice(captured, choice, scoring)
        if index == 0 or score > best[1]:
            best = (choice, score)
    return best


def _delayed_score(
    seat: int, entry: DelayedEntry, tricks: int, variant: ClassicVariant
) -> SeatScore:
    """R16: score the proposed choice, or the table's override of it."""
    proposed, proposed_score = best_delayed_choice(entry.captured, variant.colours, variant.scoring)
    choice = proposed
    if entry.choose is not None:
        choice = _checked_choice(seat, entry, variant.colours)
    held = tuple(card for card in entry.captured if card.colour in choice)
    score = score_choice(entry.captured, choice, variant.scoring)
    return SeatScore(
        score, choice, tricks, held, len(entry.captured) - len(held), proposed, proposed_score
    )


def _checked_choice(seat: int, entry: DelayedEntry, colours: int) -> tuple[Colour, ...]:
    """R16: an override must name distinct colours the seat captured, as many as allowed."""
    assert entry.choose is not None
    choice = entry.choose
    captured = {card.colour for card in entry.captured}
    for colour in choice:
        if colour not in captured:
            raise ChoiceError.saying(
                N_("%(player)s cannot choose %(colour)s: they captured no card of it (R16)."),
                seat=seat,
                colour=colour,
            )
    needed = min(colours, len(captured))
    if len(set(choice)) != len(choice) or len(choice) != needed:
        raise ChoiceError.saying(
            ngettext(
                "%(player)s must choose %(needed)s colour among those they captured, "
                "not %(count)s (R16).",
                "%(player)s must choose %(needed)s different colours among those they "
                "captured, not %(count)s (R16).",
                needed,
            ),
            seat=seat,
            needed=needed,
            count=len(choice),
        )
    return tuple(choice)


def _score_hat_trick(
    setup: TableSetup, entries: Sequence[Entry], found: Findings, *, stored: bool = False
) -> RoundScore | None:
    """R22 with the checks C1 and C5 (without C5's limits from R19 and R20 for a round
    ``stored`` before they were checked)."""
    for seat, entry in enumerate(entries):
        if not isinstance(entry, HatTrickFullEntry | HatTrickQuickEntry):
            found.problems.append(_entry_kind_error(seat, N_("a Hat Trick entry")))
    if found.problems:
        return None
    if not found.passes(check_cards_named_once, _named_cards(entries), setup.deck):
        return None  # a card not in the deck (C1) cannot be counted by colour
    counted = [found.value(_hat_trick_holding, seat, entry) for seat, entry in enumerate(entries)]
    holdings = [holding for holding in counted if holding is not None]
    if len(holdings) != len(counted):
        return None
    found.passes(_check_colour_totals, holdings, setup)
    found.passes(
        check_hat_trick_holdings,
        [(sum(h.counts.values()), h.passed) for h in holdings],
        setup.tricks_per_round,
        setup.players,
    )
    if not found.problems and not stored:
        found.passes(
            check_hat_trick_playable,
            [(sum(h.counts.values()), h.passed) for h in holdings],
            setup.tricks_per_round,
            setup.players,
        )
    if found.problems:
        return None
    return RoundScore(
        tuple(
            HatTrickSeatScore(
                hat_trick_score(holding),
                best_hat_trick_colour(holding.counts) if any(holding.counts.values()) else None,
                holding.counts,
                holding.passed,
            )
            for holding in holdings
        )
    )


def _hat_trick_holding(seat: int, entry: Entry) -> HatTrickCounts:
    """A seat's face-up cards per colour and its pass cards, counted or given (C1, C5)."""
    if isinstance(entry, HatTrickQuickEntry):
        for colour, count in entry.counts.items():
            if colour not in HAT_TRICK_COLOURS:
                raise HatTrickError.saying(
                    N_(
                        "%(player)s cannot hold %(colour)s cards: Hat Trick is played with "
                        "red, blue and green only (R17)."
                    ),
                    seat=seat,
                    colour=colour,
                )
            if count < 0:
                raise HatTrickError.saying(
                    N_(
                        "%(player)s cannot hold %(count)s %(colour)s cards: a count is never "
                        "below zero (C5)."
                    ),
                    seat=seat,
                    count=count,
                    colour=colour,
                )
        counts = {colour: entry.counts.get(colour, 0) for colour in HAT_TRICK_COLOURS}
        return HatTrickCounts(counts, entry.passed)
    assert isinstance(entry, HatTrickFullEntry)
    counts = {colour: 0 for colour in HAT_TRICK_COLOURS}
    for card in entry.captured:
        counts[card.colour] += 1
    return HatTrickCounts(counts, len(entry.passed))


def _check_colour_totals(holdings: Sequence[HatTrickCounts], setup: TableSetup) -> None:
    """C1 for counts: the table cannot hold more face-up cards of a colour than the deck has."""
    for colour in HAT_TRICK_COLOURS:
        total = sum(holding.counts.get(colour, 0) for holding in holdings)
        if total > setup.deck.cards_of(colour):
            raise HatTrickError.saying(
                N_(
                    "The table holds %(count)s face-up %(colour)s cards, but the deck has "
                    "only %(most)s (C1)."
                ),
                count=total,
                colour=colour,
                most=setup.deck.cards_of(colour),
            )


def unplayable_problems(setup: TableSetup, entries: Sequence[Entry]) -> tuple[RuleError, ...]:
    """What a Hat Trick round that scores otherwise breaks of C5's limits from R19 and R20
    (a round stored before they were checked): its refusal, or nothing."""
    if not isinstance(setup.variant, HatTrickVariant) or not all(
        isinstance(entry, HatTrickFullEntry | HatTrickQuickEntry) for entry in entries
    ):
        return ()
    found = Findings()
    holdings = [found.value(_hat_trick_holding, seat, entry) for seat, entry in enumerate(entries)]
    if found.problems:
        return ()
    found.passes(
        check_hat_trick_playable,
        [(sum(h.counts.values()), h.passed) for h in holdings if h is not None],
        setup.tricks_per_round,
        setup.players,
    )
    return tuple(found.problems)
