"""Starting games is rate-limited per client address (Flask-Limiter): a server open to the
internet is not filled with games by a script. A table that starts a game every few
minutes never meets the limit.

The three ways to start a game (the new-game page, ``POST /api/v1/games`` and Play again)
share one budget, ``GAME_STARTS_LIMIT`` (default: 30 per hour and 10 per minute, per
address; behind a proxy the address comes from ``X-Forwarded-For``, see ``PROXY_COUNT``;
empty: no limit).
The counts are kept in the app's database (companion/data/rate_limit_storage.py), so every
worker counts together. Only the starts that started a game count. A start refused for it
changes nothing: the API answers 429 with
``Retry-After``, the new-game page shows the form again with the reason
(companion/web/errors.py).
"""

from __future__ import annotations

from flask import Flask, Response, current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# Importing the storage registers its scheme with the limits package.
from companion.data.rate_limit_storage import SCHEME

#: The shared budget's name in the storage's keys.
GAME_STARTS = "game-starts"
DEFAULT_GAME_STARTS_LIMIT = "30 per hour; 10 per minute"

limiter = Limiter(key_func=get_remote_address)


def init_app(app: Flask) -> None:
    """Count in the app's database unless the configuration says otherwise."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", f"{SCHEME}://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("GAME_STARTS_LIMIT", DEFAULT_GAME_STARTS_LIMIT)
    limiter.init_app(app)


def game_starts_limit() -> str:
    return str(current_app.config["GAME_STARTS_LIMIT"])


def unlimited() -> bool:
    """Whether this app sets no limit (read at each request: the setting is the app's)."""
    return not current_app.config["GAME_STARTS_LIMIT"]


def started(response: Response) -> bool:
    """Whether the request started a game (a new one: 201, or a page's redirect to it): only
    those count, so that a refused start changes nothing, the count included."""
    return response.status_code in (201, 302)


#: The decorator of the views that start a game (their POST only).
limit_game_starts = limiter.shared_limit(
    game_starts_limit,
    scope=GAME_STARTS,
    methods=["POST"],
    exempt_when=unlimited,
    deduct_when=started,
)
