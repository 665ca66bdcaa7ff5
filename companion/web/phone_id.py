"""Which phone sent a request: a random id kept in its signed session cookie.

A game a phone's own pages start (the offline outbox sending a game started with no
network) has no edit key nor circle key to tell who sent it, yet its answer, which holds the
new game's edit key and circle invite, must be replayed to that phone only
(``companion.web.api.idempotency``). The phone is told apart by this id: random, made the
first time the phone opens the new-game page (so it is in the cookie before an offline start
is ever sent, and a start whose answer was lost is sent again with it), kept with the
phone's edit keys. Only its hash is stored with an answer.
"""

from __future__ import annotations

import hashlib
import secrets

from flask import session

#: The phone's id in its session cookie.
SESSION_PHONE = "phone"
#: How long the id is, in random bytes (as hex in the cookie).
PHONE_ID_BYTES = 16


def phone_id(make: bool = False) -> str | None:
    """This phone's id; ``None`` for a phone without one, unless ``make`` (then it is made
    and kept in the session cookie)."""
    held = session.get(SESSION_PHONE)
    if isinstance(held, str) and len(held) == 2 * PHONE_ID_BYTES:
        return held
    if not make:
        return None
    made = secrets.token_hex(PHONE_ID_BYTES)
    session[SESSION_PHONE] = made
    session.permanent = True
    return made


def phone_holder(make: bool = False) -> str | None:
    """The hash of this phone's id, as an answer kept for it names its holder (``None``
    for a phone without an id, unless ``make``)."""
    held = phone_id(make)
    if held is None:
        return None
    return hashlib.sha256(f"phone\0{held}".encode()).hexdigest()
