"""Every worked example of the rulebooks (000-003), played through the real code:
complete, legal rounds go through ``score_round`` (and so through checks C1-C5)."""

from __future__ import annotations

import pytest

from companion.rules.cards import Card
from companion.rules.entries import FullEntry, HatTrickFullEntry, HatTrickQuickEntry, QuickEntry
from companion.rules.hat_trick import Play, check_hat_trick_plays, resolve_hat_trick
from companion.rules.scoring import score_round
from companion.rules.table import table_setup
from companion.rules.tricks import check_trick_cards, trick_winner
from companion.rules.variants import SCORINGS, variant_named

from .helpers import BLUE, GREEN, RED, c, cs, mentions

CLASSIC = SCORINGS["classic"]

# --------------------------------------------------------------------------------------------
# R10 example. Source: Italian rulebook (000, "Esempio: Alain ha utilizzato un 4 rosso"),
# French rulebook (002, "Exemple : Alain a utilisé un 4 rouge"), Hungarian rulebook (003,
# "Példa: Axel egy piros 4-est"): indicator red 4; captured red 2, red 5 and 14 cards of other
# colours: 14 - (4 + 2 + 5) = 3. Sixteen captured cards are four tricks at four players.

R10_INDICATOR = cs("red 4")
R10_CAPTURED = cs(
    "red 2, red 5, "
    "green 0, green 1, green 2, green 3, green 4, green 5, green 6, green 7, green 8, green 9, "
    "blue 0, blue 1, yellow 0, brown 0"
)
R10_OTHER_SEATS = [
    QuickEntry(cs("blue 11"), 4, cs("blue 10")),  # 16 - 1 others = 15, blue 11 + 10: 15 - 21 = -6
    QuickEntry(cs("yellow 3"), 3, ()),  # 12 - 3 = 9
    QuickEntry(cs("brown 11"), 3, cs("brown 1, brown 2")),  # 10 - (11 + 1 + 2) = -4
]


@pytest.mark.parametrize("entry", ["full", "quick"])
def test_r10_example_red_4_indicator_red_2_red_5_and_14_others_score_3(entry):
    setup = table_setup(4, variant_named("classic"))  # 14 tricks
    assert len(R10_CAPTURED) == 16
    assert sum(card.colour is not RED for card in R10_CAPTURED) == 14
    if entry == "full":
        seat = FullEntry(R10_INDICATOR, R10_CAPTURED)
    else:
        seat = QuickEntry(R10_INDICATOR, 4, cs("red 2, red 5"))
    result = score_round(setup, [seat, *R10_OTHER_SEATS])
    assert result.scores == [3, -6, 9, -4]
    assert result.seats[0].other_cards == 14
    assert set(result.seats[0].marked_cards) == set(cs("red 4, red 2, red 5"))
    assert result.seats[0].tricks == 4


# --------------------------------------------------------------------------------------------
# German guide (001, "Wertung", "Beispiel: als Ärgerfarbe wurde rot gewählt (1 ausgelegt)"):
# indicator red 1, four tricks 3-6-2-8 / 0-3-8-9 / 1-7-5-4 / 2-4-9-8, of which red 0, red 2 and
# red 8 are red: 13 non-red cards = 13, red 0 + 2 + 8 = -10, the indicator red 1 = -1: 2.
# The guide gives only values; the colours below are chosen so every card is distinct in the
# four-player deck (5 colours, 0-11), and the order of play so that seat 0 wins each trick.

GERMAN_TRICKS = [
    # (leader, cards in play order): seat 0 plays the winning card
    (1, "green 3, blue 6, red 2, yellow 8"),  # yellow 8 is the highest trump
    (3, "red 0, green 9, brown 3, red 8"),  # green 9 beats brown 3; red 8 follows the lead
    (2, "blue 1, yellow 4, green 7, brown 5"),  # green 7 is the highest trump
    (1, "brown 2, blue 4, green 8, yellow 9"),  # yellow 9 is the highest trump
]


@pytest.mark.parametrize(
    ("leader", "cards"),
    GERMAN_TRICKS,
    ids=[
        "german-trick-3-6-2-8",
        "german-trick-0-3-8-9",
        "german-trick-1-7-5-4",
        "german-trick-2-4-9-8",
    ],
)
def test_r8_german_scoring_example_tricks_are_won_by_seat_0(leader, cards):
    played = cs(cards)
    check_trick_cards(played, variant_named("classic").deck(4), 4)
    outcome = trick_winner(played, CLASSIC)
    assert (leader + outcome.winner) % 4 == 0


@pytest.mark.parametrize("entry", ["full", "quick"])
def test_r10_german_example_red_1_indicator_and_four_tricks_score_2(entry):
    setup = table_setup(4, variant_named("classic"))
    captured = tuple(card for _, cards in GERMAN_TRICKS for card in cs(cards))
    assert sorted(card.value for card in captured if card.colour is RED) == [0, 2, 8]
    assert sorted(card.value for card in captured) == sorted(
        [3, 6, 2, 8, 0, 3, 8, 9, 1, 7, 5, 4, 2, 4, 9, 8]
    )
    if entry == "full":
        seat = FullEntry(cs("red 1"), captured)
    else:
        seat = QuickEntry(cs("red 1"), 4, cs("red 0, red 2, red 8"))
    others = [
        QuickEntry(cs("blue 0"), 4, cs("blue 11")),  # 15 - 11 = 4
        QuickEntry(cs("green 0"), 3, ()),  # 12
        QuickEntry(cs("yellow 11"), 3, cs("yellow 10, yellow 0")),  # 10 - 21 = -11
    ]
    assert score_round(setup, [seat, *others]).scores == [2, 4, 12, -11]


# --------------------------------------------------------------------------------------------
# German guide trick examples (001, "Beispiele"). The guide is for 3-6 players; four and five
# players' decks are used. ``would_take`` is worked out by hand from each sentence of the guide.


def deck_cards(players: int) -> list[Card]:
    return list(variant_named("classic").deck(players))


def test_r8_german_example_red_7_takes_over_from_red_4():
    # "TORBEN spielt eine rote 4 auf. dynamike legt eine rote 1. Aktuell ist der Stich noch bei
    # TORBEN. Nun legt Niknase eine rote 7 und übernimmt den Stich."
    assert trick_winner(cs("red 4"), CLASSIC).winner == 0
    assert trick_winner(cs("red 4, red 1"), CLASSIC).winner == 0
    assert trick_winner(cs("red 4, red 1, red 7"), CLASSIC).card == c("red 7")


def test_r8_german_example_any_non_red_non_zero_card_takes_red_7():
    # "Romario kann mit jeder nichtroten Karte, die keine 0 ist, den Stich stechen ... Möchte er
    # ihn nicht haben, so muss er eine 0 oder eine rote Karte, die kleiner als 7 ist, legen."
    # (A red card above 7 would also take the trick: it is the highest lead-colour card.)
    so_far = cs("red 4, red 1, red 7")
    for card in deck_cards(4):
        if card in so_far:
            continue
        takes = (card.colour is not RED and card.value != 0) or (
            card.colour is RED and card.value > 7
        )
        outcome = trick_winner([*so_far, card], CLASSIC)
        assert outcome.winner == (3 if takes else 2), card


def test_r8_german_example_yellow_3_led_green_3_trumps():
    # "Speedy- spielt eine gelbe 3 auf. dynamike sticht mit einer grünen 3. Nun kann Excalibur
    # den Stich bekommen, wenn er eine nicht gelbe Karte höher als 3 legt. Er bekommt den Stich
    # nicht, wenn er eine gelbe Karte oder eine Karte kleiner 4 legt."
    so_far = cs("yellow 3, green 3")
    assert trick_winner(so_far, CLASSIC).card == c("green 3")
    for card in deck_cards(4):
        if card in so_far:
            continue
        takes = card.colour.value != "yellow" and card.value > 3
        outcome = trick_winner([*so_far, card], CLASSIC)
        assert outcome.winner == (2 if takes else 1), card


def test_r8_german_example_blue_7_holds_against_red_7():
    # "Speedy- spielt eine braune 5 auf. dynamike legt ebenfalls braun ... Excalibur ... legt
    # daher die braune 3. Madmax sticht mit der blauen 7 ... Daher legt TORBEN nun am besten eine
    # rote 7 oder eine kleinere rote Karte, um Madmax wenigstens noch ein paar Minuspunkte zu
    # geben." dynamike's brown card is not named; brown 1 stands for it. Five players.
    trick = cs("brown 5, brown 1, brown 3, blue 7, red 7")
    check_trick_cards(trick, variant_named("classic").deck(5), 5)
    outcome = trick_winner(trick, CLASSIC)
    assert outcome.card == c("blue 7")  # red 7 ties and the first played wins (R8)
    assert mentions(str(outcome.reason), "blue 7") and "R8" in str(outcome.reason)
    for smaller in range(1, 7):
        assert trick_winner([*trick[:4], Card(RED, smaller)], CLASSIC).card == c("blue 7")
    assert trick_winner([*trick[:4], c("red 8")], CLASSIC).card == c("red 8")


def test_r8_german_example_green_3_holds_against_brown_13_and_green_2():
    # "Madmax spielt die braune 4 auf. TORBEN sticht mit der grünen 3 ... Speedy- kann dank
    # TORBEN gefahrlos seine braune 13 loswerden, dynamike sticht tiefer mit der grünen 2 ...
    # [Excalibur] legt ebenfalls eine braune Karte ab ... TORBEN nimmt dann auch den Stich, der
    # ihm, weil kein blau enthalten, 5 Punkte bringt." Excalibur's brown card is not named;
    # brown 6 stands for it. Five players (brown 13 needs the 0-14 deck).
    trick = cs("brown 4, green 3, brown 13, green 2, brown 6")
    check_trick_cards(trick, variant_named("classic").deck(5), 5)
    outcome = trick_winner(trick, CLASSIC)
    assert outcome.winner == 1
    assert outcome.card == c("green 3")
    # TORBEN's cursed colour is blue: five cards, none blue, are worth +5 (R10)
    assert CLASSIC.score([card for card in trick if card.colour is BLUE], len(trick)) == 5


# --------------------------------------------------------------------------------------------
# Hat Trick example. Source: Italian rulebook (000, "Esempio: Alain ha 9 carte rosse, 2 blu,
# 4 grige e 1 carta girata. Il suo punteggio è di 1 (9-2-4-2)"), Hungarian rulebook (003,
# "Axelnek kilenc piros kártyája van, két kék, négy zöld, valamint egy lefordított"): 1.

HAT_TRICK_EXAMPLE_UP = cs(
    "red 1, red 2, red 3, red 4, red 5, red 6, red 7, red 8, red 9, "
    "blue 1, blue 2, green 1, green 2, green 3, green 4"
)
HAT_TRICK_OTHERS = [
    HatTrickQuickEntry({RED: 11, BLUE: 3}, 0),  # 11 - 3 = 8
    HatTrickQuickEntry({BLUE: 15}, 0),  # 15
    HatTrickQuickEntry({GREEN: 10}, 1),  # 10 - 2 = 8
]


@pytest.mark.parametrize("entry", ["full", "quick"])
def test_r22_hat_trick_example_9_red_2_blue_4_green_1_face_down_scores_1(entry):
    setup = table_setup(4, variant_named("hat-trick"))  # 14 tricks of 4 plays: 56 cards
    if entry == "full":
        seat = HatTrickFullEntry(HAT_TRICK_EXAMPLE_UP, cs("green 20"))
    else:
        seat = HatTrickQuickEntry({RED: 9, BLUE: 2, GREEN: 4}, 1)
    result = score_round(setup, [seat, *HAT_TRICK_OTHERS])
    assert result.scores == [1, 8, 15, 8]
    assert result.seats[0].colour is RED


def test_r20_hungarian_example_each_colour_goes_to_its_highest_card():
    # Hungarian rulebook (003): "Ulrik viszi el a piros ütést és megkapja a három darab piros
    # kártyát. Brigitta viszi el a kék ütést és megkapja a két darab kék kártyát." The picture's
    # values are not in the text; any values do. Ulrik plays red 15, Brigitta blue 9.
    trick = [
        Play(c("red 4")),
        Play(c("blue 9")),
        Play(c("red 15")),
        Play(c("blue 2")),
        Play(c("red 7")),
    ]
    check_hat_trick_plays(trick, variant_named("hat-trick").deck(5), 5)
    piles = {pile.colour: pile for pile in resolve_hat_trick(trick).piles}
    assert (piles[RED].winner, len(piles[RED].cards)) == (2, 3)
    assert (piles[BLUE].winner, len(piles[BLUE].cards)) == (1, 2)
    assert GREEN not in piles
