"""Pages of a whole game: new game, scoreboard, read-only view, edit link, play again,
abandon, delete.

Every change goes through ``companion.services`` and follows post/redirect/get. A page that
changes a game needs this device to hold the game's edit key (``companion.web.edit_rights``)
and the version the player saw: if another phone changed the game meanwhile, nothing is
overwritten and the current scoreboard is shown with a warning.

The scoreboards answer conditional GETs: their ETag comes from the game's version and
whatever else changes the page (view or edit variant, language, this phone's edit rights),
read with one cheap query, so the phones that poll a scoreboard (static/scoreboard.js) get
an empty ``304 Not Modified`` until something changes, without the page being rendered.
The share page (QR codes, the edit link, a new edit link) is in ``sharing``.
"""

from __future__ import annotations

import json

from flask import abort, make_response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion import services
from companion.data import queries
from companion.data.models import Game, db
from companion.data.states import GameStatus
from companion.read_models.messages import render_message
from companion.services import idempotent_answers
from companion.services.circles import circle_name_for, new_circle
from companion.services.keys import new_edit_key
from companion.web.circle_rights import (
    circles_of_phone,
    club_server,
    phone_start_in,
    remember_invite,
    shown_circle,
    use_circle,
)
from companion.web.edit_rights import (
    can_edit,
    game_to_change,
    held_key,
    next_key_of,
    remember_edit_key,
    take_on_rights,
)
from companion.web.errors import (
    Link,
    PageArea,
    back_to_game,
    game_in_request,
    home,
    refusals,
    register_page_errors,
)
from companion.web.games.blueprint import bp
from companion.web.games.game import sharing
from companion.web.games.game.forms import PRESET_EXPLANATIONS, ConfirmForm, NewGameForm
from companion.web.phone_id import phone_holder, phone_id
from companion.web.rate_limits import limit_game_starts
from companion.web.save_notice import remember_edit_rights, take_saved
from companion.web.scoreboard_cache import (
    not_modified,
    rendered_page,
    scoreboard_etag,
    scoreboard_response,
)
from companion.web.scoreboard_page import (
    game_scoreboard,
    game_template_helpers,
    render_scoreboard,
)

#: The confirmation pages, by endpoint.
CONFIRM_ACTIONS = {"games.abandon_game": "abandon", "games.delete_game": "delete"}


bp.context_processor(game_template_helpers)


# --------------------------------------------------------------------------------------------
# New game


@bp.route("/games/new", methods=["GET", "POST"])
@limit_game_starts
def new_game() -> ResponseReturnValue:
    """Seat the players, choose the variant and start the game (R2, R3, R11). The phone is
    given its id here (``phone_id``), before it may ever start a game offline on this page:
    the outbox sends that start with it, and a start sent again is told apart by it."""
    phone_id(make=True)
    form = new_game_form()
    if form.validate_on_submit():
        game = create_game_from(form)
        if game is not None:
            return redirect(url_for("games.scoreboard", code=game.code))
    status = 400 if form.is_submitted() else 200
    return render_new_game(form), status


def new_game_form() -> NewGameForm:
    """The new-game form, offering the circles this phone is in (none on a club server,
    where every game joins the server's one circle)."""
    form = NewGameForm()
    if not club_server():
        form.offer_circles(circles_of_phone(), shown_circle())
    return form


def render_new_game(form: NewGameForm) -> str:
    """The new-game page, with the names known in the circle it offers first as
    suggestions (names are matched within a circle)."""
    circle = shown_circle()
    return render_template(
        "games/new.html",
        form=form,
        known_names=[] if circle is None else services.suggest_players(circle.id),
        explanations=PRESET_EXPLANATIONS,
        club=club_server(),
    )


def create_game_from(form: NewGameForm) -> Game | None:
    """Create the game the form describes and give this device its edit key; on a refusal,
    put the reason next to the field it concerns (the players by default), save nothing
    and answer ``None``."""
    names = form.seat_names()
    start = phone_start_in(form.chosen_circle())
    if start is None:
        form.circle.errors = [
            gettext("This phone is no longer in that circle: choose another, or a new one.")
        ]
        return None
    invite = None
    circle_id = start.circle_id
    with refusals() as refused:
        if start.new:  # a new circle, named after its players
            invite = new_circle(circle_name_for(names))
            circle_id = invite[0].id
        game, key = services.create_game(
            names,
            form.chosen_variant(),
            form.rounds_chosen(),
            form.first_leader_seat(),
            circle_id=circle_id,
        )
    if refused.refusal is not None:
        message = render_message(refused.refusal.message, names)
        add_form_error(form, refused.refusal.field or "players", message)
        return None
    db.session.commit()
    remember_edit_key(game, key)
    if invite is not None:
        remember_invite(*invite)
    use_circle(game.circle_id)
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
    return scoreboard_answer(code, view=False)


@bp.get("/g/<code>/view")
def view(code: str) -> ResponseReturnValue:
    """The read-only scoreboard that the share link opens: no control, no edit key."""
    return scoreboard_answer(code, view=True)


def scoreboard_answer(code: str, *, view: bool) -> ResponseReturnValue:
    """A scoreboard (``view``: the read-only one): ``304`` when the phone's copy is current,
    else the page as last rendered, else the page rendered now. A save this phone just made
    is confirmed on a page rendered for it alone (neither cached nor shared)."""
    saved = None if view else take_saved(code)
    if saved is not None:
        game = services.get_game(code)
        return render_scoreboard(game, editable=can_edit(game), saved=saved)
    tag = scoreboard_etag(code, view=view)
    if tag is not None and request.if_none_match.contains_weak(tag):
        return not_modified(tag, view=view)
    if tag is not None and (page := rendered_page(tag)) is not None:
        return scoreboard_response(page, tag, view=view)
    game = services.get_game(code)
    return render_scoreboard(game, editable=not view and can_edit(game), view=view, etag=tag)


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
    remember_edit_rights(game.code)
    response = redirect(url_for("games.scoreboard", code=game.code))
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


# --------------------------------------------------------------------------------------------
# Play again


@bp.post("/g/<code>/again")
@limit_game_starts
def play_again(code: str) -> ResponseReturnValue:
    """Start the table's next game (same players, seats, variant and rounds; the deal passed
    on, R3) and open it where the table goes on: marking the colours, or its scoreboard when
    the variant lays out no indicator. The phone that starts it keeps the score. A later
    press, here or on another phone, opens the game already started: a table plays one next
    game, and this phone gets its edit rights too (``take_on_rights``)."""
    game = game_to_change(code)
    if game.status == GameStatus.IN_PROGRESS:  # a page from another game's end: nothing to do
        return redirect(url_for("games.scoreboard", code=game.code))
    # the next game's key is derived from this phone's, so every phone holding it gets it
    following, key = services.play_again(game, lambda new: next_key_of(game, new) or new_edit_key())
    db.session.commit()
    if key is not None:
        remember_edit_key(following, key)
        if queries.setup_of(following).cards_laid_out > 0:
            return redirect(url_for("games.mark_colours", code=following.code))
        return redirect(url_for("games.scoreboard", code=following.code))
    if take_on_rights(game, following):  # started by another phone of the table
        return redirect(url_for("games.scoreboard", code=following.code))
    return redirect(url_for("games.next_game", code=game.code))


@bp.get("/g/<code>/next")
def next_game(code: str) -> ResponseReturnValue:
    """The way from a game's end to the table's next game ("Go to the next game"). A phone
    that holds a key still opening this game gets the next game's edit rights too, whoever
    started it (``take_on_rights``); any other phone is told how to get them, beside the
    way to look at the game."""
    game = services.get_game(code)
    following = db.session.get(Game, game.next_game_id) if game.next_game_id else None
    if following is None:
        return redirect(url_for("games.scoreboard", code=game.code))
    if take_on_rights(game, following):
        return redirect(url_for("games.scoreboard", code=following.code))
    page = render_template(
        "games/next_game.html",
        view_url=url_for("games.view", code=following.code),
        lost=held_key(game.code) is not None,
    )
    response = make_response(page, 200)
    response.headers["Cache-Control"] = "no-store"
    return response


#: The round pages a phone may open of a next game it started offline.
NEXT_GAME_PAGES = {
    "record": "games.record_round",
    "mark": "games.mark_colours",
    "live": "games.start_live_round",
}


@bp.get("/g/<code>/next/rounds/<any(record, mark, live):page>")
@bp.get("/g/<code>/next/rounds/<int:number>/live", defaults={"page": "live"})
def next_game_round(code: str, page: str, number: int | None = None) -> ResponseReturnValue:
    """A round page of the table's next game under the address a phone gave it while the
    server did not have that game yet (offline play again, static/offline_play.js): the
    same page of the game the server started, once it has (``number``: the live page of
    that round); else the way to the next game."""
    game = services.get_game(code)
    following = db.session.get(Game, game.next_game_id) if game.next_game_id else None
    if following is None:
        return redirect(url_for("games.next_game", code=game.code))
    return redirect(round_page_of(following.code, page, number))


def round_page_of(code: str, page: str | None, number: int | None) -> str:
    """The address of a page of the game ``code``: its scoreboard (no ``page``), a round page
    (``page``), or the live page of round ``number``."""
    if number is not None:
        return url_for("games.live_round", code=code, number=number)
    return url_for(NEXT_GAME_PAGES[page] if page else "games.scoreboard", code=code)


@bp.get("/games/new/<key>", defaults={"page": None})
@bp.get("/games/new/<key>/rounds/<any(record, mark, live):page>")
@bp.get("/games/new/<key>/rounds/<int:number>/live", defaults={"page": "live"})
def started_offline(key: str, page: str | None, number: int | None = None) -> ResponseReturnValue:
    """A page of a game started on a phone with no network, under the address the phone gave
    it (static/offline_play.js): the same page of the game once the phone's outbox sent it
    (its start's idempotency key is ``key``; ``number``: the live page of that round); until
    then, where it is (on that phone). Only that phone is led to the game: the address means
    nothing to any other (``phone_id``); the logs never write the key
    (``request_logs``)."""
    answer = None
    holder = phone_holder()
    if idempotent_answers.KEY_PATTERN.fullmatch(key) and holder is not None:
        create = url_for("api.create_game")[len(request.script_root) :]
        answer = idempotent_answers.started_answer(key, create, holder)
    if answer is None:
        abort(
            404,
            description=gettext(
                "This game was started on a phone with no network, and that phone has not "
                "sent it yet. It will be here as soon as that phone is back online."
            ),
        )
    code = json.loads(answer, strict=False)["id"]  # (a placeholder stands for its edit key)
    return redirect(round_page_of(code, page, number))


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
        "games/confirm.html", board=game_scoreboard(game), form=form, action=action
    )
    return page, status


# --------------------------------------------------------------------------------------------
# Errors of the game pages (answered by ``companion.web.errors``; the API keeps its JSON)


def form_again(message: str) -> ResponseReturnValue | None:
    """A form sent without its valid CSRF token (expired page, or sent from elsewhere):
    show the form again with the reason, so the player can simply send it again; ``None``
    on a page without such a form."""
    if request.endpoint == "games.new_game":
        form = new_game_form()
        form.csrf_token.errors = [message]
        return render_new_game(form), 400
    if request.endpoint == "games.share":
        game = game_in_request()
        if game is not None:
            form = ConfirmForm()
            form.csrf_token.errors = [message]
            return sharing.render_share(game, form, status=400)
    confirming = CONFIRM_ACTIONS.get(request.endpoint or "")
    game = game_in_request() if confirming else None
    if confirming and game is not None and can_edit(game):
        form = ConfirmForm()
        form.version.errors = [message]
        return render_confirm(game, form, confirming)
    return None


def ways_back(status: int) -> list[Link]:
    """The ways back from an error page: the game if there is one, home, a new game."""
    return [*back_to_game(status), home(), (url_for("games.new_game"), gettext("New game"))]


register_page_errors(
    bp,
    PageArea(ways_back=ways_back, form_again=form_again, about_games=True),
)
