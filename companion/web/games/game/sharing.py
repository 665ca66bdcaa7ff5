"""The share page of a game: QR codes and links that bring other phones to the game, and a
new edit link that takes edit rights back.

Every phone that can see the game may pass on its read-only link, so every phone gets the
page; the edit link (and the form that replaces it) is shown only to a phone that holds the
edit rights, since whoever opens it may change the scores. The page holds that secret, so
it is never stored by a browser and never sent as a referrer.
"""

from __future__ import annotations

from flask import (
    flash,
    get_flashed_messages,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion import services
from companion.data.circles import CircleRef
from companion.data.models import Game, db
from companion.web.circle_rights import club_server, phone_circle
from companion.web.edit_rights import device_edit_key, game_to_change, remember_edit_key
from companion.web.games.blueprint import bp
from companion.web.games.game.forms import ConfirmForm

#: The flash category that tells the share page a new edit link was just made.
NEW_KEY_MADE = "edit-key-made"


@bp.route("/g/<code>/share", methods=["GET", "POST"])
def share(code: str) -> ResponseReturnValue:
    """The share page; its form makes a new edit link (post/redirect/get)."""
    form = ConfirmForm()
    if request.method == "POST":
        game = game_to_change(code)
        if form.validate_on_submit():
            return make_new_edit_link(game, form)
        return render_share(game, form, status=400)
    return render_share(services.get_game(code), form)


def make_new_edit_link(game: Game, form: ConfirmForm) -> ResponseReturnValue:
    """Replace the edit key: this phone keeps its rights with the new key, every other phone
    and the old link lose them. A stale page changes nothing and says why."""
    try:
        key = services.rotate_edit_key(game, form.seen_version())
    except services.StaleVersion:
        db.session.rollback()
        game = services.get_game(game.code)
        form.version.data = str(game.version)
        form.version.errors = [
            gettext(
                "This game changed on another phone meanwhile, so no new edit link was made. "
                "If you still want one, press the button again."
            )
        ]
        return render_share(game, form, status=409)
    db.session.commit()
    remember_edit_key(game, key)
    flash("new", NEW_KEY_MADE)
    return redirect(url_for("games.share", code=game.code))


def game_circle(game: Game) -> CircleRef | None:
    """The game's circle, for a phone in it (its invite link is on the circles page);
    ``None`` for any other phone, and on a club server, where every phone is in it."""
    return None if club_server() else phone_circle(game.circle_id)


def render_share(game: Game, form: ConfirmForm, status: int = 200) -> ResponseReturnValue:
    """The page: the read-only link for everyone, the edit link for an editing phone."""
    edit_key = device_edit_key(game)
    if not form.is_submitted() or not form.version.data:
        form.version.data = str(game.version)
    page = render_template(
        "games/share.html",
        code=game.code,
        names=[seat.player.name for seat in game.seats],
        view_url=url_for("games.view", code=game.code, _external=True),
        edit_url=(
            url_for("games.grant_edit", code=game.code, key=edit_key, _external=True)
            if edit_key
            else None
        ),
        back_url=url_for("games.scoreboard" if edit_key else "games.view", code=game.code),
        circle=game_circle(game),
        form=form,
        new_key_made=bool(edit_key and get_flashed_messages(category_filter=[NEW_KEY_MADE])),
    )
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
