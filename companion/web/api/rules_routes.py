"""The rules endpoints: table setup, trick resolution and round scoring (DESIGN.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app, request

from companion.formats import parse
from companion.formats.entries import read_entries
from companion.formats.parse import ApiError
from companion.rules import (
    HAT_TRICK_MAX_PLAYERS,
    MAX_PLAYERS,
    TableSetup,
    Variant,
    check_hat_trick_plays,
    check_trick_cards,
    resolve_hat_trick,
    score_round,
    table_setup,
    trick_winner,
)
from companion.web.api import bp

SETUP_QUERY = ("players", "variant", "scoring", "colours", "reveal")


@bp.get("/setup")
def setup() -> dict[str, object]:
    """Which cards, hands and tricks a table needs: ``?players=N&variant=V``."""
    args = request.args
    unknown = sorted(set(args) - set(SETUP_QUERY))
    if unknown:
        raise ApiError(f'Unknown query parameter "{unknown[0]}"; use players and variant.')
    if "players" not in args:
        raise ApiError('The query parameter "players" is missing, e.g. ?players=4.')
    players = _query_int(args["players"], "players")
    return table_setup(players, _query_variant(args)).as_json()


def _query_int(text: str, where: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 4:
        shown = f'"{text}"' if len(text) <= 12 else "that"
        raise ApiError(f'The query parameter "{where}" must be a small whole number, not {shown}.')
    return int(text)


def _query_variant(args: Mapping[str, str]) -> Variant:
    """A preset (``variant=mild``) or the three settings as separate parameters."""
    settings = [name for name in ("scoring", "colours", "reveal") if name in args]
    if "variant" in args and settings:
        raise ApiError(f'Give either "variant" or the settings, not both ("{settings[0]}").')
    if "variant" in args:
        return parse.variant(args["variant"])
    if not settings:
        return parse.variant("classic")
    return parse.variant(
        {
            "scoring": args.get("scoring", "classic"),
            "colours": _query_int(args.get("colours", "1"), "colours"),
            "reveal": args.get("reveal", "open"),
        }
    )


def request_body() -> dict[str, Any]:
    """The request's JSON object, refusing a body over the size limit even when it comes
    in chunks without a length (Werkzeug would silently cut such a body short)."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is None and request.environ.get("wsgi.input_terminated"):
        raw = request.environ["wsgi.input"].read(limit + 1)
        if len(raw) > limit:
            raise ApiError("The request body is too large.", 413)
        return parse.read_json(raw)
    return parse.read_json(request.get_data(cache=False))


def _players_and_variant(body: Mapping[str, Any]) -> tuple[int | None, Variant, TableSetup | None]:
    variant = parse.variant(body["variant"])
    if "players" not in body:
        return None, variant, None
    players = parse.player_count(body["players"])
    return players, variant, table_setup(players, variant)


@bp.post("/tricks/resolve")
def resolve_trick() -> dict[str, object]:
    """Who takes a trick (or is winning a partial one), and why (R7, R8, R13, R19-R21)."""
    raw = request_body()
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
    outcome = trick_winner(cards, settings.scoring)
    return {"winner": outcome.winner, "card": outcome.card.as_json(), "reason": str(outcome.reason)}


def _resolve_hat_trick(raw: dict[str, Any]) -> dict[str, object]:
    if "cards" in raw and "plays" not in raw:
        raise ApiError('A Hat Trick trick is given as "plays" (cards with an optional "pass").')
    body = parse.fields(raw, "The request", ("variant", "plays"), ("players",))
    players, _variant, setup = _players_and_variant(body)
    plays = tuple(
        parse.play(item, f"plays[{i}]")
        for i, item in enumerate(parse.listing(body["plays"], "plays", HAT_TRICK_MAX_PLAYERS))
    )
    check_hat_trick_plays(plays, setup.deck if setup else None, players)
    outcome = resolve_hat_trick(plays)
    return {
        "piles": [
            {
                "colour": pile.colour.value,
                "winner": pile.winner,
                "cards": [card.as_json() for card in pile.cards],
            }
            for pile in outcome.piles
        ],
        "passes": list(outcome.passes),
        "winner": outcome.winner,
        "next_leader": outcome.next_leader,
        "reason": str(outcome.reason),
    }


@bp.post("/rounds/score")
def score() -> dict[str, object]:
    """Score one complete round after the checks C1-C5 (R10, R12-R16, R22)."""
    body = parse.fields(request_body(), "The request", ("variant", "players", "entries"))
    variant = parse.variant(body["variant"])
    setup = table_setup(parse.player_count(body["players"]), variant)
    entries = read_entries(body["entries"], setup)
    return score_round(setup, entries).as_json()
