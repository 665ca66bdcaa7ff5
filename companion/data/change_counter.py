"""The change counter: one row that every write to a table the pages show moves on.

The history, player and head-to-head pages are kept once rendered (``web.history_cache``),
and one cheap read must tell whether a kept page is still right, with 10,000 games as with
20. Adding up the games for that reads every game row; instead, a trigger on each table those
pages are made of (:data:`COUNTED_TABLES`) adds one to ``change_counter.changes`` whenever a
statement writes to it, in the writer's own transaction: the counter commits and rolls back
with the change, whichever way it was made (a page, the API, the ``players`` commands, the
journal's undo, an import, the demo data, a hand edit in ``psql``). Reading the row is then
the whole cost of the question.

``epoch`` is drawn at random when the row is made: a database emptied and filled again (a
restore, the tests) starts counting again, and a page kept for the old counts is never taken
for a new one.

On PostgreSQL the trigger runs before each writing statement and counts the first of each
transaction only (a setting local to the transaction remembers it, and a savepoint rolled
back forgets it with the count): a bulk load of 10,000 games in one transaction would
otherwise update one row a million times, each update walking the row's versions left by
the ones before. SQLite has only row triggers, which run after each row and update the row
in place. Writers on PostgreSQL then wait for the counter's row lock, as SQLite's writers
wait for its one write lock. A writer takes it at its first write, after the game rows it
locks first (``services``: lock first, then write), so no two writers wait on each other in
a circle. The migration that made the counter is 0011; ``install`` gives a
schema made by ``create_all`` (the tests) the same triggers, and a test holds the two equal.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from companion.data.models import ChangeCounter
from companion.data.prepared_reads import PreparedRead
from companion.data.schema_triggers import install_triggers

#: The tables the pages are made of: every write to one of them moves the counter on.
COUNTED_TABLES = (
    "players",
    "games",
    "seats",
    "rounds",
    "round_results",
    "player_changes",
    "player_totals",
    "player_colours",
    "player_round_scores",
    "player_months",
    "player_opponents",
    "player_games",
)
#: The tables left out: the counter itself, the answers kept for replays (no page shows
#: them, and every change they answer wrote a counted table too), the rate limits' counts,
#: the circles (no page shows one yet: a circle's name or invite changes no page) and
#: their journal (the operator's alone; a merge's moves write counted tables too).
UNCOUNTED_TABLES = (
    "change_counter",
    "idempotent_answers",
    "rate_limit_hits",
    "circles",
    "circle_changes",
)

#: The PostgreSQL function every trigger calls.
FUNCTION = "count_change"
#: PostgreSQL's setting, local to a transaction, that says its first write has counted.
COUNTED_FLAG = "companion.change_counted"
#: A new random epoch, as each database draws it (32 hexadecimal digits).
NEW_EPOCH = {
    "sqlite": "lower(hex(randomblob(16)))",
    "postgresql": "md5(random()::text || clock_timestamp()::text)",
}
SQLITE_OPERATIONS = ("insert", "update", "delete")


def _counting(epoch: str) -> str:
    """The statement a trigger runs: one more change, or the row itself when there is none
    (the first write, or the first after the tables were emptied)."""
    return (
        "INSERT INTO change_counter (id, changes, epoch) "
        f"VALUES (1, 1, {epoch}) "
        "ON CONFLICT (id) DO UPDATE SET changes = change_counter.changes + 1"
    )


def trigger_name(table: str, operation: str = "") -> str:
    """The name of the trigger that counts the writes to ``table`` (SQLite: one per
    ``operation``)."""
    return f"count_changes_{table}" + (f"_{operation}" if operation else "")


def create_statements(dialect: str, tables: tuple[str, ...] = COUNTED_TABLES) -> list[str]:
    """The DDL that makes the triggers of ``tables`` on ``dialect``."""
    counting = _counting(NEW_EPOCH[dialect])
    if dialect == "sqlite":
        return [
            f"CREATE TRIGGER {trigger_name(table, operation)} AFTER {operation.upper()} "
            f"ON {table} FOR EACH ROW BEGIN {counting}; END"
            for table in tables
            for operation in SQLITE_OPERATIONS
        ]
    function = (
        f"CREATE OR REPLACE FUNCTION {FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN IF coalesce(current_setting('{COUNTED_FLAG}', true), '') <> 'on' THEN "
        f"{counting}; PERFORM set_config('{COUNTED_FLAG}', 'on', true); END IF; "
        "RETURN NULL; END $$"
    )
    return [function] + [
        f"CREATE TRIGGER {trigger_name(table)} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE "
        f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION {FUNCTION}()"
        for table in tables
    ]


def drop_statements(dialect: str, tables: tuple[str, ...] = COUNTED_TABLES) -> list[str]:
    """The DDL that removes what :func:`create_statements` made (PostgreSQL: the function,
    and with it every trigger that calls it)."""
    if dialect == "sqlite":
        return [
            f"DROP TRIGGER IF EXISTS {trigger_name(table, operation)}"
            for table in tables
            for operation in SQLITE_OPERATIONS
        ]
    return [f"DROP FUNCTION IF EXISTS {FUNCTION}() CASCADE"]


def trigger_names(connection: sa.Connection) -> set[tuple[str, str]]:
    """The triggers of the database, as (table, trigger name): what the tests compare."""
    if connection.dialect.name == "sqlite":
        query = "SELECT tbl_name, name FROM sqlite_master WHERE type = 'trigger'"
    else:
        query = (
            "SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal"
        )
    return {(row[0], row[1]) for row in connection.exec_driver_sql(query)}


def counter_columns() -> list[sa.ColumnElement[Any]]:
    """The counter's two values as columns (``changes``, ``epoch``) to read beside anything
    else a page reads first, in one statement; ``None`` before the first write."""
    row = sa.select(ChangeCounter).where(ChangeCounter.id == 1)
    return [
        row.with_only_columns(ChangeCounter.changes).scalar_subquery().label("changes"),
        row.with_only_columns(ChangeCounter.epoch).scalar_subquery().label("epoch"),
    ]


#: The counter alone, as the pages that depend on nothing else read it at every request.
COUNTER_READ = PreparedRead(sa.select(*counter_columns()))


def counter_values(row: Any) -> list[str]:
    """The counter read in ``row`` (see :func:`counter_columns`), as text for an ETag."""
    return [str(row.changes), str(row.epoch)]


def install() -> None:
    """Give every schema ``create_all`` makes the counter's triggers (once per process).
    Installed first, so that its triggers are dropped first: else dropping a table would
    count the rows its foreign keys delete elsewhere into a counter already dropped."""
    install_triggers(create_statements, drop_statements)
