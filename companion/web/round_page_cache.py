"""The round pages (mark, record, correct, live) rendered once per change, then served as
kept.

A round page shows what the editing scoreboard shows of the game (its version, a live
round's unfinished trick, the names) in the page's own templates, for a phone holding the
edit key, with the query's choices (the entry mode, the hazy round's reveal) and a CSRF
token of the phone's session: the scoreboard's ETag (``scoreboard_cache.page_etag``) covers
all of it, and a page rendered for that tag is kept by it, so opening a round page again
costs one small query until something changes. What the tag does not cover is never kept:

- a request that is not a GET (a sent form shows what was sent);
- a phone with a message waiting to be shown once (Flask's flashed messages);
- an answer other than a whole page (a redirect, a refusal).

Kept pages live in this process only, like the scoreboards: a restarted server renders them
again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import make_response, request, session
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from companion.web.compression import kept_page_response
from companion.web.scoreboard_cache import (
    keep_rendered,
    page_etag,
    rendered_page,
    templates_digest,
)

#: The templates a round page may be rendered from: a change to any of them makes other tags.
ROUND_TEMPLATES = (
    "games/round_record.html",
    "games/round_mark.html",
    "games/round_notice.html",
    "games/round_hazy_gate.html",
)
#: Static files the round pages link.
ROUND_STATIC = ("style.css", "chips.css", "play.css", "app.js", "rounds.js")

RoundView = Callable[..., ResponseReturnValue]


def round_page_etag(code: str, kind: str) -> str | None:
    """The tag of this request's round page ``kind`` of the game ``code``, for a phone that
    may change the game; ``None`` otherwise (no game, or no edit rights: the view answers)."""
    others = [templates_digest(template) for template in ROUND_TEMPLATES[1:]]
    return page_etag(
        code, ROUND_TEMPLATES[0], ROUND_STATIC, f"{kind} {others}", view=False, editing_only=True
    )


def may_keep() -> bool:
    """Whether this request's page may be served as kept, or kept once rendered."""
    return request.method == "GET" and not session.get("_flashes")


def kept_page(tag: str) -> Response | None:
    """The page kept for ``tag``, as a response, if this request may be served one."""
    page = rendered_page(tag) if may_keep() else None
    if page is None:
        return None
    return kept_page_response(page, tag)  # its gzip is kept by it too


def keep_page(tag: str, answer: ResponseReturnValue) -> Response:
    """The view's ``answer``, kept for ``tag`` if it is a whole page this request may keep
    (nothing was flashed for it to show once)."""
    response = make_response(answer)
    if response.status_code == 200 and response.mimetype == "text/html" and may_keep():
        response.set_data(keep_rendered(tag, response.get_data(as_text=True)))
        response.set_etag(tag)
    return response


def kept_round_page(kind: str) -> Callable[[RoundView], RoundView]:
    """Serve the round page ``kind`` (with the view's arguments) as kept while its tag
    holds, else render it with ``view`` and keep it."""

    def decorate(view: RoundView) -> RoundView:
        @wraps(view)
        def answer(code: str, **arguments: Any) -> ResponseReturnValue:
            if not may_keep():
                return view(code, **arguments)
            tag = round_page_etag(code, f"{kind} {sorted(arguments.items())}")
            if tag is None:
                return view(code, **arguments)
            return kept_page(tag) or keep_page(tag, view(code, **arguments))

        return answer

    return decorate
