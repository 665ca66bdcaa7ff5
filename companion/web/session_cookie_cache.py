"""Session cookies whose signature this process has checked already.

A phone polls its scoreboard every few seconds with the same session cookie. Checking that
cookie (base64, HMAC, the tagged JSON of its edit keys) is a large share of the time a kept
scoreboard takes in the app (docs/development.md, "Measurements behind the design"). The result
of a check only depends on the cookie's exact text, the secret keys and the clock (a cookie
expires), so each process keeps the data of the cookies it has verified, keyed by their text,
until they expire. Every request gets its own copy to change.

A forged cookie is never in the dict: only text that passed the signature check is kept, and
a lookup costs the same whether it hits or not (Python's string hashes are keyed per process).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

#: How many verified cookies each process keeps (a cookie is at most 4 KB).
KEPT_COOKIES = 1024


@dataclass(frozen=True)
class Verified:
    """A cookie's data, and when its signature stops being accepted (Unix time)."""

    data: dict[str, Any]
    expires: float


class VerifiedCookies:
    """The cookies this process has verified, by their text, most recently used last.

    The keys they were verified with are part of the cache: a new ``SECRET_KEY`` (or
    fallback) empties it."""

    def __init__(self, limit: int = KEPT_COOKIES):
        self.limit = limit
        self.keys: tuple[Any, ...] = ()
        self.kept: OrderedDict[str, Verified] = OrderedDict()
        self.lock = threading.Lock()

    def find(self, cookie: str, keys: tuple[Any, ...]) -> dict[str, Any] | None:
        """A copy of the data of ``cookie`` if it was verified with ``keys`` and has not
        expired since; else ``None`` (check it, then :meth:`keep` it)."""
        with self.lock:
            if keys != self.keys:
                return None
            verified = self.kept.get(cookie)
            if verified is None:
                return None
            if time.time() >= verified.expires:
                del self.kept[cookie]
                return None
            self.kept.move_to_end(cookie)
        return thawed(verified.data)

    def keep(
        self, cookie: str, keys: tuple[Any, ...], data: dict[str, Any], expires: float
    ) -> None:
        """Remember that ``cookie`` carries ``data`` until ``expires``."""
        with self.lock:
            if keys != self.keys:
                self.kept.clear()
                self.keys = keys
            self.kept[cookie] = Verified(thawed(data), expires)
            self.kept.move_to_end(cookie)
            while len(self.kept) > self.limit:
                self.kept.popitem(last=False)


def thawed(value: Any) -> Any:
    """A copy of a session's data that shares no dict or list with ``value``: a request may
    change its session in place (a flashed message is appended to a list)."""
    if isinstance(value, dict):
        return {key: thawed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [thawed(item) for item in value]
    if isinstance(value, tuple):
        return tuple(thawed(item) for item in value)
    return value
