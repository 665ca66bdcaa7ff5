"""Every test meets the models' tables empty, their identities at the start and, on PostgreSQL,
with no planner statistics, whatever the test before left (tests/fresh_tables.py): rows,
ANALYZE, a table dropped, an index added."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask import Flask

from companion.data.circles import server_circle_id
from companion.data.models import Player, db
from tests.fresh_tables import make_fresh
from tests.schema import drop_everything

ADD_PLAYER = sa.text(
    "INSERT INTO players (circle_id, name, key, created_at) VALUES (:circle, :name, :key, :at)"
)


def add_player(name: str) -> int:
    """A player row of the server's circle, written straight to the table; answers its id."""
    with db.engine.begin() as connection:
        circle = server_circle_id(connection)
        connection.execute(
            ADD_PLAYER, {"circle": circle, "name": name, "key": name.lower(), "at": "2026-01-01"}
        )
        found = connection.scalar(sa.select(Player.id).where(Player.name == name))
    assert found is not None
    return int(found)


def planner_knows(table: str) -> Any:
    """PostgreSQL's planner row count of ``table`` (-1: never measured) and how many of its
    columns it has statistics of; None on SQLite."""
    if db.engine.dialect.name != "postgresql":
        return None
    with db.engine.connect() as connection:
        return tuple(
            connection.execute(
                sa.text(
                    "SELECT reltuples, (SELECT count(*) FROM pg_statistic WHERE starelid = oid)"
                    " FROM pg_class WHERE relname = :table"
                ),
                {"table": table},
            ).one()
        )


def fresh_after(app: Flask, url: str, mess: Any) -> None:
    """After ``mess``, :func:`make_fresh` gives empty tables whose identities start at 1."""
    with app.app_context():
        add_player("Ann")
        mess()
        make_fresh(url)
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Player)) == 0
        db.session.remove()  # its transaction would hold the table against the next TRUNCATE
        assert add_player("Ben") == 1
        assert planner_knows("players") in {None, (-1, 0)}
        make_fresh(url)


def test_rows_are_gone_and_identities_start_again(app: Flask) -> None:
    fresh_after(app, app.config["SQLALCHEMY_DATABASE_URI"], lambda: add_player("Cleo"))


def test_planner_statistics_are_gone(app: Flask) -> None:
    def analyze() -> None:
        add_player("Cleo")
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("ANALYZE")
        known = planner_knows("players")
        assert known is None or (known[0] == 2 and known[1] > 0)

    fresh_after(app, app.config["SQLALCHEMY_DATABASE_URI"], analyze)


def test_a_dropped_schema_is_made_again(app: Flask) -> None:
    fresh_after(app, app.config["SQLALCHEMY_DATABASE_URI"], drop_everything)


def test_an_added_index_is_gone(app: Flask) -> None:
    def add_index() -> None:
        with db.engine.begin() as connection:
            connection.exec_driver_sql("CREATE INDEX extra_index ON players (created_at)")

    fresh_after(app, app.config["SQLALCHEMY_DATABASE_URI"], add_index)
    with app.app_context():
        assert "extra_index" not in {
            i["name"] for i in sa.inspect(db.engine).get_indexes("players")
        }
