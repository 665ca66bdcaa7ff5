"""What a variant answers instead of being type-tested (the variants and Hat Trick): hidden
marks (R15), passes (R19), colours marked (R4, R14, R17), player range (R2, R17), cards per
round (C3, C5), and the settings of the classic family; plus the named limits."""

from __future__ import annotations

import pytest

from companion import rules
from companion.rules.table import MAX_ROUNDS, MIN_ROUNDS, check_round_count, table_setup
from companion.rules.variants import PRESETS, variant_from_settings, variant_named

CLASSIC, HAT_TRICK = rules.CLASSIC, rules.HAT_TRICK

# preset -> (hides marks R15, has passes R19, colours marked R4/R14/R17, classic settings)
QUESTIONS = [
    ("classic", False, False, 1, True),
    ("mild", False, False, 1, True),
    ("reverse", False, False, 1, True),
    ("aggravated", False, False, 2, True),
    ("hazy", True, False, 1, True),
    ("delayed", False, False, 1, True),
    ("hat-trick", False, True, 0, False),
]


@pytest.mark.parametrize(("name", "hides", "passes", "colours", "classic"), QUESTIONS)
def test_each_preset_answers_the_questions_of_its_rules(name, hides, passes, colours, classic):
    variant = variant_named(name)
    assert variant.hides_marks is hides
    assert variant.has_passes is passes
    assert variant.colours_marked == colours
    assert (variant.settings is not None) is classic


def test_r15_any_hazy_combination_hides_the_marks_and_no_other_does():
    for scoring in ("classic", "mild", "reverse"):
        for colours in (1, 2):
            for reveal in ("open", "hazy", "delayed"):
                variant = variant_from_settings(scoring, colours, reveal)
                assert variant.hides_marks is (reveal == "hazy")
                assert variant.colours_marked == colours


def test_the_settings_of_a_classic_variant_are_its_three_settings():
    settings = variant_from_settings("reverse", 2, "hazy").settings
    assert settings is not None
    assert (settings.scoring.name, settings.colours, settings.reveal.value) == (
        "reverse",
        2,
        "hazy",
    )


@pytest.mark.parametrize(
    ("name", "players"),
    [("classic", range(3, 9)), ("aggravated", range(3, 9)), ("hat-trick", range(4, 8))],
)
def test_r2_r17_the_player_range_is_the_counts_the_game_seats(name, players):
    variant = variant_named(name)
    assert variant.player_range == players
    for count in range(0, 12):
        assert variant.can_seat(count) is (count in players)


def test_r2_r17_the_limits_are_named_once():
    assert (rules.MIN_PLAYERS, rules.MAX_PLAYERS) == (3, 8)
    assert (rules.HAT_TRICK_MIN_PLAYERS, rules.HAT_TRICK_MAX_PLAYERS) == (4, 7)
    assert PRESETS[CLASSIC].player_range == range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1)
    assert PRESETS[HAT_TRICK].player_range == range(
        rules.HAT_TRICK_MIN_PLAYERS, rules.HAT_TRICK_MAX_PLAYERS + 1
    )


def test_r11_a_game_has_one_to_ten_rounds():
    assert (MIN_ROUNDS, MAX_ROUNDS) == (1, 10)
    assert check_round_count(MIN_ROUNDS) == 1
    assert check_round_count(MAX_ROUNDS) == 10
    for rounds in (MIN_ROUNDS - 1, MAX_ROUNDS + 1):
        with pytest.raises(rules.RuleError):
            check_round_count(rounds)


def test_the_hat_trick_key_is_its_game_and_its_preset():
    hat_trick = variant_named(HAT_TRICK)
    assert hat_trick.game == HAT_TRICK == "hat-trick"
    assert hat_trick.preset == HAT_TRICK
    assert hat_trick.as_json() == {"game": HAT_TRICK}
    assert PRESETS[CLASSIC].game == CLASSIC == "classic"


# (preset, players, tricks per round, cards of the whole round): C3 classic, C5 Hat Trick
CARDS_PER_ROUND = [
    ("classic", 3, 14, 42),
    ("classic", 8, 13, 104),
    ("aggravated", 4, 13, 52),
    ("aggravated", 8, 12, 96),
    ("delayed", 5, 15, 75),
    ("delayed", 8, 14, 112),
    ("hat-trick", 4, 14, 56),
    ("hat-trick", 5, 11, 55),
    ("hat-trick", 6, 9, 54),
    ("hat-trick", 7, 8, 56),
]


@pytest.mark.parametrize(("name", "players", "tricks", "cards"), CARDS_PER_ROUND)
def test_c3_c5_a_round_gives_one_card_per_player_and_trick(name, players, tricks, cards):
    variant = variant_named(name)
    setup = table_setup(players, variant)
    assert variant.tricks_per_round(players) == setup.tricks_per_round == tricks
    assert variant.cards_per_round(players) == setup.cards_per_round == cards
    assert setup.cards_per_trick == players


def test_r2_r17_cards_per_round_refuses_a_count_the_game_does_not_seat():
    with pytest.raises(rules.RuleError):
        variant_named("hat-trick").cards_per_round(8)
    with pytest.raises(rules.RuleError):
        variant_named("classic").cards_per_round(2)
