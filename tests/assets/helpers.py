"""Expected fingerprinted names of static files, worked out here independently of the app."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from companion.web.minify import minify

STATIC = Path(__file__).resolve().parents[2] / "static"

#: A static URL, fingerprinted or not: the plain name's stem, the fingerprint, the extension.
STATIC_URL = re.compile(r"^/static/(?P<stem>[^\s\"]+?)(?:\.(?P<hash>[0-9a-f]{8}))?(?P<ext>\.\w+)$")


def fingerprint_of(path: Path) -> str:
    """The first 8 hex digits of the SHA-256 of the file's content."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:8]


def static_url(name: str, folder: Path = STATIC) -> str:
    """The fingerprinted URL of the static file ``name`` (``style.css``, ``icons/icon.svg``)."""
    stem, dot, ext = name.rpartition(".")
    return f"/static/{stem}.{fingerprint_of(folder / name)}{dot}{ext}"


def plain_name(url: str) -> str:
    """``/static/style.3f2a91c0.css`` is the file ``style.css``."""
    match = STATIC_URL.match(url)
    assert match, url
    return f"{match['stem']}{match['ext']}"


def served(name: str, folder: Path = STATIC) -> bytes:
    """The bytes a phone gets for the static file ``name``: stylesheets and scripts minified
    (tests/assets/test_minify.py holds what that means), anything else as it is."""
    path = folder / name
    return minify(path.read_bytes(), path.suffix)
