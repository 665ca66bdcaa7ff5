"""Hat Trick: legal plays (R19), piles (R20), the next leader (R21) and scoring (R22)."""

from __future__ import annotations

import itertools

import pytest

from companion.rules.errors import CardError, HatTrickError
from companion.rules.hat_trick import (
    HatTrickCounts,
    Play,
    best_hat_trick_colour,
    can_pass,
    check_hat_trick_plays,
    hat_trick_score,
    only_a_pass,
    resolve_hat_trick,
)
from companion.rules.variants import variant_named

from .helpers import BLUE, GREEN, RED, c, mentions


def plays(text: str) -> list[Play]:
    """``plays("red 5, blue 3, pass green 7")``: cards played, and passes showing a card."""
    result = []
    for part in text.split(","):
        words = part.split()
        if words[0] == "pass":
            result.append(Play(c(" ".join(words[1:])), passed=True))
        else:
            result.append(Play(c(part)))
    return result


def deck(players: int):
    return variant_named("hat-trick").deck(players)


# --------------------------------------------------------------------------------------------
# R19: legal and illegal plays

LEGAL = [
    ("r19-the-leader-plays-any-card", "green 20", 4),
    ("r19-a-second-colour-may-join", "red 5, blue 3", 4),
    ("r19-either-trick-colour-may-follow", "red 5, blue 3, blue 9, red 1", 4),
    ("r19-one-colour-trick", "red 5, red 6, red 7, red 8", 4),
    ("r19-pass-showing-the-third-colour", "red 5, blue 3, pass green 7", 4),
    ("r19-play-goes-on-after-a-pass", "red 5, blue 3, pass green 7, red 20", 4),
    ("r19-several-players-may-pass", "red 5, blue 3, pass green 7, pass green 8", 4),
    ("r19-second-colour-may-come-late", "red 5, red 6, red 7, green 1, pass blue 2", 5),
    ("r17-seven-players-use-zeros", "red 0, blue 0, pass green 0, red 1, blue 1, red 2, blue 2", 7),
]


@pytest.mark.parametrize(("case", "text", "players"), LEGAL, ids=[row[0] for row in LEGAL])
def test_r19_legal_plays_are_accepted(case, text, players):
    check_hat_trick_plays(plays(text), deck(players), players)
    check_hat_trick_plays(plays(text), None, None)


ILLEGAL = [
    ("r19-no-third-colour", "red 5, blue 3, green 7", "green 7", HatTrickError),
    (
        "r19-no-third-colour-after-a-pass",
        "red 5, blue 3, pass green 7, green 8",
        "green 8",
        HatTrickError,
    ),
    ("r19-the-leader-cannot-pass", "pass red 5", "red 5", HatTrickError),
    ("r19-no-pass-with-one-card-in-the-trick", "red 5, pass blue 3", "blue 3", HatTrickError),
    ("r19-no-pass-before-two-colours", "red 5, red 6, pass green 1", "green 1", HatTrickError),
    ("r19-a-pass-shows-the-third-colour", "red 5, blue 3, pass red 7", "red 7", HatTrickError),
    (
        "r19-a-pass-shows-the-third-colour-not-the-second",
        "red 5, blue 3, pass blue 7",
        "blue 7",
        HatTrickError,
    ),
    ("c1-a-card-twice", "red 5, blue 3, red 5", "red 5", CardError),
    ("c1-a-card-played-and-passed", "red 5, blue 3, pass green 7, green 7", "green 7", CardError),
    ("r17-no-yellow-in-hat-trick", "red 5, yellow 3", "yellow 3", CardError),
    ("r17-no-zero-below-seven-players", "red 5, blue 0", "blue 0", CardError),
]


@pytest.mark.parametrize(
    ("case", "text", "card", "error"), ILLEGAL, ids=[row[0] for row in ILLEGAL]
)
def test_r19_illegal_plays_are_refused_naming_the_card(case, text, card, error):
    with pytest.raises(error) as info:
        check_hat_trick_plays(plays(text), deck(4), 4)
    assert info.value.card == c(card)
    assert mentions(str(info.value), card)


@pytest.mark.parametrize(
    ("case", "text", "card"),
    [row[:3] for row in ILLEGAL if row[0].startswith("r19")],
    ids=[row[0] for row in ILLEGAL if row[0].startswith("r19")],
)
def test_r19_the_refusal_cites_r19(case, text, card):
    with pytest.raises(HatTrickError) as info:
        check_hat_trick_plays(plays(text), None, None)
    assert "R19" in str(info.value)


def test_r17_without_a_deck_yellow_is_still_refused():
    with pytest.raises(CardError):
        check_hat_trick_plays(plays("red 5, yellow 3"), None, None)


@pytest.mark.parametrize(
    ("text", "players"),
    [
        ("red 1, red 2, red 3, red 4, red 5", 4),
        ("", 4),
        ("red 1, red 2, red 3, red 4, red 5, red 6, red 7, red 8", None),
    ],
    ids=["r19-one-play-per-player", "r19-no-play-at-all", "r19-at-most-seven-plays-by-default"],
)
def test_r19_a_trick_holds_one_to_players_plays(text, players):
    with pytest.raises(HatTrickError):
        check_hat_trick_plays(plays(text) if text else [], None, players)


# --------------------------------------------------------------------------------------------
# R20: piles


def test_r20_each_colour_forms_a_pile_taken_by_its_highest_card():
    trick = plays("red 5, blue 3, red 12, blue 9, pass green 7")
    outcome = resolve_hat_trick(trick)
    piles = {pile.colour: pile for pile in outcome.piles}
    assert set(piles) == {RED, BLUE}
    assert piles[RED].winner == 2
    assert set(piles[RED].cards) == {c("red 5"), c("red 12")}
    assert piles[BLUE].winner == 3
    assert set(piles[BLUE].cards) == {c("blue 3"), c("blue 9")}
    assert outcome.passes == (4,)


def test_r20_a_trick_of_one_colour_is_one_pile():
    outcome = resolve_hat_trick(plays("green 3, green 18, green 7, green 1"))
    assert len(outcome.piles) == 1
    assert outcome.piles[0].winner == 1
    assert len(outcome.piles[0].cards) == 4
    assert outcome.passes == ()
    assert outcome.next_leader == 1


def test_r20_the_20_always_takes_its_pile():
    outcome = resolve_hat_trick(plays("blue 3, red 7, red 20, blue 19, pass green 1"))
    piles = {pile.colour: pile for pile in outcome.piles}
    assert piles[RED].winner == 2
    assert outcome.next_leader == 2


# --------------------------------------------------------------------------------------------
# R21: who leads next

# Each case: the trick, the play taking the deciding pile (the API's "winner"), and the play
# whose card decides and whose player leads next. Indexes count from the trick's leader
# (seat 0 leads). The rulebooks: 000 "quello che ha giocato la 2° (o 3, o 4, ecc.) carta più
# elevata comincia la presa seguente"; 002 "celui qui a posé la 2e (ou 3e, ou 4e, etc.) carte
# la plus élevée commence".
R21_CASES = [
    ("r21-higher-top-card-leads", "red 15, red 3, blue 17", 2, 2),
    ("r21-higher-top-card-leads-whatever-the-pile-size", "red 15, blue 14, blue 13, blue 12", 0, 0),
    # Equal top cards: the pile whose next card is higher leads.
    ("r21-equal-tops-red-3-beats-blue-2", "red 15, blue 15, red 3, blue 2", 0, 2),
    ("r21-equal-tops-green-12-beats-red-3", "red 14, green 14, green 12, red 3", 1, 2),
    ("r21-the-blue-pile-runs-out-green-4-leads", "blue 15, green 15, green 4", 1, 2),
    ("r21-equal-tops-second-card-decides", "red 12, blue 12, red 5, blue 7", 1, 3),
    (
        "r21-equal-tops-and-seconds-third-card-decides",
        "red 12, blue 12, red 5, blue 5, red 2, blue 3",
        1,
        5,
    ),
    ("r21-a-pile-that-runs-out-first-loses", "red 12, blue 12, red 5, blue 5, blue 1", 1, 4),
    ("r21-a-longer-pile-wins-even-with-a-zero", "red 12, blue 12, blue 0", 1, 2),
    ("r21-the-deciding-card-may-come-first", "red 3, red 15, blue 15, blue 2", 1, 0),
    ("r21-equal-piles-red-beats-blue", "blue 12, red 12, blue 5, red 5", 1, 1),
    ("r21-equal-piles-blue-beats-green", "green 9, blue 9", 1, 1),
    ("r21-equal-piles-red-beats-green", "green 9, red 9", 1, 1),
    ("r21-one-pile-its-top-card-leads", "green 3, green 18, green 7", 1, 1),
    ("r21-a-passed-card-is-not-in-any-pile", "red 12, blue 12, pass green 20, red 5, blue 5", 0, 0),
    ("r21-a-pass-never-decides", "red 12, blue 12, pass green 20, red 5, blue 4", 0, 3),
    ("r21-the-leader-can-lead-again", "red 20, blue 19, blue 18, red 1", 0, 0),
]


@pytest.mark.parametrize(
    ("case", "text", "winner", "leader"), R21_CASES, ids=[r[0] for r in R21_CASES]
)
def test_r21_the_player_of_the_deciding_card_leads_next(case, text, winner, leader):
    trick = plays(text)
    check_hat_trick_plays(trick, deck(7), 7)
    outcome = resolve_hat_trick(trick)
    assert outcome.winner == winner
    assert outcome.next_leader == leader
    assert mentions(str(outcome.reason), str(trick[leader].card))
    assert f"seat {leader}" in str(outcome.reason)
    assert "R21" in str(outcome.reason)


def test_r21_with_equal_tops_the_next_leader_may_take_no_pile():
    """000 / 002: the player of the 2nd (3rd, 4th...) highest card leads; here red 3's
    player takes nothing, yet leads."""
    trick = plays("red 15, blue 15, red 3, blue 2")
    outcome = resolve_hat_trick(trick)
    assert outcome.next_leader == 2
    assert 2 not in {pile.winner for pile in outcome.piles}
    assert str(outcome.reason) == (
        "Red 15 and blue 15 each take their colour's pile; the top cards are equal, and at "
        "the first rank where the piles differ red 3 is the higher card: seat 2 played it and "
        "leads next, though taking no pile (R21)."
    )


def test_r21_when_a_pile_runs_out_the_reason_says_so():
    outcome = resolve_hat_trick(plays("blue 15, green 15, green 4"))
    assert "the pile of blue 15 runs out first" in str(outcome.reason)
    assert "green 4, decides: seat 2 played it" in str(outcome.reason)


def test_r21_a_partial_trick_tells_who_leads_so_far():
    trick = plays("red 4, blue 9, red 10")
    assert resolve_hat_trick(trick[:1]).next_leader == 0
    assert resolve_hat_trick(trick[:2]).next_leader == 1
    assert resolve_hat_trick(trick).next_leader == 2


# --------------------------------------------------------------------------------------------
# R22: scoring


R22_CASES = [
    # (id, red, blue, green, passes, score)
    ("r22-rulebook-example", 9, 2, 4, 1, 1),  # 9 - 2 - 4 - 2
    ("r22-one-colour-only", 0, 0, 7, 0, 7),
    ("r22-best-colour-is-not-red", 2, 8, 3, 0, 3),
    ("r22-two-best-colours-tie", 5, 5, 2, 0, -2),
    ("r22-three-best-colours-tie", 3, 3, 3, 0, -3),
    ("r22-nothing-scores-nothing", 0, 0, 0, 0, 0),
    ("r22-passes-cost-two-each", 0, 0, 0, 3, -6),
    ("r22-passes-with-cards", 10, 1, 0, 2, 5),
]


@pytest.mark.parametrize(
    ("case", "red", "blue", "green", "passed", "score"), R22_CASES, ids=[r[0] for r in R22_CASES]
)
def test_r22_the_fullest_colour_scores_plus_one_others_minus_one_passes_minus_two(
    case, red, blue, green, passed, score
):
    counts = {RED: red, BLUE: blue, GREEN: green}
    assert hat_trick_score(HatTrickCounts(counts, passed)) == score
    assert HatTrickCounts(counts, passed).cards == red + blue + green + passed


@pytest.mark.parametrize(
    ("red", "blue", "green"),
    [(5, 5, 2), (1, 4, 4), (6, 0, 6), (3, 3, 3)],
    ids=["r22-tie-red-blue", "r22-tie-blue-green", "r22-tie-red-green", "r22-tie-all-three"],
)
def test_r22_on_a_tie_any_best_colour_gives_the_same_score(red, blue, green):
    scores = set()
    for order in itertools.permutations([RED, BLUE, GREEN]):
        counts = dict(zip(order, (red, blue, green), strict=True))
        best = best_hat_trick_colour(counts)
        assert counts[best] == max(red, blue, green)
        scores.add(hat_trick_score(HatTrickCounts(counts, 1)))
    assert scores == {2 * max(red, blue, green) - (red + blue + green) - 2}


def test_r22_a_missing_colour_counts_as_none():
    assert hat_trick_score(HatTrickCounts({BLUE: 4}, 0)) == 4
    assert best_hat_trick_colour({BLUE: 4}) is BLUE


# --------------------------------------------------------------------------------------------
# R19: may the next player pass now?

CAN_PASS = [
    ("r19-nobody-passes-before-the-lead", "", False),
    ("r19-one-colour-is-not-enough", "red 5", False),
    ("r19-still-one-colour", "red 5, red 9", False),
    ("r19-two-colours-allow-a-pass", "red 5, blue 3", True),
    ("r19-a-pass-keeps-the-two-colours", "red 5, blue 3, pass green 7", True),
    ("r19-a-pass-card-is-no-trick-colour", "red 5, pass green 7", False),
]


@pytest.mark.parametrize(("case", "text", "allowed"), CAN_PASS, ids=[row[0] for row in CAN_PASS])
def test_r19_a_player_may_pass_only_once_two_colours_are_in_the_trick(case, text, allowed):
    so_far = plays(text) if text else []
    assert can_pass(variant_named("hat-trick"), so_far) is allowed


@pytest.mark.parametrize(("case", "text", "allowed"), CAN_PASS, ids=[row[0] for row in CAN_PASS])
def test_r19_can_pass_agrees_with_the_check_of_a_pass(case, text, allowed):
    """A pass showing a card of a colour not yet in the trick is accepted exactly when
    ``can_pass`` says so (the check refuses a leader's pass and a pass before two colours)."""
    so_far = plays(text) if text else []
    shown = {play.card.colour for play in so_far if not play.passed}
    third = next(colour for colour in (GREEN, BLUE, RED) if colour not in shown)
    attempt = [*so_far, Play(c(f"{third.value} 11"), passed=True)]
    try:
        check_hat_trick_plays(attempt, deck(4), 4)
    except HatTrickError:
        accepted = False
    else:
        accepted = True
    assert accepted is allowed


@pytest.mark.parametrize("name", ["classic", "reverse", "aggravated", "hazy", "delayed"])
def test_r19_the_classic_family_never_passes(name):
    assert can_pass(variant_named(name), plays("red 5, blue 3")) is False


def test_a_play_is_stored_as_its_card_with_pass_only_when_passed() -> None:
    assert Play(c("green 7")).as_json() == {"colour": "green", "value": 7}
    assert Play(c("red 3"), passed=True).as_json() == {"colour": "red", "value": 3, "pass": True}


def test_r19_a_third_colours_card_is_only_a_pass_once_two_colours_are_in_the_trick() -> None:
    hat = variant_named("hat-trick")
    red, blue = Play(c("red 5")), Play(c("blue 9"))
    assert not only_a_pass(hat, [], c("green 4"))  # the leader plays (R19)
    assert not only_a_pass(hat, [red], c("green 4"))  # one colour: green is a play
    assert only_a_pass(hat, [red, blue], c("green 4"))
    assert not only_a_pass(hat, [red, blue], c("red 7"))  # the trick's colours stay plays
    # A pass shows the third colour without bringing it into the trick.
    assert only_a_pass(hat, [red, blue, Play(c("green 2"), passed=True)], c("green 4"))
    assert not only_a_pass(variant_named("classic"), [red, blue], c("green 4"))  # no passes (R6)
