"""Idempotency keys: a change sent again is answered as the first time, and applied once.

A phone's outbox sends each queued change with ``Idempotency-Key: <its own id>`` (the IETF
draft "The Idempotency-Key HTTP Header Field"), and sends it again whenever it never saw the
answer. The first request with a key is processed as usual; its answer (status, headers that
matter, body) is stored under (key, its holder, method, path) with the SHA-256 of the
request's query and body, in the transaction of the change itself: a change is never
committed without its answer, nor the reverse. The holder is who sent it, as a hash: the edit
key that opened the game, the circle key a new game was sent with, or the phone whose own
pages started a game (``companion.web.phone_id``). An answer is replayed to its holder only:
another client sending the same key is answered as if the key had never been used (its own
change), never with the first one's answer, its secrets or the rights they give. A request
sent again by the holder:

- with the same body answers the stored answer byte for byte, marked
  ``Idempotent-Replayed: true``, and changes nothing (even if the game changed since);
- with another body answers 422, and changes nothing.

Refusals a game's change gets after the key was recalled (400, 409 stale, 422) are stored
too: the answer to a replay is the one the first request got, so a change refused as stale is
still stale when sent again, and the outbox opens the conflict view. What comes before the key
is looked at is not stored: a missing or wrong edit key (401/403, a key never passes the edit
rights), an unknown game, a malformed ``Idempotency-Key`` (400); nor is a refused start of a
game (it has no holder yet: the body, the circle rights are checked first). A start with no
holder at all (a program sending neither a circle key nor from our pages) is not stored.
Each holder keeps at most ``idempotent_answers.ANSWERS_PER_HOLDER`` answers
(docs/operators/security.md).

Two requests with one key at once: the later waits for the earlier's lock (the game's row
lock, SQLite's write lock), then finds its answer; a new game has no row to lock on
PostgreSQL, so there the later one's answer fails on the unique key as it is stored, is
rolled back, and answers the earlier one's. A request without the header costs nothing:
no statement is added.

A view takes part with :func:`idempotent` around it, :func:`recall` once it knows who sends
the request (after the edit rights, under the game's lock) and :func:`commit_change` where
it would commit.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import wraps
from typing import Any

from flask import current_app, g, make_response, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from companion.data.database import hold_write_lock
from companion.data.models import IdempotentAnswer, db, utcnow
from companion.play_state.parse import ApiError
from companion.services import idempotent_answers

HEADER = "Idempotency-Key"
#: Said by a replayed answer.
REPLAYED = "Idempotent-Replayed"
#: An opaque id the client chose (``idempotent_answers.KEY_PATTERN``).
KEY_PATTERN = idempotent_answers.KEY_PATTERN
#: The headers of an answer that are stored with it (the rest is added to any answer alike).
KEPT_HEADERS = ("Content-Type", "Cache-Control", "Location")
#: What stands in a stored body for a secret it handed out: a NUL, then the secret's purpose
#: ("" for a new game's edit key, "circle" for a new circle's invite secret), as a JSON
#: string. JSON never holds a raw NUL.
PLACEHOLDERS = re.compile(rb'"\x00([a-z]*)"')


@dataclass
class Pending:
    """The key of the request under way; ``sent`` once it was recalled (the answer will be
    stored), the salt of the secrets its answer hands out, if any, and what each is for."""

    key: str
    sent: idempotent_answers.Request | None = None
    salt: str | None = None
    purposes: list[str] = field(default_factory=list)
    keep_refusals: bool = True


class Replay(Exception):
    """The request was answered before: this is that answer."""

    def __init__(self, response: Response) -> None:
        super().__init__("replayed")
        self.response = response


def idempotent(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
    """Make ``view`` answer a request sent again with its ``Idempotency-Key`` as it answered
    the first one (see the module's docstring); without the header it runs as it is."""

    @wraps(view)
    def guarded(**kwargs: Any) -> ResponseReturnValue:
        key = request.headers.get(HEADER)
        if key is None:
            return view(**kwargs)
        g.idempotency = pending = Pending(key)
        try:
            response = make_response(view(**kwargs))
        except Replay as replay:
            db.session.rollback()
            return replay.response
        except Exception as error:
            if pending.sent is None or not pending.keep_refusals:
                raise  # before the key was looked at (or a refused start): not stored
            response = make_response(current_app.handle_user_exception(error))
            db.session.rollback()  # a refusal changes nothing: only its answer is stored
            if response.status_code >= 500:
                return response
            hold_write_lock()
            again = idempotent_answers.find_answer(pending.sent, expired_before())
            if again is not None:  # the same request, at the same moment, stored first
                return replayed(again, pending.sent)
        if pending.sent is None:
            return response
        return kept(response, pending, pending.sent)

    return guarded


def recall(holder: str | None, keep_refusals: bool = True) -> None:
    """For a request with an ``Idempotency-Key``, sent by ``holder`` (the hash of the edit
    key that opened the game, of the circle key a new game was sent with, or of the phone
    whose pages sent it; ``None``: nobody it could be told apart from another client), under
    the lock of what it changes: refuse the key if malformed (400); raise :class:`Replay`
    with the answer ``holder`` got before, refuse the key if it came with another request of
    ``holder``'s (422); else note that this request's answer is to be stored (a refusal's
    too, unless not ``keep_refusals``). A request without a holder is answered as one
    without the key: nothing is replayed to it, nothing stored. Does nothing for a request
    without the header or a view without :func:`idempotent`."""
    pending: Pending | None = g.get("idempotency")
    if pending is None or pending.sent is not None:
        return
    if not KEY_PATTERN.fullmatch(pending.key):
        raise ApiError(f'The header "{HEADER}" must be 8 to 100 letters, digits, "-" or "_".', 400)
    if holder is None:
        return
    fingerprint = hashlib.sha256(request.query_string + b"?" + request.get_data()).hexdigest()
    sent = idempotent_answers.Request(
        pending.key, holder, request.method, request.path, fingerprint
    )
    hold_write_lock()  # on SQLite: the one writer from here, so the answer read stays true
    stored = idempotent_answers.find_answer(sent, expired_before())
    if stored is not None:
        raise Replay(replayed(stored, sent))
    pending.sent = sent
    pending.keep_refusals = keep_refusals


def commit_change() -> None:
    """Commit the view's change; if its answer is to be stored, only send the change to the
    database (and read everything afresh, as a commit would): :func:`idempotent` stores the
    answer and commits both at once."""
    pending: Pending | None = g.get("idempotency")
    if pending is None or pending.sent is None:
        db.session.commit()
        return
    db.session.flush()
    db.session.expire_all()


def unstored_secret(purpose: str = "") -> str | None:
    """A secret for this request's answer to hand out that its stored answer does not hold:
    a new game's edit key, or (``purpose`` "circle") a new circle's invite secret. A replay
    makes it again from the answer's random salt, the purpose and the app's secret key, so a
    leaked database still grants no rights. ``None`` when the answer is not stored (the
    caller makes a random one)."""
    pending: Pending | None = g.get("idempotency")
    if pending is None or pending.sent is None:
        return None
    if pending.salt is None:
        pending.salt = secrets.token_hex(16)
    pending.purposes.append(purpose)
    return secret_of(pending.salt, purpose)


def secret_of(salt: str, purpose: str = "") -> str:
    """The secret made from ``salt`` for ``purpose`` (as long as a random edit key); the
    edit key's ("") is made as before purposes were, so answers stored then still replay."""
    secret = current_app.config["SECRET_KEY"]
    secret_bytes = secret.encode() if isinstance(secret, str) else secret
    message = f"idempotent answer\0{salt}" + (f"\0{purpose}" if purpose else "")
    mac = hmac.new(secret_bytes, message.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:18]).decode()


def expired_before() -> datetime:
    """Answers stored before this moment are forgotten."""
    return utcnow() - timedelta(days=current_app.config["IDEMPOTENCY_KEY_DAYS"])


def kept(response: Response, pending: Pending, sent: idempotent_answers.Request) -> Response:
    """Store ``response`` with the change in the transaction and commit both; if the same
    request stored its answer first (a twin at the same moment), roll back and answer that."""
    body, salt = response.get_data(), None
    if pending.salt is not None:
        for purpose in pending.purposes:
            secret = json.dumps(secret_of(pending.salt, purpose)).encode()
            if secret in body:
                body, salt = body.replace(secret, placeholder(purpose)), pending.salt
    headers = [(name, response.headers[name]) for name in KEPT_HEADERS if name in response.headers]
    try:
        idempotent_answers.purge_expired_answers(expired_before())
        idempotent_answers.keep_answer(sent, response.status_code, headers, body, salt)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()  # the twin's change and answer stand; this one's are undone
        hold_write_lock()
        twin = idempotent_answers.find_answer(sent, expired_before())
        if twin is None:
            raise
        return replayed(twin, sent)
    return response


def placeholder(purpose: str) -> bytes:
    """What stands in a stored body for the secret made for ``purpose``."""
    return b'"\x00' + purpose.encode() + b'"'


def replayed(stored: IdempotentAnswer, sent: idempotent_answers.Request) -> Response:
    """The stored answer, as sent the first time, if ``sent`` is the request it answered;
    another request with the same key is refused (422)."""
    if not hmac.compare_digest(stored.fingerprint, sent.fingerprint):
        raise ApiError(
            f'This "{HEADER}" was used for another request; send a new key with each change.',
            422,
        )
    body = stored.body
    salt = stored.salt
    if salt is not None:
        body = PLACEHOLDERS.sub(
            lambda found: json.dumps(secret_of(salt, found[1].decode())).encode(), body
        )
    response = Response(body, status=stored.status)
    for name, value in stored.headers:
        response.headers[name] = value
    response.headers[REPLAYED] = "true"
    return response
