"""Route for the rules page, and the filter that links ruling numbers to it."""

from __future__ import annotations

from dataclasses import dataclass

from flask import render_template

from companion.read_models.messages import PRESET_NAMES
from companion.rules import CLASSIC, HAT_TRICK, PRESETS, Variant, table_setup
from companion.web.rulebook import bp
from companion.web.rulebook.citations import link_rulings

bp.add_app_template_filter(link_rulings, "link_rulings")


@dataclass(frozen=True)
class DeckRow:
    """One line of a "cards per player count" table (R2, R17)."""

    players: int
    colours: int
    low: int
    high: int
    cards: int
    hand: int
    left_out: int
    tricks: int


@dataclass(frozen=True)
class PresetRow:
    """One named variant and its three settings (RULES.md section 5)."""

    name: str
    scoring: str
    colours: int
    reveal: str


def deck_rows(variant: Variant, players: range) -> list[DeckRow]:
    """The deck, hand and tricks for each player count, as the rules compute them."""
    rows = []
    for count in players:
        setup = table_setup(count, variant)
        deck = setup.deck
        rows.append(
            DeckRow(
                count,
                len(deck.colours),
                deck.min_value,
                deck.max_value,
                deck.size,
                setup.hand_size,
                setup.left_out,
                setup.tricks_per_round,
            )
        )
    return rows


def preset_rows() -> list[PresetRow]:
    """The named variants of the classic game, in the order RULES.md lists them."""
    return [
        PresetRow(
            str(PRESET_NAMES[name]), settings.scoring.name, settings.colours, settings.reveal.value
        )
        for name, variant in PRESETS.items()
        if (settings := variant.settings) is not None
    ]


@bp.route("/rules")
def rules() -> str:
    """Show the rules of Sticheln, each ruling under its own anchor."""
    classic, hat_trick = PRESETS[CLASSIC], PRESETS[HAT_TRICK]
    return render_template(
        "rulebook/rules.html",
        classic_decks=deck_rows(classic, classic.player_range),
        hat_trick_decks=deck_rows(hat_trick, hat_trick.player_range),
        presets=preset_rows(),
    )
