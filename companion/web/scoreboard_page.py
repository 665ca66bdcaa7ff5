"""The scoreboard page and the helpers every game template uses.

The games pages show it, and the history pages show it again when another phone changed a game
first; so it is a web piece of its own, not one blueprint's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import segno
from flask import make_response, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.http import quote_etag

from companion.data import queries
from companion.data.models import Game
from companion.data.states import RoundStatus
from companion.formats.game_json import game_state
from companion.pages.scoreboard import (
    COLOURS,
    Scoreboard,
    board_context,
    scoreboard_of,
    signed_number,
)
from companion.read_models.live_follow import followed_round
from companion.read_models.messages import page_reader
from companion.read_models.scoreboard import next_game_code
from companion.web.edit_rights import can_edit, device_edit_key, edit_rights_lost
from companion.web.finished_game_offer import finished_game_offer_of
from companion.web.save_notice import SavedRound
from companion.web.scoreboard_cache import keep_rendered, scoreboard_etag, scoreboard_response


def conflict_scoreboard(game: Game) -> ResponseReturnValue:
    """The game as it is now, after another phone changed it first (409, never kept)."""
    return render_scoreboard(game, editable=can_edit(game), conflict=True, status=409)


def qr_svg(url: str) -> Markup:
    """A QR code of ``url`` as inline SVG (no image request, no third party); dark on white
    in both colour schemes, since scanners need that contrast."""
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=4, dark="#000", light="#fff", omitsize=True))


def game_template_helpers() -> dict[str, Any]:
    """Give the game templates their helpers."""
    return {
        "signed": signed_number,
        "qr_svg": qr_svg,
    }


def render_scoreboard(
    game: Game,
    editable: bool,
    conflict: bool = False,
    status: int = 200,
    view: bool = False,
    etag: str | None = None,
    saved: SavedRound | None = None,
) -> ResponseReturnValue:
    """The scoreboard page (``view``: the read-only one at the share link). It holds no
    secret (the edit link is on the share page), so browsers may keep it and revalidate it
    with its ETag; a refusal's page (``status`` other than 200) is never kept, nor one that
    confirms a save (``saved``: shown once, on the phone that saved)."""
    editable = editable and device_edit_key(game) is not None
    if etag is None:
        etag = scoreboard_etag(game.code, view)
    page = scoreboard_html(game, editable, conflict, view, etag, saved)
    if status == 200 and etag and not conflict and saved is None:
        return scoreboard_response(keep_rendered(etag, page), etag, view)
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"
    return response


def scoreboard_html(
    game: Game,
    editable: bool,
    conflict: bool = False,
    view: bool = False,
    etag: str | None = None,
    saved: SavedRound | None = None,
) -> str:
    """The scoreboard's HTML (``editable``: with the changes this phone is offered): its
    board drawn by the page model from the game's state, as the phone draws it offline."""
    state = board_state(game)
    board = game_scoreboard(game, state)
    context = board_context(
        state,
        board,
        url_for,
        generate_csrf() if editable else "",
        editable,
        view,
        saved.number if saved is not None else None,
    )
    return render_template(
        "games/scoreboard.html",
        **context,
        conflict=conflict,
        rights_lost=not view and edit_rights_lost(game),
        etag=quote_etag(etag) if etag else "",
        share_page_url=url_for("games.share", code=game.code),
        saved=saved,
        after=finished_game_offer_of(game, board),
    )


def game_scoreboard(game: Game, state: Mapping[str, Any] | None = None) -> Scoreboard:
    """The scoreboard of ``game`` in the reader's words, drawn by the page model from the
    game's state (``state``, when the caller has it already): the scoreboard page, the table
    display and the confirmations all show this one."""
    playing = queries.playing_round(game)
    return scoreboard_of(
        board_state(game) if state is None else state,
        page_reader(),
        excluded=game.excluded,
        next_game_code=next_game_code(game),
        following=followed_round(game, playing, [seat.player.name for seat in game.seats]),
    )


def board_state(game: Game) -> dict[str, object]:
    """The game's state as the API gives it, as the scoreboard's page model reads it, with
    the colours each seat scored with as they are stored (a round imported without its
    entries cannot be explained)."""
    state = game_state(game, "", "")
    rounds: list[dict[str, object]] = state["rounds"]  # type: ignore[assignment]
    for round_, stored in zip(rounds, game.rounds, strict=True):
        if stored.status == RoundStatus.SCORED:
            round_[COLOURS] = [result.colour_names.split(",") for result in stored.results]
    return state
