"""Fixtures of the concurrency tests: the app served by gunicorn with four worker processes
on a loopback port, on a database of its own (a SQLite file in WAL mode, or a fresh database
on the PostgreSQL server of ``TEST_DATABASE_URL``), created by the migrations.

One server serves the whole session: starting gunicorn takes seconds on a busy machine. The
crash test starts (and kills) servers of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts import server_harness
from tests.conftest import suite_database


def postgres_url() -> str | None:
    """The PostgreSQL server the suite runs on, if it runs on one."""
    return suite_database()


@pytest.fixture(scope="session")
def database_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the servers' SQLite files and logs go."""
    return tmp_path_factory.mktemp("concurrency")


@pytest.fixture(scope="session")
def server(database_folder: Path) -> Iterator[server_harness.Server]:
    """gunicorn -w 4 on its own migrated database, answering, for the whole session."""
    with (
        server_harness.migrated_database(database_folder, "concurrency", postgres_url()) as url,
        # A club's server: the races are of one history's players (circles: tests/circles).
        server_harness.running_server(
            url, database_folder / "gunicorn.log", environment={"CLUB_SERVER": "1"}
        ) as running,
    ):
        yield running


@pytest.fixture
def http(server: server_harness.Server) -> server_harness.Client:
    """A client of the session's server."""
    return server_harness.Client(server.url, timeout=30)


@pytest.fixture(autouse=True)
def no_new_tracebacks(server: server_harness.Server) -> Iterator[None]:
    """Fail the test if the server logged a traceback (a 500, a crashed worker) during it."""
    before = len(server.tracebacks())
    yield
    new = server.tracebacks()[before:]
    assert not new, "the server logged tracebacks:\n\n" + "\n\n".join(new)
