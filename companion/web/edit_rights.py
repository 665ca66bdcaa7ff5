"""Who may change a game: holders of its edit key.

The device that creates a game keeps the key in its signed session cookie; the edit link
(``/g/<code>/edit/<key>``) puts it into another phone's cookie; API clients send it as
``Authorization: Bearer <key>``, and the app's own pages calling the API (the offline outbox)
use the phone's cookie (``companion.web.api.rights``). Everyone else can only look.
"""

from __future__ import annotations

from flask import abort, after_this_request, current_app, request, session
from flask_babel import gettext
from werkzeug.wrappers import Response

from companion.data.models import Game
from companion.services.games import get_game, lock_game
from companion.services.keys import hash_edit_key, key_opens, next_game_key

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
    after_this_request(keep_out_of_caches)


def keep_out_of_caches(response: Response) -> Response:
    """A response that hands out an edit key (in its session cookie) is never stored."""
    response.headers["Cache-Control"] = "no-store"
    return response


def held_key(code: str) -> str | None:
    """The edit key this device keeps for the game ``code``, whether or not it still opens
    the game (a key that no longer does was replaced by a new edit link)."""
    keys = session.get(SESSION_KEYS)
    key = keys.get(code) if isinstance(keys, dict) else None
    return key if isinstance(key, str) else None


def held_games() -> list[tuple[str, str]]:
    """Each game this phone holds a key for, as its code and the hash of that key."""
    keys = session.get(SESSION_KEYS, {})
    if not isinstance(keys, dict):
        return []
    return [
        (code, hash_edit_key(key))
        for code, key in keys.items()
        if isinstance(code, str) and isinstance(key, str)
    ]


def device_edit_key(game: Game) -> str | None:
    """The edit key this device holds for ``game``, if it still opens the game."""
    key = held_key(game.code)
    return key if key is not None and key_opens(game, key) else None


def can_edit(game: Game) -> bool:
    """Whether this device may change ``game``."""
    return device_edit_key(game) is not None


def next_key_of(game: Game, code: str) -> str | None:
    """The edit key of the table's next game ``code`` as this device may have it: derived
    from the key it holds of ``game`` (``services.next_game_key``), only while that key
    still opens ``game``; ``None`` for a device without one."""
    held = device_edit_key(game)
    if held is None:
        return None
    return next_game_key(current_app.config["SECRET_KEY"], held, code)


def take_on_rights(game: Game, following: Game) -> bool:
    """Play again keeps the table's rights: a device holding a key that still
    opens ``game`` is given the edit rights of the table's next game ``following``, whichever
    phone started it, as long as the key derived from its own opens ``following`` (a new
    edit link of either game ends that). Answers whether this device may change
    ``following`` now."""
    if can_edit(following):
        return True
    key = next_key_of(game, following.code)
    if key is None or not key_opens(following, key):
        return False
    remember_edit_key(following, key)
    return True


def bearer_key() -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header, if any."""
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return key.strip() or None


def edit_rights_lost(game: Game) -> bool:
    """Whether this device had edit rights to ``game`` until a new edit link was made."""
    return held_key(game.code) is not None and not can_edit(game)


def require_edit_rights(game: Game, refusal: str | None = None) -> None:
    """Refuse (403) a change from a device that does not hold the game's edit key.

    A phone whose key a new edit link replaced did nothing wrong and needs the new link:
    every page tells it so. Any other phone gets ``refusal``, which says how to get the
    right for what it tried (by default: open the edit link)."""
    key = held_key(game.code)
    if key is not None and key_opens(game, key):
        return
    if key is not None:
        abort(
            403,
            description=gettext(
                "This phone may only look at this game: a new edit link was made, and the "
                "old one no longer works. Ask the phone that keeps the score for the new "
                "edit link."
            ),
        )
    abort(
        403,
        description=refusal
        or gettext(
            "This phone may only look at this game. Open the game's edit link on this "
            "phone to change it."
        ),
    )


def game_to_change(code: str, refusal: str | None = None, lock: bool = True) -> Game:
    """The game ``code`` for a change by this device, refused (403) without its edit rights.

    The rights are checked before the row is locked (``lock``: the request changes the
    game), so a phone without them never holds a lock another writer waits for; and again
    once it is locked, in case a new edit link was made in between."""
    game = get_game(code)
    require_edit_rights(game, refusal)
    if lock:
        game = lock_game(game)
        require_edit_rights(game, refusal)
    return game
