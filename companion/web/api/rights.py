"""Who may change a game through the API: the holder of its edit key.

A program sends the key as ``Authorization: Bearer <key>``. The app's own pages (the offline
outbox, which sends what a phone entered with no network) send none: they use the right the
phone itself holds, the key in its session cookie (``edit_rights.held_key``), never a copy
in JavaScript, so a new edit link takes an offline phone's right away as it does for its
pages. The session counts only when the browser says our own pages sent the request
(``security.sent_by_own_pages``): the API takes no CSRF token, and another site's request
carrying the cookie must gain nothing. A Bearer header, when there is one, is the only key
looked at.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion import services
from companion.data.models import Game
from companion.play_state.parse import ApiError
from companion.web.edit_rights import bearer_key, held_key
from companion.web.security import sent_by_own_pages

NO_KEY = "Send the game's edit key as 'Authorization: Bearer <key>'."
WRONG_KEY = "This key does not allow changes to this game."
#: As the pages say it (``edit_rights.require_edit_rights``), in the API's English.
KEY_REPLACED = (
    "This phone may only look at this game: a new edit link was made, and the old one no "
    "longer works. Ask the phone that keeps the score for the new edit link."
)


@dataclass(frozen=True)
class SentKey:
    """The edit key a request came with; ``from_session`` when it is the phone's own right
    (its session cookie) rather than a Bearer header."""

    key: str
    from_session: bool = False


def sent_key(code: str) -> SentKey:
    """The key the request holds for the game ``code``: its Bearer header, else the key the
    phone keeps in its session if our own pages sent it; refused (401) with neither."""
    key = bearer_key()
    if key is not None:
        return SentKey(key)
    if sent_by_own_pages():
        held = held_key(code)
        if held is not None:
            return SentKey(held, from_session=True)
    raise ApiError(NO_KEY, 401)


def sent_by_phone() -> bool:
    """Whether our own pages sent the request with no key of their own: the phone acts
    with its session's rights, and a game it starts is remembered there."""
    return bearer_key() is None and sent_by_own_pages()


def check_key(game: Game, sent: SentKey) -> None:
    """Refuse (403) a key that does not open ``game``: a phone's own key was replaced by a
    new edit link, which it needs (it did nothing wrong); any other key is simply wrong."""
    if services.key_opens(game, sent.key):
        return
    raise ApiError(KEY_REPLACED if sent.from_session else WRONG_KEY, 403)
