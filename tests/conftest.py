"""Shared fixtures: an app with its own temporary instance folder, a client and a CLI runner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from companion import create_app

TEST_CONFIG = {
    "TESTING": True,
    "SECRET_KEY": "test",
    "WTF_CSRF_ENABLED": True,
    "SQLALCHEMY_DATABASE_URI": "sqlite://",
}


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the developer's SECRET_KEY and DATABASE_URL out of every test."""
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)


@pytest.fixture
def instance_path(tmp_path: Path) -> Path:
    """A fresh instance folder for one test, in place of the real instance/."""
    return tmp_path / "instance"


@pytest.fixture
def app(instance_path: Path) -> Iterator[Flask]:
    """The app as tests use it: CSRF on, an in-memory database, a temporary instance folder."""
    yield create_app(TEST_CONFIG, instance_path=str(instance_path))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for ``app``."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A runner for ``app``'s command-line commands."""
    return app.test_cli_runner()
