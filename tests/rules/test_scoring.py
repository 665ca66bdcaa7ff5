"""Scoring whole rounds through ``score_round``: R10, R12, R13 per card, R14 two colours,
R15 hazy, R16 delayed, R22 Hat Trick and R11 totals. Every expectation is worked out by hand
from the rulings in the comment or the table next to it."""

from __future__ import annotations

import pytest

from companion.rules.entries import (
    DelayedEntry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
)
from companion.rules.errors import ChoiceError, RuleError
from companion.rules.scoring import score_round
from companion.rules.table import running_totals, table_setup, winners
from companion.rules.variants import variant_from_settings, variant_named

from .helpers import BLUE, GREEN, RED, YELLOW, complete_round, cs

PLAYERS = 4

# --------------------------------------------------------------------------------------------
# R10, R12, R13, R14 per card, in full and in quick entry, open and hazy (R15)

# (id, scoring, indicators, captured by seat 0 at 4 players, hand-worked score)
PER_CARD = [
    ("r10-indicator-alone-scores-minus-its-value", "classic", "red 4", "", -4),
    # 4 cards of other colours: +4; indicator red 4: -4
    (
        "r10-other-colours-score-plus-one-each",
        "classic",
        "red 4",
        "blue 1, blue 2, green 3, yellow 11",
        0,
    ),
    # blue 0, green 0: +2; red 4, red 2, red 11: -17
    (
        "r10-cursed-cards-score-minus-their-value",
        "classic",
        "red 4",
        "red 2, red 11, blue 0, green 0",
        -15,
    ),
    # red 3: -3; three blue: +3; indicator red 0: 0
    ("r10-a-cursed-0-scores-0", "classic", "red 0", "red 3, blue 5, blue 6, blue 7", 0),
    (
        "r10-the-value-of-other-cards-does-not-matter",
        "classic",
        "yellow 0",
        "green 11, brown 11, red 11, blue 11",
        4,
    ),
    (
        "r10-two-tricks",
        "classic",
        "blue 9",
        "blue 10, blue 0, red 1, red 2, red 3, green 4, yellow 5, brown 6",
        -19 + 6,
    ),
    # two other cards: +2; red 4, red 2, red 11: 3 x -5
    ("r12-each-cursed-card-scores-minus-5", "mild", "red 4", "red 2, red 11, blue 0, green 0", -13),
    ("r12-a-cursed-0-scores-minus-5", "mild", "red 0", "blue 1, blue 2, blue 3, blue 4", -1),
    ("r12-indicator-alone-scores-minus-5", "mild", "brown 9", "", -5),
    # lucky red 4 + 2 + 11 = 17; two others: -2
    ("r13-lucky-cards-score-their-value", "reverse", "red 4", "red 2, red 11, blue 0, green 0", 15),
    ("r13-other-cards-score-minus-one", "reverse", "green 0", "blue 1, blue 2, blue 3, blue 4", -4),
    ("r13-indicator-alone-scores-its-value", "reverse", "blue 11", "", 11),
    # R14: red and blue are both cursed: -(4 + 1 + 2 + 3); green 5, yellow 6: +2
    (
        "r14-both-colours-are-cursed",
        "classic",
        "red 4, blue 1",
        "red 2, blue 3, green 5, yellow 6",
        -8,
    ),
    (
        "r14-mild-both-colours-score-minus-5",
        "mild",
        "red 4, blue 1",
        "red 2, blue 3, green 5, yellow 6",
        -18,
    ),
    (
        "r14-reverse-both-colours-are-lucky",
        "reverse",
        "red 4, blue 1",
        "red 2, blue 3, green 5, yellow 6",
        8,
    ),
    # cursed green 0, brown 7, green 1, brown 2: -10; six others: +6
    (
        "r14-two-tricks-two-colours",
        "classic",
        "green 0, brown 7",
        "green 1, brown 2, red 0, red 1, blue 0, blue 1, yellow 0, yellow 1",
        -4,
    ),
]


def quick_of(marked, captured, players=PLAYERS):
    """The quick entry of the same seat: trick count and marked-colour captures only."""
    colours = {card.colour for card in marked}
    return QuickEntry(
        marked, len(captured) // players, tuple(card for card in captured if card.colour in colours)
    )


@pytest.mark.parametrize("reveal", ["open", "hazy"], ids=["open", "r15-hazy-scores-like-open"])
@pytest.mark.parametrize("entry", ["full", "quick"])
@pytest.mark.parametrize(
    ("case", "scoring", "marked", "captured", "score"), PER_CARD, ids=[r[0] for r in PER_CARD]
)
def test_r10_r12_r13_r14_each_card_held_scores_by_the_variants_rule(
    reveal, entry, case, scoring, marked, captured, score
):
    indicators, cards = cs(marked), cs(captured)
    setup = table_setup(PLAYERS, variant_from_settings(scoring, len(indicators), reveal))
    seat = FullEntry(indicators, cards) if entry == "full" else quick_of(indicators, cards)
    result = score_round(setup, complete_round(setup, {0: seat}))
    assert result.scores[0] == score
    mine = result.seats[0]
    assert mine.tricks == len(cards) // PLAYERS
    assert set(mine.colours) == {card.colour for card in indicators}
    marked_held = [card for card in indicators + cards if card.colour in set(mine.colours)]
    assert sorted(mine.marked_cards, key=str) == sorted(marked_held, key=str)
    assert mine.other_cards == len(cards) + len(indicators) - len(marked_held)


def test_r10_every_seat_of_a_round_is_scored():
    setup = table_setup(PLAYERS, variant_named("classic"))
    entries = [
        QuickEntry(cs("red 4"), 0, ()),  # the indicator alone: -4
        QuickEntry(cs("blue 0"), 14, ()),  # 56 cards, none blue: 56
        QuickEntry(cs("green 1"), 0, ()),  # -1
        QuickEntry(cs("yellow 2"), 0, ()),  # -2
    ]
    assert score_round(setup, entries).scores == [-4, 56, -1, -2]


# --------------------------------------------------------------------------------------------
# R16: delayed

# seat 0 captured one trick: red 11, red 10, blue 0, green 1
ONE_TRICK = "red 11, red 10, blue 0, green 1"


def delayed_round(scoring, colours, captured, choose=None):
    setup = table_setup(PLAYERS, variant_from_settings(scoring, colours, "delayed"))
    entries = complete_round(setup, {0: DelayedEntry(cs(captured), choose)})
    return score_round(setup, entries).seats[0]


@pytest.mark.parametrize(
    ("scoring", "colours", "proposed", "score"),
    [
        # red: 2 - 21 = -19; blue: 3 - 0 = 3; green: 3 - 1 = 2
        ("classic", 1, {BLUE}, 3),
        # red+blue: 1 - 21 = -20; red+green: 1 - 22 = -21; blue+green: 2 - 1 = 1
        ("classic", 2, {BLUE, GREEN}, 1),
        # red: 19; blue: 0 - 3 = -3; green: 1 - 3 = -2
        ("reverse", 1, {RED}, 19),
        # red+blue: 21 - 1 = 20; red+green: 22 - 1 = 21; blue+green: 1 - 2 = -1
        ("reverse", 2, {RED, GREEN}, 21),
        # red+blue: -15 + 1; red+green: -15 + 1; blue+green: -10 + 2 = -8
        ("mild", 2, {BLUE, GREEN}, -8),
    ],
    ids=[
        "r16-classic-proposes-the-best-colour",
        "r16-classic-two-colours-proposes-the-best-pair",
        "r16-reverse-proposes-the-best-lucky-colour",
        "r16-reverse-two-colours-proposes-the-best-pair",
        "r16-mild-two-colours-proposes-the-best-pair",
    ],
)
def test_r16_the_app_proposes_the_choice_that_scores_best(scoring, colours, proposed, score):
    seat = delayed_round(scoring, colours, ONE_TRICK)
    assert set(seat.proposed) == proposed
    assert seat.proposed_score == score
    assert set(seat.colours) == proposed
    assert seat.score == score
    assert seat.tricks == 1


def test_r16_on_a_tie_any_best_choice_is_proposed():
    # mild, one colour: red -10 + 2 = -8; blue -5 + 3 = -2; green -5 + 3 = -2
    seat = delayed_round("mild", 1, ONE_TRICK)
    assert set(seat.proposed) in ({BLUE}, {GREEN})
    assert seat.score == seat.proposed_score == -2


@pytest.mark.parametrize(
    ("scoring", "colours", "choose", "score"),
    [
        ("classic", 1, (GREEN,), 2),
        ("classic", 1, (RED,), -19),
        ("classic", 2, (RED, BLUE), -20),
        ("classic", 2, (BLUE, RED), -20),
        ("reverse", 1, (BLUE,), -3),
    ],
    ids=[
        "r16-override-to-a-worse-colour",
        "r16-override-to-the-worst-colour",
        "r16-override-to-a-pair",
        "r16-override-pair-in-any-order",
        "r16-reverse-override",
    ],
)
def test_r16_the_table_may_override_the_proposed_choice(scoring, colours, choose, score):
    seat = delayed_round(scoring, colours, ONE_TRICK, choose)
    assert seat.score == score
    assert set(seat.colours) == set(choose)
    best = {("classic", 1): 3, ("classic", 2): 1, ("reverse", 1): 19}[(scoring, colours)]
    assert seat.proposed_score == best


@pytest.mark.parametrize(
    ("colours", "captured", "choose"),
    [
        (1, ONE_TRICK, (YELLOW,)),
        (1, ONE_TRICK, (BLUE, GREEN)),
        (1, ONE_TRICK, ()),
        (2, ONE_TRICK, (BLUE,)),
        (2, ONE_TRICK, (BLUE, BLUE)),
        (2, ONE_TRICK, (BLUE, YELLOW)),
        (2, ONE_TRICK, (RED, BLUE, GREEN)),
        (2, "red 1, red 2, red 3, red 4", (RED, BLUE)),
        (2, "red 1, red 2, red 3, red 4", (RED, RED)),
        (1, "", (RED,)),
    ],
    ids=[
        "r16-refuses-an-uncaptured-colour",
        "r16-refuses-two-colours-in-a-one-colour-game",
        "r16-refuses-no-colour-after-capturing",
        "r16-refuses-one-colour-when-two-were-captured",
        "r16-refuses-the-same-colour-twice",
        "r16-refuses-an-uncaptured-second-colour",
        "r16-refuses-three-colours",
        "r16-refuses-a-second-colour-never-captured",
        "r16-refuses-a-duplicate-with-one-captured-colour",
        "r16-refuses-any-colour-after-capturing-nothing",
    ],
)
def test_r16_an_override_outside_the_rules_is_refused(colours, captured, choose):
    with pytest.raises(ChoiceError) as info:
        delayed_round("classic", colours, captured, choose)
    assert info.value.seat == 0
    assert "seat 0" in str(info.value).lower()


@pytest.mark.parametrize("scoring", ["classic", "mild", "reverse"])
@pytest.mark.parametrize("colours", [1, 2])
def test_r16_a_player_who_captured_nothing_scores_0(scoring, colours):
    seat = delayed_round(scoring, colours, "")
    assert seat.score == 0
    assert seat.proposed_score == 0
    assert seat.tricks == 0
    assert delayed_round(scoring, colours, "", ()).score == 0


def test_r16_with_two_colours_and_one_captured_colour_that_colour_is_chosen():
    # red 1-4 cursed: -10
    seat = delayed_round("classic", 2, "red 1, red 2, red 3, red 4")
    assert seat.colours == (RED,)
    assert seat.score == seat.proposed_score == -10
    assert delayed_round("classic", 2, "red 1, red 2, red 3, red 4", (RED,)).score == -10


def test_r16_delayed_tricks_come_from_the_captures():
    # seat 0: two tricks (8 cards); red 0-3 cursed -6, blue 0-3 +4 -> best red or blue
    seat = delayed_round("classic", 1, "red 0, red 1, red 2, red 3, blue 0, blue 1, blue 2, blue 3")
    assert seat.tricks == 2
    # red: 4 - 6 = -2; blue: 4 - 6 = -2
    assert seat.score == -2


@pytest.mark.parametrize(
    ("preset", "entry"),
    [
        ("delayed", FullEntry(cs("red 1"), ())),
        ("delayed", QuickEntry(cs("red 1"), 0, ())),
        ("classic", DelayedEntry(())),
        ("classic", HatTrickQuickEntry({}, 0)),
    ],
    ids=[
        "r16-delayed-needs-delayed-entries-not-full",
        "r16-delayed-needs-delayed-entries-not-quick",
        "r4-open-needs-indicators",
        "r4-classic-refuses-hat-trick-entries",
    ],
)
def test_each_variant_refuses_entries_of_another_shape(preset, entry):
    setup = table_setup(PLAYERS, variant_named(preset))
    entries = complete_round(setup, {})
    entries[2] = entry
    with pytest.raises(RuleError) as info:
        score_round(setup, entries)
    assert info.value.seat == 2


def test_a_round_needs_one_entry_per_player():
    setup = table_setup(PLAYERS, variant_named("classic"))
    entries = complete_round(setup, {})
    with pytest.raises(RuleError):
        score_round(setup, entries[:3])
    with pytest.raises(RuleError):
        score_round(setup, [*entries, QuickEntry(cs("yellow 11"), 0, ())])


# --------------------------------------------------------------------------------------------
# R22: Hat Trick rounds


def test_r22_a_hat_trick_round_scores_every_seat():
    setup = table_setup(PLAYERS, variant_named("hat-trick"))  # 14 tricks, 56 cards in play
    entries = [
        # 3 red, 2 blue, 1 pass: 3 - 2 - 2 = -1
        HatTrickFullEntry(cs("red 1, red 2, red 3, blue 1, blue 2"), cs("green 20")),
        # ties between blue and green: 5 - 5 - 1 = -1
        HatTrickQuickEntry({RED: 1, BLUE: 5, GREEN: 5}, 0),
        # 14 green, 2 passes: 14 - 4 = 10
        HatTrickQuickEntry({GREEN: 14}, 2),
        # the rest: 56 - 6 - 11 - 16 = 23 cards: 16 red - 7 blue = 9
        HatTrickQuickEntry({RED: 16, BLUE: 7}, 0),
    ]
    result = score_round(setup, entries)
    assert result.scores == [-1, -1, 10, 9]
    assert result.seats[0].colour is RED
    assert result.seats[1].colour in (BLUE, GREEN)
    assert result.seats[3].passed == 0
    assert result.seats[0].passed == 1


def test_r22_full_and_quick_hat_trick_entries_score_the_same():
    setup = table_setup(PLAYERS, variant_named("hat-trick"))
    full = HatTrickFullEntry(cs("blue 4, blue 5, red 9"), cs("green 3, green 4"))
    quick = HatTrickQuickEntry({BLUE: 2, RED: 1}, 2)
    rest = [
        HatTrickQuickEntry({RED: 19}, 0),
        HatTrickQuickEntry({GREEN: 14}, 0),
        HatTrickQuickEntry({BLUE: 18}, 0),
    ]
    # 2 blue - 1 red - 2 x 2 passes = -3
    assert score_round(setup, [full, *rest]).scores[0] == -3
    assert score_round(setup, [quick, *rest]).scores[0] == -3


# --------------------------------------------------------------------------------------------
# R11 over several scored rounds


def test_r11_round_scores_add_up_and_equal_highest_totals_share_the_win():
    setup = table_setup(3, variant_named("classic"))  # 14 tricks, 3 cards each
    first = score_round(
        setup,
        [
            QuickEntry(cs("red 8"), 7, ()),  # 21 - 8 = 13
            QuickEntry(cs("blue 0"), 7, ()),  # 21
            QuickEntry(cs("green 0"), 0, ()),  # 0
        ],
    ).scores
    second = score_round(
        setup,
        [
            QuickEntry(cs("red 0"), 10, ()),  # 30
            QuickEntry(cs("blue 0"), 2, ()),  # 6 - 0 = 6
            QuickEntry(cs("green 0"), 2, cs("green 1")),  # 5 - 1 = 4
        ],
    ).scores
    assert first == [13, 21, 0]
    assert second == [30, 6, 4]
    totals = running_totals([first, second])
    assert totals == [[13, 21, 0], [43, 27, 4]]
    assert winners(totals[-1]) == [0]
    assert winners([27, 27, 4]) == [0, 1]


def test_the_round_score_describes_itself_for_the_api():
    setup = table_setup(PLAYERS, variant_named("classic"))
    result = score_round(setup, complete_round(setup, {0: FullEntry(cs("red 4"), ())}))
    data = result.as_json()
    assert data["scores"] == result.scores
    assert data["entries"][0]["colours"] == ["red"]
    assert data["entries"][0]["marked_cards"] == [{"colour": "red", "value": 4}]
