"""Which circle an API request is about: a game's history, players and
statistics are its circle's.

A program names its circle by the circle's invite secret, sent as ``Authorization: Bearer
<secret>``; a game it starts without one starts a new circle, whose secret the answer holds
(the only time it is known in clear, as a new game's edit key). The app's own pages send no
key: they use the circles the phone is in (``circle_rights``), as the pages do, and name one
by its id (``circle`` in a new game's body, ``?circle=<id>`` when reading). On a club server
(``CLUB_SERVER``) the whole server is one circle, open to all: no key is needed, none is
handed out.
"""

from __future__ import annotations

from flask import request

from companion.data.models import Circle
from companion.play_state.new_game import NEW_CIRCLE
from companion.play_state.parse import ApiError
from companion.services.circles import circle_of_secret
from companion.web.circle_rights import (
    StartIn,
    club_server,
    in_circle,
    phone_start_in,
    shown_circle,
)
from companion.web.edit_rights import bearer_key
from companion.web.security import sent_by_own_pages

NO_CIRCLE_KEY = "Send the circle's invite key as 'Authorization: Bearer <key>'."
WRONG_CIRCLE_KEY = "This key is not the invite key of a circle on this server."
NOT_IN_CIRCLE = 'This phone is not in that circle: choose one it is in, or "new" for a new circle.'
OTHER_CIRCLE = '"circle" must be the id of the circle whose invite key is sent, or left out.'


def circle_of_key() -> Circle | None:
    """The circle whose invite secret the request sends as its Bearer key; ``None`` without
    one (or on a club server, where no key is needed); refused (403) if it opens no
    circle."""
    secret = bearer_key()
    if secret is None or club_server():
        return None
    circle = circle_of_secret(secret)
    if circle is None:
        raise ApiError(WRONG_CIRCLE_KEY, 403)
    return circle


def circle_to_start_in(choice: int | str | None, keyed: Circle | None) -> StartIn:
    """Where the game of a ``POST /games`` starts, from the body's ``circle`` (``choice``)
    and the circle of the request's key (``keyed``): the key's circle; for the phone's own
    pages, the circle it chose if it is in it (403 if not), else the one it used last, else
    a new one; for a program without a key, a new one (an existing circle needs its key,
    401)."""
    if club_server():
        return StartIn()
    if keyed is not None:
        if choice is not None and choice != keyed.id:
            raise ApiError(OTHER_CIRCLE)
        return StartIn(keyed.id)
    if choice == NEW_CIRCLE:
        return StartIn(new=True)
    if not sent_by_own_pages():
        if choice is not None:
            raise ApiError(NO_CIRCLE_KEY, 401)
        return StartIn(new=True)
    start = phone_start_in(choice)
    if start is None:
        raise ApiError(NOT_IN_CIRCLE, 403)
    return start


def circle_to_read() -> int | None:
    """The circle whose games and players a reading request is about: its key's, or, from
    the phone's own pages, ``?circle=<id>`` if the phone is in it (403 if not), else the
    circle the phone's pages show; refused (401) with neither. ``None`` on a club server:
    every game is the server's one circle's."""
    if club_server():
        return None
    keyed = circle_of_key()
    if keyed is not None:
        return keyed.id
    if sent_by_own_pages():
        asked = request.args.get("circle")
        if asked is not None:
            if not asked.isascii() or not asked.isdigit() or not in_circle(int(asked)):
                raise ApiError(NOT_IN_CIRCLE, 403)
            return int(asked)
        shown = shown_circle()
        if shown is not None:
            return shown.id
    raise ApiError(NO_CIRCLE_KEY, 401)
