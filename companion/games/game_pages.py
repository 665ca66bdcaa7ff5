"""Pages of a whole game: new game, scoreboard, read-only view, edit link, abandon, delete.

Every change goes through ``companion.services`` and follows post/redirect/get. A page that
changes a game needs this device to hold the game's edit key (``companion.edit_rights``)
and the version the player saw: if another phone changed the game meanwhile, nothing is
overwritten and the current scoreboard is shown with a warning.

The scoreboards answer conditional GETs: their ETag comes from the game's version and
whatever else changes the page (view or edit variant, language, this phone's edit rights),
read with one cheap query, so the phones that poll a scoreboard (static/scoreboard.js) get
an empty ``304 Not Modified`` until something changes, without the page being rendered.
The share page (QR codes, the edit link, a new edit link) is in ``share_pages``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import segno
import sqlalchemy as sa
from flask import (
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import get_locale, gettext
from flask_wtf.csrf import CSRFError, generate_csrf
from markupsafe import Markup
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import Forbidden, HTTPException
from werkzeug.http import quote_etag
from werkzeug.routing import BuildError

from companion import services
from companion.assets import linked_name
from companion.charts import cumulative_chart
from companion.database import read_once
from companion.edit_rights import (
    can_edit,
    device_edit_key,
    edit_rights_lost,
    game_to_change,
    held_key,
    remember_edit_key,
)
from companion.error_pages import (
    back_to_game,
    error_page,
    expired_form_message,
    home,
    not_found_text,
)
from companion.games import bp
from companion.games.game_forms import PRESET_EXPLANATIONS, ConfirmForm, NewGameForm
from companion.games.queries import Scoreboard, scoreboard_of
from companion.messages import render_message, signed_number
from companion.models import Game, Player, Round, Seat, db
from companion.rules import RuleError
from companion.rules.errors import PlayerCountError, UnknownVariantError
from companion.states import GameStatus, RoundMode

#: The confirmation pages, by endpoint.
CONFIRM_ACTIONS = {"games.abandon_game": "abandon", "games.delete_game": "delete"}
#: Where a refusal of ``services.create_game`` is shown on the new-game form.
CREATE_ERROR_FIELDS = {PlayerCountError: "players", UnknownVariantError: "variant"}
#: Templates whose source shapes a scoreboard page: a deployment with other templates gets
#: other ETags, so no phone keeps showing a page of the old ones.
SCOREBOARD_TEMPLATES = ("base.html", "games/scoreboard.html", "games/game_macros.html")
#: Static files a scoreboard links: their URLs may change with their content.
SCOREBOARD_STATIC = ("style.css", "scoreboard.css", "app.js", "scoreboard.js", "wake_lock.js")
#: How many rendered scoreboards each process keeps, by ETag (a few MB at most).
RENDERED_SCOREBOARDS = 256
RENDERED_LOCK = threading.Lock()
#: What a scoreboard's ETag depends on in the database: built once, as every poll reads it.
SCOREBOARD_STATE = (
    sa.select(Game.version, Game.edit_key_hash, Player.name)
    .outerjoin(Seat, Seat.game_id == Game.id)
    .outerjoin(Player, Player.id == Seat.player_id)
    .where(Game.code == sa.bindparam("code"))
    .order_by(Seat.position)
)


# --------------------------------------------------------------------------------------------
# Helpers shared by the game templates


def page_url(endpoint: str, **values: Any) -> str | None:
    """The URL of a page, or ``None`` while that page does not exist (yet): the round pages
    are built separately, and a missing one must hide its button, not break the scoreboard."""
    if endpoint not in current_app.view_functions:
        return None
    try:
        return url_for(endpoint, **values)
    except BuildError:
        return None


def qr_svg(url: str) -> Markup:
    """A QR code of ``url`` as inline SVG (no image request, no third party); dark on white
    in both colour schemes, since scanners need that contrast."""
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=4, dark="#000", light="#fff", omitsize=True))


@bp.context_processor
def game_template_helpers() -> dict[str, Any]:
    """Give the game templates their helpers."""
    return {
        "page_url": page_url,
        "signed": signed_number,
        "qr_svg": qr_svg,
        "cumulative_chart": cumulative_chart,
    }


# --------------------------------------------------------------------------------------------
# New game


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> ResponseReturnValue:
    """Seat the players, choose the variant and start the game (R2, R3, R11)."""
    form = NewGameForm()
    if form.validate_on_submit():
        game = create_game_from(form)
        if game is not None:
            return redirect(url_for("games.scoreboard", code=game.code))
    status = 400 if form.is_submitted() else 200
    return render_new_game(form), status


def render_new_game(form: NewGameForm) -> str:
    """The new-game page, with the names already known offered as suggestions."""
    return render_template(
        "games/new.html",
        form=form,
        known_names=services.suggest_players(),
        explanations=PRESET_EXPLANATIONS,
    )


def create_game_from(form: NewGameForm) -> Game | None:
    """Create the game the form describes and give this device its edit key; on a refusal,
    put the reason next to the field concerned, save nothing and answer ``None``."""
    names = form.seat_names()
    try:
        game, key = services.create_game(
            names, form.chosen_variant(), form.rounds.data, form.first_leader_seat()
        )
    except RuleError as error:
        db.session.rollback()
        field = CREATE_ERROR_FIELDS.get(
            type(error), "rounds" if "rounds" in error.message.params else "players"
        )
        add_form_error(form, field, render_message(error.message, names))
        return None
    except services.ServiceError as error:
        db.session.rollback()
        field = "first_leader" if "first leader" in error.message else "players"
        add_form_error(form, field, render_message(error.text, names))
        return None
    db.session.commit()
    remember_edit_key(game, key)
    return game


def add_form_error(form: NewGameForm, field: str, message: str) -> None:
    """Show ``message`` next to ``field`` of the new-game form."""
    if field == "players":
        form.add_players_error(message)
    else:
        form[field].errors = [*form[field].errors, message]


# --------------------------------------------------------------------------------------------
# Scoreboard, read-only view and edit link


@bp.get("/g/<code>")
def scoreboard(code: str) -> ResponseReturnValue:
    """The scoreboard, with edit controls on a device holding the edit key."""
    tag = scoreboard_etag(code, view=False)
    if tag is not None and request.if_none_match.contains_weak(tag):
        return not_modified(tag, view=False)
    if tag is not None and (page := rendered_page(tag)) is not None:
        return scoreboard_response(page, tag, view=False)
    game = services.get_game(code)
    return render_scoreboard(game, editable=can_edit(game), etag=tag)


@bp.get("/g/<code>/view")
def view(code: str) -> ResponseReturnValue:
    """The read-only scoreboard that the share link opens: no control, no edit key."""
    tag = scoreboard_etag(code, view=True)
    if tag is not None and request.if_none_match.contains_weak(tag):
        return not_modified(tag, view=True)
    if tag is not None and (page := rendered_page(tag)) is not None:
        return scoreboard_response(page, tag, view=True)
    return render_scoreboard(services.get_game(code), editable=False, view=True, etag=tag)


def scoreboard_etag(code: str, view: bool) -> str | None:
    """The strong ETag (unquoted) of a scoreboard page as this request would render it, or
    ``None`` when there is no such game; one query, no rendering.

    The page shows the game (its version moves on with every change of the games row:
    rounds, tricks, status, exclusion, a new edit key) and the players' names (a rename or a
    merge changes no game), in this request's language, as the read-only view or as this
    device's scoreboard, with or without edit controls, under this request's scheme, host
    and script root (the links' beginning: a page made for another must never be shared).
    A page with edit controls holds a CSRF token, which expires: its tag also changes with
    the session's token and every half of the token's lifetime, so a revalidated page never
    carries an expired token.
    """
    rows = read_once(SCOREBOARD_STATE, code=code)
    if not rows:
        return None
    held = None if view else held_key(code)
    opens = held is not None and hmac.compare_digest(
        rows[0].edit_key_hash, services.hash_edit_key(held)
    )
    parts: list[object] = [
        templates_digest(),
        [linked_name(name) for name in SCOREBOARD_STATIC],
        "view" if view else "board",
        request.host_url,  # every link starts with the script root (URL_PREFIX)
        code,  # two games of the same players at the same version are still two pages
        rows[0].version,
        [row.name for row in rows],
        str(get_locale()),
        request.query_string.decode("latin-1"),  # the language switcher links back to it
        opens,
        held is not None and not opens,
    ]
    if opens:
        generate_csrf()  # as the page would: the session's token is then the page's
        field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
        parts += [csrf_period(), hash_of(str(session.get(field, "")))]
    return hash_of(json.dumps(parts))[:32]


def hash_of(text: str) -> str:
    """A hex digest of ``text``."""
    return hashlib.sha256(text.encode()).hexdigest()


def templates_digest() -> str:
    """A digest of the scoreboard's templates, computed once per app."""
    digest: str | None = current_app.extensions.get("scoreboard_templates")
    if digest is None:
        env = current_app.jinja_env
        assert env.loader is not None
        sources = [env.loader.get_source(env, name)[0] for name in SCOREBOARD_TEMPLATES]
        digest = hash_of("\0".join(sources))[:16]
        current_app.extensions["scoreboard_templates"] = digest
    return digest


def csrf_period() -> int:
    """Which half of the CSRF token's lifetime it is now (0 when tokens never expire)."""
    limit = current_app.config.get("WTF_CSRF_TIME_LIMIT", 3600)
    return int(time.time() // max(int(limit) // 2, 1)) if limit else 0


def cache_control(view: bool) -> str:
    """Browsers keep a scoreboard but ask each time whether it changed (the ETag makes that
    cheap); a device's own scoreboard depends on its cookie, so it is private."""
    return "no-cache" if view else "private, no-cache"


def rendered_pages() -> OrderedDict[str, str]:
    """This process's rendered scoreboards, most recently used last."""
    pages: OrderedDict[str, str] = current_app.extensions.setdefault(
        "scoreboard_pages", OrderedDict()
    )
    return pages


def rendered_page(tag: str) -> str | None:
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


def keep_rendered(tag: str, page: str) -> None:
    """Remember a rendered scoreboard, forgetting the least recently used beyond the limit."""
    with RENDERED_LOCK:
        pages = rendered_pages()
        pages[tag] = page
        pages.move_to_end(tag)
        while len(pages) > RENDERED_SCOREBOARDS:
            pages.popitem(last=False)


def scoreboard_response(page: str, tag: str, view: bool) -> ResponseReturnValue:
    """A scoreboard page with its ETag and cache rules."""
    response = make_response(page, 200)
    response.set_etag(tag)
    response.headers["Cache-Control"] = cache_control(view)
    return response


def not_modified(tag: str, view: bool) -> ResponseReturnValue:
    """``304 Not Modified``: the page the device holds is still the right one."""
    response = current_app.response_class(status=304)
    response.set_etag(tag)
    response.headers["Cache-Control"] = cache_control(view)
    return response


@dataclass(frozen=True)
class EditActions:
    """The changes an editing device is offered on the scoreboard (each page only if it
    exists: the round pages are built separately)."""

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
        continue_live_url = page_url("games.live_round", code=board.code, number=live.number)
    elif next_round is not None:
        if next_round.lays_out_indicators and not next_round.colours_marked:
            mark_url = page_url("games.mark_colours", code=board.code)
        record_url = page_url("games.record_round", code=board.code)
        live_url = page_url("games.start_live_round", code=board.code)
    corrections = []
    if board.status != GameStatus.ABANDONED:
        for row in board.rows:
            url = row.is_scored and page_url(
                "games.correct_round", code=board.code, number=row.number
            )
            if url:
                corrections.append((row.number, url))
    return EditActions(mark_url, record_url, corrections, live_url, continue_live_url)


def render_scoreboard(
    game: Game,
    editable: bool,
    conflict: bool = False,
    status: int = 200,
    view: bool = False,
    etag: str | None = None,
) -> ResponseReturnValue:
    """The scoreboard page (``view``: the read-only one at the share link). It holds no
    secret (the edit link is on the share page), so browsers may keep it and revalidate it
    with its ETag; a refusal's page (``status`` other than 200) is never kept."""
    editable = editable and device_edit_key(game) is not None
    board = scoreboard_of(game)
    playing = services.playing_round(game)
    live = playing if playing is not None and playing.mode == RoundMode.LIVE else None
    if etag is None:
        etag = scoreboard_etag(game.code, view)
    page = render_template(
        "games/scoreboard.html",
        board=board,
        editable=editable,
        actions=edit_actions(board, live) if editable else None,
        live_round=live,
        conflict=conflict,
        rights_lost=not view and edit_rights_lost(game),
        poll_url=url_for("games.view" if view else "games.scoreboard", code=game.code),
        etag=quote_etag(etag) if etag else "",
        share_page_url=url_for("games.share", code=game.code),
    )
    if status == 200 and etag and not conflict:
        keep_rendered(etag, page)
        return scoreboard_response(page, etag, view)
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/g/<code>/edit/<key>")
def grant_edit(code: str, key: str) -> ResponseReturnValue:
    """The edit link: a phone that opens it may change the game from then on."""
    game = services.get_game(code)
    if not services.key_opens(game, key):
        abort(
            403,
            description=gettext(
                "This edit link does not open this game. It may be incomplete, or a new edit "
                "link was made since. Ask the phone that keeps the score for the game's edit "
                "link again."
            ),
        )
    remember_edit_key(game, key)
    response = redirect(url_for("games.scoreboard", code=game.code))
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


# --------------------------------------------------------------------------------------------
# Abandon and delete, each behind a confirmation


@bp.route("/g/<code>/abandon", methods=["GET", "POST"])
def abandon_game(code: str) -> ResponseReturnValue:
    """Stop the game early; its rounds stay in the history."""
    game = game_to_change(code, lock=request.method == "POST")
    if game.status != GameStatus.IN_PROGRESS:
        return redirect(url_for("games.scoreboard", code=game.code))
    form = ConfirmForm()
    if form.validate_on_submit():
        services.abandon_game(game, form.seen_version())
        db.session.commit()
        return redirect(url_for("games.scoreboard", code=game.code))
    return render_confirm(game, form, "abandon")


@bp.route("/g/<code>/delete", methods=["GET", "POST"])
def delete_game(code: str) -> ResponseReturnValue:
    """Remove the game and its rounds for good, then go home."""
    game = game_to_change(code, lock=request.method == "POST")
    form = ConfirmForm()
    if form.validate_on_submit():
        services.delete_game(game, form.seen_version())
        db.session.commit()
        return redirect(url_for("main.index"))
    return render_confirm(game, form, "delete")


def render_confirm(game: Game, form: ConfirmForm, action: str) -> ResponseReturnValue:
    """The "are you sure" page; its form carries the version the player is looking at."""
    if not form.is_submitted():
        form.version.data = str(game.version)
    status = 400 if form.is_submitted() else 200
    page = render_template(
        "games/confirm.html", board=scoreboard_of(game), form=form, action=action
    )
    return page, status


# --------------------------------------------------------------------------------------------
# Errors of the game pages (the API keeps its JSON errors: these apply to this blueprint only)


@bp.errorhandler(services.StaleVersion)
@bp.errorhandler(StaleDataError)  # SQLite takes no row lock: a lost race fails at flush
def show_conflict(_error: Exception) -> ResponseReturnValue:
    """Another phone changed the game: change nothing, show the current scoreboard."""
    db.session.rollback()
    game = game_in_request()
    if game is None:
        return show_missing_game()
    return render_scoreboard(game, editable=can_edit(game), conflict=True, status=409)


def game_in_request() -> Game | None:
    """The game the failed request was about, if it (still) exists: error handlers must
    not raise, so a game deleted meanwhile answers ``None``."""
    code = (request.view_args or {}).get("code")
    try:
        return services.get_game(str(code)) if code else None
    except services.NotFound:
        return None


@bp.errorhandler(services.NotFound)
def show_missing_game(_error: services.NotFound | None = None) -> ResponseReturnValue:
    """An unknown game code (a mistyped or deleted game)."""
    db.session.rollback()
    message = gettext(
        "There is no game at this address. It may have been deleted, or the link was "
        "copied incompletely."
    )
    return render_error(404, gettext("Game not found"), message)


@bp.errorhandler(Forbidden)
def show_forbidden(error: Forbidden) -> ResponseReturnValue:
    """A change this device has no right to make."""
    message = error.description if error.description != Forbidden.description else None
    return render_error(
        403,
        gettext("Not allowed from this phone"),
        message or gettext("This phone may only look at this game."),
    )


@bp.errorhandler(404)
def show_not_found(_error: HTTPException) -> ResponseReturnValue:
    """A page of the game area that does not exist."""
    return render_error(404, *not_found_text())


@bp.errorhandler(CSRFError)
def show_expired_form(_error: CSRFError) -> ResponseReturnValue:
    """A form sent without its valid CSRF token (expired page, or sent from elsewhere):
    show the form again with the reason, so the player can simply send it again."""
    message = expired_form_message()
    db.session.rollback()
    if request.endpoint == "games.new_game":
        form = NewGameForm()
        form.csrf_token.errors = [message]
        return render_new_game(form), 400
    if request.endpoint == "games.share":
        game = game_in_request()
        if game is not None:
            form = ConfirmForm()
            form.csrf_token.errors = [message]
            return share_pages.render_share(game, form, status=400)
    confirming = CONFIRM_ACTIONS.get(request.endpoint or "")
    game = game_in_request() if confirming else None
    if confirming and game is not None and can_edit(game):
        form = ConfirmForm()
        form.version.errors = [message]
        return render_confirm(game, form, confirming)
    return render_error(400, gettext("Please try again"), message)


def render_error(status: int, title: str, message: str) -> ResponseReturnValue:
    """A friendly error page, with a way back to the game if there is one."""
    links = [*back_to_game(status), home(), (url_for("games.new_game"), gettext("New game"))]
    return error_page(status, title, message, links)


from companion.games import share_pages  # noqa: E402  (its routes; it uses the helpers above)
