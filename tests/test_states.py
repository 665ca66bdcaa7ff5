"""The named states and the stored variant: one mapping between a game's columns and the
rules' variant, and states that are the very strings the database and the API hold."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from companion.data.models import Game, db, variant_columns, variant_of_columns
from companion.data.states import GameStatus, RoundMode, RoundStatus
from companion.rules import PRESETS, Variant, variant_from_settings
from companion.rules.variants import SCORINGS, Reveal
from companion.services.games import create_game

ROOT = Path(__file__).resolve().parent.parent
EVERY_VARIANT: list[Variant] = [
    *PRESETS.values(),
    *(
        variant_from_settings(scoring, colours, reveal.value)
        for scoring, colours, reveal in itertools.product(SCORINGS, (1, 2), Reveal)
    ),
]


def test_states_are_the_strings_the_database_and_the_api_hold() -> None:
    """The backup format and the JSON API name these values (as docs/api.md and
    docs/operators/backups.md document them); a member is its string, in comparisons and in
    JSON."""
    assert [str(status) for status in GameStatus] == ["in_progress", "finished", "abandoned"]
    assert [str(status) for status in RoundStatus] == ["playing", "scored"]
    assert [str(mode) for mode in RoundMode] == ["quick", "full", "live"]
    assert RoundStatus.SCORED == "scored"
    assert json.dumps({"status": GameStatus.FINISHED}) == '{"status": "finished"}'


@pytest.mark.parametrize("variant", EVERY_VARIANT, ids=repr)
def test_a_variant_is_read_back_from_the_columns_it_is_stored_in(variant: Variant) -> None:
    columns = variant_columns(variant)
    assert variant_of_columns(**columns) == variant  # type: ignore[arg-type]
    assert Game(variant=variant).variant == variant


def test_hat_trick_stores_its_family_and_no_classic_setting() -> None:
    """R17: Hat Trick has no scoring, marked colours or reveal to store."""
    assert variant_columns(PRESETS["hat-trick"]) == {
        "family": "hat-trick",
        "scoring": None,
        "colours_marked": None,
        "reveal": None,
    }
    assert variant_columns(PRESETS["aggravated"]) == {
        "family": "classic",
        "scoring": "classic",
        "colours_marked": 2,
        "reveal": "open",
    }


@pytest.mark.parametrize("preset", ["reverse", "hazy", "hat-trick"])
def test_a_stored_game_keeps_its_variant_and_its_status(app: Flask, preset: str) -> None:
    with app.app_context():
        game, _key = create_game(["Ann", "Ben", "Cleo", "Dan"], PRESETS[preset], 2, 0)
        db.session.commit()
        code = game.code
        db.session.expunge_all()
        stored = db.session.scalars(sa.select(Game).where(Game.code == code)).one()
        assert stored.variant == PRESETS[preset]
        assert stored.status == GameStatus.IN_PROGRESS
        assert stored.family == PRESETS[preset].game


# A state compared with a bare string, in Python or in a template: `status == "scored"`,
# `mode != 'live'`, `selectattr('status', 'equalto', 'scored')`.
STATE_WORDS = "|".join(str(state) for state in (*GameStatus, *RoundStatus, *RoundMode))
BARE_STATE = re.compile(
    rf"""(status|mode)\s*(==|!=)\s*["']({STATE_WORDS})["']"""
    rf"""|equalto["'],\s*["']({STATE_WORDS})["']"""
)


def test_no_state_is_compared_with_a_bare_string() -> None:
    """The states have names (companion/data/states.py); a typo in a bare string would silently
    never match."""
    sources = [*ROOT.joinpath("companion").rglob("*.py"), *ROOT.joinpath("templates").rglob("*")]
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sources
        if path.is_file() and path.suffix in (".py", ".html")
        for match in BARE_STATE.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []
