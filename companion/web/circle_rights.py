"""Which circles a phone is in: the history, players and statistics of a circle
are shown only to its phones.

A phone is in a circle while it holds either
- the circle's invite secret (it started the circle's first game, or opened its invite
  link), kept in its signed session cookie as edit keys are; or
- the edit key of one of the circle's games (it started one, opened an edit link, or was
  given the next game's key by Play again).

Both are asked of the database in one statement (``data.circles.phone_circles``), of the
hashes of what the phone holds, so a new invite or a new edit link ends the membership it
gave, as a new edit link ends the rights it gave. Only the secrets' hashes are stored.

On a club server (``CLUB_SERVER``) the whole server is one circle, open to every phone, as
it was before circles: every game goes into the server's first circle.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

import sqlalchemy as sa
from flask import Flask, after_this_request, current_app, g, session
from werkzeug.wrappers import Response

from companion.data.circles import (
    CircleRef,
    first_circle_condition,
    phone_circles,
    phone_circles_condition,
    server_circle,
)
from companion.data.models import Circle
from companion.play_state.new_game import NEW_CIRCLE
from companion.services.keys import hash_edit_key
from companion.web.edit_rights import held_games, keep_out_of_caches

#: The invite secrets this phone holds, by circle id (as text: the cookie is JSON).
SESSION_INVITES = "circle_invites"
#: The circle this phone used last: the new-game page offers it first.
SESSION_LAST = "circle"
#: A phone keeps the invites of at most this many circles (the cookie must stay small).
MAX_INVITES_PER_DEVICE = 12


def club_server() -> bool:
    """Whether the whole server is one circle, open to every phone."""
    return bool(current_app.config.get("CLUB_SERVER"))


def held_invites() -> dict[int, str]:
    """The invite secrets this phone keeps, by circle id."""
    invites = session.get(SESSION_INVITES)
    if not isinstance(invites, dict):
        return {}
    return {
        int(key): secret
        for key, secret in invites.items()
        if isinstance(key, str) and key.isdigit() and isinstance(secret, str)
    }


def circles_of_phone() -> list[CircleRef]:
    """The circles this phone is in, oldest first; asked once per request."""
    if "phone_circles" not in g:
        if club_server():
            club = server_circle()
            g.phone_circles = [] if club is None else [club]
        else:
            hashes = [hash_edit_key(secret) for secret in held_invites().values()]
            g.phone_circles = phone_circles(hashes, held_games())
    circles: list[CircleRef] = g.phone_circles
    return circles


#: The header that tells the service worker which circles the phone is in (a digest of them,
#: on an answer that read them): a kept page showing the phone's circles (the new-game page,
#: their players' names) that says other circles is kept again (templates/pwa/sw.js).
CIRCLES_HEADER = "Sticheln-Circles"


def tell_circles(response: Response) -> Response:
    """Add :data:`CIRCLES_HEADER` to an answer that read the phone's circles (no statement
    more: only what the request read); the digest is keyed with the app's secret, so it
    tells no one else which circles they are."""
    circles: list[CircleRef] | None = g.get("phone_circles")
    if circles is None:
        return response
    secret = current_app.config["SECRET_KEY"]
    secret_bytes = secret.encode() if isinstance(secret, str) else secret
    ids = ",".join(str(circle_id) for circle_id in sorted(circle.id for circle in circles))
    digest = hmac.new(secret_bytes, f"circles\0{ids}".encode(), hashlib.sha256)
    response.headers[CIRCLES_HEADER] = digest.hexdigest()[:16]
    return response


def init_app(app: Flask) -> None:
    app.after_request(tell_circles)


def circles_condition() -> sa.ColumnElement[bool] | None:
    """The question of :func:`circles_of_phone` as a condition on a circle, for a page to
    ask it within the statement it reads first (``data.circles.beside_circles``) and then
    tell the answer (:func:`note_circles_of_phone`): the circles cost no statement more.
    ``None`` for a phone that holds nothing on a server of circles: it is in none, and no
    statement need ask."""
    if club_server():
        return first_circle_condition()
    invites = {circle_id: hash_edit_key(secret) for circle_id, secret in held_invites().items()}
    held = held_games()
    if not invites and not held:
        return None
    return phone_circles_condition(invites, held)


def note_circles_of_phone(circles: list[CircleRef]) -> None:
    """Tell :func:`circles_of_phone` what a page's own statement read of
    :func:`circles_condition` (or ``[]`` when it was ``None``)."""
    g.phone_circles = list(circles)


def forget_circles_of_phone() -> None:
    """Ask again at the next need: this request changed what the phone holds."""
    g.pop("phone_circles", None)


def phone_circle(circle_id: int) -> CircleRef | None:
    """The circle ``circle_id`` as this phone sees it, if it is in it."""
    return next((circle for circle in circles_of_phone() if circle.id == circle_id), None)


def in_circle(circle_id: int) -> bool:
    """Whether this phone is in the circle ``circle_id``."""
    return phone_circle(circle_id) is not None


@dataclass(frozen=True)
class StartIn:
    """Where a new game starts: in the circle ``circle_id``, or in a new circle (``new``);
    neither on a club server (the server's circle)."""

    circle_id: int | None = None
    new: bool = False


def phone_start_in(choice: int | str | None) -> StartIn | None:
    """Where a game this phone starts goes, from the circle it chose (an id, ``"new"``, or
    nothing: a page or outbox from before the choice): the circle chosen, if the phone is
    in it (``None`` if not: it left it meanwhile), else the one it used last, else a new
    one. The new-game page and the API's own pages (the offline outbox) ask the same."""
    if club_server():
        return StartIn()
    if choice == NEW_CIRCLE:
        return StartIn(new=True)
    if isinstance(choice, int):
        return StartIn(choice) if in_circle(choice) else None
    shown = shown_circle()
    return StartIn(shown.id) if shown is not None else StartIn(new=True)


def last_circle_id() -> int | None:
    """The circle this phone used last, as its session says (not checked)."""
    last = session.get(SESSION_LAST)
    return last if isinstance(last, int) else None


def shown_circle(asked: str | None = None) -> CircleRef | None:
    """The circle a page shows: the one ``asked`` for (a ``circle`` argument) if this phone
    is in it, else the one it used last, else its oldest; ``None`` for a phone in no
    circle. A circle the phone is not in is never shown: the page shows another of its own,
    or says it is in none."""
    circles = circles_of_phone()
    wanted = [int(asked)] if asked and asked.isdigit() else []
    wanted.append(last_circle_id() or 0)
    for circle_id in wanted:
        for circle in circles:
            if circle.id == circle_id:
                return circle
    return circles[0] if circles else None


def use_circle(circle_id: int) -> None:
    """Remember ``circle_id`` as the circle this phone used last."""
    if session.get(SESSION_LAST) != circle_id:
        session[SESSION_LAST] = circle_id
        session.permanent = True


def remember_invite(circle: Circle, secret: str) -> None:
    """Put this phone into ``circle`` (it holds its invite secret from now on) and make it
    the circle used last."""
    invites = {str(key): value for key, value in held_invites().items()}
    invites.pop(str(circle.id), None)
    invites[str(circle.id)] = secret
    while len(invites) > MAX_INVITES_PER_DEVICE:
        invites.pop(next(iter(invites)))
    session[SESSION_INVITES] = invites
    use_circle(circle.id)
    forget_circles_of_phone()
    after_this_request(keep_out_of_caches)


def held_invite(circle_id: int) -> str | None:
    """The invite secret this phone keeps for ``circle_id``, if any (whether or not it
    still opens the circle)."""
    return held_invites().get(circle_id)
