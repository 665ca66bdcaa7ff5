"""Reads compiled once and sent straight to the driver: the few statements every poll runs."""

from __future__ import annotations

from collections import namedtuple
from enum import Enum
from typing import Any

import sqlalchemy as sa

from companion.data.models import db


class PreparedRead:
    """A read statement asked many times a second (the ETag reads of the pages kept once
    rendered, which every phone's poll makes), compiled once per database and sent straight
    to the driver, in autocommit, on a pooled connection.

    Most of what ``database.read_once`` costs on SQLite is not the SQL itself but the connection's
    events, the ``BEGIN`` of ``database._sqlite_begin``, the statement's cache key (built again
    at every execution, joins and all) and the result's processing. A single statement sees one
    consistent state on its own (as with ``read_once``), so here it runs without them
    (docs/development.md, "Measurements behind the design"). The values are the driver's own (no
    type processing: a SQLite timestamp is text), fit for an ETag, not for a page. The statement
    is still announced to the engine's ``before_cursor_execute`` listeners, so the statement
    counts (tests, ``scripts/benchmark.py``) see every statement a request runs."""

    def __init__(self, statement: sa.Select[*tuple[Any, ...]]):
        self.statement = statement
        self.row = namedtuple("Row", list(statement.selected_columns.keys()))  # type: ignore[misc]
        self.compiled: dict[tuple[str, str], sa.sql.compiler.SQLCompiler] = {}

    def rows(self, **parameters: Any) -> list[Any]:
        """The rows for ``parameters`` (the statement's bound parameters by name)."""
        engine = db.engine
        dialect = engine.dialect
        compiled = self.compiled.get((dialect.name, dialect.paramstyle))
        if compiled is None:
            compiled = self.statement.compile(dialect=dialect)
            self.compiled[(dialect.name, dialect.paramstyle)] = compiled
        values = {
            name: value.value if isinstance(value, Enum) else value
            for name, value in (compiled.construct_params(parameters) or {}).items()
        }
        sent: Any = values
        if compiled.positiontup is not None:
            sent = tuple(values[name] for name in compiled.positiontup)
        connection = engine.raw_connection()
        try:
            driver = connection.driver_connection
            autocommit = dialect.name != "sqlite"  # SQLite's driver begins nothing for a read
            if autocommit:
                driver.autocommit = True  # type: ignore[union-attr]
            try:
                cursor = connection.cursor()
                if engine.dispatch.before_cursor_execute:
                    engine.dispatch.before_cursor_execute(
                        None, cursor, compiled.string, sent, None, False
                    )
                cursor.execute(compiled.string, sent)
                found = [self.row(*row) for row in cursor.fetchall()]
                cursor.close()
            finally:
                if autocommit:
                    driver.autocommit = False  # type: ignore[union-attr]
        except Exception:
            connection.invalidate()  # whatever went wrong, this connection is not reused
            raise
        finally:
            connection.close()  # back to the pool
        return found
