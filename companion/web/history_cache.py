"""The history pages' HTTP cache: the scoreboard's (``scoreboard_cache``) ETags,
conditional GETs and rendered pages kept per process, over what those pages depend on.

The history list, a player's page and two players head to head each get an ETag that
covers the database's state as ``companion.data.change_counter`` reads it (one row, read in
the one statement the page needs first anyway: the player and this phone's right to fix the
name, the two players, or, for the list, the counts of a filter with a time bound), and
everything the request shapes: the templates, the static files' names, the URL (scheme,
host, prefix, path, query: the links and the language switcher start from it), the language
and what this phone's cookie changes on the page. Each request reads the state from the
database, so a change made through another worker (another process, another kept page)
gives another ETag at once; a page kept in memory is only ever found by a tag just read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from flask import current_app, request
from flask.typing import ResponseReturnValue

from companion.web.assets import linked_names
from companion.web.i18n import select_locale
from companion.web.scoreboard_cache import (
    hash_of,
    keep_rendered,
    not_modified,
    rendered_page,
    scoreboard_response,
    templates_digest,
)

#: Static files base.html links (the scripts app.js loads too, by the names the page gives
#: it): their URLs may change with their content.
BASE_STATIC = (
    "style.css",
    "forms.css",
    "forms.js",
    "app.js",
    "outbox.js",
    "offline_play.js",
    "offline_live.js",
    "offline_new_game.js",
    "icons/icon.svg",
    "icons/icon-192.png",
)
#: Static files the history pages link: base.html's and history.css.
HISTORY_STATIC = (*BASE_STATIC, "history.css")


def history_etag(
    template: str,
    state: Sequence[object],
    *shown: object,
    static: Sequence[str] = HISTORY_STATIC,
) -> str:
    """The strong ETag (unquoted) of a page rendered from ``template`` (a history page
    unless ``static`` names the files another links) with the database in ``state``,
    showing ``shown`` besides (what the page reads from the cookie: the games this phone
    keeps the score of)."""
    parts: list[object] = [
        templates_digest(template),
        linked_names(static),
        request.url,  # scheme, host, URL prefix, path and query string
        select_locale(),  # what get_locale() parses: the same, without parsing it
        current_app.config.get("BABEL_DEFAULT_TIMEZONE"),  # the dates and times shown
        list(state),
        list(shown),
    ]
    return hash_of(json.dumps(parts, default=str))[:32]


def kept_or_rendered(tag: str, render: Callable[[], str], private: bool) -> ResponseReturnValue:
    """``304`` when the phone's copy is the page of ``tag``, else the page kept for ``tag``,
    else ``render()``'s page, kept from then on. ``private``: the page depends on this
    phone's cookie, so no shared cache may keep it."""
    view = not private  # the scoreboard's cache rules: public, or private to this phone
    if request.if_none_match.contains_weak(tag):
        return not_modified(tag, view=view)
    page = rendered_page(tag)
    if page is None:
        page = keep_rendered(tag, render())
    return scoreboard_response(page, tag, view=view)
