"""The live page on the server: the page model (companion/pages/live.py) drawn from the
game's state as the API gives it, with the links, the CSRF token and the notes of this phone;
the phone's rules worker draws the same page offline from the same model and template."""

from __future__ import annotations

from collections.abc import Sequence

from flask import get_flashed_messages, make_response, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf
from werkzeug.http import quote_etag

from companion.data.models import Game, Round
from companion.formats.game_json import game_state
from companion.pages.live import live_context, live_page_of
from companion.read_models.messages import page_reader
from companion.read_models.scoreboard import next_game_code
from companion.rules.hat_trick import Play
from companion.web.scoreboard_cache import live_etag

#: The flashed notes of the live page (a card or a trick taken back).
FLASH_CATEGORY = "live"


def live_url(game: Game, round_: Round) -> str:
    """The live page of ``round_``."""
    return url_for("games.live_round", code=game.code, number=round_.number)


def render_live(
    game: Game,
    round_: Round,
    *,
    plays: Sequence[Play] | None = None,
    refusal: str | None = None,
    refused: str | None = None,
    conflict: bool = False,
    expired: bool = False,
    status: int = 200,
    etag: str | None = None,
) -> ResponseReturnValue:
    """The live page: the trick so far and who is winning it, the last trick, the chips of
    the deck, each seat's captures, and the round's scores once it is over; ``plays`` in
    its unfinished trick when not the stored one (the trick as it was before a refused tap).

    The page carries its ETag (``etag``, else the game's as it is now): live.js asks with
    it every few seconds and swaps in the page another phone's card changed."""
    if etag is None:
        etag = live_etag(game.code, round_.number)
    page = live_page_of(
        game_state(game, "", ""),
        round_.number,
        page_reader(),
        next_game_code=next_game_code(game),
        plays=plays,
        refused=refused,
    )
    context = live_context(
        page,
        url_for,
        generate_csrf(),
        notes=[str(note) for note in get_flashed_messages(category_filter=[FLASH_CATEGORY])],
        refusal=refusal,
        conflict=conflict,
        expired=expired,
        etag=quote_etag(etag) if etag else "",
    )
    response = make_response(render_template("games/live.html", **context), status)
    if etag and status == 200:
        response.set_etag(etag)
    # Back and forward must show the round as it is now, never a copy from before a trick.
    response.headers["Cache-Control"] = "no-store"
    return response
