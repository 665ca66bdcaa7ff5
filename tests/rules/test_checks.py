"""C1-C5: what the table enters is refused, with the right error, naming the seat and the card
(the checks' own promise: every violation is refused with a message that names the player
and the card)."""

from __future__ import annotations

import pytest

from companion.rules.cards import Card
from companion.rules.checks import (
    check_cards_named_once,
    check_hat_trick_holdings,
    check_indicators,
    check_marked_captures,
    check_marks,
    check_trick_total,
    check_tricks_of_seat,
    tricks_from_captures,
)
from companion.rules.entries import (
    DelayedEntry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
)
from companion.rules.errors import (
    CardError,
    HatTrickError,
    IndicatorError,
    MarkedCaptureError,
    RuleError,
    TrickCountError,
)
from companion.rules.scoring import score_round
from companion.rules.table import table_setup
from companion.rules.variants import variant_named

from .helpers import BLUE, GREEN, RED, YELLOW, c, complete_round, cs, mentions


def refused(preset, players, given, error):
    """Score a round made of ``given`` seats (the others filled in) and return the error."""
    setup = table_setup(players, variant_named(preset))
    entries = complete_round(setup, given) if not isinstance(given, list) else given
    with pytest.raises(error) as info:
        score_round(setup, entries)
    return info.value


def assert_names(err: RuleError, seat: int | None, card: str | None) -> None:
    """The error carries the seat and card, and its message names them."""
    text = str(err)
    assert err.seat == seat, text
    if seat is not None:
        assert mentions(text, f"seat {seat}"), text
    if card is not None:
        assert err.card == c(card), text
        assert mentions(text, card), text


def test_c1_c2_marks_laid_out_are_checked_across_seats_then_seat_by_seat():
    """The indicators at the start of a round (marking, a live start, a backup, the phone
    offline): a card named at two seats (C1), a seat with the wrong count (C2)."""
    deck = table_setup(3, variant_named("classic")).deck
    check_marks([cs("red 4"), cs("blue 0"), cs("green 1")], deck, 1)
    with pytest.raises(CardError) as twice:
        check_marks([cs("red 4"), cs("red 4"), cs("green 1")], deck, 1)
    assert twice.value.seat == 1 and mentions(str(twice.value), "red 4")
    with pytest.raises(IndicatorError) as short:
        check_marks([cs("red 4"), (), cs("green 1")], deck, 1)
    assert short.value.seat == 1
    with pytest.raises(IndicatorError):
        check_marks([cs("red 4, red 1"), cs("blue 0, blue 1"), cs("green 1, green 2")], deck, 2)


# --------------------------------------------------------------------------------------------
# C1: every card exists in the deck in use and is named once

C1_CASES = [
    (
        "c1-a-captured-card-outside-the-deck",
        "classic",
        3,
        {1: FullEntry(cs("red 1"), cs("red 12, blue 1, blue 2"))},
        1,
        "red 12",
    ),
    (
        "c1-an-indicator-outside-the-deck",
        "classic",
        4,
        {2: QuickEntry(cs("violet 3"), 0, ())},
        2,
        "violet 3",
    ),
    (
        "c1-a-quick-capture-outside-the-deck",
        "classic",
        5,
        {3: QuickEntry(cs("green 0"), 1, cs("green 15"))},
        3,
        "green 15",
    ),
    (
        "c1-a-card-named-by-two-seats",
        "classic",
        4,
        {
            0: FullEntry(cs("red 1"), cs("blue 5, blue 6, blue 7, blue 8")),
            2: QuickEntry(cs("blue 2"), 1, cs("blue 5")),
        },
        2,
        "blue 5",
    ),
    (
        "c1-an-indicator-also-captured",
        "classic",
        4,
        {0: FullEntry(cs("red 1"), cs("red 1, blue 6, blue 7, blue 8"))},
        0,
        "red 1",
    ),
    (
        "c1-an-indicator-laid-out-by-two-seats",
        "mild",
        4,
        {0: QuickEntry(cs("red 1"), 0, ()), 1: QuickEntry(cs("red 1"), 0, ())},
        1,
        "red 1",
    ),
    (
        "c1-a-card-named-twice-by-one-seat",
        "reverse",
        4,
        {0: FullEntry(cs("red 1"), cs("blue 6, blue 7, blue 8, blue 6"))},
        0,
        "blue 6",
    ),
    (
        "c1-two-indicators-of-one-seat-named-elsewhere",
        "aggravated",
        4,
        {0: QuickEntry(cs("red 1, blue 1"), 0, ()), 3: QuickEntry(cs("green 4, blue 1"), 0, ())},
        3,
        "blue 1",
    ),
    (
        "c1-delayed-captures-named-twice",
        "delayed",
        4,
        {
            0: DelayedEntry(cs("red 1, red 2, red 3, red 4")),
            1: DelayedEntry(cs("blue 1, blue 2, blue 3, red 4")),
        },
        1,
        "red 4",
    ),
]


@pytest.mark.parametrize(
    ("case", "preset", "players", "given", "seat", "card"), C1_CASES, ids=[r[0] for r in C1_CASES]
)
def test_c1_a_card_outside_the_deck_or_named_twice_is_refused(
    case, preset, players, given, seat, card
):
    err = refused(preset, players, given, CardError)
    assert_names(err, seat, card)


def test_c1_a_card_named_twice_names_both_seats():
    err = refused(
        "classic",
        4,
        {
            0: FullEntry(cs("red 1"), cs("blue 5, blue 6, blue 7, blue 8")),
            2: QuickEntry(cs("blue 2"), 1, cs("blue 5")),
        },
        CardError,
    )
    assert mentions(str(err), "seat 0") and mentions(str(err), "seat 2")


HAT_TRICK_REST = [
    HatTrickQuickEntry({RED: 15}, 0),
    HatTrickQuickEntry({BLUE: 15}, 0),
    HatTrickQuickEntry({GREEN: 14}, 0),
]


@pytest.mark.parametrize(
    ("case", "seat_entry", "card"),
    [
        (
            "c1-hat-trick-no-zero-below-seven-players",
            HatTrickFullEntry(
                cs(
                    "red 0, red 1, red 2, red 3, red 4, red 5, red 6, red 7, red 8, "
                    "red 9, red 10, red 11"
                ),
                (),
            ),
            "red 0",
        ),
        (
            "c1-hat-trick-no-yellow",
            HatTrickFullEntry(
                cs(
                    "blue 1, blue 2, blue 3, blue 4, blue 5, blue 6, blue 7, "
                    "blue 8, blue 9, blue 10, blue 11"
                ),
                cs("yellow 1"),
            ),
            "yellow 1",
        ),
        (
            "c1-hat-trick-a-card-both-face-up-and-passed",
            HatTrickFullEntry(
                cs(
                    "green 1, green 2, green 3, green 4, green 5, green 6, "
                    "green 7, green 8, green 9, green 10, green 11"
                ),
                cs("green 11"),
            ),
            "green 11",
        ),
    ],
    ids=[
        "c1-hat-trick-no-zero-below-seven-players",
        "c1-hat-trick-no-yellow",
        "c1-hat-trick-a-card-both-face-up-and-passed",
    ],
)
def test_c1_hat_trick_cards_outside_the_deck_or_named_twice_are_refused(case, seat_entry, card):
    setup = table_setup(4, variant_named("hat-trick"))
    with pytest.raises(CardError) as info:
        score_round(setup, [seat_entry, *HAT_TRICK_REST])
    assert_names(info.value, 0, card)


def test_c1_hat_trick_counts_beyond_the_deck_are_refused():
    # 21 face-up red cards at a table whose deck has red 1-20
    setup = table_setup(4, variant_named("hat-trick"))
    entries = [
        HatTrickQuickEntry({RED: 11}, 0),
        HatTrickQuickEntry({RED: 10, BLUE: 5}, 0),
        HatTrickQuickEntry({BLUE: 15}, 0),
        HatTrickQuickEntry({GREEN: 15}, 0),
    ]
    with pytest.raises(HatTrickError) as info:
        score_round(setup, entries)
    assert mentions(str(info.value), "red")


def test_c1_hat_trick_quick_counts_of_a_colour_not_in_the_deck_are_refused():
    # Hat Trick uses red, blue and green only (R17): 5 face-up yellow cards cannot be held.
    setup = table_setup(4, variant_named("hat-trick"))
    entries = [
        HatTrickQuickEntry({RED: 10, YELLOW: 5}, 0),
        HatTrickQuickEntry({BLUE: 20}, 0),
        HatTrickQuickEntry({GREEN: 16}, 0),
        HatTrickQuickEntry({RED: 10}, 0),
    ]
    with pytest.raises(RuleError) as info:
        score_round(setup, entries)
    assert info.value.seat == 0


def test_c1_the_check_accepts_every_card_named_once():
    deck = variant_named("classic").deck(3)
    check_cards_named_once([(seat, card) for seat, card in enumerate(deck)], deck)


# --------------------------------------------------------------------------------------------
# C2: indicators


@pytest.mark.parametrize(
    ("case", "preset", "seat", "entry"),
    [
        (
            "c2-one-colour-needs-one-indicator-not-two",
            "classic",
            1,
            QuickEntry(cs("red 1, blue 1"), 0, ()),
        ),
        ("c2-open-needs-an-indicator", "mild", 2, QuickEntry((), 0, ())),
        ("c2-hazy-needs-an-indicator", "hazy", 3, FullEntry((), ())),
        ("c2-two-colours-need-two-indicators", "aggravated", 0, QuickEntry(cs("red 1"), 0, ())),
    ],
    ids=[
        "c2-one-colour-needs-one-indicator-not-two",
        "c2-open-needs-an-indicator",
        "c2-hazy-needs-an-indicator",
        "c2-two-colours-need-two-indicators",
    ],
)
def test_c2_each_marked_colour_needs_exactly_one_indicator(case, preset, seat, entry):
    err = refused(preset, 4, {seat: entry}, IndicatorError)
    assert_names(err, seat, None)


@pytest.mark.parametrize("preset", ["aggravated"])
def test_c2_two_indicators_must_be_of_two_different_colours(preset):
    err = refused(preset, 4, {1: QuickEntry(cs("red 1, red 7"), 0, ())}, IndicatorError)
    assert_names(err, 1, "red 7")
    assert mentions(str(err), "red 1")


def test_c2_the_indicators_give_the_marked_colours():
    assert check_indicators(0, cs("red 0"), 1) == (RED,)
    assert set(check_indicators(0, cs("red 0, yellow 3"), 2)) == {RED, YELLOW}


# --------------------------------------------------------------------------------------------
# C3: trick counts


@pytest.mark.parametrize(
    ("case", "preset", "seat", "entry"),
    [
        (
            "c3-captures-not-a-multiple-of-the-players",
            "classic",
            1,
            FullEntry(cs("red 1"), cs("blue 1, blue 2, blue 3")),
        ),
        ("c3-more-tricks-than-the-round-has", "classic", 2, QuickEntry(cs("red 1"), 15, ())),
        ("c3-negative-tricks", "mild", 3, QuickEntry(cs("red 1"), -1, ())),
        (
            "c3-more-tricks-than-two-colours-allow",
            "aggravated",
            0,
            QuickEntry(cs("red 1, blue 1"), 14, ()),
        ),
    ],
    ids=[
        "c3-captures-not-a-multiple-of-the-players",
        "c3-more-tricks-than-the-round-has",
        "c3-negative-tricks",
        "c3-more-tricks-than-two-colours-allow",
    ],
)
def test_c3_a_seats_trick_count_must_be_possible(case, preset, seat, entry):
    setup = table_setup(4, variant_named(preset))
    entries = complete_round(setup, {})
    entries[seat] = entry
    with pytest.raises(TrickCountError) as info:
        score_round(setup, entries)
    assert_names(info.value, seat, None)


def test_c3_delayed_captures_must_be_whole_tricks():
    entries = [
        DelayedEntry(()),
        DelayedEntry(cs("red 1, red 2")),
        DelayedEntry(()),
        DelayedEntry(()),
    ]
    err = refused("delayed", 4, entries, TrickCountError)
    assert_names(err, 1, None)


@pytest.mark.parametrize(
    ("tricks", "case"),
    [((4, 4, 4, 1), "too-few"), ((4, 4, 4, 3), "too-many"), ((0, 0, 0, 0), "none")],
    ids=["c3-counts-add-up-to-too-few", "c3-counts-add-up-to-too-many", "c3-no-trick-at-all"],
)
def test_c3_the_trick_counts_must_add_up_to_the_tricks_of_the_round(tricks, case):
    entries = [
        QuickEntry(cs(indicator), count, ())
        for indicator, count in zip(("red 1", "blue 1", "green 1", "yellow 1"), tricks, strict=True)
    ]
    err = refused("classic", 4, entries, TrickCountError)
    assert "14" in str(err)
    assert str(sum(tricks)) in str(err)


def test_c3_the_check_functions_agree_with_the_ruling():
    check_tricks_of_seat(0, 0, 14)
    check_tricks_of_seat(0, 14, 14)
    with pytest.raises(TrickCountError):
        check_tricks_of_seat(0, 15, 14)
    assert tricks_from_captures(0, 12, 4) == 3
    with pytest.raises(TrickCountError):
        tricks_from_captures(0, 13, 4)
    check_trick_total([7, 7], 14)
    with pytest.raises(TrickCountError):
        check_trick_total([7, 6], 14)


# --------------------------------------------------------------------------------------------
# C4: quick entry marked-colour captures


@pytest.mark.parametrize(
    ("case", "preset", "seat", "entry", "card"),
    [
        (
            "c4-a-capture-not-of-the-marked-colour",
            "classic",
            1,
            QuickEntry(cs("red 1"), 1, cs("red 2, blue 5")),
            "blue 5",
        ),
        (
            "c4-a-capture-of-neither-marked-colour",
            "aggravated",
            2,
            QuickEntry(cs("red 1, blue 1"), 1, cs("blue 2, green 3")),
            "green 3",
        ),
        (
            "c4-more-marked-captures-than-cards-won",
            "classic",
            3,
            QuickEntry(cs("red 0"), 1, cs("red 1, red 2, red 3, red 4, red 5")),
            "red 5",
        ),
        (
            "c4-marked-captures-without-a-trick",
            "reverse",
            0,
            QuickEntry(cs("green 0"), 0, cs("green 1")),
            "green 1",
        ),
    ],
    ids=[
        "c4-a-capture-not-of-the-marked-colour",
        "c4-a-capture-of-neither-marked-colour",
        "c4-more-marked-captures-than-cards-won",
        "c4-marked-captures-without-a-trick",
    ],
)
def test_c4_quick_marked_captures_must_be_marked_and_possible(case, preset, seat, entry, card):
    err = refused(preset, 4, {seat: entry}, MarkedCaptureError)
    assert_names(err, seat, card)


def test_c4_every_card_of_every_trick_won_may_be_of_the_marked_colour():
    # one trick at 4 players: four marked cards is the most, and it is allowed
    check_marked_captures(0, (RED,), cs("red 1, red 2, red 3, red 4"), 1, 4)
    check_marked_captures(0, (RED, BLUE), cs("red 1, blue 2"), 1, 4)


# --------------------------------------------------------------------------------------------
# C5: Hat Trick counts


@pytest.mark.parametrize(
    ("case", "entries", "seat"),
    [
        (
            "c5-a-seat-holds-more-than-tricks-times-players",
            [
                HatTrickQuickEntry({}, 0),
                HatTrickQuickEntry({RED: 20, BLUE: 20, GREEN: 17}, 0),
                HatTrickQuickEntry({}, 0),
                HatTrickQuickEntry({}, 0),
            ],
            1,
        ),
        (
            "c5-a-seat-passes-more-than-once-a-trick",
            [
                HatTrickQuickEntry({RED: 20}, 0),
                HatTrickQuickEntry({BLUE: 20}, 0),
                HatTrickQuickEntry({}, 15),
                HatTrickQuickEntry({GREEN: 1}, 0),
            ],
            2,
        ),
        (
            "c5-negative-passes",
            [
                HatTrickQuickEntry({RED: 20}, 0),
                HatTrickQuickEntry({BLUE: 20}, 0),
                HatTrickQuickEntry({GREEN: 16}, 0),
                HatTrickQuickEntry({GREEN: 1}, -1),
            ],
            3,
        ),
    ],
    ids=[
        "c5-a-seat-holds-more-than-tricks-times-players",
        "c5-a-seat-passes-more-than-once-a-trick",
        "c5-negative-passes",
    ],
)
def test_c5_a_seats_hat_trick_cards_must_be_possible(case, entries, seat):
    err = refused("hat-trick", 4, entries, HatTrickError)
    assert_names(err, seat, None)


def test_c5_a_negative_face_up_count_is_refused():
    # -2 blue cards cannot be held, even if the seat's total (8) and the table's (56) add up.
    entries = [
        HatTrickQuickEntry({RED: 10, BLUE: -2}, 0),
        HatTrickQuickEntry({BLUE: 18}, 0),
        HatTrickQuickEntry({GREEN: 20}, 0),
        HatTrickQuickEntry({RED: 10}, 0),
    ]
    err = refused("hat-trick", 4, entries, RuleError)
    assert err.seat == 0
    assert mentions(str(err), "seat 0")


@pytest.mark.parametrize(
    ("total", "last_seat"),
    [
        (55, HatTrickQuickEntry({RED: 5, BLUE: 5, GREEN: 2}, 1)),
        (57, HatTrickQuickEntry({RED: 6, BLUE: 6, GREEN: 2}, 1)),
    ],
    ids=["c5-the-table-holds-too-few-cards", "c5-the-table-holds-too-many-cards"],
)
def test_c5_the_table_holds_players_times_tricks_cards(total, last_seat):
    entries = [
        HatTrickQuickEntry({RED: 14}, 0),
        HatTrickQuickEntry({BLUE: 14}, 0),
        HatTrickQuickEntry({GREEN: 14}, 0),
        last_seat,
    ]
    err = refused("hat-trick", 4, entries, HatTrickError)
    assert str(total) in str(err)
    assert "56" in str(err)


def test_c5_pass_cards_count_as_the_number_of_passes():
    # a full entry's face-down cards are its passes: 3 of them cost 6 and count in C5
    setup = table_setup(4, variant_named("hat-trick"))
    entries = [
        HatTrickFullEntry(cs("red 1"), cs("blue 1, blue 2, green 1")),  # 1 - 6 = -5
        HatTrickQuickEntry({RED: 19}, 0),
        HatTrickQuickEntry({BLUE: 18}, 0),
        HatTrickQuickEntry({GREEN: 15}, 0),
    ]
    result = score_round(setup, entries)
    assert result.seats[0].passed == 3
    assert result.scores == [-5, 19, 18, 15]


def test_c5_the_check_accepts_a_possible_table():
    check_hat_trick_holdings([(14, 0), (10, 4), (28, 0), (0, 0)], 14, 4)
    with pytest.raises(HatTrickError):
        check_hat_trick_holdings([(14, 0), (10, 4), (28, 0), (0, 1)], 14, 4)


def test_errors_carry_their_message_for_translation():
    err = refused(
        "classic", 3, {1: FullEntry(cs("red 1"), cs("red 12, blue 1, blue 2"))}, CardError
    )
    assert err.message.params["card"] == Card(RED, 12)
    assert err.message.render(player_name=lambda seat: f"Player {seat + 1}").count("Player 2") == 1
