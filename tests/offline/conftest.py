"""Fixtures of the offline tests, and what they check: the rules as the phone runs them
offline, against the server's answers. That does not depend on the database the server
stores its games in, so they are marked ``same_on_any_database`` (left out of the
PostgreSQL pass)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from companion.web.offline import kit
from tests.offline.worker_run import archive

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark this folder's tests ``same_on_any_database``."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.same_on_any_database)


@pytest.fixture(scope="session")
def unpacked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rules archive unpacked in a folder of its own, as the phone unpacks it."""
    folder = tmp_path_factory.mktemp("rules")
    archive().extractall(folder)
    return folder


@pytest.fixture
def routed(app: Flask, tmp_path: Path) -> Path:
    """The rules archive as the app serves it (its route map in it), unpacked alone: what
    the worker needs to draw a page's links."""
    archive(kit.route_map(app)).extractall(tmp_path)
    return tmp_path
