"""The rules endpoints: table setup, trick resolution and round scoring (DESIGN.md); the
answers to the last two come from ``companion.play_state.rules_answers``, which the offline rules
worker runs too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app, request

from companion.play_state import parse, rules_answers
from companion.play_state.parse import ApiError, cut
from companion.rules import Variant, table_setup
from companion.web.api import bp

SETUP_QUERY = ("players", "variant", "scoring", "colours", "reveal")


@bp.get("/setup")
def setup() -> dict[str, object]:
    """Which cards, hands and tricks a table needs: ``?players=N&variant=V``."""
    args = request.args
    unknown = sorted(set(args) - set(SETUP_QUERY))
    if unknown:
        raise ApiError(f'Unknown query parameter "{cut(unknown[0])}"; use players and variant.')
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


@bp.post("/tricks/resolve")
def resolve_trick() -> dict[str, object]:
    """Who takes a trick (or is winning a partial one), and why (R7, R8, R13, R19-R21)."""
    return rules_answers.resolve_trick(request_body())


@bp.post("/rounds/score")
def score() -> dict[str, object]:
    """Score one complete round after the checks C1-C5 (R10, R12-R16, R22)."""
    return rules_answers.score_round(request_body())
