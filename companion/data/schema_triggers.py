"""Triggers declared in SQL by a module of ``companion.data``, made with every schema that
``create_all`` makes (the tests' databases) as the migrations make them on a real one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from companion.data.models import Base

#: A module's statements for a dialect ("sqlite", "postgresql").
Statements = Callable[[str], list[str]]

#: The modules whose triggers are installed, by their ``create`` statements.
_installed: set[Statements] = set()


def install_triggers(create: Statements, drop: Statements) -> None:
    """After ``create_all``, drop then create the triggers (``create``); before ``drop_all``,
    drop them (``drop``). Once per process and module; the order of the calls is the order
    the triggers are made and dropped in."""
    if create in _installed:
        return
    _installed.add(create)

    def after_create(_metadata: sa.MetaData, connection: sa.Connection, **_kw: Any) -> None:
        dialect = connection.dialect.name
        for statement in [*drop(dialect), *create(dialect)]:
            connection.exec_driver_sql(statement)

    def before_drop(_metadata: sa.MetaData, connection: sa.Connection, **_kw: Any) -> None:
        for statement in drop(connection.dialect.name):
            connection.exec_driver_sql(statement)

    sa.event.listen(Base.metadata, "after_create", after_create)
    sa.event.listen(Base.metadata, "before_drop", before_drop)
