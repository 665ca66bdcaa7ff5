"""The scoreboard page and the helpers every game template uses.

The games pages show it, and the history pages show it again when another phone changed a game
first; so it is a web piece of its own, not one blueprint's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import segno
from flask import make_response, render_template, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.http import quote_etag

from companion.data import queries
from companion.data.models import Game, Round
from companion.data.states import GameStatus, RoundMode
from companion.read_models.charts import cumulative_chart
from companion.read_models.messages import signed_number
from companion.read_models.scoreboard import Scoreboard, scoreboard_of
from companion.web.after_game import after_game_of
from companion.web.edit_rights import can_edit, device_edit_key, edit_rights_lost
from companion.web.round_saved import SavedRound
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
        "cumulative_chart": cumulative_chart,
    }


@dataclass(frozen=True)
class EditActions:
    """The changes an editing device is offered on the scoreboard (``None``: not now)."""

    mark_url: str | None
    record_url: str | None
    corrections: list[tuple[int, str]]
    live_url: str | None = None  # play the next round (or the marked one) live
    continue_live_url: str | None = None  # the live round in progress


def edit_actions(board: Scoreboard, live: Round | None = None) -> EditActions:
    """Mark colours (when the variant lays indicators out and they are not marked yet),
    record the next round or play it live (or continue the ``live`` round in progress),
    and correct any scored round of a game not abandoned."""
    next_round = board.next_round
    mark_url = record_url = live_url = continue_live_url = None
    if next_round is not None and live is not None:
        continue_live_url = url_for("games.live_round", code=board.code, number=live.number)
    elif next_round is not None:
        if next_round.lays_out_indicators and not next_round.colours_marked:
            mark_url = url_for("games.mark_colours", code=board.code)
        record_url = url_for("games.record_round", code=board.code)
        live_url = url_for("games.start_live_round", code=board.code)
    corrections = []
    if board.status != GameStatus.ABANDONED:
        for row in board.rows:
            if row.is_scored:
                url = url_for("games.correct_round", code=board.code, number=row.number)
                corrections.append((row.number, url))
    return EditActions(mark_url, record_url, corrections, live_url, continue_live_url)


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
    """The scoreboard's HTML (``editable``: with the changes this phone is offered)."""
    board = scoreboard_of(game)
    playing = queries.playing_round(game)
    live = playing if playing is not None and playing.mode == RoundMode.LIVE else None
    return render_template(
        "games/scoreboard.html",
        board=board,
        editable=editable,
        actions=edit_actions(board, live) if editable else None,
        live_round=live,
        conflict=conflict,
        rights_lost=not view and edit_rights_lost(game),
        poll_url=url_for("games.view" if view else "games.scoreboard", code=game.code),
        view=view,
        etag=quote_etag(etag) if etag else "",
        share_page_url=url_for("games.share", code=game.code),
        saved=saved,
        after=after_game_of(game, board),
    )
