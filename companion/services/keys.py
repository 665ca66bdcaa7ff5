"""Public ids and edit keys: the link a table shares, and the secret that lets a phone write."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

from companion.data.models import Game

CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10
#: Every code a game may have: those made here, and those a backup brings (any letters,
#: digits, ``-`` and ``_``, up to the column's 16 characters).
CODE_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,16}")


def new_edit_key() -> str:
    """A secret that grants the right to change one game."""
    return secrets.token_urlsafe(18)


def next_game_key(secret: str | bytes, key: str, code: str) -> str:
    """The edit key of the table's next game ``code``, made from ``key``, a key that opened
    the game before it, and the server's ``secret``: every phone still holding that key
    gets the same next key without it being stored anywhere in clear. Without
    the secret a key cannot be derived, so a key taken back from the old game (a new edit
    link) gives nothing, and a new edit link of the next game ends what was derived."""
    secret_bytes = secret.encode() if isinstance(secret, str) else secret
    message = f"next game\0{code}\0{key}".encode()
    mac = hmac.new(secret_bytes, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:18]).decode()  # as long as a new edit key


def hash_edit_key(key: str) -> str:
    """Only a hash of the edit key is stored: a leaked database grants no edit rights."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_opens(game: Game, key: str | None) -> bool:
    """Whether ``key`` is this game's edit key (compared in constant time)."""
    return bool(key) and hmac.compare_digest(game.edit_key_hash, hash_edit_key(key or ""))


def new_code() -> str:
    """A short random public id: a read-only link is not guessable from another."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_game_code(text: str) -> bool:
    """Whether ``text`` could be a game's code at all: one that could not (a control
    character, a NUL byte) is no game's, and is never looked for."""
    return CODE_PATTERN.fullmatch(text) is not None
