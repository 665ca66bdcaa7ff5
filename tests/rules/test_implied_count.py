"""The last count implied by the others: C3 for trick counts, C5 for Hat Trick's cards."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.checks import (
    check_hat_trick_holdings,
    check_trick_total,
    check_tricks_of_seat,
)
from companion.rules.errors import RuleError
from companion.rules.implied_count import (
    ImpliedCount,
    hat_trick_count_limits,
    implied_count,
    implied_hat_trick_count,
    implied_tricks,
    seats_at_zero_passes,
)
from companion.rules.table import table_setup
from companion.rules.variants import variant_named

CLASSIC_4 = table_setup(4, variant_named("classic"))  # 14 tricks (R5)
AGGRAVATED_4 = table_setup(4, variant_named("aggravated"))  # 13 tricks (R14)
HAT_TRICK_4 = table_setup(4, variant_named("hat-trick"))  # 14 tricks, 56 cards (R18, C5)

C3_CASES = [
    # setup, counts entered, implied (seat, tricks) or None
    (CLASSIC_4, [3, 4, 5, None], (3, 2)),
    (CLASSIC_4, [None, 0, 0, 0], (0, 14)),
    (CLASSIC_4, [14, None, 0, 0], (1, 0)),
    (CLASSIC_4, [3, None, 5, 6], (1, 0)),
    (AGGRAVATED_4, [3, 4, 5, None], (3, 1)),
    (CLASSIC_4, [3, 4, None, None], None),  # two seats open
    (CLASSIC_4, [3, 4, 5, 2], None),  # nothing open
    (CLASSIC_4, [10, 5, 1, None], None),  # already too many (C3)
    (CLASSIC_4, [15, 0, 0, None], None),  # a count over the tricks of a round (C3)
    (CLASSIC_4, [-1, 0, 0, None], None),  # a negative count (C3)
]


@pytest.mark.parametrize(("setup", "counts", "implied"), C3_CASES)
def test_c3_the_last_seats_tricks_follow_from_the_others(
    setup: object, counts: list[int | None], implied: tuple[int, int] | None
) -> None:
    expected = ImpliedCount(*implied) if implied else None
    assert implied_tricks(counts, setup) == expected  # type: ignore[arg-type]


def test_c5_hat_trick_count_limits_are_the_colours_cards_and_one_pass_a_trick() -> None:
    red_blue_green = [
        sum(1 for card in HAT_TRICK_4.deck if card.colour.value == name)
        for name in ("red", "blue", "green")
    ]
    assert hat_trick_count_limits(HAT_TRICK_4) == (*red_blue_green, 14)
    assert red_blue_green == [20, 20, 20]  # R17: values 1-20 with four players


def hat_trick_counts(*seats: tuple[int | None, ...]) -> list[int | None]:
    return [count for seat in seats for count in seat]


C5_CASES = [
    # seats as (red, blue, green, passes), implied (index, value) or None
    (((9, 2, 4, 1), (3, 10, 1, 0), (5, 3, 8, 2), (2, 4, None, 0)), (14, 2)),
    (((None, 2, 4, 1), (3, 10, 1, 0), (5, 3, 8, 2), (2, 4, 2, 0)), (0, 9)),
    (((9, 2, 4, 1), (3, 10, 1, 0), (5, 3, 8, 2), (2, 4, 2, None)), (15, 0)),
    (((9, 2, 4, 1), (3, 10, 1, None), (5, 3, 8, 2), (2, 4, None, 0)), None),  # two open
    (((20, 20, 12, 1), (3, 0, 0, 0), (0, 0, 0, 0), (2, 0, None, 0)), None),  # too many
    (((21, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, None, 0)), None),  # no red 21
    (((0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, None, 0)), None),  # 56 greens: no
]


@pytest.mark.parametrize(("seats", "implied"), C5_CASES)
def test_c5_the_last_hat_trick_count_follows_from_the_table_total(
    seats: tuple[tuple[int | None, ...], ...], implied: tuple[int, int] | None
) -> None:
    expected = ImpliedCount(*implied) if implied else None
    assert implied_hat_trick_count(hat_trick_counts(*seats), HAT_TRICK_4) == expected


def test_every_count_needs_its_largest_value() -> None:
    with pytest.raises(ValueError):
        implied_count([1, None], 3, [3])


@st.composite
def trick_counts_with_one_open(draw: st.DrawFn) -> tuple[list[int | None], int]:
    """A deal of 14 tricks among four seats, one seat's count left open (or not)."""
    counts: list[int | None] = list(draw(st.lists(st.integers(-2, 16), min_size=4, max_size=4)))
    for index in draw(st.sets(st.integers(0, 3), max_size=3)):
        counts[index] = None
    return counts, CLASSIC_4.tricks_per_round


@given(trick_counts_with_one_open())
def test_c3_an_implied_count_always_passes_the_checks(
    case: tuple[list[int | None], int],
) -> None:
    counts, tricks_per_round = case
    implied = implied_tricks(counts, CLASSIC_4)
    if implied is None:
        complete = None not in counts
        open_ = counts.count(None)
        known_ok = all(0 <= c <= tricks_per_round for c in counts if c is not None)
        rest = tricks_per_round - sum(c for c in counts if c is not None)
        assert complete or open_ > 1 or not known_ok or not 0 <= rest <= tricks_per_round
        return
    assert counts.count(None) == 1 and counts[implied.index] is None
    filled = [implied.value if c is None else c for c in counts]
    for seat, tricks in enumerate(filled):
        check_tricks_of_seat(seat, tricks, tricks_per_round)
    check_trick_total(filled, tricks_per_round)


@given(
    st.lists(st.integers(-1, 22), min_size=16, max_size=16),
    st.sets(st.integers(0, 15), min_size=0, max_size=3),
)
def test_c5_an_implied_hat_trick_count_always_passes_the_totals(
    values: list[int], open_: set[int]
) -> None:
    counts: list[int | None] = [None if i in open_ else v for i, v in enumerate(values)]
    implied = implied_hat_trick_count(counts, HAT_TRICK_4)
    if len(open_) != 1:
        assert implied is None
        return
    if implied is None:
        return
    filled = [implied.value if c is None else c for c in counts]
    limits = hat_trick_count_limits(HAT_TRICK_4)
    assert all(0 <= c <= limits[i % 4] for i, c in enumerate(filled))
    holdings = [(sum(filled[s * 4 : s * 4 + 3]), filled[s * 4 + 3]) for s in range(4)]
    try:
        check_hat_trick_holdings(holdings, HAT_TRICK_4.tricks_per_round, 4)
    except RuleError as error:
        # Only a seat's own limit (more cards than a seat can hold) is left to the check.
        assert error.seat is not None
    assert sum(filled) == HAT_TRICK_4.cards_per_round


@pytest.mark.parametrize(
    ("counts", "asked"),
    [
        # red, blue, green, passes per seat; the implied count is seat 3's green
        ([9, 2, 4, 1, 3, 10, 1, 0, 5, 3, 8, 2, 1, 5, None, 0], (1, 3)),
        ([9, 2, 4, 1, 3, 10, 1, 1, 5, 3, 8, 2, 1, 2, None, 2], ()),
        ([9, 2, 4, 0, 3, 10, 1, 0, 5, 3, 8, 0, 3, 5, None, 0], (0, 1, 2, 3)),
        # the implied count is seat 1's passes: it is what the total gives, not a 0 entered
        ([9, 2, 4, 0, 3, 10, 1, None, 5, 3, 8, 2, 3, 2, 2, 0], (0, 3)),
    ],
    ids=["two-seats-at-0", "every-seat-passed", "no-seat-passed", "implied-passes-apart"],
)
def test_c5_an_implied_count_asks_about_the_seats_whose_passes_are_at_0(counts, asked):
    """A pass forgotten at a seat whose passes stayed at 0 goes into the implied count (the
    totals still add up, so no check catches it): the table is asked about those seats."""
    implied = implied_hat_trick_count(counts, HAT_TRICK_4)
    assert implied is not None
    assert seats_at_zero_passes(counts, implied) == asked
    # the hiding: one of them forgot a pass, and the implied count takes it in silently
    if asked:
        forgetful = asked[0]
        remembered = list(counts)
        remembered[forgetful * 4 + 3] = 1
        other = implied_hat_trick_count(remembered, HAT_TRICK_4)
        assert other is not None and other.index == implied.index
        assert other.value == implied.value - 1
