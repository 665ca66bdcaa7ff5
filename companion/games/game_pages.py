"""Pages of a whole game: new game, scoreboard, read-only view, edit link, abandon, delete.

Every change goes through ``companion.services`` and follows post/redirect/get. A page that
changes a game needs this device to hold the game's edit key (``companion.edit_rights``)
and the version the player saw: if another phone changed the game meanwhile, nothing is
overwritten and the current scoreboard is shown with a warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import segno
from flask import (
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from markupsafe import Markup
from werkzeug.exceptions import Forbidden, HTTPException
from werkzeug.routing import BuildError

from companion import services
from companion.charts import cumulative_chart
from companion.edit_rights import can_edit, device_edit_key, remember_edit_key
from companion.error_pages import back_to_game, error_page, home
from companion.games import bp
from companion.games.game_forms import PRESET_EXPLANATIONS, ConfirmForm, NewGameForm
from companion.games.queries import Scoreboard, scoreboard_of
from companion.messages import render_message, signed_number
from companion.models import Game, Round, db
from companion.rules import RuleError
from companion.rules.errors import PlayerCountError, UnknownVariantError

#: The confirmation pages, by endpoint.
CONFIRM_ACTIONS = {"games.abandon_game": "abandon", "games.delete_game": "delete"}
#: Where a refusal of ``services.create_game`` is shown on the new-game form.
CREATE_ERROR_FIELDS = {PlayerCountError: "players", UnknownVariantError: "variant"}


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


def require_edit_rights(game: Game) -> None:
    """Refuse (403) a change from a device that does not hold the game's edit key."""
    if not can_edit(game):
        abort(
            403,
            description=gettext(
                "This phone may only look at this game. Open the game's edit link on this "
                "phone to change it."
            ),
        )


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
    game = services.get_game(code)
    return render_scoreboard(game, editable=can_edit(game))


@bp.get("/g/<code>/view")
def view(code: str) -> ResponseReturnValue:
    """The read-only scoreboard that the share link opens: no control, no edit key."""
    return render_scoreboard(services.get_game(code), editable=False)


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
    if board.status != "abandoned":
        for row in board.rows:
            url = row.is_scored and page_url(
                "games.correct_round", code=board.code, number=row.number
            )
            if url:
                corrections.append((row.number, url))
    return EditActions(mark_url, record_url, corrections, live_url, continue_live_url)


def render_scoreboard(
    game: Game, editable: bool, conflict: bool = False, status: int = 200
) -> ResponseReturnValue:
    """The scoreboard page; an editable one holds the edit link, so it is never cached."""
    edit_key = device_edit_key(game) if editable else None
    board = scoreboard_of(game)
    playing = services.playing_round(game)
    live = playing if playing is not None and playing.mode == "live" else None
    page = render_template(
        "games/scoreboard.html",
        board=board,
        editable=edit_key is not None,
        actions=edit_actions(board, live) if edit_key else None,
        live_round=live,
        conflict=conflict,
        share_url=url_for("games.view", code=game.code, _external=True),
        edit_url=(
            url_for("games.grant_edit", code=game.code, key=edit_key, _external=True)
            if edit_key
            else None
        ),
    )
    response = make_response(page, status)
    if edit_key:
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/g/<code>/edit/<key>")
def grant_edit(code: str, key: str) -> ResponseReturnValue:
    """The edit link: a phone that opens it may change the game from then on."""
    game = services.get_game(code)
    if not services.key_opens(game, key):
        abort(
            403,
            description=gettext(
                "This edit link does not open this game. Ask the phone that keeps the score "
                "for the game's edit link again."
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
    game = services.get_game(code, for_update=request.method == "POST")
    require_edit_rights(game)
    if game.status != "in_progress":
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
    game = services.get_game(code, for_update=request.method == "POST")
    require_edit_rights(game)
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
def show_conflict(_error: services.StaleVersion) -> ResponseReturnValue:
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
    return render_error(404, gettext("Page not found"), gettext("There is no such page."))


@bp.errorhandler(CSRFError)
def show_expired_form(_error: CSRFError) -> ResponseReturnValue:
    """A form sent without its valid CSRF token (expired page, or sent from elsewhere):
    show the form again with the reason, so the player can simply send it again."""
    message = gettext(
        "This form has expired or did not come from this page; nothing was saved. "
        "Please check it and send it again."
    )
    db.session.rollback()
    if request.endpoint == "games.new_game":
        form = NewGameForm()
        form.csrf_token.errors = [message]
        return render_new_game(form), 400
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
