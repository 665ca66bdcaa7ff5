"""The circles page and the invite link.

A circle's invite link (``/circles/<id>/join/<secret>``) lets the phone that opens it into
the circle: it sees the circle's history, players and statistics, may fix their names, and
may start games in it. The page lists the circles this phone is in; for each, the invite
link and its QR code when this phone holds the circle's secret (it started the circle, or
joined it by invite). A phone in a circle through a game's edit link does not know the
secret, which is stored only as a hash: it may make a new invite link, which ends the old
one as a new edit link ends the old edit link. The page holds secrets, so it is never
stored by a browser and never sent as a referrer.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import (
    abort,
    flash,
    get_flashed_messages,
    make_response,
    redirect,
    render_template,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion.data.models import db
from companion.data.names import clean_name
from companion.read_models.messages import render_message
from companion.services.circles import (
    PhoneCircle,
    circle_of_invite,
    circles_counted,
    invite_opens,
    new_invite,
    rename_circle,
)
from companion.services.player_changes import PAGE
from companion.web.circle_rights import (
    circles_of_phone,
    club_server,
    held_invite,
    in_circle,
    last_circle_id,
    phone_circle,
    remember_invite,
)
from companion.web.circles import bp
from companion.web.circles.forms import NewInviteForm, RenameCircleForm
from companion.web.errors import Link, PageArea, home, refusals, register_page_errors
from companion.web.scoreboard_page import qr_svg

#: Flash categories: the circle this phone just joined, and a new invite link just made.
JOINED = "circle-joined"
INVITE_MADE = "circle-invite-made"


@dataclass(frozen=True)
class CircleCard:
    """One circle on the page: its counts, its invite link if this phone can show it, and
    whether it is the circle this phone used last."""

    circle: PhoneCircle
    invite_url: str | None
    last: bool


def circle_cards() -> list[CircleCard]:
    """The circles this phone is in, each as the page shows it."""
    phone = circles_of_phone()
    counted = circles_counted([circle.id for circle in phone])
    last = last_circle_id()
    cards = []
    for circle in counted:
        secret = held_invite(circle.id)
        opens = secret is not None and invite_opens(circle.secret_hash, secret)
        url = (
            url_for("circles.join", circle_id=circle.id, secret=secret, _external=True)
            if opens
            else None
        )
        cards.append(CircleCard(circle, url, circle.id == last))
    return cards


def no_store(page: str, status: int = 200) -> ResponseReturnValue:
    """The page, never stored and never sent as a referrer: it holds invite secrets."""
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def render_circles(
    rename: RenameCircleForm | None = None, renamed_id: int | None = None, status: int = 200
) -> ResponseReturnValue:
    """The page: every circle of this phone, a form refused beside its own circle."""
    return no_store(
        render_template(
            "circles/index.html",
            club=club_server(),
            cards=[] if club_server() else circle_cards(),
            rename=rename,
            renamed_id=renamed_id,
            fresh_form=RenameCircleForm(formdata=None),
            invite_form=NewInviteForm(),
            joined=get_flashed_messages(category_filter=[JOINED]),
            invite_made=get_flashed_messages(category_filter=[INVITE_MADE]),
            qr_svg=qr_svg,
        ),
        status,
    )


@bp.get("/circles")
def circles_page() -> ResponseReturnValue:
    """The circles this phone is in."""
    return render_circles()


@bp.get("/circles/<int:circle_id>/join/<secret>")
def join(circle_id: int, secret: str) -> ResponseReturnValue:
    """The invite link: the phone that opens it is in the circle from then on."""
    circle = None if club_server() else circle_of_invite(circle_id, secret)
    if circle is None:
        if club_server():
            return redirect(url_for("history.games"))
        abort(
            403,
            description=gettext(
                "This invite link does not open a circle. It may be incomplete, or a new "
                "invite link was made since. Ask a phone of the table for the circle's "
                "invite link again."
            ),
        )
    remember_invite(circle, secret)
    flash(circle.name, JOINED)
    response = redirect(url_for("circles.circles_page"))
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def circle_to_change(circle_id: int) -> None:
    """Refuse (403) a change to a circle this phone is not in."""
    if club_server() or not in_circle(circle_id):
        abort(
            403,
            description=gettext(
                "This phone is not in this circle. Open the circle's invite link, or the edit "
                "link of one of its games, on this phone first."
            ),
        )


@bp.post("/circles/<int:circle_id>/invite")
def make_invite(circle_id: int) -> ResponseReturnValue:
    """A new invite link: the old one no longer lets a phone in, and the phones that were
    in only through it are out until they open the new one (or a game's edit link)."""
    circle_to_change(circle_id)
    form = NewInviteForm()
    if not form.validate_on_submit():
        abort(400)
    circle, secret = new_invite(circle_id)
    db.session.commit()
    remember_invite(circle, secret)
    flash(str(circle.id), INVITE_MADE)
    return redirect(url_for("circles.circles_page", _anchor=f"circle-{circle.id}"))


@bp.post("/circles/<int:circle_id>/rename")
def rename(circle_id: int) -> ResponseReturnValue:
    """Give the circle another name; a refused name is shown beside the field."""
    circle_to_change(circle_id)
    form = RenameCircleForm()
    if not form.validate_on_submit():
        return render_circles(form, circle_id, status=400)
    name = form.name.data or ""
    shown = phone_circle(circle_id)
    if shown is not None and clean_name(name) == shown.name:
        return redirect(url_for("circles.circles_page", _anchor=f"circle-{circle_id}"))
    with refusals() as refused:
        rename_circle(circle_id, name, origin=PAGE)
    if refused.refusal is not None:
        form.name.errors = [render_message(refused.refusal.message)]
        return render_circles(form, circle_id, status=400)
    db.session.commit()
    return redirect(url_for("circles.circles_page", _anchor=f"circle-{circle_id}"))


def ways_back(status: int) -> list[Link]:
    """From an error of the circles pages: the circles page, and home."""
    return [(url_for("circles.circles_page"), gettext("Your circles")), home()]


register_page_errors(bp, PageArea(ways_back=ways_back))
