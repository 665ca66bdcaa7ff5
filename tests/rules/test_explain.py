"""The terms of a round score (R10, R12-R16, R22): the rulebooks' worked examples split into
the sums the rules write, a table of cases per setting, and the property that the points of a
seat's terms always add up to its score, for random legal rounds of every variant."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import (
    CountedCard,
    DelayedEntry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
    TermKind,
    explain_round,
    score_round,
    table_setup,
    variant_from_settings,
    variant_named,
)

from .helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    complete_round,
    cs,
    play_classic_round,
    play_hat_trick_round,
)
from .test_properties import ALL_SETTINGS, LAID_OUT_SETTINGS, SEEDS, full_entries
from .test_rulebook_examples import (
    HAT_TRICK_EXAMPLE_UP,
    HAT_TRICK_OTHERS,
    R10_CAPTURED,
    R10_INDICATOR,
    R10_OTHER_SEATS,
)


def kinds(explanation):
    return [term.kind for term in explanation.terms]


def points(explanation):
    return [term.points for term in explanation.terms]


# --------------------------------------------------------------------------------------------
# The rulebooks' examples


@pytest.mark.parametrize("entry", ["full", "quick"])
def test_r10_example_splits_into_14_minus_4_plus_2_plus_5(entry):
    setup = table_setup(4, variant_named("classic"))
    if entry == "full":
        seat = FullEntry(R10_INDICATOR, R10_CAPTURED)
    else:
        seat = QuickEntry(R10_INDICATOR, 4, cs("red 2, red 5"))
    mine = explain_round(setup, [seat, *R10_OTHER_SEATS])[0]
    assert mine.score == 3
    assert kinds(mine) == [TermKind.OTHER_CARDS, TermKind.MARKED_CARDS]
    assert points(mine) == [14, -(4 + 2 + 5)]
    others, marked = mine.terms
    assert others.count == 14 and others.colour is None
    assert marked.colour is RED and marked.count == 3
    assert marked.cards == (
        CountedCard(cs("red 4")[0], indicator=True),
        CountedCard(cs("red 2")[0]),
        CountedCard(cs("red 5")[0]),
    )
    if entry == "full":
        assert others.cards is not None
        assert [counted.card for counted in others.cards] == [
            card for card in R10_CAPTURED if card.colour is not RED
        ]
    else:
        assert others.cards is None  # quick entry names no other card: the count alone


@pytest.mark.parametrize("entry", ["full", "quick"])
def test_r22_example_splits_into_9_minus_2_minus_4_minus_2(entry):
    setup = table_setup(4, variant_named("hat-trick"))
    if entry == "full":
        seat = HatTrickFullEntry(HAT_TRICK_EXAMPLE_UP, cs("green 20"))
    else:
        seat = HatTrickQuickEntry({RED: 9, BLUE: 2, GREEN: 4}, 1)
    mine = explain_round(setup, [seat, *HAT_TRICK_OTHERS])[0]
    assert mine.score == 1
    assert kinds(mine) == [
        TermKind.BEST_COLOUR,
        TermKind.OTHER_COLOUR,
        TermKind.OTHER_COLOUR,
        TermKind.PASS_CARDS,
    ]
    assert points(mine) == [9, -2, -4, -2]
    assert [term.colour for term in mine.terms] == [RED, BLUE, GREEN, None]
    assert [term.count for term in mine.terms] == [9, 2, 4, 1]
    passes = mine.terms[-1]
    if entry == "full":
        assert passes.cards == (CountedCard(cs("green 20")[0]),)
        assert [c.card for c in mine.terms[0].cards] == list(HAT_TRICK_EXAMPLE_UP[:9])
    else:
        assert passes.cards is None


# --------------------------------------------------------------------------------------------
# A table of cases per setting


def classic_setup(scoring, colours=1, reveal="open", players=4):
    return table_setup(players, variant_from_settings(scoring, colours, reveal))


def test_r12_mild_every_marked_card_is_minus_5_and_the_0_too():
    setup = classic_setup("mild")
    seat = QuickEntry(cs("red 4"), 2, cs("red 0, red 9"))
    mine = explain_round(setup, complete_round(setup, {0: seat}))[0]
    assert points(mine) == [8 - 2, -5 * 3]
    assert mine.score == sum(points(mine))


def test_r13_reverse_lucky_cards_score_their_value_and_others_minus_1():
    setup = classic_setup("reverse")
    seat = QuickEntry(cs("blue 7"), 3, cs("blue 3"))
    mine = explain_round(setup, complete_round(setup, {0: seat}))[0]
    assert kinds(mine) == [TermKind.OTHER_CARDS, TermKind.MARKED_CARDS]
    assert points(mine) == [-(12 - 1), 7 + 3]
    assert mine.terms[0].count == 11


def test_r14_two_colours_give_a_term_each_with_its_own_indicator():
    setup = classic_setup("classic", colours=2)
    seat = QuickEntry(cs("red 4, blue 2"), 2, cs("blue 9, red 1, red 6"))
    mine = explain_round(setup, complete_round(setup, {0: seat}))[0]
    assert kinds(mine) == [TermKind.OTHER_CARDS, TermKind.MARKED_CARDS, TermKind.MARKED_CARDS]
    red, blue = mine.terms[1:]
    assert (red.colour, blue.colour) == (RED, BLUE)
    assert [(c.card, c.indicator) for c in red.cards] == [
        (cs("red 4")[0], True),
        (cs("red 1")[0], False),
        (cs("red 6")[0], False),
    ]
    assert [(c.card, c.indicator) for c in blue.cards] == [
        (cs("blue 2")[0], True),
        (cs("blue 9")[0], False),
    ]
    assert points(mine) == [8 - 3, -(4 + 1 + 6), -(2 + 9)]


def test_r15_hazy_explains_as_open():
    entries_open = complete_round(
        classic_setup("classic"), {0: QuickEntry(cs("red 4"), 2, cs("red 5"))}
    )
    hazy = explain_round(classic_setup("classic", reveal="hazy"), entries_open)
    assert hazy == explain_round(classic_setup("classic"), entries_open)


def test_r16_a_seat_that_captured_nothing_scores_0_for_nothing():
    setup = classic_setup("classic", reveal="delayed")
    seat = DelayedEntry(())
    mine = explain_round(setup, complete_round(setup, {0: seat}))[0]
    assert mine.score == 0
    assert kinds(mine) == [TermKind.NOTHING_CAPTURED]
    assert points(mine) == [0]
    assert mine.choice is None


def test_r16_the_proposal_is_the_best_and_the_next_best_says_why():
    setup = classic_setup("classic", reveal="delayed")
    captured = cs("red 9, red 8, blue 1, green 0")
    mine = explain_round(setup, complete_round(setup, {0: DelayedEntry(captured)}))[0]
    # green: 3 others, green 0 = 3; blue: 3 - 1 = 2; red: 2 - 17 = -15
    assert mine.choice is not None
    assert mine.choice.colours == (GREEN,)
    assert not mine.choice.by_table
    assert mine.choice.proposed.colours == (GREEN,) and mine.choice.proposed.score == 3
    assert [(c.colours, c.score) for c in mine.choice.others] == [((BLUE,), 2), ((RED,), -15)]
    assert mine.choice.next_best == mine.choice.others[0]
    assert kinds(mine) == [TermKind.OTHER_CARDS, TermKind.MARKED_CARDS]
    assert points(mine) == [3, 0]
    assert mine.terms[1].cards == (CountedCard(cs("green 0")[0]),)  # nothing laid out (R16)


def test_r16_choices_that_tie_with_the_proposal_are_equally_good():
    setup = classic_setup("classic", reveal="delayed")
    captured = cs("red 3, blue 3, green 9, yellow 8")
    mine = explain_round(setup, complete_round(setup, {0: DelayedEntry(captured)}))[0]
    # red: 3 others - 3 = 0; blue the same; yellow 3 - 8 = -5; green 3 - 9 = -6
    assert mine.choice.colours == (RED,) and mine.choice.proposed.score == 0
    assert [(c.colours, c.score) for c in mine.choice.equally_good] == [((BLUE,), 0)]
    # a best choice with no tie has none
    captured = cs("red 9, red 8, blue 1, green 0")
    alone = explain_round(setup, complete_round(setup, {0: DelayedEntry(captured)}))[0]
    assert alone.choice.equally_good == ()


def test_r16_an_override_keeps_what_the_proposal_would_have_scored():
    setup = classic_setup("classic", reveal="delayed")
    captured = cs("red 9, red 8, blue 1, green 0")
    seat = DelayedEntry(captured, (BLUE,))
    mine = explain_round(setup, complete_round(setup, {0: seat}))[0]
    assert mine.choice.colours == (BLUE,)
    assert mine.choice.by_table
    assert mine.choice.next_best == mine.choice.proposed
    assert (mine.choice.proposed.colours, mine.choice.proposed.score) == ((GREEN,), 3)
    assert mine.score == 2 == sum(points(mine))


def test_r16_two_colours_with_one_colour_captured_choose_that_one():
    setup = classic_setup("mild", colours=2, reveal="delayed")
    seat = DelayedEntry(cs("yellow 3, yellow 4, yellow 5, yellow 6"))
    mine = explain_round(setup, complete_round(setup, {0: seat}))[0]
    assert mine.choice.colours == (YELLOW,)
    assert mine.choice.others == ()
    assert mine.choice.next_best is None
    assert kinds(mine) == [TermKind.MARKED_CARDS]
    assert points(mine) == [-20]


def test_r22_a_hat_trick_seat_with_only_passes_scores_its_passes():
    setup = table_setup(4, variant_named("hat-trick"))
    entries = [
        HatTrickQuickEntry({}, 2),
        HatTrickQuickEntry({RED: 18, BLUE: 1}, 0),
        HatTrickQuickEntry({BLUE: 17}, 0),
        HatTrickQuickEntry({GREEN: 18}, 0),
    ]
    scored = score_round(setup, entries)
    mine = explain_round(setup, entries)[0]
    assert kinds(mine) == [TermKind.PASS_CARDS]
    assert points(mine) == [-4]
    # R22: no face-up card, so no colour scores (the others' best colours do)
    assert [seat.colours for seat in scored.seats] == [(), (RED,), (BLUE,), (GREEN,)]
    assert scored.as_json()["entries"][0]["colours"] == []


def test_terms_answer_the_api_shape():
    setup = table_setup(4, variant_named("classic"))
    seat = QuickEntry(R10_INDICATOR, 4, cs("red 2, red 5"))
    mine = explain_round(setup, [seat, *R10_OTHER_SEATS])[0]
    assert mine.as_json() == {
        "score": 3,
        "terms": [
            {"kind": "other-cards", "points": 14, "count": 14},
            {
                "kind": "marked-cards",
                "points": -11,
                "count": 3,
                "colour": "red",
                "cards": [
                    {"colour": "red", "value": 4, "indicator": True},
                    {"colour": "red", "value": 2},
                    {"colour": "red", "value": 5},
                ],
            },
        ],
    }


# --------------------------------------------------------------------------------------------
# Properties: the terms add up to the score, for random legal rounds of every variant

EXAMPLES = settings(max_examples=80, deadline=None)


def assert_terms_add_up(setup, entries):
    scored = score_round(setup, entries)
    explained = explain_round(setup, entries)
    for seat, mine in zip(scored.seats, explained, strict=True):
        assert mine.score == seat.score
        assert sum(term.points for term in mine.terms) == seat.score
        for term in mine.terms:
            if term.cards is not None:
                assert len(term.cards) == term.count
    return explained


@EXAMPLES
@given(choice=st.sampled_from(ALL_SETTINGS), players=st.integers(3, 8), seed=SEEDS)
def test_r10_r16_terms_of_full_entries_add_up_to_the_score(choice, players, seed):
    setup = table_setup(players, variant_from_settings(*choice))
    played = play_classic_round(setup, random.Random(seed))
    explained = assert_terms_add_up(setup, full_entries(setup, played))
    for mine, cards, marked in zip(
        explained, played.captured, played.indicators or [()] * players, strict=False
    ):
        counted = Counter(c.card for term in mine.terms for c in term.cards or ())
        assert counted == Counter([*cards, *marked])  # every card held is in one term
        flagged = [c.card for term in mine.terms for c in term.cards or () if c.indicator]
        assert sorted(flagged, key=str) == sorted(marked, key=str)


@EXAMPLES
@given(choice=st.sampled_from(LAID_OUT_SETTINGS), players=st.integers(3, 8), seed=SEEDS)
def test_r10_r15_terms_of_quick_entries_add_up_to_the_score(choice, players, seed):
    setup = table_setup(players, variant_from_settings(*choice))
    played = play_classic_round(setup, random.Random(seed))
    entries = []
    for marked, cards, tricks in zip(
        played.indicators, played.captured, played.tricks, strict=True
    ):
        colours = {card.colour for card in marked}
        entries.append(
            QuickEntry(marked, tricks, tuple(card for card in cards if card.colour in colours))
        )
    assert_terms_add_up(setup, entries)


@settings(max_examples=60, deadline=None)
@given(
    choice=st.sampled_from([s for s in ALL_SETTINGS if s[2] == "delayed"]),
    players=st.integers(3, 8),
    seed=SEEDS,
    data=st.data(),
)
def test_r16_terms_of_overridden_choices_add_up_and_never_beat_the_proposal(
    choice, players, seed, data
):
    setup = table_setup(players, variant_from_settings(*choice))
    played = play_classic_round(setup, random.Random(seed))
    entries = full_entries(setup, played)
    seat = data.draw(st.integers(0, players - 1))
    proposed = explain_round(setup, entries)[seat]
    if proposed.choice is None:
        assert proposed.score == 0 and kinds(proposed) == [TermKind.NOTHING_CAPTURED]
        return
    options = [proposed.choice.proposed, *proposed.choice.others]
    picked = data.draw(st.sampled_from(options))
    entries[seat] = DelayedEntry(entries[seat].captured, picked.colours)
    mine = assert_terms_add_up(setup, entries)[seat]
    assert mine.score == picked.score <= proposed.choice.proposed.score
    assert mine.choice.by_table == (set(picked.colours) != set(proposed.choice.colours))


@EXAMPLES
@given(players=st.integers(4, 7), seed=SEEDS, quick=st.booleans())
def test_r22_hat_trick_terms_add_up_to_the_score(players, seed, quick):
    setup = table_setup(players, variant_named("hat-trick"))
    played = play_hat_trick_round(setup, random.Random(seed))
    if quick:
        entries = [
            HatTrickQuickEntry(dict(Counter(card.colour for card in up)), len(down))
            for up, down in zip(played.face_up, played.face_down, strict=True)
        ]
    else:
        entries = [
            HatTrickFullEntry(tuple(up), tuple(down))
            for up, down in zip(played.face_up, played.face_down, strict=True)
        ]
    for mine in assert_terms_add_up(setup, entries):
        best = [term for term in mine.terms if term.kind is TermKind.BEST_COLOUR]
        for term in mine.terms:
            if term.kind is TermKind.OTHER_COLOUR:
                assert best and term.count <= best[0].count  # R22: the best has the most
