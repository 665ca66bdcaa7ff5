"""R1 (the box), R2 (classic decks) and R17 (Hat Trick decks)."""

from __future__ import annotations

import pytest

from companion.rules.cards import Card, Colour
from companion.rules.deck import BOX, Deck, in_box
from companion.rules.errors import PlayerCountError, RuleError, UnknownColourError
from companion.rules.table import table_setup
from companion.rules.variants import PRESETS, variant_named

from .helpers import BLUE, BROWN, GREEN, RED, VIOLET, YELLOW, box, c

FIVE = {GREEN, BROWN, RED, BLUE, YELLOW}
SIX = FIVE | {VIOLET}

# --------------------------------------------------------------------------------------------
# R1: the box


def test_r1_the_box_holds_120_cards_in_six_colours():
    cards = [card for deck in BOX for card in deck]
    assert len(cards) == 120
    assert len(set(cards)) == 120
    assert {card.colour for card in cards} == set(Colour)
    assert set(cards) == set(box())


@pytest.mark.parametrize(
    ("colour", "top"),
    [(RED, 20), (BLUE, 20), (GREEN, 20), (BROWN, 18), (VIOLET, 18), (YELLOW, 18)],
    ids=[
        "r1-red-0-20",
        "r1-blue-0-20",
        "r1-green-0-20",
        "r1-brown-0-18",
        "r1-violet-0-18",
        "r1-yellow-0-18",
    ],
)
def test_r1_each_colour_runs_from_0_to_its_top_value(colour, top):
    assert colour.top_value == top
    assert in_box(Card(colour, 0))
    assert in_box(Card(colour, top))
    assert not in_box(Card(colour, top + 1))
    assert not in_box(Card(colour, -1))


@pytest.mark.parametrize(
    "text",
    ["yellow 19", "brown 20", "violet 19", "red 21", "green -1"],
    ids=["r1-yellow-19", "r1-brown-20", "r1-violet-19", "r1-red-21", "r1-green-minus-1"],
)
def test_r1_a_card_beyond_its_colours_range_is_not_in_the_box(text):
    assert not in_box(c(text))


@pytest.mark.parametrize("name", [colour.value for colour in Colour])
def test_r1_a_colour_is_found_by_its_api_name(name):
    assert Colour.named(name).value == name


@pytest.mark.parametrize(
    "name", ["purple", "Red", "", "rot"], ids=["purple", "Red", "empty", "rot"]
)
def test_r1_an_unknown_colour_name_is_refused(name):
    with pytest.raises(UnknownColourError) as info:
        Colour.named(name)
    assert isinstance(info.value, RuleError)


def test_r1_a_card_reads_as_colour_and_value():
    assert str(c("red 12")) == "red 12"
    assert c("violet 0").as_json() == {"colour": "violet", "value": 0}


# --------------------------------------------------------------------------------------------
# R2: the decks of the classic family

R2_TABLE = [
    # players, colours, top value, cards used, hand, left out
    (3, FIVE, 8, 45, 15, 0),
    (4, FIVE, 11, 60, 15, 0),
    (5, FIVE, 14, 75, 15, 0),
    (6, SIX, 14, 90, 15, 0),
    (7, SIX, 17, 108, 15, 3),
    (8, SIX, 18, 114, 14, 2),
]
CLASSIC_FAMILY = [name for name in PRESETS if name != "hat-trick"]


@pytest.mark.parametrize("preset", CLASSIC_FAMILY)
@pytest.mark.parametrize(
    ("players", "colours", "top", "size", "hand", "left_out"),
    R2_TABLE,
    ids=[f"r2-{row[0]}-players" for row in R2_TABLE],
)
def test_r2_the_deck_hand_and_left_out_cards_follow_the_player_count(
    preset, players, colours, top, size, hand, left_out
):
    setup = table_setup(players, variant_named(preset))
    deck = setup.deck
    cards = list(deck)
    assert set(deck.colours) == colours
    assert (deck.min_value, deck.max_value) == (0, top)
    assert deck.size == size == len(cards) == len(set(cards))
    assert set(cards) == {Card(colour, v) for colour in colours for v in range(top + 1)}
    assert setup.hand_size == hand
    assert setup.left_out == left_out
    assert players * hand + left_out == size


@pytest.mark.parametrize(
    ("players", "inside", "outside"),
    [
        (3, "yellow 8", "yellow 9"),
        (4, "brown 11", "brown 12"),
        (5, "green 14", "violet 0"),
        (6, "violet 14", "violet 15"),
        (7, "red 17", "red 18"),
        (8, "violet 18", "red 19"),
    ],
    ids=[f"r2-{n}-players-edge" for n in range(3, 9)],
)
def test_r2_the_deck_holds_its_edge_card_and_not_the_next_one(players, inside, outside):
    deck = variant_named("classic").deck(players)
    assert c(inside) in deck
    assert c(outside) not in deck
    assert "red 5" not in deck  # only cards are in a deck


@pytest.mark.parametrize("preset", CLASSIC_FAMILY)
@pytest.mark.parametrize("players", [2, 9, 0, 1, 12], ids=lambda n: f"r2-{n}-players")
def test_r2_fewer_than_3_or_more_than_8_players_are_refused(preset, players):
    with pytest.raises(PlayerCountError) as info:
        table_setup(players, variant_named(preset))
    assert str(players) in str(info.value)
    assert "3" in str(info.value) and "8" in str(info.value)


@pytest.mark.parametrize("players", [2, 9], ids=["r2-2-players", "r2-9-players"])
def test_r2_every_setting_of_the_deck_refuses_a_bad_player_count(players):
    variant = variant_named("classic")
    for ask in (variant.deck, variant.hand_size, variant.tricks_per_round):
        with pytest.raises(PlayerCountError):
            ask(players)


def test_r2_a_deck_counts_the_cards_of_each_colour():
    deck = variant_named("classic").deck(4)
    assert deck.cards_of(RED) == 12
    assert deck.cards_of(VIOLET) == 0
    assert deck.as_json()["size"] == 60


# --------------------------------------------------------------------------------------------
# R17: the Hat Trick decks

R17_TABLE = [
    # players, lowest value, cards, hand
    (4, 1, 60, 15),
    (5, 1, 60, 12),
    (6, 1, 60, 10),
    (7, 0, 63, 9),
]


@pytest.mark.parametrize(
    ("players", "low", "size", "hand"), R17_TABLE, ids=[f"r17-{r[0]}-players" for r in R17_TABLE]
)
def test_r17_hat_trick_uses_red_blue_and_green_only(players, low, size, hand):
    setup = table_setup(players, variant_named("hat-trick"))
    cards = list(setup.deck)
    assert set(cards) == {Card(colour, v) for colour in (RED, BLUE, GREEN) for v in range(low, 21)}
    assert setup.deck.size == size == len(cards)
    assert setup.hand_size == hand
    assert setup.left_out == 0
    assert setup.cards_laid_out == 0
    assert (Card(RED, 0) in setup.deck) is (players == 7)
    assert Card(YELLOW, 5) not in setup.deck


@pytest.mark.parametrize("players", [3, 8, 2, 9], ids=lambda n: f"r17-{n}-players")
def test_r17_hat_trick_refuses_other_player_counts(players):
    with pytest.raises(PlayerCountError) as info:
        table_setup(players, variant_named("hat-trick"))
    assert str(players) in str(info.value)
    assert "4" in str(info.value) and "7" in str(info.value)


def test_r1_a_deck_iterates_every_value_of_every_colour_once():
    deck = Deck((RED, BLUE), 3, 5)
    assert list(deck) == [
        Card(RED, 3),
        Card(RED, 4),
        Card(RED, 5),
        Card(BLUE, 3),
        Card(BLUE, 4),
        Card(BLUE, 5),
    ]
    assert deck.size == 6
