"""A demo round is dealt, played and scored by the rules; the speed-ups change nothing."""

from __future__ import annotations

import json
import random

import pytest

from companion.cli.demo.play import DemoRandom, DemoTable, play_round
from companion.rules import PRESETS, deal, table_setup

TABLES = [
    (players, name, variant)
    for name, variant in PRESETS.items()
    for players in range(variant.min_players, variant.max_players + 1)
]


def test_a_demo_table_has_the_deck_hands_and_tricks_of_the_rules_and_deals_as_they_do() -> None:
    for players, _name, variant in TABLES:
        table = DemoTable(players, variant)
        setup = table_setup(players, variant)
        assert list(table.setup.deck) == list(setup.deck) == list(table.cards)
        assert table.setup.deck.size == setup.deck.size
        assert (table.setup.hand_size, table.setup.tricks_per_round, table.setup.left_out) == (
            setup.hand_size,
            setup.tricks_per_round,
            setup.left_out,
        )
        dealt = deal(setup, random.Random(5)).hands
        assert [table.cards_of(hand) for hand in table.deal(random.Random(5))] == list(dealt)


def test_the_demo_shuffle_is_a_permutation_and_seeded() -> None:
    cards = list(range(120))
    first, second = cards[:], cards[:]
    DemoRandom(9).shuffle(first)
    DemoRandom(9).shuffle(second)
    assert first == second != cards
    assert sorted(first) == cards


@pytest.mark.parametrize("mode", ["quick", "full", "live"])
def test_every_seat_of_a_demo_round_is_scored_and_a_live_round_plays_each_card_once(
    mode: str,
) -> None:
    for players, _name, variant in TABLES:
        table = DemoTable(players, variant)
        played = play_round(table, players - 1, mode, DemoRandom(players))
        assert len(played.results) == len(json.loads(played.entries)) == players
        assert (played.tricks is not None) == (mode == "live")
        if played.tricks is None:
            continue
        tricks, entries = json.loads(played.tricks), json.loads(played.entries)
        cards = [(card["colour"], card["value"]) for t in tricks for card in t["plays"]]
        marked = [(c["colour"], c["value"]) for e in entries for c in e.get("marked", [])]
        assert len(set(cards + marked)) == len(cards) + len(marked)
        assert len(cards) == players * table.setup.tricks_per_round
        assert tricks[0]["leader"] == players - 1
