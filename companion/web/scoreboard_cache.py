"""The scoreboard's HTTP cache: ETags, conditional GETs and the rendered pages kept per process.

Every phone at a table polls the scoreboard, so a poll costs one small query: the ETag covers
what the page shows (the game's version, names, edit rights, language, templates, static
files, host and URL prefix), and a page rendered once is kept by that ETag.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections import OrderedDict

import sqlalchemy as sa
from flask import current_app, request, session
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf
from jinja2 import meta

from companion.data.models import Circle, Game, Player, Round, Seat
from companion.data.prepared_reads import PreparedRead
from companion.data.states import RoundMode, RoundStatus
from companion.services.keys import hash_edit_key
from companion.web.assets import linked_names
from companion.web.compression import kept_page_response
from companion.web.edit_rights import held_key
from companion.web.i18n import select_locale

#: The scoreboard's template. It and every template it extends or imports shape the page: a
#: deployment with other templates gets other ETags, so no phone keeps a page of the old ones.
SCOREBOARD_TEMPLATE = "games/scoreboard.html"
#: Static files a scoreboard links: their URLs may change with their content.
SCOREBOARD_STATIC = (
    "style.css",
    "scoreboard.css",
    "app.js",
    "scoreboard.js",
    "score_reasons.js",
    "follow.js",
)
#: The table display (a phone propped up on the table, ``/g/<code>/table``) follows the game as
#: the read-only scoreboard does, with the same ETags and the same polling script.
TABLE_TEMPLATE = "games/table.html"
TABLE_STATIC = ("style.css", "chips.css", "table.css", "app.js", "scoreboard.js", "follow.js")
#: How many rendered scoreboards each process keeps, by ETag (a few MB at most).
RENDERED_SCOREBOARDS = 256
RENDERED_LOCK = threading.Lock()
#: What a scoreboard's ETag depends on in the database: built once, as every poll reads it.
#: A live round's unfinished trick changes its round's row, not the game's version: the time
#: that row last changed stands for it (at most one round is being played).
SCOREBOARD_STATE = (
    sa.select(
        Game.version,
        Game.edit_key_hash,
        Player.name,
        Round.updated_at.label("live"),
        Circle.name.label("circle"),
    )
    .join(Circle, Circle.id == Game.circle_id)
    .outerjoin(Seat, Seat.game_id == Game.id)
    .outerjoin(Player, Player.id == Seat.player_id)
    .outerjoin(
        Round,
        sa.and_(
            Round.game_id == Game.id,
            Round.mode == RoundMode.LIVE,
            Round.status == RoundStatus.PLAYING,
        ),
    )
    .where(Game.code == sa.bindparam("code"))
    .order_by(Seat.position)
)
SCOREBOARD_READ = PreparedRead(SCOREBOARD_STATE)


#: The live page's template, and the static files it links: it follows the other phones at
#: the table with the scoreboard's ETag, asked every few seconds by live.js.
LIVE_TEMPLATE = "games/live.html"
LIVE_STATIC = ("style.css", "chips.css", "play.css", "app.js", "live.js", "follow.js")


def live_etag(code: str, number: int, editing_only: bool = False) -> str | None:
    """The strong ETag (unquoted) of the live page of round ``number`` as this request would
    render it, or ``None`` when there is no such game; one query, no rendering.

    The live page shows what the editing scoreboard does of the game (the same state:
    the game's version, the live round's unfinished trick, the names, this device's edit
    rights and CSRF token), in its own templates: :func:`scoreboard_etag`'s parts, with the
    live page's templates and round number in place of the scoreboard's."""
    return page_etag(
        code, LIVE_TEMPLATE, LIVE_STATIC, f"live {number}", view=False, editing_only=editing_only
    )


def table_etag(code: str) -> str | None:
    """The strong ETag (unquoted) of the table display: what the read-only scoreboard shows,
    in the table display's own templates (see :func:`scoreboard_etag`)."""
    return page_etag(code, TABLE_TEMPLATE, TABLE_STATIC, "table", view=True)


def scoreboard_etag(code: str, view: bool) -> str | None:
    """The strong ETag (unquoted) of a scoreboard page as this request would render it, or
    ``None`` when there is no such game; one query, no rendering.

    The page shows the game (its version moves on with every change of the games row:
    rounds, tricks, status, exclusion, a new edit key), the cards of a live round's
    unfinished trick (its round's row), the players' names (a rename or a merge changes no
    game) and the circle's name, in this request's language, as the read-only view or as this
    device's scoreboard, with or without edit controls, under this request's scheme, host
    and script root (the links' beginning: a page made for another must never be shared).
    A page with edit controls holds a CSRF token, which expires: its tag also changes with
    the session's token and every half of the token's lifetime, so a revalidated page never
    carries an expired token.
    """
    kind = "view" if view else "board"
    return page_etag(code, SCOREBOARD_TEMPLATE, SCOREBOARD_STATIC, kind, view)


def page_etag(
    code: str,
    template: str,
    static: tuple[str, ...],
    kind: str,
    view: bool,
    editing_only: bool = False,
) -> str | None:
    """The ETag of a page of the game ``code`` that shows the game's state (see
    :func:`scoreboard_etag`), rendered from ``template`` linking ``static``; ``None`` when
    there is no such game, or (``editing_only``) this phone may not change it."""
    rows = SCOREBOARD_READ.rows(code=code)
    if not rows:
        return None
    held = None if view else held_key(code)
    opens = held is not None and hmac.compare_digest(rows[0].edit_key_hash, hash_edit_key(held))
    if editing_only and not opens:
        return None
    parts: list[object] = [
        templates_digest(template),
        linked_names(static),
        kind,
        # every link starts with the scheme, host and script root (URL_PREFIX); read as
        # they came, which names them as well as ``host_url`` at a fraction of its cost
        request.scheme,
        request.host,
        request.script_root,
        code,  # two games of the same players at the same version are still two pages
        rows[0].version,
        str(rows[0].live) if rows[0].live is not None else None,  # as the driver gives it
        [row.name for row in rows],
        rows[0].circle,  # a finished game's picture and BG Stats play name it
        select_locale(),  # what get_locale() parses: the same, without parsing it
        request.query_string.decode("latin-1"),  # the language switcher links back to it
        opens,
        held is not None and not opens,
    ]
    if opens:
        parts += [csrf_period(), hash_of(csrf_secret())]
    return hash_of(json.dumps(parts))[:32]


def csrf_secret() -> str:
    """The session's CSRF secret, which the page's token is signed from: made as the page
    would make it when the session has none yet. A session holding one keeps it, and the
    signed token is left for the page to make when it is rendered (Flask-WTF signs it
    anew at each request, which a poll answered from the kept page does not need)."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    secret = session.get(field)
    if not isinstance(secret, str):
        generate_csrf()
        secret = session.get(field)
    return str(secret)


def hash_of(text: str) -> str:
    """A hex digest of ``text``."""
    return hashlib.sha256(text.encode()).hexdigest()


def templates_digest(template: str = SCOREBOARD_TEMPLATE) -> str:
    """A digest of a page's templates, computed once per app."""
    digests: dict[str, str] = current_app.extensions.setdefault("page_templates", {})
    digest = digests.get(template)
    if digest is None:
        env = current_app.jinja_env
        assert env.loader is not None
        used = scoreboard_templates(template)
        sources = [env.loader.get_source(env, name)[0] for name in used]
        digest = hash_of("\0".join(sources))[:16]
        digests[template] = digest
    return digest


def scoreboard_templates(template: str = SCOREBOARD_TEMPLATE) -> list[str]:
    """A page's template (the scoreboard's by default) and every one it extends, includes
    or imports, found in the templates themselves, so a macro file added later counts too."""
    env = current_app.jinja_env
    assert env.loader is not None
    found = [template]
    for name in found:
        source = env.loader.get_source(env, name)[0]
        for used in meta.find_referenced_templates(env.parse(source)):
            if used is not None and used not in found:
                found.append(used)
    return found


def csrf_period() -> int:
    """Which half of the CSRF token's lifetime it is now (0 when tokens never expire)."""
    limit = current_app.config.get("WTF_CSRF_TIME_LIMIT", 3600)
    return int(time.time() // max(int(limit) // 2, 1)) if limit else 0


def cache_control(view: bool) -> str:
    """Browsers keep a scoreboard but ask each time whether it changed (the ETag makes that
    cheap); a device's own scoreboard depends on its cookie, so it is private."""
    return "no-cache" if view else "private, no-cache"


def rendered_pages() -> OrderedDict[str, bytes]:
    """This process's rendered scoreboards, most recently used last."""
    pages: OrderedDict[str, bytes] = current_app.extensions.setdefault(
        "scoreboard_pages", OrderedDict()
    )
    return pages


def rendered_page(tag: str) -> bytes | None:
    """The page already rendered for ``tag``, if this process still has it.

    The ETag covers everything a scoreboard shows (see :func:`scoreboard_etag`), so a page
    rendered once serves every phone that asks for the same tag: a table of phones
    following one game costs one rendering per change, not one per phone and poll.
    """
    with RENDERED_LOCK:
        page = rendered_pages().get(tag)
        if page is not None:
            rendered_pages().move_to_end(tag)
        return page


def keep_rendered(tag: str, page: str) -> bytes:
    """Remember a rendered scoreboard, forgetting the least recently used beyond the limit.
    It is kept encoded, as it is sent: the same bytes object every time, whose hash (the
    key of its kept gzip, ``compression.compressed``) Python computes once."""
    kept = page.encode()
    with RENDERED_LOCK:
        pages = rendered_pages()
        pages[tag] = kept
        pages.move_to_end(tag)
        while len(pages) > RENDERED_SCOREBOARDS:
            pages.popitem(last=False)
    return kept


def scoreboard_response(page: bytes, tag: str, view: bool) -> ResponseReturnValue:
    """A kept scoreboard page with its ETag (its gzip kept too) and cache rules."""
    response = kept_page_response(page, tag)
    response.headers["Cache-Control"] = cache_control(view)
    return response


def not_modified(tag: str, view: bool) -> ResponseReturnValue:
    """``304 Not Modified``: the page the device holds is still the right one."""
    response = current_app.response_class(status=304)
    response.set_etag(tag)
    response.headers["Cache-Control"] = cache_control(view)
    return response
