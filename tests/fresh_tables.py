"""Each test's database as the models make it, with no rows, quickly on PostgreSQL.

Dropping and creating every table for every test costs PostgreSQL a few dozen milliseconds
of DDL, some two thousand times a run. Where the tables are still exactly as the last
``create_all`` left them (same tables, columns, constraints, indexes, no planner statistics:
:data:`FINGERPRINT`), one ``TRUNCATE ... RESTART IDENTITY`` empties them and starts their
identities again instead. Anything else (a test that dropped tables, ran the migrations,
ran ANALYZE, added a table) is met as before: every table dropped and created again.

A ``TRUNCATE`` makes each table and its indexes anew, which costs PostgreSQL far more than
finding out which tables need it: only the tables a test wrote to are emptied
(:func:`used_tables`), once, after the test; the next test's check finds nothing left to do.

SQLite gets a new file per test. Creating the tables there cost some 25 ms a test and dropping
them again 15: instead the tables are made once per process in a database in memory
(:func:`sqlite_template`), and SQLite's backup API copies that database over the test's, a
millisecond; whatever the file held before (rows, a dropped or added table) is replaced whole.
"""

from __future__ import annotations

import sqlite3
from functools import cache

import sqlalchemy as sa
from sqlalchemy.pool import StaticPool

from companion.data.models import db

#: What the schema of the current database is, in one line per object, hashed: relations
#: with their planner row counts and statistics, columns, constraints, indexes, triggers,
#: functions and types.
FINGERPRINT = sa.text(
    """
    SELECT md5(coalesce(string_agg(line, E'\\n' ORDER BY line), '')) FROM (
      SELECT 'rel ' || c.relname || ' ' || c.relkind::text || ' ' || c.reltuples::text || ' '
             || (SELECT count(*) FROM pg_statistic s WHERE s.starelid = c.oid)::text AS line
        FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace
      UNION ALL
      SELECT 'col ' || c.relname || ' ' || a.attname || ' '
             || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text || ' '
             || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
        FROM pg_attribute a
        JOIN pg_class c ON c.oid = a.attrelid
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE c.relnamespace = current_schema()::regnamespace
         AND a.attnum > 0 AND NOT a.attisdropped
      UNION ALL
      SELECT 'con ' || conrelid::regclass::text || ' ' || conname || ' '
             || pg_get_constraintdef(oid)
        FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
      UNION ALL
      SELECT 'idx ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
      UNION ALL
      SELECT 'trg ' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
      UNION ALL
      SELECT 'fn ' || p.oid::regprocedure::text FROM pg_proc p
       WHERE p.pronamespace = current_schema()::regnamespace
      UNION ALL
      SELECT 'typ ' || t.typname FROM pg_type t
       WHERE t.typnamespace = current_schema()::regnamespace
    ) AS lines
    """
)

#: For each PostgreSQL database URL, the fingerprint its schema had when its tables were
#: last created (and emptied).
AS_CREATED: dict[str, str] = {}


@cache
def sqlite_template() -> sa.Engine:
    """A SQLite database in memory holding the models' tables (and what their creation
    writes), made by ``create_all`` once per process."""
    engine = sa.create_engine("sqlite://", poolclass=StaticPool)
    db.metadata.create_all(engine)
    return engine


def copy_template() -> None:
    """Replace the app's SQLite database with :func:`sqlite_template`, whole."""
    with sqlite_template().connect() as source, db.engine.connect() as connection:
        template = source.connection.driver_connection
        target = connection.connection.driver_connection
        assert isinstance(template, sqlite3.Connection)
        assert isinstance(target, sqlite3.Connection)
        template.backup(target)


def fingerprint() -> str:
    """The fingerprint of the schema of the app's database (PostgreSQL)."""
    with db.engine.connect() as connection:
        return str(connection.scalar(FINGERPRINT))


def empty_all_tables() -> None:
    """Delete every row of the models' tables and start their identities again."""
    names = ", ".join(f'"{table.name}"' for table in db.metadata.sorted_tables)
    with db.engine.begin() as connection:
        connection.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY CASCADE")


def intact(url: str) -> bool:
    """Whether the database of ``url`` is PostgreSQL and its schema is still exactly as the
    last :func:`make_fresh` made it."""
    return db.engine.dialect.name == "postgresql" and AS_CREATED.get(url) == fingerprint()


def used_tables() -> list[str]:
    """The models' tables that are no longer as a ``TRUNCATE ... RESTART IDENTITY`` left them
    (PostgreSQL): a row was ever written since (the table's file is no longer empty, even if
    the row was deleted again) or its identity has given a number. One statement of file sizes
    and sequence reads, where a ``TRUNCATE`` makes each table and its indexes anew."""
    checks = []
    for table in db.metadata.sorted_tables:
        written = f"pg_relation_size('\"{table.name}\"') > 0"
        column = table.autoincrement_column
        if column is not None:
            numbered = (
                "(SELECT last_value FROM pg_sequences WHERE format('%I.%I', schemaname,"
                f" sequencename) = pg_get_serial_sequence('\"{table.name}\"', '{column.name}'))"
                " IS NOT NULL"
            )
            written = f"{written} OR {numbered}"
        checks.append(f"SELECT '{table.name}' WHERE {written}")
    with db.engine.connect() as connection:
        return list(connection.scalars(sa.text(" UNION ALL ".join(checks))))


def empty_used_tables() -> None:
    """Empty the tables a test used (:func:`used_tables`) and start their identities again;
    the others are as a ``TRUNCATE`` left them already."""
    used = used_tables()
    if not used:
        return
    names = ", ".join(f'"{name}"' for name in used)
    with db.engine.begin() as connection:
        connection.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY CASCADE")


def make_fresh(url: str) -> None:
    """The models' tables, empty, their identities at the start (in an app context)."""
    if db.engine.dialect.name == "sqlite":
        copy_template()
        return
    if intact(url):
        empty_used_tables()  # none, unless the test before failed to clear them away
        return
    AS_CREATED.pop(url, None)
    db.drop_all()
    db.create_all()
    if db.engine.dialect.name == "postgresql":
        # Emptied once already, so that every test meets the tables as a TRUNCATE leaves
        # them (the planner's row count of an index: unknown, where CREATE INDEX said 0).
        empty_all_tables()
        AS_CREATED[url] = fingerprint()


def clear_away(url: str) -> None:
    """Leave no row behind (in an app context): the tables are emptied where they are all
    still there (the next :func:`make_fresh` checks the rest), else dropped, as before; a
    SQLite database is made as fresh again."""
    if db.engine.dialect.name == "sqlite":
        copy_template()
        return
    if url in AS_CREATED:
        try:
            empty_used_tables()
            return
        except sa.exc.ProgrammingError:  # a table the test dropped
            pass
    AS_CREATED.pop(url, None)
    db.drop_all()
