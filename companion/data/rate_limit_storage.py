"""The rate limits' storage in the app's own database (``companion-db://``, for Flask-Limiter
and the ``limits`` package it runs on): a server with several workers, or several servers on
one PostgreSQL, counts each client's requests once, with no other service to run.

Each limit's window is one row of ``rate_limit_hits`` (migration 0012), counted up by one
atomic upsert on a connection of its own, committed at once: what the limited request then
does, or fails to do, in its own transaction never changes the count. Rows of windows that
ended are deleted as new ones are counted.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from limits.storage import Storage
from sqlalchemy.dialects import postgresql, sqlite

from companion.data.database import SQLITE_WRITE_LOCK
from companion.data.models import RateLimitHits, db

#: The URI that names this storage (``RATELIMIT_STORAGE_URI``).
SCHEME = "companion-db"

HITS = RateLimitHits.__table__


def now() -> float:
    """The time, in seconds since the epoch (one place, so that tests can move it)."""
    return time.time()


@contextmanager
def writing() -> Iterator[sa.Connection]:
    """A transaction of its own that writes (on SQLite, as the database's one writer, as
    every write of the app is: ``companion.data.database``), committed at its end."""
    writer = db.engine.connect().execution_options(**{SQLITE_WRITE_LOCK: True})
    with writer as connection, connection.begin():
        yield connection


class DatabaseStorage(Storage):
    """Fixed windows counted in ``rate_limit_hits``, on the app's database."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any):
        super().__init__(uri, wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return sa.exc.SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count ``amount`` more in ``key``'s window, or start a window of ``expiry`` seconds
        if none is open; answer the count."""
        moment = now()
        fresh = {"key": key, "hits": amount, "resets_at": moment + expiry}
        insert = (postgresql if db.engine.dialect.name == "postgresql" else sqlite).insert(HITS)
        ended = HITS.c.resets_at <= moment
        upsert = insert.values(fresh).on_conflict_do_update(
            index_elements=[HITS.c.key],
            set_={
                "hits": sa.case((ended, amount), else_=HITS.c.hits + amount),
                "resets_at": sa.case((ended, moment + expiry), else_=HITS.c.resets_at),
            },
        )
        with writing() as connection:
            connection.execute(sa.delete(HITS).where(ended, HITS.c.key != key))
            hits = connection.execute(upsert.returning(HITS.c.hits)).scalar_one()
        return int(hits)

    def get(self, key: str) -> int:
        """The count in ``key``'s open window (0 if none is open)."""
        with db.engine.connect() as connection:
            hits = connection.execute(
                sa.select(HITS.c.hits).where(HITS.c.key == key, HITS.c.resets_at > now())
            ).scalar()
        return int(hits or 0)

    def get_expiry(self, key: str) -> float:
        """When ``key``'s window ends (now if none is open)."""
        moment = now()
        with db.engine.connect() as connection:
            resets_at = connection.execute(
                sa.select(HITS.c.resets_at).where(HITS.c.key == key, HITS.c.resets_at > moment)
            ).scalar()
        return float(resets_at or moment)

    def check(self) -> bool:
        """Whether the database answers."""
        try:
            with db.engine.connect() as connection:
                connection.execute(sa.select(1))
        except sa.exc.SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        """Forget every window; answer how many there were."""
        with writing() as connection:
            return connection.execute(sa.delete(HITS)).rowcount

    def clear(self, key: str) -> None:
        """Forget ``key``'s window."""
        with writing() as connection:
            connection.execute(sa.delete(HITS).where(HITS.c.key == key))
