"""The table display (``/g/<code>/table``): a phone propped up in the middle of the table,
read from a metre and a half away. Totals, who deals and who leads (R3, R9, R21), the trick
being played and who is winning it (R7, R8, R13; Hat Trick R19-R21), in large type.

It shows nothing the read-only scoreboard does not, so anyone with the read-only link may
open it, and it follows the game the same way: the scoreboard's ETag (over its own template
and files), its rendered pages and its polling script; the screen is kept awake. The marked
colours of a hazy round stay hidden until it is scored (R15), as on the scoreboard.
"""

from __future__ import annotations

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.http import quote_etag

from companion import services
from companion.pages.scoreboard import Scoreboard, SeatCell
from companion.web.games.blueprint import bp
from companion.web.scoreboard_cache import (
    TABLE_TEMPLATE,
    keep_rendered,
    not_modified,
    rendered_page,
    scoreboard_response,
    table_etag,
)
from companion.web.scoreboard_page import game_scoreboard


@bp.get("/g/<code>/table")
def table_display(code: str) -> ResponseReturnValue:
    """The table display: ``304`` when the phone's copy is current, else the page as last
    rendered, else the page rendered now."""
    tag = table_etag(code)
    if tag is not None and request.if_none_match.contains_weak(tag):
        return not_modified(tag, view=True)
    if tag is not None and (page := rendered_page(tag)) is not None:
        return scoreboard_response(page, tag, view=True)
    board = game_scoreboard(services.get_game(code))  # a game that is not there: 404
    page = render_template(
        TABLE_TEMPLATE,
        board=board,
        marks=current_marks(board),
        poll_url=url_for("games.table_display", code=code),
        etag=quote_etag(tag) if tag else "",
    )
    if tag is None:  # the game was deleted meanwhile: this page once, kept nowhere
        return page
    return scoreboard_response(keep_rendered(tag, page), tag, view=True)


def current_marks(board: Scoreboard) -> tuple[SeatCell, ...] | None:
    """Each seat's marked colours in the round being played, once they are marked: the
    scoreboard's cells of that round, which hide a hazy round's colours (R15)."""
    playing = board.next_round
    for row in board.rows:
        if playing is not None and row.number == playing.number and not row.is_scored:
            return row.cells
    return None
