"""The trick view both trick pages draw (the resolver and the live round): one place per
player from the leader, and the rules' answer put on the right place (R8, R13, R19-R21)."""

from __future__ import annotations

from companion.pages.trick import trick_view
from companion.rules import PRESETS, Play, table_setup
from companion.rules.wording import Reader
from tests.rules.helpers import c, expected_next_leader, expected_winner

NAMES = ["Cleo", "Dan", "Ann", "Ben"]  # in play order from the leader, Cleo
SEATS = [2, 3, 0, 1]


def test_a_partial_classic_trick_marks_the_card_winning_so_far_and_whose_turn_it_is() -> None:
    cards = [c("yellow 5"), c("blue 9"), c("green 2")]
    plays = [Play(card) for card in cards]
    view = trick_view(table_setup(4, PRESETS["reverse"]), NAMES, plays, Reader(), SEATS, 3)

    winner = expected_winner(cards, reverse=True)
    assert view.winner is not None and view.winner.player == NAMES[winner]
    assert [place.takes for place in view.plays] == [i == winner for i in range(3)]
    assert [place.seat for place in view.places] == SEATS
    assert view.next_place is not None and view.next_place.player == "Ben"
    assert view.places[3].chip is None and not view.complete
    assert view.number == 3 and view.players == 4 and view.reason


def test_a_hat_trick_trick_with_a_pass_has_piles_a_pass_and_a_next_leader() -> None:
    plays = [Play(c("red 9")), Play(c("blue 12")), Play(c("green 3"), True), Play(c("blue 2"))]
    view = trick_view(table_setup(4, PRESETS["hat-trick"]), NAMES, plays, Reader())

    leader = expected_next_leader(plays)
    assert view.complete and view.next_place is None
    assert view.winner is not None and view.winner.player == NAMES[leader]
    assert [place.leads_next for place in view.places] == [i == leader for i in range(4)]
    assert [(pile.taker, pile.card.label) for pile in view.piles] == [
        ("Cleo", "red 9"),
        ("Dan", "blue 12"),
    ]
    assert [place.player for place in view.passes] == ["Ann"]
    assert view.tokens == {"red-9", "blue-12", "green-3", "blue-2"}
    assert all(place.seat is None for place in view.places)


def test_an_empty_trick_has_no_winner_and_the_leader_plays_first() -> None:
    view = trick_view(table_setup(4, PRESETS["classic"]), NAMES, [], Reader())

    assert view.winner is None and view.reason is None and not view.plays
    assert view.next_place is not None and view.next_place.player == "Cleo"
