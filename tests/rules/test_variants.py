"""The variants and Hat Trick: presets, the three settings, and tricks per round (R5, R14,
R16, R18)."""

from __future__ import annotations

import itertools

import pytest

from companion.rules.errors import PlayerCountError, RuleError, UnknownVariantError
from companion.rules.table import table_setup
from companion.rules.variants import (
    PRESETS,
    ClassicVariant,
    HatTrickVariant,
    Reveal,
    variant_from_settings,
    variant_named,
)

SCORINGS = ["classic", "mild", "reverse"]
COLOURS = [1, 2]
REVEALS = ["open", "hazy", "delayed"]
ALL_SETTINGS = list(itertools.product(SCORINGS, COLOURS, REVEALS))


def settings_id(settings):
    scoring, colours, reveal = settings
    return f"{scoring}-{colours}-colour-{reveal}"


# --------------------------------------------------------------------------------------------
# Presets (section 5 table, and Hat Trick)

PRESET_TABLE = [
    ("classic", "classic", 1, "open"),
    ("mild", "mild", 1, "open"),
    ("reverse", "reverse", 1, "open"),
    ("aggravated", "classic", 2, "open"),
    ("hazy", "classic", 1, "hazy"),
    ("delayed", "classic", 1, "delayed"),
]


@pytest.mark.parametrize(
    ("name", "scoring", "colours", "reveal"), PRESET_TABLE, ids=[row[0] for row in PRESET_TABLE]
)
def test_each_preset_name_maps_to_its_three_settings(name, scoring, colours, reveal):
    variant = variant_named(name)
    assert isinstance(variant, ClassicVariant)
    assert variant.scoring.name == scoring
    assert variant.colours == colours
    assert variant.reveal is Reveal(reveal)
    assert variant.as_json() == {
        "game": "classic",
        "scoring": scoring,
        "colours": colours,
        "reveal": reveal,
    }
    assert variant.preset == name
    assert variant_from_settings(scoring, colours, reveal) == variant


def test_the_hat_trick_preset_is_the_hat_trick_game():
    variant = variant_named("hat-trick")
    assert isinstance(variant, HatTrickVariant)
    assert variant.as_json() == {"game": "hat-trick"}
    assert variant.preset == "hat-trick"


def test_the_presets_are_exactly_the_six_classic_ones_and_hat_trick():
    assert set(PRESETS) == {row[0] for row in PRESET_TABLE} | {"hat-trick"}


@pytest.mark.parametrize("name", ["Classic", "bogus", "", "reverse+hazy"])
def test_an_unknown_preset_name_is_refused(name):
    with pytest.raises(UnknownVariantError) as info:
        variant_named(name)
    assert isinstance(info.value, RuleError)
    assert repr(name) in str(info.value)


# --------------------------------------------------------------------------------------------
# Any combination of the three settings


@pytest.mark.parametrize("settings", ALL_SETTINGS, ids=[settings_id(s) for s in ALL_SETTINGS])
def test_every_combination_of_settings_is_a_variant(settings):
    scoring, colours, reveal = settings
    variant = variant_from_settings(scoring, colours, reveal)
    assert variant.scoring.name == scoring
    assert variant.colours == colours
    assert variant.reveal is Reveal(reveal)
    named = {row[0]: row[1:] for row in PRESET_TABLE}
    expected_preset = next((name for name, row in named.items() if row == settings), None)
    assert variant.preset == expected_preset


@pytest.mark.parametrize(
    ("scoring", "colours", "reveal"),
    [
        ("bogus", 1, "open"),
        ("Classic", 1, "open"),
        ("classic", 0, "open"),
        ("classic", 3, "open"),
        ("classic", 1, "bogus"),
        ("classic", 1, "Delayed"),
        ("hat-trick", 1, "open"),
    ],
    ids=[
        "unknown-scoring",
        "capitalised-scoring",
        "zero-colours",
        "three-colours",
        "unknown-reveal",
        "capitalised-reveal",
        "hat-trick-is-no-scoring",
    ],
)
def test_unknown_settings_are_refused(scoring, colours, reveal):
    with pytest.raises(UnknownVariantError):
        variant_from_settings(scoring, colours, reveal)


@pytest.mark.parametrize(
    ("reveal", "lays_out", "hides"),
    [("open", True, False), ("hazy", True, True), ("delayed", False, False)],
    ids=["r4-open-lays-out-and-shows", "r15-hazy-lays-out-and-hides", "r16-delayed-lays-out-none"],
)
def test_r4_r15_r16_the_reveal_decides_what_is_laid_out_and_hidden(reveal, lays_out, hides):
    assert Reveal(reveal).lays_out_indicators is lays_out
    assert Reveal(reveal).hides_marks_until_scored is hides


@pytest.mark.parametrize(
    ("scoring", "trump_wins"),
    [("classic", "highest"), ("mild", "highest"), ("reverse", "lowest")],
    ids=["r8-classic-highest-trump", "r8-mild-highest-trump", "r13-reverse-lowest-trump"],
)
def test_r8_r13_the_scoring_decides_which_trump_wins(scoring, trump_wins):
    assert variant_from_settings(scoring, 1, "open").scoring.trump_order.value == trump_wins


# --------------------------------------------------------------------------------------------
# R5, R14, R16: tricks per round, for every combination at every player count

#: (colours, reveal) -> (tricks at 3-7 players, tricks at 8 players), from the rulings.
TRICKS = {
    (1, "open"): (14, 13),  # R5
    (1, "hazy"): (14, 13),  # R15: only the reveal changes
    (1, "delayed"): (15, 14),  # R16: nothing laid out
    (2, "open"): (13, 12),  # R14
    (2, "hazy"): (13, 12),  # R14 + R15
    (2, "delayed"): (15, 14),  # R16: nothing laid out, whatever the colours
}
TRICK_CASES = [(*settings, n) for settings in ALL_SETTINGS for n in range(3, 9)]


@pytest.mark.parametrize(
    ("scoring", "colours", "reveal", "players"),
    TRICK_CASES,
    ids=[f"r5-r14-r16-{settings_id(case[:3])}-{case[3]}p" for case in TRICK_CASES],
)
def test_r5_r14_r16_tricks_per_round_are_hand_size_minus_cards_laid_out(
    scoring, colours, reveal, players
):
    setup = table_setup(players, variant_from_settings(scoring, colours, reveal))
    expected = TRICKS[(colours, reveal)][1 if players == 8 else 0]
    assert setup.tricks_per_round == expected
    laid_out = 0 if reveal == "delayed" else colours
    assert setup.cards_laid_out == laid_out
    assert setup.hand_size - laid_out == expected


@pytest.mark.parametrize(
    ("players", "tricks"),
    [(4, 14), (5, 11), (6, 9), (7, 8)],
    ids=[f"r18-{n}-players" for n in range(4, 8)],
)
def test_r18_hat_trick_plays_every_card_but_the_last(players, tricks):
    setup = table_setup(players, variant_named("hat-trick"))
    assert setup.tricks_per_round == tricks == setup.hand_size - 1


def test_r18_hat_trick_counts_refuse_a_bad_player_count():
    with pytest.raises(PlayerCountError):
        variant_named("hat-trick").tricks_per_round(8)


def test_table_setup_describes_itself_for_the_api():
    data = table_setup(8, variant_named("aggravated")).as_json()
    assert data["players"] == 8
    assert data["hand_size"] == 14
    assert data["left_out"] == 2
    assert data["tricks_per_round"] == 12
    assert data["deck"]["size"] == 114
