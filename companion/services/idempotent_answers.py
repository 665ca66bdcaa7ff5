"""Answers kept for replays (``IdempotentAnswer``): found, stored and purged.

The web layer decides what an answer is and when a request may be answered again
(``companion.web.api.idempotency``); this module only keeps the rows, inside the caller's
transaction: a change and the answer that reports it are committed together or not at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from companion.data.models import IdempotentAnswer, db

#: An idempotency key: an opaque id the client chose, long enough to be unique, short
#: enough to index.
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,100}")
#: Expired answers deleted by one stored answer at most: purging stays a small, steady cost.
PURGE_BATCH = 100
#: The answers kept for one holder at most (an edit key, a circle key, a phone): storing
#: one more deletes that holder's oldest. A phone's outbox sends one change at a time, so
#: only its last answer is ever asked for again; the rest are a margin.
ANSWERS_PER_HOLDER = 100


@dataclass(frozen=True)
class Request:
    """What an answer is kept under (key, holder, method, path) and the fingerprint of the
    request it answered."""

    key: str
    holder: str
    method: str
    path: str
    fingerprint: str


def find_answer(sent: Request, expired_before: datetime) -> IdempotentAnswer | None:
    """The answer kept for ``sent``'s key, holder, method and path, if any; one older than
    ``expired_before`` is forgotten here (deleted), as if it had never been given."""
    query = sa.select(IdempotentAnswer, IdempotentAnswer.created_at < expired_before).where(
        IdempotentAnswer.key == sent.key,
        IdempotentAnswer.holder == sent.holder,
        IdempotentAnswer.method == sent.method,
        IdempotentAnswer.path == sent.path,
    )
    found = db.session.execute(query).first()
    if found is None:
        return None
    answer, expired = found
    if expired:
        db.session.delete(answer)
        db.session.flush()
        return None
    return answer


def started_answer(key: str, path: str, holder: str) -> bytes | None:
    """The body of the answer that started a game (``POST`` to ``path``, status 201) for
    the idempotency key ``key``, sent by ``holder`` (the phone): how a game started on a
    phone with no network, sent later by its outbox with that key, is found again by the
    address the phone gave it, on that phone only."""
    query = sa.select(IdempotentAnswer.body).where(
        IdempotentAnswer.key == key,
        IdempotentAnswer.holder == holder,
        IdempotentAnswer.method == "POST",
        IdempotentAnswer.path == path,
        IdempotentAnswer.status == 201,
    )
    return db.session.scalar(query)


def keep_answer(
    sent: Request,
    status: int,
    headers: list[tuple[str, str]],
    body: bytes,
    salt: str | None,
) -> None:
    """Store the answer to ``sent`` in the current transaction (flushed: a second answer for
    the same key, holder, method and path fails here with ``IntegrityError``); the holder's
    oldest answers beyond :data:`ANSWERS_PER_HOLDER` are deleted."""
    answer = IdempotentAnswer(
        key=sent.key,
        holder=sent.holder,
        method=sent.method,
        path=sent.path,
        fingerprint=sent.fingerprint,
        status=status,
        headers=[list(header) for header in headers],
        body=body,
        salt=salt,
    )
    db.session.add(answer)
    db.session.flush()
    keep_newest_of(sent.holder, ANSWERS_PER_HOLDER)


def keep_newest_of(holder: str, most: int) -> None:
    """Delete ``holder``'s answers but its ``most`` newest (an index on the holder and the
    id finds them; a holder within its bound costs one look-up)."""
    oldest_kept = (
        sa.select(IdempotentAnswer.id)
        .where(IdempotentAnswer.holder == holder)
        .order_by(IdempotentAnswer.id.desc())
        .offset(most - 1)
        .limit(1)
        .scalar_subquery()
    )
    db.session.execute(
        sa.delete(IdempotentAnswer)
        .where(IdempotentAnswer.holder == holder, IdempotentAnswer.id < oldest_kept)
        .execution_options(synchronize_session=False)
    )


def forget_answers_of(holder: str) -> None:
    """Delete every answer kept for ``holder`` (an edit key that no longer opens its game:
    no request can be sent with it again)."""
    db.session.execute(
        sa.delete(IdempotentAnswer)
        .where(IdempotentAnswer.holder == holder)
        .execution_options(synchronize_session=False)
    )


def purge_expired_answers(expired_before: datetime, batch: int = PURGE_BATCH) -> int:
    """Delete up to ``batch`` answers older than ``expired_before`` (oldest first); answer
    how many. On PostgreSQL rows another transaction is purging are skipped (``SKIP
    LOCKED``), so two writers purging at once never wait for, or deadlock on, each other."""
    oldest = (
        sa.select(IdempotentAnswer.id)
        .where(IdempotentAnswer.created_at < expired_before)
        .order_by(IdempotentAnswer.created_at)
        .limit(batch)
        .with_for_update(skip_locked=True)
    )
    deleted = db.session.execute(
        sa.delete(IdempotentAnswer)
        .where(IdempotentAnswer.id.in_(oldest.scalar_subquery()))
        .execution_options(synchronize_session=False)
    )
    return deleted.rowcount if isinstance(deleted, sa.CursorResult) else 0
