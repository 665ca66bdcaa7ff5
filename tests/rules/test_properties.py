"""Property tests over random legal deals and random legal play (hypothesis draws the seed of
``random.Random``; the helpers deal with ``companion.rules.table.deal`` and play every card).

The invariants and their rulings:

* R2, R4, R9 / R17-R20: every card of the deck ends in exactly one place.
* C3 / C5: trick counts add up to the tricks of the round; Hat Trick holdings to players x tricks.
* R10-R15: a round scores by the rulings, and quick and full entry of it score the same.
* R16: the proposed delayed choice is never beaten by another legal choice.
* R7, R8, R13: the winner of a trick is the highest (Reverse: lowest) trump, the first of equal
  ones; with no trump, the highest lead-colour card. So it is never an off-colour 0, and a
  card added to a trick takes it exactly when it beats the current winner by those rules;
  otherwise the winner stays put.
* R19-R21: ``check_hat_trick_plays`` accepts exactly the legal plays; piles and next leader.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.cards import Card, Colour
from companion.rules.entries import (
    DelayedEntry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
)
from companion.rules.hat_trick import HatTrickOutcome, Play, resolve_hat_trick
from companion.rules.scoring import score_round
from companion.rules.table import table_setup
from companion.rules.tricks import trick_winner
from companion.rules.variants import SCORINGS, Reveal, variant_from_settings, variant_named

from .helpers import (
    BLUE,
    GREEN,
    RED,
    box,
    expected_delayed_best,
    expected_hat_trick_score,
    expected_next_leader,
    expected_pile_taker,
    expected_score,
    expected_winner,
    is_trump,
    legal_delayed_choices,
    mentions,
    play_classic_round,
    play_hat_trick_round,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
ALL_SETTINGS = list(
    itertools.product(["classic", "mild", "reverse"], [1, 2], ["open", "hazy", "delayed"])
)
LAID_OUT_SETTINGS = [s for s in ALL_SETTINGS if s[2] != "delayed"]
DELAYED_SETTINGS = [s for s in ALL_SETTINGS if s[2] == "delayed"]
EXAMPLES = settings(max_examples=150, deadline=None)


def classic_setup(choice, players):
    return table_setup(players, variant_from_settings(*choice))


def full_entries(setup, played):
    if setup.variant.reveal is Reveal.DELAYED:
        return [DelayedEntry(tuple(cards)) for cards in played.captured]
    return [
        FullEntry(marked, tuple(cards))
        for marked, cards in zip(played.indicators, played.captured, strict=True)
    ]


# --------------------------------------------------------------------------------------------
# The classic family


@EXAMPLES
@given(choice=st.sampled_from(ALL_SETTINGS), players=st.integers(3, 8), seed=SEEDS)
def test_r2_r4_r9_every_card_ends_in_exactly_one_place(choice, players, seed):
    setup = classic_setup(choice, players)
    played = play_classic_round(setup, random.Random(seed))
    places = Counter(
        [card for cards in played.captured for card in cards]
        + [card for marked in played.indicators for card in marked]
        + list(played.dealt.left_out)
    )
    assert places == Counter(setup.deck)
    assert len(played.dealt.left_out) == setup.left_out
    for marked in played.indicators:
        assert len(marked) == setup.cards_laid_out
        assert len({card.colour for card in marked}) == len(marked)  # R14: different colours
    for cards, tricks in zip(played.captured, played.tricks, strict=True):
        assert len(cards) == tricks * players  # R9: one card per player in every trick


@EXAMPLES
@given(choice=st.sampled_from(ALL_SETTINGS), players=st.integers(3, 8), seed=SEEDS)
def test_c3_trick_counts_sum_to_the_tricks_of_the_round(choice, players, seed):
    setup = classic_setup(choice, players)
    played = play_classic_round(setup, random.Random(seed))
    result = score_round(setup, full_entries(setup, played))
    assert [seat.tricks for seat in result.seats] == played.tricks
    assert sum(seat.tricks for seat in result.seats) == setup.tricks_per_round


@EXAMPLES
@given(choice=st.sampled_from(LAID_OUT_SETTINGS), players=st.integers(3, 8), seed=SEEDS)
def test_r10_r15_full_and_quick_entry_of_a_round_score_the_same_as_the_rules(choice, players, seed):
    setup = classic_setup(choice, players)
    played = play_classic_round(setup, random.Random(seed))
    full = score_round(setup, full_entries(setup, played)).scores
    quick_entries = []
    expected = []
    for marked, cards, tricks in zip(
        played.indicators, played.captured, played.tricks, strict=True
    ):
        colours = {card.colour for card in marked}
        quick_entries.append(
            QuickEntry(marked, tricks, tuple(card for card in cards if card.colour in colours))
        )
        expected.append(expected_score(choice[0], colours, marked + tuple(cards)))
    quick = score_round(setup, quick_entries).scores
    assert full == quick == expected


@EXAMPLES
@given(choice=st.sampled_from(LAID_OUT_SETTINGS), players=st.integers(3, 8), seed=SEEDS)
def test_r15_hazy_and_open_score_the_same_round_alike(choice, players, seed):
    scoring, colours, _ = choice
    open_setup = classic_setup((scoring, colours, "open"), players)
    hazy_setup = classic_setup((scoring, colours, "hazy"), players)
    played = play_classic_round(open_setup, random.Random(seed))
    entries = full_entries(open_setup, played)
    assert score_round(open_setup, entries).scores == score_round(hazy_setup, entries).scores


@settings(max_examples=100, deadline=None)
@given(choice=st.sampled_from(DELAYED_SETTINGS), players=st.integers(3, 8), seed=SEEDS)
def test_r16_the_proposed_delayed_choice_is_never_beaten(choice, players, seed):
    scoring, colours, _ = choice
    setup = classic_setup(choice, players)
    played = play_classic_round(setup, random.Random(seed))
    entries = full_entries(setup, played)
    proposed = score_round(setup, entries)
    for seat, cards in enumerate(played.captured):
        mine = proposed.seats[seat]
        best = expected_delayed_best(scoring, cards, colours)
        assert mine.score == mine.proposed_score == best
        legal = legal_delayed_choices(cards, colours)
        assert frozenset(mine.proposed) in legal
        for choice_ in legal:
            overridden = list(entries)
            overridden[seat] = DelayedEntry(tuple(cards), tuple(choice_))
            score = score_round(setup, overridden).seats[seat].score
            assert score == expected_score(scoring, choice_, cards)
            assert score <= mine.proposed_score


# --------------------------------------------------------------------------------------------
# Hat Trick


@EXAMPLES
@given(players=st.integers(4, 7), seed=SEEDS)
def test_r17_r22_a_hat_trick_round_holds_every_card_once_and_scores_by_the_rules(players, seed):
    setup = table_setup(players, variant_named("hat-trick"))
    played = play_hat_trick_round(setup, random.Random(seed))
    # every card in exactly one place: face up, face down (passes) or set aside (R18)
    places = Counter(
        [card for cards in played.face_up for card in cards]
        + [card for cards in played.face_down for card in cards]
        + played.set_aside
    )
    assert places == Counter(setup.deck)
    # C5: face-up + face-down = players x tricks
    held = sum(
        len(up) + len(down) for up, down in zip(played.face_up, played.face_down, strict=True)
    )
    assert held == players * setup.tricks_per_round
    full = [
        HatTrickFullEntry(tuple(up), tuple(down))
        for up, down in zip(played.face_up, played.face_down, strict=True)
    ]
    quick = [
        HatTrickQuickEntry(dict(Counter(card.colour for card in up)), len(down))
        for up, down in zip(played.face_up, played.face_down, strict=True)
    ]
    expected = [
        expected_hat_trick_score(Counter(card.colour for card in up), len(down))
        for up, down in zip(played.face_up, played.face_down, strict=True)
    ]
    assert score_round(setup, full).scores == score_round(setup, quick).scores == expected


@settings(max_examples=40, deadline=None)
@given(players=st.integers(4, 7), seed=SEEDS)
def test_r19_the_check_accepts_exactly_the_legal_plays(players, seed):
    setup = table_setup(players, variant_named("hat-trick"))
    play_hat_trick_round(setup, random.Random(seed), check_every_option=True)


@EXAMPLES
@given(players=st.integers(4, 7), seed=SEEDS)
def test_r20_r21_piles_go_to_their_highest_card_and_the_stronger_pile_leads(players, seed):
    setup = table_setup(players, variant_named("hat-trick"))
    played = play_hat_trick_round(setup, random.Random(seed))
    for _, plays in played.tricks:
        for end in range(1, len(plays) + 1):
            so_far = plays[:end]
            outcome = resolve_hat_trick(so_far)
            assert outcome.next_leader == expected_next_leader(so_far)
            assert not so_far[outcome.next_leader].passed
            assert outcome.passes == tuple(i for i, play in enumerate(so_far) if play.passed)
            in_piles = [card for pile in outcome.piles for card in pile.cards]
            assert Counter(in_piles) == Counter(p.card for p in so_far if not p.passed)
            assert len(outcome.piles) <= 2
            for pile in outcome.piles:
                assert all(card.colour is pile.colour for card in pile.cards)
                assert so_far[pile.winner].card == max(pile.cards, key=lambda card: card.value)
            assert mentions(str(outcome.reason), str(so_far[outcome.next_leader].card))
            assert_r21_next_leader(so_far, outcome)


def assert_r21_next_leader(plays: list[Play], outcome: HatTrickOutcome) -> None:
    """R21 as 000 and 002 say it: the player of the card that decides leads next. That card
    lies in the winning pile; with unequal top cards (or one pile) it is the pile's top card,
    so the taker leads; with equal tops and unequal piles it is a lower card, whose player
    takes no pile."""
    assert outcome.winner == expected_pile_taker(plays)
    assert outcome.next_leader == expected_next_leader(plays)
    won = next(pile for pile in outcome.piles if pile.winner == outcome.winner)
    assert plays[outcome.next_leader].card in won.cards
    tops = sorted(max(card.value for card in pile.cards) for pile in outcome.piles)
    values = sorted(sorted(card.value for card in pile.cards) for pile in outcome.piles)
    if len(outcome.piles) == 1 or tops[0] != tops[-1] or values[0] == values[-1]:
        assert outcome.next_leader == outcome.winner
    else:
        assert outcome.next_leader not in {pile.winner for pile in outcome.piles}
    assert f"seat {outcome.next_leader}" in str(outcome.reason)


@st.composite
def equal_top_tricks(draw: st.DrawFn) -> list[Play]:
    """A trick of two colours whose top cards are equal (the case R21 settles rank by rank),
    in any legal order: with no pass any order of the two colours is legal (R19)."""
    first, second = draw(st.sampled_from(list(itertools.permutations([RED, BLUE, GREEN], 2))))
    top = draw(st.integers(2, 20))
    below = st.lists(st.integers(0, top - 1), unique=True, max_size=3)
    cards = [Card(first, top), Card(second, top)]
    cards += [Card(first, value) for value in draw(below)]
    cards += [Card(second, value) for value in draw(below)]
    order = draw(st.permutations(cards[:7]))
    return [Play(card) for card in order]


@EXAMPLES
@given(trick=equal_top_tricks())
def test_r21_equal_tops_the_deciding_card_leads_next(trick):
    outcome = resolve_hat_trick(trick)
    assert_r21_next_leader(trick, outcome)


# --------------------------------------------------------------------------------------------
# Who takes a trick


@st.composite
def tricks(draw, min_size=1, max_size=8):
    """Distinct cards of the box, often few colours and low values so that zeros, lead-colour
    cards and equal trumps come up as well as plain trumps."""
    palette = draw(st.lists(st.sampled_from(list(Colour)), min_size=1, max_size=6, unique=True))
    values = draw(st.sampled_from([range(0, 4), range(0, 8), range(0, 19)]))
    cards = [Card(colour, value) for colour in palette for value in values]
    return draw(st.lists(st.sampled_from(cards), min_size=min_size, max_size=max_size, unique=True))


SCORING_NAMES = st.sampled_from(["classic", "mild", "reverse"])


@settings(max_examples=200, deadline=None)
@given(cards=tricks(), scoring=SCORING_NAMES)
def test_r7_r8_r13_the_winner_is_the_best_trump_or_else_the_best_lead_card(cards, scoring):
    outcome = trick_winner(cards, SCORINGS[scoring])
    lead = cards[0]
    won = cards[outcome.winner]
    assert outcome.card == won
    trumps = [card for card in cards if is_trump(card, lead)]
    if trumps:
        assert is_trump(won, lead)
        pick = min if scoring == "reverse" else max
        assert won.value == pick(card.value for card in trumps)
        # ties go to the card played first
        assert all(
            not is_trump(card, lead) or card.value != won.value for card in cards[: outcome.winner]
        )
    else:
        assert won.colour == lead.colour
        assert won.value == max(card.value for card in cards if card.colour == lead.colour)
    # consequence of R7/R8: an off-colour 0 never takes a trick
    assert not (won.colour != lead.colour and won.value == 0)
    assert outcome.winner == expected_winner(cards, reverse=scoring == "reverse")
    assert mentions(str(outcome.reason), str(won))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), cards=tricks(max_size=7), scoring=SCORING_NAMES)
def test_r8_r13_a_card_added_to_a_trick_takes_it_exactly_when_it_beats_the_winner(
    data, cards, scoring
):
    reverse = scoring == "reverse"
    before = trick_winner(cards, SCORINGS[scoring])
    extra = data.draw(st.sampled_from([card for card in box() if card not in cards]))
    after = trick_winner([*cards, extra], SCORINGS[scoring])
    lead, best = cards[0], before.card
    if is_trump(extra, lead):
        if not is_trump(best, lead):
            beats = True  # the first trump beats any lead-colour card
        else:
            beats = extra.value < best.value if reverse else extra.value > best.value
    else:
        # a lead-colour card beats only a lower lead-colour card; an off-colour 0 never wins
        beats = (
            not is_trump(best, lead) and extra.colour == lead.colour and extra.value > best.value
        )
    assert after.winner == (len(cards) if beats else before.winner)


@settings(max_examples=100, deadline=None)
@given(cards=tricks(), scoring=SCORING_NAMES)
def test_r8_zeros_added_off_colour_never_change_the_winner(cards, scoring):
    lead = cards[0]
    zeros = [Card(colour, 0) for colour in Colour if colour != lead.colour]
    extra = [card for card in zeros if card not in cards][:2]
    before = trick_winner(cards, SCORINGS[scoring])
    after = trick_winner([*cards, *extra], SCORINGS[scoring])
    assert after.winner == before.winner


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, players=st.integers(3, 8))
def test_r8_in_real_rounds_every_trick_goes_to_the_seat_the_rules_name(seed, players):
    setup = table_setup(players, variant_named("reverse" if seed % 2 else "classic"))
    played = play_classic_round(setup, random.Random(seed))
    for leader, cards, winner in played.trick_log:
        expected = (leader + expected_winner(cards, reverse=bool(seed % 2))) % players
        assert winner == expected
