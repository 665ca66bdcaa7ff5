"""Fixtures of the offline tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.offline.worker_run import archive


@pytest.fixture(scope="session")
def unpacked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rules archive unpacked in a folder of its own, as the phone unpacks it."""
    folder = tmp_path_factory.mktemp("rules")
    archive().extractall(folder)
    return folder
