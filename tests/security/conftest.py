"""Fixtures of the security tests that need a real server: a database made by the
migrations, shared by the servers of a session (SQLite in WAL mode takes several)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts import server_harness


@pytest.fixture(scope="session")
def server_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the servers' database and logs go."""
    return tmp_path_factory.mktemp("servers")


@pytest.fixture(scope="session")
def served_database(server_folder: Path) -> Iterator[str]:
    """The URL of a SQLite database created by ``flask db upgrade``, as a deployment makes
    it; what these servers store does not matter, only what they log and answer."""
    with server_harness.migrated_database(server_folder, "served") as url:
        yield url
