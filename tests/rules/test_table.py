"""R3 / R23 (who deals and leads each round), R11 (rounds, totals, winners) and the deal."""

from __future__ import annotations

import random

import pytest

from companion.rules.errors import RuleError
from companion.rules.table import (
    DEFAULT_ROUNDS,
    check_round_count,
    deal,
    round_dealer,
    round_leader,
    rounds_one_per_player,
    running_totals,
    seat_order,
    table_setup,
    tricks_of_cards,
    winners,
)
from companion.rules.variants import MAX_PLAYERS, MIN_PLAYERS, variant_named

# --------------------------------------------------------------------------------------------
# R3, R23: leader and dealer

R3_CASES = [
    # round, first leader, players, leader, dealer
    (1, 0, 4, 0, 3),
    (2, 0, 4, 1, 0),
    (3, 0, 4, 2, 1),
    (4, 0, 4, 3, 2),
    (5, 0, 4, 0, 3),  # wraps around the table
    (1, 2, 3, 2, 1),
    (2, 2, 3, 0, 2),
    (3, 2, 3, 1, 0),
    (1, 7, 8, 7, 6),
    (2, 7, 8, 0, 7),
    (10, 5, 6, 2, 1),
]


@pytest.mark.parametrize(
    ("round_number", "first", "players", "leader", "dealer"),
    R3_CASES,
    ids=[f"r3-round-{r}-first-{f}-of-{n}" for r, f, n, _, _ in R3_CASES],
)
def test_r3_the_lead_and_the_deal_move_one_seat_clockwise_each_round(
    round_number, first, players, leader, dealer
):
    assert round_leader(round_number, first, players) == leader
    assert round_dealer(round_number, first, players) == dealer


@pytest.mark.parametrize("players", range(3, 9), ids=lambda n: f"r3-{n}-players")
def test_r3_each_round_is_led_by_the_seat_after_the_previous_first_leader(players):
    for first in range(players):
        assert round_leader(1, first, players) == first
        for n in range(2, 11):
            previous = round_leader(n - 1, first, players)
            assert round_leader(n, first, players) == (previous + 1) % players
            # the dealer sits just before the leader: the leader is left of the dealer
            assert (round_dealer(n, first, players) + 1) % players == round_leader(
                n, first, players
            )


@pytest.mark.parametrize("players", range(4, 8), ids=lambda n: f"r23-hat-trick-{n}-players")
def test_r23_hat_trick_rounds_rotate_like_the_classic_game(players):
    leaders = [round_leader(n, 1, players) for n in range(1, players + 2)]
    assert leaders == [(1 + k) % players for k in range(players + 1)]
    assert leaders[-1] == leaders[0]  # after a full turn of the table, the first leader again


# --------------------------------------------------------------------------------------------
# R11: rounds, totals, winners


@pytest.mark.parametrize("rounds", [1, 4, 5, 10], ids=lambda n: f"r11-{n}-rounds")
def test_r11_a_game_has_one_to_ten_rounds(rounds):
    assert check_round_count(rounds) == rounds


@pytest.mark.parametrize("rounds", [0, 11, -1], ids=lambda n: f"r11-{n}-rounds")
def test_r11_other_round_counts_are_refused(rounds):
    with pytest.raises(RuleError) as info:
        check_round_count(rounds)
    assert str(rounds) in str(info.value)


def test_r11_a_game_has_five_rounds_by_default():
    assert DEFAULT_ROUNDS == 5


def test_r11_running_totals_add_each_round_to_the_last():
    assert running_totals([[3, -2, 5], [1, 4, -10], [0, 0, 2]]) == [
        [3, -2, 5],
        [4, 2, -5],
        [4, 2, -3],
    ]
    assert running_totals([]) == []


def test_r11_running_totals_refuse_a_round_with_a_different_table():
    with pytest.raises(ValueError):
        running_totals([[1, 2, 3], [1, 2]])


@pytest.mark.parametrize(
    ("totals", "won"),
    [
        ([10, 12, 3], [1]),
        ([12, 12, 3], [0, 1]),
        ([-4, -1, -9], [1]),  # the least negative total wins
        ([5, 5, 5, 5], [0, 1, 2, 3]),
        ([0, -3, 0, 2, 2], [3, 4]),
        ([], []),
    ],
    ids=[
        "r11-highest-total-wins",
        "r11-equal-highest-share-the-win",
        "r11-least-negative-wins",
        "r11-everyone-ties",
        "r11-two-of-five-share",
        "r11-no-players-no-winner",
    ],
)
def test_r11_the_highest_total_wins_and_equal_highest_share(totals, won):
    assert winners(totals) == won


# --------------------------------------------------------------------------------------------
# The deal


@pytest.mark.parametrize(
    ("game", "players"),
    [("classic", n) for n in range(3, 9)] + [("hat-trick", n) for n in range(4, 8)],
    ids=[f"r2-classic-{n}p" for n in range(3, 9)] + [f"r17-hat-trick-{n}p" for n in range(4, 8)],
)
def test_r2_r17_a_deal_gives_every_seat_a_hand_and_leaves_out_the_rest(game, players):
    setup = table_setup(players, variant_named(game))
    dealt = deal(setup, random.Random(players))
    assert len(dealt.hands) == players
    assert all(len(hand) == setup.hand_size for hand in dealt.hands)
    assert len(dealt.left_out) == setup.left_out
    everything = [card for hand in dealt.hands for card in hand] + list(dealt.left_out)
    assert sorted(everything, key=str) == sorted(setup.deck, key=str)


def test_a_deal_is_shuffled_by_the_random_source_given():
    setup = table_setup(4, variant_named("classic"))
    assert deal(setup, random.Random(1)) == deal(setup, random.Random(1))
    assert deal(setup, random.Random(1)) != deal(setup, random.Random(2))


# --------------------------------------------------------------------------------------------
# R3, R9: seat order; C3: tricks of a seat's captured cards

SEAT_ORDER_CASES = [
    (0, 3, [0, 1, 2]),
    (2, 3, [2, 0, 1]),
    (3, 4, [3, 0, 1, 2]),
    (5, 8, [5, 6, 7, 0, 1, 2, 3, 4]),
]


@pytest.mark.parametrize(("leader", "players", "order"), SEAT_ORDER_CASES)
def test_r3_r9_play_goes_clockwise_from_the_leader(leader, players, order):
    assert seat_order(leader, players) == order


def test_r3_every_seat_plays_once_whoever_leads():
    for players in range(3, 9):
        for leader in range(players):
            order = seat_order(leader, players)
            assert order[0] == leader
            assert sorted(order) == list(range(players))


TRICKS_OF_CARDS = [
    (0, 4, 0),
    (12, 4, 3),
    (13, 4, None),  # no whole number of tricks
    (42, 3, 14),
    (104, 8, 13),
    (7, 8, None),
]


@pytest.mark.parametrize(("cards", "players", "tricks"), TRICKS_OF_CARDS)
def test_c3_a_seats_cards_make_tricks_of_one_card_per_player(cards, players, tricks):
    assert tricks_of_cards(cards, players) == tricks


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_one_round_per_player_is_a_round_count_r11_allows(players: int) -> None:
    rounds = rounds_one_per_player(players)
    assert rounds == players  # Stick 'Em: as many rounds as players
    assert check_round_count(rounds) == rounds
