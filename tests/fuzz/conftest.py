"""One app and database for each fuzz module: Hypothesis runs many examples per test, and a
function-scoped app would be rebuilt per test, not per example. The database is the suite's
(a SQLite file, or PostgreSQL when ``TEST_DATABASE_URL`` says); each scene starts from
empty tables."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion import create_app
from companion.data.models import db
from tests.conftest import suite_database
from tests.fuzz.world import World


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The module's app (CSRF on, as in production) on a fresh database."""
    instance = tmp_path_factory.mktemp("fuzz-instance")
    url = suite_database() or f"sqlite:///{instance / 'fuzz.sqlite3'}"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "fuzz",
            "GAME_STARTS_LIMIT": "",  # the fuzzing starts many games from one address
            # One history for every request, as on a club server: the fuzzing reads what it
            # wrote without a circle's key (circles are tested in tests/circles).
            "CLUB_SERVER": True,
            "WTF_CSRF_ENABLED": True,
            "SQLALCHEMY_DATABASE_URI": url,
        },
        instance_path=str(instance),
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield World(app)
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()
