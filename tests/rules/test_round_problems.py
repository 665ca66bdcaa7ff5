"""Every refusal of a round at once (``round_problems``): the table sees all that is wrong
with a round in one answer, each refusal naming its seat, while ``score_round`` still raises
the first of them for its other callers."""

from __future__ import annotations

import pytest

from companion.rules.checks import check_indicators, check_marked_captures, check_trick_total
from companion.rules.entries import HatTrickFullEntry, HatTrickQuickEntry, QuickEntry
from companion.rules.errors import (
    HatTrickError,
    IndicatorError,
    MarkedCaptureError,
    RuleError,
    TrickCountError,
)
from companion.rules.scoring import round_problems, score_round
from companion.rules.table import table_setup
from companion.rules.variants import variant_named

from .helpers import BLUE, GREEN, RED, YELLOW, cs

CLASSIC = table_setup(4, variant_named("classic"))

#: A classic round of four that adds up to the 14 tricks (R2): 4 + 4 + 3 + 3.
GOOD = [
    QuickEntry(cs("red 4"), 4, cs("red 2, red 5")),
    QuickEntry(cs("blue 1"), 4, cs("blue 0, blue 2, blue 8")),
    QuickEntry(cs("green 7"), 3, ()),
    QuickEntry(cs("yellow 0"), 3, cs("yellow 11")),
]


def refusal_of(check: object) -> RuleError:
    """The refusal a single check raises, to compare with what ``round_problems`` lists."""
    assert callable(check)
    with pytest.raises(RuleError) as raised:
        check()
    return raised.value


def test_a_good_round_has_no_problem() -> None:
    assert round_problems(CLASSIC, GOOD) == ()


def test_a_wrong_trick_total_and_an_impossible_capture_are_both_reported() -> None:
    """C3 (the total, 4 + 4 + 1 + 3 = 12 of 14) and C4 (seat 0 lists blue 3 though it
    marked red) in one round: both come at once, C4 naming seat 0 and its card."""
    entries = [
        QuickEntry(cs("red 4"), 4, cs("red 2, blue 3")),
        GOOD[1],
        QuickEntry(cs("green 7"), 1, ()),
        GOOD[3],
    ]
    problems = round_problems(CLASSIC, entries)
    assert [type(problem) for problem in problems] == [TrickCountError, MarkedCaptureError]
    total, capture = problems
    assert total.seat is None
    assert str(total) == str(refusal_of(lambda: check_trick_total([4, 4, 1, 3], 14)))
    assert capture.seat == 0
    assert capture.card == cs("blue 3")[0]
    expected = refusal_of(lambda: check_marked_captures(0, (RED,), cs("red 2, blue 3"), 4, 4))
    assert str(capture) == str(expected)


def test_score_round_still_raises_the_first_problem() -> None:
    entries = [
        QuickEntry(cs("red 4"), 4, cs("red 2, blue 3")),
        GOOD[1],
        QuickEntry(cs("green 7"), 1, ()),
        GOOD[3],
    ]
    with pytest.raises(TrickCountError) as raised:
        score_round(CLASSIC, entries)
    assert str(raised.value) == str(round_problems(CLASSIC, entries)[0])


def test_problems_of_several_seats_each_name_their_seat() -> None:
    """C2 at seat 3 (no indicator) and C4 at seats 0 and 1: three refusals, in seat order;
    seat 3's captures are not judged, having no marked colour to judge them by."""
    entries = [
        QuickEntry(cs("red 4"), 4, cs("red 2, blue 3")),
        QuickEntry(cs("blue 1"), 4, cs("blue 0, green 2")),
        GOOD[2],
        QuickEntry((), 3, cs("yellow 11")),
    ]
    problems = round_problems(CLASSIC, entries)
    assert [(type(problem), problem.seat) for problem in problems] == [
        (IndicatorError, 3),
        (MarkedCaptureError, 0),
        (MarkedCaptureError, 1),
    ]
    assert str(problems[0]) == str(refusal_of(lambda: check_indicators(3, (), 1)))
    assert problems[2].card == cs("green 2")[0]


def test_hat_trick_counts_of_two_seats_are_both_refused() -> None:
    """C5 at two seats: a count below zero (seat 0) and a colour Hat Trick lacks (seat 2,
    R17); each names its seat."""
    setup = table_setup(4, variant_named("hat-trick"))
    entries = [
        HatTrickQuickEntry({RED: -1}, 0),
        HatTrickQuickEntry({BLUE: 2}, 0),
        HatTrickQuickEntry({YELLOW: 1}, 0),
        HatTrickQuickEntry({GREEN: 2}, 0),
    ]
    problems = round_problems(setup, entries)
    assert [(type(problem), problem.seat) for problem in problems] == [
        (HatTrickError, 0),
        (HatTrickError, 2),
    ]


def test_a_hat_trick_card_outside_the_deck_is_one_refusal_and_nothing_is_counted() -> None:
    """C1 before C5: a yellow card in a Hat Trick capture pile (R17 plays red, blue and green
    only) is refused as the card it is; the counts per colour are not tried."""
    setup = table_setup(4, variant_named("hat-trick"))
    entries = [
        HatTrickFullEntry(cs("yellow 5, red 10"), ()),
        HatTrickFullEntry(cs("red 3"), ()),
        HatTrickFullEntry(cs("blue 3"), ()),
        HatTrickFullEntry(cs("green 3"), ()),
    ]
    problems = round_problems(setup, entries)
    assert len(problems) == 1
    with pytest.raises(RuleError) as raised:
        score_round(setup, entries)
    assert problems[0].message == raised.value.message
    assert cs("yellow 5")[0] in problems[0].message.params.values()
