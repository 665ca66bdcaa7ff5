"""The answers of the rules endpoints, from a request's JSON object to the answer's, with no
web framework in between.

The JSON API (companion/web/api/rules_routes.py) and the offline rules worker (Pyodide in the
phone's browser, companion/web/offline) call these same functions, so a phone without network
reads, checks and scores a round, and resolves a trick, exactly as the server does: same
fields refused with the same words, same scores, same reasons. Nothing here may import more
than the standard library, ``companion.rules`` and the pure readers beside it (``parse``,
``entries``): they are shipped to the phone as they are (the import contract in
pyproject.toml keeps it so).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.play_state import parse
from companion.play_state.entries import read_entries
from companion.play_state.parse import ApiError
from companion.rules import (
    HAT_TRICK_MAX_PLAYERS,
    MAX_PLAYERS,
    TableSetup,
    Variant,
    check_hat_trick_plays,
    check_trick_cards,
    resolve_hat_trick,
    table_setup,
    trick_winner,
)
from companion.rules import score_round as score_entries


def _players_and_variant(body: Mapping[str, Any]) -> tuple[int | None, Variant, TableSetup | None]:
    variant = parse.variant(body["variant"])
    if "players" not in body:
        return None, variant, None
    players = parse.player_count(body["players"])
    return players, variant, table_setup(players, variant)


def resolve_trick(raw: Mapping[str, Any]) -> dict[str, object]:
    """``POST /tricks/resolve``: who takes a trick (or is winning a partial one), and why
    (R7, R8, R13, R19-R21)."""
    if "variant" not in raw:
        raise ApiError('The request is missing the field "variant".')
    if parse.variant(raw["variant"]).has_passes:
        return _resolve_hat_trick(raw)
    body = parse.fields(raw, "The request", ("variant", "cards"), ("players",))
    players, variant, setup = _players_and_variant(body)
    settings = variant.settings
    assert settings is not None  # a game without passes is of the classic family
    cards = parse.cards(body["cards"], "cards", most=MAX_PLAYERS)
    check_trick_cards(cards, setup.deck if setup else None, players)
    return trick_winner(cards, settings.scoring).as_json()


def _resolve_hat_trick(raw: Mapping[str, Any]) -> dict[str, object]:
    if "cards" in raw and "plays" not in raw:
        raise ApiError('A Hat Trick trick is given as "plays" (cards with an optional "pass").')
    body = parse.fields(raw, "The request", ("variant", "plays"), ("players",))
    players, _variant, setup = _players_and_variant(body)
    plays = tuple(
        parse.play(item, f"plays[{i}]")
        for i, item in enumerate(parse.listing(body["plays"], "plays", HAT_TRICK_MAX_PLAYERS))
    )
    check_hat_trick_plays(plays, setup.deck if setup else None, players)
    return resolve_hat_trick(plays).as_json()


def score_round(raw: Mapping[str, Any]) -> dict[str, object]:
    """``POST /rounds/score``: one complete round scored after the checks C1-C5 (R10,
    R12-R16, R22)."""
    body = parse.fields(raw, "The request", ("variant", "players", "entries"))
    variant = parse.variant(body["variant"])
    setup = table_setup(parse.player_count(body["players"]), variant)
    entries = read_entries(body["entries"], setup)
    return score_entries(setup, entries).as_json()
