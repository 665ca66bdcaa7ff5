"""C5's two limits from R19 and R20: a Hat Trick round the table could not have played is
refused, naming the seat. Two cards are played in a trick before anyone may pass, so the
table passes at most tricks x (players - 2) times; a seat takes at most one pile a trick, and
only in a trick it played a card in, so it holds at most (tricks - its passes) x players
face-up cards. Rounds dealt and played by the rules never break them."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.checks import check_hat_trick_playable
from companion.rules.entries import HatTrickQuickEntry
from companion.rules.errors import HatTrickError
from companion.rules.scoring import round_problems, score_round, unplayable_problems
from companion.rules.table import table_setup
from companion.rules.variants import variant_named

from .helpers import BLUE, GREEN, RED, mentions, play_hat_trick_round


def quick(red: int, blue: int, green: int, passed: int) -> HatTrickQuickEntry:
    return HatTrickQuickEntry({RED: red, BLUE: blue, GREEN: green}, passed)


HAT_TRICK_4 = table_setup(4, variant_named("hat-trick"))  # 14 tricks, 56 cards

#: (entries, the seat named, or None when the round is possible); every round adds up (C5's
#: totals) so only the limits from R19 and R20 can refuse it.
CASES = {
    # the round: 30 passes, but 14 tricks of 4 allow 14 x 2 = 28
    "table-passes-30-of-28": (
        [quick(0, 0, 0, 10), quick(0, 0, 0, 10), quick(0, 0, 0, 10), quick(13, 13, 0, 0)],
        0,
    ),
    "table-passes-29-of-28": (
        [quick(6, 0, 0, 8), quick(0, 7, 0, 7), quick(0, 0, 7, 7), quick(7, 0, 0, 7)],
        0,
    ),
    "table-passes-29-the-busiest-seat-named": (
        [quick(7, 0, 0, 7), quick(0, 7, 0, 7), quick(0, 0, 6, 8), quick(7, 0, 0, 7)],
        2,
    ),
    "table-passes-28-of-28": (
        [quick(7, 0, 0, 7), quick(0, 7, 0, 7), quick(0, 0, 7, 7), quick(7, 0, 0, 7)],
        None,
    ),
    # the seat: red 14 and 14 passes, so it played no card and took no pile
    "seat-passed-every-trick-with-face-up-cards": (
        [quick(14, 0, 0, 14), quick(0, 14, 0, 0), quick(0, 0, 14, 0), quick(0, 0, 0, 0)],
        0,
    ),
    "seat-17-face-up-after-10-passes": (
        [quick(1, 0, 0, 0), quick(0, 0, 0, 0), quick(0, 17, 0, 10), quick(14, 0, 14, 0)],
        2,
    ),
    "seat-16-face-up-after-10-passes": (
        [quick(2, 0, 0, 0), quick(0, 0, 0, 0), quick(0, 16, 0, 10), quick(14, 0, 14, 0)],
        None,
    ),
    "seat-passed-every-trick-holding-nothing-else": (
        [quick(0, 0, 0, 14), quick(14, 0, 0, 0), quick(0, 14, 0, 0), quick(0, 0, 14, 0)],
        None,
    ),
}


@pytest.mark.parametrize(("entries", "seat"), CASES.values(), ids=CASES.keys())
def test_c5_a_round_that_cannot_be_played_is_refused_naming_the_seat(entries, seat):
    assert sum(quick_cards(entry) for entry in entries) == HAT_TRICK_4.cards_per_round
    if seat is None:
        assert score_round(HAT_TRICK_4, entries).scores
        assert unplayable_problems(HAT_TRICK_4, entries) == ()
        return
    with pytest.raises(HatTrickError) as info:
        score_round(HAT_TRICK_4, entries)
    error = info.value
    assert error.seat == seat
    assert mentions(str(error), f"seat {seat}"), str(error)
    assert "(C5)" in str(error)
    # the form shows it beside the seat, and a stored round reads back, saying what it breaks
    assert [problem.seat for problem in round_problems(HAT_TRICK_4, entries)] == [seat]
    stored = score_round(HAT_TRICK_4, entries, stored=True)
    assert len(stored.scores) == 4
    assert [str(p) for p in unplayable_problems(HAT_TRICK_4, entries)] == [str(error)]


def quick_cards(entry: HatTrickQuickEntry) -> int:
    return sum(entry.counts.values()) + entry.passed


def test_c5_the_table_passes_message_names_every_seat_that_passed():
    entries = CASES["table-passes-30-of-28"][0]
    text = str(pytest.raises(HatTrickError, score_round, HAT_TRICK_4, entries).value)
    assert all(mentions(text, f"seat {seat}") for seat in (0, 1, 2)), text
    assert not mentions(text, "seat 3"), text
    assert "30" in text and "28" in text


@pytest.mark.parametrize(
    ("players", "most"),
    [(4, 14 * 2), (5, 11 * 3), (6, 9 * 4), (7, 8 * 5)],
)
def test_c5_the_table_passes_at_most_tricks_times_players_less_two(players, most):
    setup = table_setup(players, variant_named("hat-trick"))
    tricks = setup.tricks_per_round
    # spread ``passes`` over the seats, at most one a trick each, the rest face up
    for passes, allowed in ((most, True), (most + 1, False)):
        downs = [passes // players + (seat < passes % players) for seat in range(players)]
        holdings = [(tricks - down, down) for down in downs]
        if allowed:
            check_hat_trick_playable(holdings, tricks, players)
        else:
            with pytest.raises(HatTrickError):
                check_hat_trick_playable(holdings, tricks, players)


@settings(max_examples=120, deadline=None)
@given(
    players=st.integers(4, 7),
    seed=st.integers(0, 2**32 - 1),
    pass_often=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_c5_rounds_played_by_the_rules_never_break_the_limits(players, seed, pass_often):
    setup = table_setup(players, variant_named("hat-trick"))
    played = play_hat_trick_round(setup, random.Random(seed), pass_often=pass_often)
    holdings = [
        (len(up), len(down)) for up, down in zip(played.face_up, played.face_down, strict=True)
    ]
    check_hat_trick_playable(holdings, setup.tricks_per_round, players)
    entries = [
        HatTrickQuickEntry(dict(Counter(card.colour for card in up)), len(down))
        for up, down in zip(played.face_up, played.face_down, strict=True)
    ]
    assert unplayable_problems(setup, entries) == ()
    assert len(score_round(setup, entries).scores) == players
