"""Who may change a game: holders of its edit key.

The device that creates a game keeps the key in its signed session cookie; the edit link
(``/g/<code>/edit/<key>``) puts it into another phone's cookie; API clients send it as
``Authorization: Bearer <key>``. Everyone else can only look.
"""

from __future__ import annotations

from flask import request, session

from companion.models import Game
from companion.services import key_opens

SESSION_KEYS = "edit_keys"
#: A phone keeps the keys of at most this many games (the cookie must stay small).
MAX_KEYS_PER_DEVICE = 40


def remember_edit_key(game: Game, key: str) -> None:
    """Give this device edit rights to ``game`` (signed session cookie)."""
    keys = dict(session.get(SESSION_KEYS, {}))
    keys.pop(game.code, None)
    keys[game.code] = key
    while len(keys) > MAX_KEYS_PER_DEVICE:
        keys.pop(next(iter(keys)))
    session[SESSION_KEYS] = keys
    session.permanent = True


def device_edit_key(game: Game) -> str | None:
    """The edit key this device holds for ``game``, if it still opens the game."""
    key = session.get(SESSION_KEYS, {}).get(game.code)
    return key if isinstance(key, str) and key_opens(game, key) else None


def can_edit(game: Game) -> bool:
    """Whether this device may change ``game``."""
    return device_edit_key(game) is not None


def bearer_key() -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header, if any."""
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return key.strip() or None
