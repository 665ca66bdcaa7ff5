"""A round followed trick by trick (C6, R9, R19-R21) agrees with the same round played out."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.cards import Card, Colour
from companion.rules.entries import DelayedEntry, FullEntry, HatTrickFullEntry
from companion.rules.errors import CardError, HatTrickError, RuleError, TrickError
from companion.rules.hat_trick import Play
from companion.rules.live import LiveRound
from companion.rules.scoring import score_round
from companion.rules.table import table_setup
from companion.rules.variants import PRESETS

from .helpers import c, play_classic_round, play_hat_trick_round

CLASSIC_PRESETS = ["classic", "mild", "reverse", "aggravated", "hazy", "delayed"]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    preset=st.sampled_from(CLASSIC_PRESETS),
    players=st.integers(3, 8),
)
def test_c6_a_live_classic_round_captures_and_scores_as_played(
    seed: int, preset: str, players: int
) -> None:
    setup = table_setup(players, PRESETS[preset])
    played = play_classic_round(setup, random.Random(seed))
    live = LiveRound(setup, played.trick_log[0][0], tuple(played.indicators))
    for leader, cards, winner in played.trick_log:
        assert live.leader == leader  # R9: the winner of a trick leads the next
        trick = live.play_trick([Play(card) for card in cards])
        assert trick.winners == (winner,)
    assert live.is_complete
    assert live.tricks_won() == list(played.tricks)  # R9: each trick to its winner
    assert [sorted(p, key=str) for p in live.capture_piles()] == [
        sorted(p, key=str) for p in played.captured
    ]
    if setup.cards_laid_out:
        expected = [
            FullEntry(ind, tuple(cap))
            for ind, cap in zip(played.indicators, played.captured, strict=True)
        ]
    else:
        expected = [DelayedEntry(tuple(cap)) for cap in played.captured]
    assert score_round(setup, live.entries()).scores == score_round(setup, expected).scores


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(4, 7))
def test_r21_a_live_hat_trick_round_follows_the_next_leader_and_keeps_passes(
    seed: int, players: int
) -> None:
    setup = table_setup(players, PRESETS["hat-trick"])
    played = play_hat_trick_round(setup, random.Random(seed))
    live = LiveRound(setup, played.tricks[0][0])
    for leader, plays in played.tricks:
        assert live.leader == leader
        live.play_trick(plays)
    assert [sorted(p, key=str) for p in live.capture_piles()] == [
        sorted(p, key=str) for p in played.face_up
    ]
    assert live.pass_cards() == played.face_down
    expected = [
        HatTrickFullEntry(tuple(up), tuple(down))
        for up, down in zip(played.face_up, played.face_down, strict=True)
    ]
    assert score_round(setup, live.entries()).scores == score_round(setup, expected).scores


def four_player_round() -> LiveRound:
    indicators = ((c("red 1"),), (c("blue 0"),), (c("green 2"),), (c("yellow 3"),))
    return LiveRound(table_setup(4, PRESETS["classic"]), 1, indicators)


def test_c6_a_card_already_played_this_round_is_refused_naming_seat_and_card() -> None:
    live = four_player_round()
    live.play_trick([Play(c(t)) for t in ("red 5", "red 6", "blue 7", "green 0")])
    with pytest.raises(CardError) as refused:
        live.play_trick([Play(c(t)) for t in ("blue 7", "red 9", "red 10", "red 11")])
    # Blue 7 took the trick (seat 3 played it), so seat 3 leads and cannot play it again.
    assert refused.value.seat == 3 and refused.value.card == c("blue 7")
    assert "seat 3" in str(refused.value).lower() and "blue 7" in str(refused.value)
    assert len(live.tricks) == 1


def test_c6_an_indicator_cannot_be_played() -> None:
    live = four_player_round()
    with pytest.raises(CardError) as refused:
        live.play_trick([Play(c(t)) for t in ("red 5", "red 6", "blue 0", "green 8")])
    assert refused.value.seat == 3 and refused.value.card == c("blue 0")


def test_c6_a_trick_needs_one_card_per_player() -> None:
    live = four_player_round()
    with pytest.raises(TrickError):
        live.play_trick([Play(c(t)) for t in ("red 5", "red 6", "blue 7")])


def test_c6_a_card_outside_the_deck_is_refused() -> None:
    live = four_player_round()
    with pytest.raises(CardError) as refused:
        live.play_trick([Play(c(t)) for t in ("red 5", "red 6", "blue 7", "violet 1")])
    assert refused.value.seat == 0


def test_r19_only_hat_trick_has_passes() -> None:
    live = four_player_round()
    with pytest.raises(HatTrickError):
        live.play_trick(
            [
                Play(c("red 5")),
                Play(c("red 6"), passed=True),
                *(Play(c(t)) for t in ("blue 7", "green 8")),
            ]
        )


def test_undo_takes_back_the_last_trick_and_its_lead() -> None:
    live = four_player_round()
    assert live.leader == 1
    live.play_trick([Play(c(t)) for t in ("red 5", "red 6", "blue 7", "green 0")])
    assert live.leader == 3
    live.undo_trick()
    assert live.leader == 1 and live.tricks == []
    with pytest.raises(TrickError):
        live.undo_trick()


def test_an_unfinished_round_has_no_entries_yet() -> None:
    live = four_player_round()
    with pytest.raises(RuleError):
        live.entries()


def test_no_trick_after_the_last() -> None:
    setup = table_setup(3, PRESETS["classic"])
    played = play_classic_round(setup, random.Random(7))
    live = LiveRound(setup, played.trick_log[0][0], tuple(played.indicators))
    for _, cards, _ in played.trick_log:
        live.play_trick([Play(card) for card in cards])
    with pytest.raises(TrickError):
        live.play_trick([Play(Card(Colour.RED, 0))] * 3)


def hat_trick_plays(text: str) -> list[Play]:
    return [Play(c(part)) for part in text.split(",")]


def test_r21_a_trick_recorded_before_the_correction_keeps_the_lead_it_was_played_with() -> None:
    """Until R21 was corrected the taker of the deciding pile led next; a round recorded then is
    replayed from the seats that really led, so every card stays with its player."""
    live = LiveRound(table_setup(4, PRESETS["hat-trick"]), 0)
    first = live.play_trick(hat_trick_plays("red 15, blue 15, red 3, blue 2"))
    assert (first.winner, first.next_leader) == (0, 2)  # R21: red 3's player leads now
    live.follow_recorded_lead(0)  # the record says seat 0, the red pile's taker, led
    second = live.play_trick(hat_trick_plays("green 5, green 6, green 7, green 8"))
    assert second.leader == 0
    assert second.winners == (3,)  # green 8 was seat 3's card
    assert [len(pile) for pile in live.capture_piles()] == [2, 2, 0, 4]


@pytest.mark.parametrize("leader", [1, 3])
def test_r21_a_recorded_lead_that_no_rule_gave_is_refused(leader: int) -> None:
    live = LiveRound(table_setup(4, PRESETS["hat-trick"]), 0)
    live.play_trick(hat_trick_plays("red 15, blue 15, red 3, blue 2"))
    with pytest.raises(TrickError) as refused:
        live.follow_recorded_lead(leader)
    assert str(refused.value.message) == (
        f"Seat {leader} cannot lead this trick: seat 2 leads it (R9, R21)."
    )
    assert live.leader == 2


def test_r9_a_classic_trick_keeps_the_lead_with_its_winner() -> None:
    live = LiveRound(table_setup(4, PRESETS["classic"]), 1)
    with pytest.raises(TrickError):
        live.follow_recorded_lead(0)  # nobody has played: the first leader leads
    live.follow_recorded_lead(1)
    assert live.leader == 1


def test_c6_a_trick_taken_back_reopens_without_its_last_play() -> None:
    """The card that completed a trick was mistyped: the trick opens again from the same
    leader with its other plays, and the play taken back is named."""
    setup = table_setup(4, PRESETS["classic"])
    live = LiveRound(setup, 0)
    plays = [Play(card) for card in (c("red 5"), c("red 6"), c("blue 7"), c("green 1"))]
    trick = live.play_trick(plays)
    live.undo_trick()
    kept, taken_back = live.reopen(trick.leader, trick.plays)
    assert kept == tuple(plays[:3]) and taken_back == plays[3]
    live.check_partial_trick([*kept, Play(c("green 2"))])  # the right card fits again (C6)


def test_r9_a_trick_led_from_another_seat_is_not_reopened() -> None:
    """A trick is reopened only from the seat that leads now (R9, R21); otherwise its cards
    would go to other players."""
    live = LiveRound(table_setup(4, PRESETS["classic"]), 0)
    plays = [Play(card) for card in (c("red 5"), c("red 6"), c("blue 7"), c("green 1"))]
    with pytest.raises(TrickError) as refused:
        live.reopen(2, plays)
    assert "take back the whole trick" in str(refused.value)
