"""R7, R8, R13: who takes a classic-family trick, and the sentence that says why; plus the
checks on the cards of an entered trick (C1, C6)."""

from __future__ import annotations

import pytest

from companion.rules.errors import CardError, RuleError, TrickError
from companion.rules.tricks import check_trick_cards, trick_winner
from companion.rules.variants import SCORINGS, variant_named

from .helpers import c, cs, mentions

CLASSIC = SCORINGS["classic"]
MILD = SCORINGS["mild"]
REVERSE = SCORINGS["reverse"]

# (id, cards in play order, index of the card that takes the trick, rulings the reason cites)
HIGHEST_TRUMP_CASES = [
    ("r8-only-lead-colour-highest-wins", "red 4, red 9, red 2", 1, {"R8"}),
    ("r8-lead-card-itself-can-win", "red 9, red 4, red 2", 0, {"R8"}),
    ("r7-r8-off-colour-zeros-are-no-trumps", "red 4, blue 0, green 0, red 2", 0, {"R7", "R8"}),
    ("r7-r8-off-colour-zero-never-wins", "red 1, blue 0", 0, {"R7", "R8"}),
    ("r8-all-zeros-go-to-the-leader", "red 0, blue 0, green 0, yellow 0", 0, {"R8"}),
    ("r8-led-zero-wins-only-among-zeros", "red 0, blue 0, violet 0", 0, {"R8"}),
    ("r8-led-zero-loses-to-a-higher-lead-card", "red 0, red 3, blue 0", 1, {"R8"}),
    ("r7-r8-led-zero-loses-to-any-trump", "red 0, blue 1, green 0", 1, {"R8"}),
    ("r7-r8-single-trump-wins", "red 9, blue 1, red 8", 1, {"R7", "R8"}),
    ("r7-r8-a-trump-1-beats-a-lead-20", "red 20, blue 1", 1, {"R7", "R8"}),
    ("r8-highest-trump-wins", "red 9, blue 1, green 7, yellow 3", 2, {"R8"}),
    ("r8-lead-colour-after-a-trump-is-no-trump", "red 4, blue 2, red 18", 1, {"R8"}),
    ("r8-ties-go-to-the-card-played-first", "red 9, blue 7, green 7", 1, {"R8"}),
    ("r8-a-later-higher-trump-breaks-a-tie", "red 1, blue 5, green 5, yellow 6", 3, {"R8"}),
    ("r8-trump-tie-with-lead-value-is-still-a-trump", "red 7, blue 7", 1, {"R8"}),
    ("r8-three-way-tie-goes-to-the-first", "brown 2, red 6, green 6, blue 6", 1, {"R8"}),
    ("r8-partial-trick-of-one-card", "green 5", 0, {"R8"}),
    ("r8-partial-trick-of-two-lead-cards", "red 4, red 1", 0, {"R8"}),
    (
        "r8-eight-players",
        "violet 3, violet 18, brown 0, red 11, green 11, yellow 2, blue 10, violet 1",
        3,
        {"R8"},
    ),
]

REVERSE_CASES = [
    ("r13-lowest-trump-wins", "red 9, blue 7, green 2, yellow 5", 2, {"R13"}),
    ("r13-zeros-are-never-trumps", "red 9, blue 0, green 3, yellow 4", 2, {"R13"}),
    ("r13-ties-go-to-the-card-played-first", "red 9, blue 2, green 2", 1, {"R13"}),
    ("r13-a-later-lower-trump-breaks-a-tie", "red 9, blue 2, green 2, yellow 1", 3, {"R13"}),
    ("r13-single-trump-wins", "red 3, blue 12", 1, {"R13"}),
    ("r13-single-trump-beats-lower-lead-cards", "red 3, red 1, blue 20, red 2", 2, {"R13"}),
    ("r13-no-trump-highest-lead-colour-wins", "red 3, red 9, blue 0", 1, {"R8"}),
    ("r13-no-trump-only-lead-colour", "red 3, red 9, red 1", 1, {"R8"}),
    ("r13-all-zeros-go-to-the-leader", "red 0, blue 0, green 0", 0, {"R8"}),
    ("r13-partial-trick-of-one-card", "blue 7", 0, {"R8"}),
]


def case_ids(cases):
    return [case[0] for case in cases]


@pytest.mark.parametrize(
    "scoring", [CLASSIC, MILD], ids=["classic-scoring", "r12-mild-scoring-same-tricks"]
)
@pytest.mark.parametrize(
    ("case", "cards", "winner", "rulings"), HIGHEST_TRUMP_CASES, ids=case_ids(HIGHEST_TRUMP_CASES)
)
def test_r7_r8_the_highest_trump_or_else_the_highest_lead_card_takes_the_trick(
    scoring, case, cards, winner, rulings
):
    played = cs(cards)
    outcome = trick_winner(played, scoring)
    assert outcome.winner == winner
    assert outcome.card == played[winner]


@pytest.mark.parametrize(
    ("case", "cards", "winner", "rulings"), REVERSE_CASES, ids=case_ids(REVERSE_CASES)
)
def test_r13_in_reverse_the_lowest_trump_or_else_the_highest_lead_card_takes_the_trick(
    case, cards, winner, rulings
):
    played = cs(cards)
    outcome = trick_winner(played, REVERSE)
    assert outcome.winner == winner
    assert outcome.card == played[winner]


@pytest.mark.parametrize(
    ("scoring", "case", "cards", "winner", "rulings"),
    [(CLASSIC, *case) for case in HIGHEST_TRUMP_CASES]
    + [(REVERSE, *case) for case in REVERSE_CASES],
    ids=case_ids(HIGHEST_TRUMP_CASES) + case_ids(REVERSE_CASES),
)
def test_r8_r13_the_reason_names_the_winning_card_and_cites_the_rulings(
    scoring, case, cards, winner, rulings
):
    played = cs(cards)
    reason = str(trick_winner(played, scoring).reason)
    assert mentions(reason, str(played[winner])), reason
    for ruling in rulings:
        assert f"{ruling})" in reason or f"{ruling}," in reason, f"{ruling} not cited: {reason}"


@pytest.mark.parametrize(
    ("scoring", "cards", "first", "second"),
    [
        (CLASSIC, "red 9, blue 7, green 7", "blue 7", "green 7"),
        (REVERSE, "red 9, blue 2, yellow 5, green 2", "blue 2", "green 2"),
    ],
    ids=["r8-tie-reason-names-both-cards", "r13-tie-reason-names-both-cards"],
)
def test_r8_r13_a_tie_reason_names_both_tied_cards(scoring, cards, first, second):
    reason = str(trick_winner(cs(cards), scoring).reason)
    assert mentions(reason, first) and mentions(reason, second), reason
    assert reason.lower().index(first) < reason.lower().index(second), reason


def test_r13_reverse_reasons_never_claim_the_highest_trump_wins():
    for _, cards, _, _ in REVERSE_CASES:
        reason = str(trick_winner(cs(cards), REVERSE).reason)
        assert "highest trump" not in reason, reason


def test_r8_a_reason_renders_colours_and_cards_in_the_language_given():
    outcome = trick_winner(cs("red 4, blue 0, red 2"), CLASSIC)
    text = outcome.reason.render(colour_name=lambda colour: colour.value.upper())
    assert "RED 4" in text
    assert "red 4" not in text


# --------------------------------------------------------------------------------------------
# Checks on an entered trick (C1, C6)


def test_c6_a_valid_trick_is_accepted():
    deck = variant_named("classic").deck(4)
    check_trick_cards(cs("red 4, red 1, red 7, blue 0"), deck, 4)
    check_trick_cards(cs("red 4, red 1"), deck, 4)  # a partial trick
    check_trick_cards(cs("violet 18"), None, None)  # no deck known: the box


@pytest.mark.parametrize(
    ("cards", "players", "error"),
    [
        ("", 4, TrickError),
        ("red 1, red 2, red 3, red 4, red 5", 4, TrickError),
        ("red 1, red 2, red 1", 4, CardError),
        ("red 1, red 12", 4, CardError),
        ("red 1, violet 3", 4, CardError),
    ],
    ids=[
        "c6-no-card",
        "c6-more-cards-than-players",
        "c1-card-twice",
        "c1-value-outside-the-deck",
        "c1-colour-outside-the-deck",
    ],
)
def test_c1_c6_an_impossible_trick_is_refused(cards, players, error):
    deck = variant_named("classic").deck(players)
    with pytest.raises(error) as info:
        check_trick_cards(cs(cards), deck, players)
    assert isinstance(info.value, RuleError)


@pytest.mark.parametrize(
    ("cards", "card"),
    [
        ("red 1, red 2, red 1", "red 1"),
        ("red 1, red 12", "red 12"),
        ("red 1, violet 3", "violet 3"),
    ],
    ids=["c1-card-twice-named", "c1-value-outside-named", "c1-colour-outside-named"],
)
def test_c1_a_refused_trick_card_is_named(cards, card):
    with pytest.raises(CardError) as info:
        check_trick_cards(cs(cards), variant_named("classic").deck(4), 4)
    assert info.value.card == c(card)
    assert mentions(str(info.value), card)


def test_c1_without_a_deck_a_card_outside_the_box_is_refused():
    with pytest.raises(CardError) as info:
        check_trick_cards(cs("red 1, yellow 19"), None, None)
    assert info.value.card == c("yellow 19")
    assert mentions(str(info.value), "yellow 19")


def test_c6_without_a_player_count_a_trick_holds_at_most_eight_cards():
    nine = cs("red 1, red 2, red 3, red 4, red 5, red 6, red 7, red 8, red 9")
    check_trick_cards(nine[:8], None, None)
    with pytest.raises(TrickError):
        check_trick_cards(nine, None, None)
