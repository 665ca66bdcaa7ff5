"""The database connection and its migrations (SQLite by default, PostgreSQL by URL).

Every change is a read-then-write (a phone's form says which state of the game it was based
on), so two writers of one game must run one after the other. PostgreSQL does that with the
game's row lock (``SELECT ... FOR UPDATE``). SQLite takes no row locks; here every
transaction is opened by an explicit ``BEGIN`` (reads included, so that one transaction sees
one state), and a transaction about to change something becomes the database's one writer
with ``BEGIN IMMEDIATE`` (:func:`hold_write_lock`), which waits for the writer before it as
a row lock makes PostgreSQL's writers wait.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask_migrate import Migrate, upgrade

from companion import resources
from companion.data import change_counter, ledger, seat_copies
from companion.data.models import Game, db
from companion.data.states import GameStatus, RoundStatus

MIGRATIONS = resources.folder("migrations")
SQLITE_BUSY_TIMEOUT_MS = 5000
#: The execution option (and the DBAPI connection's ``info`` key) of a SQLite transaction
#: that holds the write lock: it was opened with ``BEGIN IMMEDIATE``.
SQLITE_WRITE_LOCK = "sqlite_write_lock"

migrate = Migrate(compare_type=True, render_as_batch=True)


def init_app(app: Flask) -> None:
    """Bind the models and the migrations to ``app``, keep the statistics ledger on every
    flush, give a schema made by ``create_all`` the change counter's triggers and those that
    copy a game's time and status to its seats, tune SQLite
    for several writers, and name the stored states for the templates."""
    db.init_app(app)
    app.jinja_env.globals.update(GameStatus=GameStatus, RoundStatus=RoundStatus)
    ledger.install()
    change_counter.install()
    seat_copies.install()
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            sa.event.listen(db.engine, "connect", _sqlite_pragmas)
            sa.event.listen(db.engine, "begin", _sqlite_begin)


def hold_write_lock() -> None:
    """Make this request's transaction a writer before it reads what it will change.

    On SQLite the transaction is opened again with ``BEGIN IMMEDIATE``: it waits until no
    other transaction writes, then holds the database's write lock until commit, so what it
    reads next stays true until it writes (two phones acting on one game at once run one
    after the other, as under PostgreSQL's row lock). Whatever was read before is read again
    (the session's objects are expired), as PostgreSQL's ``FOR UPDATE`` reads the row afresh.
    Nothing may have been changed yet: the transaction it ends is rolled back. On PostgreSQL
    the caller's ``FOR UPDATE`` is the lock, so nothing is done here."""
    if db.engine.dialect.name != "sqlite":
        return
    session = db.session()
    if session.in_transaction():
        if session.connection().get_execution_options().get(SQLITE_WRITE_LOCK):
            return
        if session.new or session.dirty or session.deleted:
            raise RuntimeError("the write lock is taken before anything is changed")
        session.rollback()
    session.connection(execution_options={SQLITE_WRITE_LOCK: True})


def lock_rows(model: Any, ids: Iterable[int]) -> dict[int, Any]:
    """Lock the rows of ``model`` (a model with an ``id``) whose ids are ``ids`` until commit,
    in the order of their ids, so two writers never wait on each other in a circle; answer
    them by id, in that order. An id without a row is left out of the answer."""
    hold_write_lock()
    query = sa.select(model).where(model.id.in_(sorted(ids))).order_by(model.id)
    return {row.id: row for row in db.session.scalars(query.with_for_update())}


def read_once(statement: sa.Select[Any], **parameters: Any) -> Sequence[sa.Row[Any]]:
    """The rows of one read statement, on a connection of its own in autocommit: on
    PostgreSQL that is one round trip instead of three (no BEGIN, no ROLLBACK), which more
    than halves the cost of the scoreboards' conditional GET, polled by every phone at the
    table. A single statement sees one consistent state on its own. (SQLite has no round
    trips to save, and its transactions are begun by :func:`_sqlite_begin`, which
    SQLAlchemy's autocommit on SQLite would bypass.)"""
    autocommit = {"isolation_level": "AUTOCOMMIT"} if db.engine.dialect.name != "sqlite" else {}
    with db.engine.connect().execution_options(**autocommit) as connection:
        return connection.execute(statement, parameters).all()


def create_schema_if_empty() -> bool:
    """Build the tables of a database that has none yet, by the migrations (as ``manage.py
    serve`` does); answer whether it did. A restore onto a new server, or demo data asked for
    before the app was ever served, then works instead of failing on a missing table. A
    database with tables is left as it is: upgrading it is the deployment's step."""
    if sa.inspect(db.engine).has_table(Game.__tablename__):
        return False
    upgrade(directory=str(MIGRATIONS))
    return True


def refresh_planner_statistics() -> None:
    """Have PostgreSQL measure the tables again after a bulk load: until autovacuum gets to
    it, the planner guesses from the empty tables it last saw and reads a whole history where
    an index would find a page.
    SQLite keeps no such statistics unless asked, and its plans need none."""
    if db.engine.dialect.name != "postgresql":
        return
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("ANALYZE")


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """Foreign keys enforced (deleting a game deletes its rounds), WAL so readers never wait
    for a writer, and a busy timeout instead of an immediate "database is locked". The
    driver's own transaction handling is off (it never begins one for a read, so a read
    and the write it decides would run apart): :func:`_sqlite_begin` begins every one."""
    connection.isolation_level = None
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def _sqlite_begin(connection: sa.Connection) -> None:
    """Open each transaction explicitly: ``BEGIN IMMEDIATE`` for a writer
    (:func:`hold_write_lock`), a plain (deferred) ``BEGIN`` for the rest, which then read one
    state of the database from their first statement to their end. It goes to the driver
    as the PostgreSQL driver sends its own BEGIN: transaction control, not a statement of
    the app's (the statement budgets count the same on both databases)."""
    writer = bool(connection.get_execution_options().get(SQLITE_WRITE_LOCK))
    connection.info[SQLITE_WRITE_LOCK] = writer
    driver = connection.connection.driver_connection
    assert driver is not None  # a connection being begun is checked out
    driver.execute("BEGIN IMMEDIATE" if writer else "BEGIN").close()
