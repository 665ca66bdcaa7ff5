"""Fixtures of the backup tests: a second, empty app with its own database to restore into."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from companion import create_app
from companion.data.models import db
from tests.conftest import TEST_CONFIG, on_postgres_server, sibling_database, suite_database


@pytest.fixture
def second_database_url(tmp_path: Path) -> Iterator[str]:
    """Another database than the ``app`` fixture's: a second SQLite file, or on PostgreSQL
    (``TEST_DATABASE_URL``) a second database created on the same server for this test."""
    shared = suite_database()
    if not shared:
        yield f"sqlite:///{tmp_path / 'second.sqlite3'}"
        return
    name, url = sibling_database(shared, f"restore_{uuid.uuid4().hex[:8]}")
    on_postgres_server(shared, f'CREATE DATABASE "{name}"')
    try:
        yield url
    finally:
        on_postgres_server(shared, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def second_app(tmp_path: Path, second_database_url: str) -> Iterator[Flask]:
    """An app on an empty database of its own, as on a new machine restoring a backup."""
    instance = tmp_path / "second-instance"
    instance.mkdir()
    config = {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": second_database_url}
    app = create_app(config, instance_path=str(instance))
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()
