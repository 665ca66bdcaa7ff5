"""The last count of a round, implied by the others (C3, C5).

The table says its counts aloud; when every count but one is known, the checks leave the
last one a single possible value. Offering it saves a tap, and the table still confirms it.
In Hat Trick the implied count also absorbs a forgotten pass (passes start at 0, and C5's
total still adds up), which no check can catch, so the table is asked about the seats whose
passes are still at 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules.deck import HAT_TRICK_COLOURS
from companion.rules.table import TableSetup


@dataclass(frozen=True)
class ImpliedCount:
    """The one count left open (its place in the list given) and the value the total gives."""

    index: int
    value: int


def implied_count(
    counts: Sequence[int | None], total: int, most: Sequence[int]
) -> ImpliedCount | None:
    """The value of the only count still ``None`` that makes ``counts`` add up to ``total``.

    ``most[i]`` is the largest value count ``i`` may take. ``None`` unless exactly one count
    is open, every known count lies in ``0..most``, and the remainder does too: a count the
    checks would refuse is never offered.
    """
    if len(counts) != len(most):
        raise ValueError("every count needs its largest value")
    open_ = [index for index, count in enumerate(counts) if count is None]
    if len(open_) != 1:
        return None
    known = [(count, top) for count, top in zip(counts, most, strict=True) if count is not None]
    if any(not 0 <= count <= top for count, top in known):
        return None
    index = open_[0]
    value = total - sum(count for count, _ in known)
    if not 0 <= value <= most[index]:
        return None
    return ImpliedCount(index, value)


def implied_tricks(tricks: Sequence[int | None], setup: TableSetup) -> ImpliedCount | None:
    """C3: the trick counts sum to tricks per round, each 0..tricks per round; with every
    seat's count but one known, the last seat's follows."""
    most = setup.tricks_per_round
    return implied_count(tricks, most, [most] * len(tricks))


def hat_trick_count_limits(setup: TableSetup) -> tuple[int, ...]:
    """The largest value of each Hat Trick quick-entry count of one seat, in the order
    red, blue, green, passes: every card of that colour in the deck in use (R17), and at most
    one pass a trick (R19, C5)."""
    colours = tuple(
        sum(1 for card in setup.deck if card.colour is colour) for colour in HAT_TRICK_COLOURS
    )
    return (*colours, setup.tricks_per_round)


def implied_hat_trick_count(counts: Sequence[int | None], setup: TableSetup) -> ImpliedCount | None:
    """C5: the whole table's face-up plus face-down cards equal players x tricks per round.
    ``counts`` is every seat's red, blue, green and passes, seat after seat; with all of them
    but one known, the last follows."""
    limits = hat_trick_count_limits(setup)
    most = [limits[index % len(limits)] for index in range(len(counts))]
    return implied_count(counts, setup.cards_per_round, most)


#: A seat's Hat Trick quick-entry counts, in the order the rules take them.
HAT_TRICK_COUNTS_PER_SEAT = len(HAT_TRICK_COLOURS) + 1


def seats_at_zero_passes(counts: Sequence[int | None], implied: ImpliedCount) -> tuple[int, ...]:
    """C5: the seats whose passes are at 0 (the count ``implied`` apart): a pass one of them
    forgot went into the implied count unnoticed, so the table checks these.

    ``counts`` is every seat's red, blue, green and passes, seat after seat, as for
    :func:`implied_hat_trick_count`.
    """
    width = HAT_TRICK_COUNTS_PER_SEAT
    return tuple(
        seat
        for seat in range(len(counts) // width)
        if counts[seat * width + width - 1] == 0 and implied.index != seat * width + width - 1
    )
