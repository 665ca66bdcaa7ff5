"""The benchmark's throwaway databases: the scratch folder removed at every exit, the
demo histories, the circles copied from the first, and their invite keys."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scripts.bench.settings import BIN, ROOT
from scripts.stopping import signals_end_the_run

#: The databases: the large and small histories of a club, and the circles of another server.
DATABASES = ("large", "small", "circles")


@contextlib.contextmanager
def scratch_folder() -> Iterator[Path]:
    """A temporary folder for the databases and the apps' instance folders, removed at
    every exit: normal, an error, Ctrl-C (SIGINT) or SIGTERM and SIGHUP, which end the run
    as Ctrl-C does, through every ``finally`` (servers and a throwaway PostgreSQL stop too).
    The signals' previous handlers are back afterwards."""

    with signals_end_the_run():
        folder = Path(tempfile.mkdtemp(prefix="sticheln-bench-"))
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def databases(kind: str, folder: Path) -> Iterator[tuple[str, str, str]]:
    """The URLs of three empty databases (:data:`DATABASES`), removed afterwards."""
    if kind == "sqlite":
        yield tuple(  # type: ignore[misc]
            f"sqlite:///{folder / f'{name}.sqlite3'}" for name in DATABASES
        )
        return
    import sqlalchemy as sa

    import manage  # the throwaway cluster of `manage.py test`

    postgres = manage.ensure_postgres()
    if postgres is None:
        sys.exit("No PostgreSQL server here (and it cannot be installed): use --database sqlite.")
    with manage.throwaway_postgres(postgres) as url:
        server = sa.create_engine(url, isolation_level="AUTOCOMMIT")
        with server.connect() as connection:
            for name in DATABASES:
                connection.exec_driver_sql(f'CREATE DATABASE "bench_{name}"')
        server.dispose()
        base = sa.engine.make_url(url)
        yield tuple(  # type: ignore[misc]
            base.set(database=f"bench_{name}").render_as_string(hide_password=False)
            for name in DATABASES
        )


def flask_command(url: str, secret: str, *args: str) -> None:
    """Run a ``flask --app companion`` command on the database at ``url``."""
    environment = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": secret}
    result = subprocess.run(
        [str(BIN / "flask"), "--app", "companion", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        sys.exit(f"flask {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    if result.stdout.strip():
        print("    " + result.stdout.strip().splitlines()[-1], flush=True)


def fill(url: str, secret: str, games: int, seed: int) -> None:
    """Create the schema and a history of ``games`` demo games."""
    flask_command(url, secret, "db", "upgrade")
    flask_command(url, secret, "demo-data", "--games", str(games), "--seed", str(seed))


#: What a copied circle's rows take from the original, by table: the columns whose ids are
#: moved on by the copy's offset of that table (``circle_id`` becomes the copy's circle), and
#: the column that keeps the original's rows only (their ids are at most the largest before
#: the first copy).
COPIED = {
    "players": ({"id": "players"}, "id"),
    "games": ({"id": "games", "next_game_id": "games"}, "id"),
    "seats": ({"game_id": "games", "player_id": "players"}, "game_id"),
    "rounds": ({"id": "rounds", "game_id": "games"}, "id"),
    "round_results": ({"round_id": "rounds", "player_id": "players"}, "round_id"),
}
#: The table whose ids the column of :data:`COPIED` that keeps the original's rows holds.
KEPT_BY = {"players": "players", "games": "games", "seats": "games", "rounds": "rounds"}


def copy_circle(url: str, copies: int) -> None:
    """Make ``copies`` more circles on the database at ``url`` (which holds one), each a copy
    of its circle's players, games, seats, rounds and results (codes made unique), so that
    the first circle is one large circle among as many others; then the planner's
    statistics are taken again (as after any bulk load)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    meta = sa.MetaData()
    meta.reflect(engine, only=["circles", *COPIED])
    circles = meta.tables["circles"]
    with engine.begin() as connection:
        largest = {
            name: int(connection.scalar(sa.select(sa.func.max(meta.tables[name].c.id))) or 0)
            for name in ("players", "games", "rounds")
        }
        for copy in range(1, copies + 1):
            circle = connection.scalar(
                sa.insert(circles)
                .values(name=f"Copy {copy}", secret_hash="0" * 64, created_at=sa.func.now())
                .returning(circles.c.id)
            )
            for name, (moved, kept) in COPIED.items():
                table_ = meta.tables[name]
                values: list[Any] = []
                for column in table_.c:
                    if column.name == "circle_id":
                        values.append(sa.literal(circle).label(column.name))
                    elif column.name == "code":
                        values.append((column + f"-{copy}").label(column.name))
                    elif column.name in moved:
                        offset = copy * largest[moved[column.name]]
                        values.append((column + offset).label(column.name))
                    else:
                        values.append(column)
                original = table_.c[kept] <= largest[KEPT_BY.get(name, "rounds")]
                query = sa.select(*values).where(original)
                connection.execute(sa.insert(table_).from_select(list(table_.c.keys()), query))
        if engine.dialect.name == "postgresql":
            for name in ("circles", "players", "games", "rounds"):
                connection.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"(SELECT max(id) FROM {name}))"
                )
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("ANALYZE")
    engine.dispose()


def clone(source: str, target: str) -> None:
    """Make the database at ``target`` a copy of the one at ``source`` (no one connected)."""
    import sqlalchemy as sa

    source_url, target_url = sa.engine.make_url(source), sa.engine.make_url(target)
    if source_url.get_backend_name() == "sqlite":
        import sqlite3

        with (
            contextlib.closing(sqlite3.connect(str(source_url.database))) as original,
            contextlib.closing(sqlite3.connect(str(target_url.database))) as copy,
        ):
            original.backup(copy)
        return
    server = sa.create_engine(source_url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE "{target_url.database}"')
        connection.exec_driver_sql(
            f'CREATE DATABASE "{target_url.database}" TEMPLATE "{source_url.database}"'
        )
    server.dispose()


def invite_key(url: str) -> str:
    """A new invite key of the first circle of the database at ``url`` (only its hash is
    stored, as ``flask circles invite`` does)."""
    import sqlalchemy as sa

    from companion.services.keys import hash_edit_key

    key = secrets.token_urlsafe(18)
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "UPDATE circles SET secret_hash = :hash WHERE id = (SELECT min(id) FROM circles)"
            ),
            {"hash": hash_edit_key(key)},
        )
    engine.dispose()
    return key
