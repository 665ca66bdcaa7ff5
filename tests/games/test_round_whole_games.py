"""A whole game of every preset and of Hat Trick through the round pages (R10-R16, R22, R11).

Each round is dealt and played out at random with legal cards (tests/rules/helpers.py), then
entered on the record page as a table would: quick entry for the classic family (indicators,
tricks won, marked-colour captures), every captured card when colours are chosen at the end
(R16), per-colour counts and passes for Hat Trick. The expected scores come from the rules
engine scoring the full round, card by card.
"""

from __future__ import annotations

import random

import pytest
from flask.testing import FlaskClient

from companion.rules import PRESETS, score_round, table_setup
from companion.rules.cards import Card
from companion.rules.entries import DelayedEntry, FullEntry, HatTrickFullEntry
from tests.games.round_helpers import (
    assert_redirects_to_scoreboard,
    game_state,
    page_of,
    quick_round,
)
from tests.rules.helpers import play_classic_round, play_hat_trick_round
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def chip(card: Card) -> str:
    return f"{card.colour.value}-{card.value}"


def classic_round(preset: str, rng: random.Random) -> tuple[list[dict[str, object]], list[int]]:
    """One random round as page fields per seat, and its scores by the rules engine."""
    setup = table_setup(4, PRESETS[preset])
    played = play_classic_round(setup, rng)
    if not setup.cards_laid_out:
        seats = [{"captured": [chip(c) for c in cap]} for cap in played.captured]
        full = [DelayedEntry(tuple(cap)) for cap in played.captured]
        return seats, score_round(setup, full).scores
    seats = []
    for indicators, tricks, captured in zip(
        played.indicators, played.tricks, played.captured, strict=True
    ):
        colours = {card.colour for card in indicators}
        seats.append(
            {
                "marked": [chip(c) for c in indicators],
                "tricks": tricks,
                "marked_captured": [chip(c) for c in captured if c.colour in colours],
            }
        )
    full = [
        FullEntry(ind, tuple(cap))
        for ind, cap in zip(played.indicators, played.captured, strict=True)
    ]
    return seats, score_round(setup, full).scores


def hat_trick_round(rng: random.Random) -> tuple[list[dict[str, object]], list[int]]:
    setup = table_setup(4, PRESETS["hat-trick"])
    played = play_hat_trick_round(setup, rng)
    seats: list[dict[str, object]] = [
        {
            **{
                colour: sum(1 for c in up if c.colour.value == colour)
                for colour in ("red", "blue", "green")
            },
            "passed": len(down),
        }
        for up, down in zip(played.face_up, played.face_down, strict=True)
    ]
    full = [
        HatTrickFullEntry(tuple(up), tuple(down))
        for up, down in zip(played.face_up, played.face_down, strict=True)
    ]
    return seats, score_round(setup, full).scores


@pytest.mark.parametrize(
    "preset", ["classic", "mild", "reverse", "aggravated", "hazy", "delayed", "hat-trick"]
)
def test_a_whole_game_through_the_pages_adds_up_and_names_the_winner(
    client: FlaskClient, preset: str, table: Table
) -> None:
    code = table.new_game(NAMES, preset, rounds=5, edit_here=True)["id"]
    rng = random.Random(f"whole game {preset}")
    totals = [0, 0, 0, 0]
    for number in range(1, 6):
        seats, scores = (
            hat_trick_round(rng) if preset == "hat-trick" else classic_round(preset, rng)
        )
        mode = "?mode=full" if preset == "delayed" else ""
        url = f"/g/{code}/rounds/record"
        response = quick_round(client, url, seats, page=page_of(client, url + mode))
        assert_redirects_to_scoreboard(response, code)
        state = game_state(client, code)
        assert state["rounds"][number - 1]["scores"] == scores
        totals = [a + b for a, b in zip(totals, scores, strict=True)]
        assert state["totals"] == totals
    assert state["status"] == "finished"
    best = max(totals)
    winners = [NAMES[seat] for seat, total in enumerate(totals) if total == best]
    assert state["winners"] == [NAMES.index(name) for name in winners]
    board = page_of(client, f"/g/{code}")
    assert all(name in board for name in winners)
    assert "Record round" not in board  # the game is over
