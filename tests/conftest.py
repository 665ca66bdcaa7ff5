"""Shared fixtures: an app with its own temporary instance folder, a client and a CLI runner."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from _pytest.nodeid import NodeId
from flask import Flask, has_request_context
from flask.testing import FlaskClient, FlaskCliRunner

from companion import create_app
from companion.data.database import SQLITE_WRITE_LOCK
from companion.data.models import db
from tests.fresh_tables import clear_away, make_fresh
from tests.openapi_check import CheckingClient
from tests.table import Table
from tests.url_builders import compile_builders_once

#: Every test client of every app the tests build holds its exchanges with the JSON API to
#: the API's OpenAPI document (tests/openapi_check.py): the document cannot drift.
Flask.test_client_class = CheckingClient
#: The suite makes an app for nearly every test: werkzeug compiles each URL rule once per
#: process instead of once per app (tests/url_builders.py).
compile_builders_once()

TEST_CONFIG = {
    "TESTING": True,
    "SECRET_KEY": "test",
    "WTF_CSRF_ENABLED": True,
    # Tests start many games from one address: the limit is tested on its own
    # (tests/security/test_rate_limits.py).
    "GAME_STARTS_LIMIT": "",
    # The suite's pages look at games it made behind their back (services, other clients):
    # on a club server every phone sees them all, as before circles. Circles are tested
    # with this off (tests/circles).
    "CLUB_SERVER": True,
}


def on_postgres_server(url: str, *statements: str) -> None:
    """Run statements such as CREATE DATABASE, which need autocommit, on the server of ``url``."""
    server = sa.create_engine(sa.engine.make_url(url), isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        for statement in statements:
            connection.exec_driver_sql(statement)
    server.dispose()


def sibling_database(url: str, suffix: str) -> tuple[str, str]:
    """The name and URL of another database on the same PostgreSQL server as ``url``."""
    parsed = sa.engine.make_url(url)
    name = f"{parsed.database}_{suffix}"
    return name, parsed.set(database=name).render_as_string(hide_password=False)


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist on PostgreSQL, give each worker a database of its own on the same
    server, so that parallel tests never drop each other's tables."""
    shared, worker = os.environ.get("TEST_DATABASE_URL"), os.environ.get("PYTEST_XDIST_WORKER")
    if not shared or not worker:
        return
    name, url = sibling_database(shared, worker)
    on_postgres_server(
        shared, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'
    )
    os.environ["TEST_DATABASE_URL"] = url


#: The fixtures that reach the suite's database, ``TEST_DATABASE_URL`` when it is set: the
#: apps of the unit and page tests (``app``, and through it ``client``, ``table``...), the
#: fuzz tests' ``world``, the concurrency tests' gunicorn ``server`` and the backup tests'
#: second database.
DATABASE_FIXTURES = frozenset({"app", "world", "server", "second_database_url"})


def reaches_the_database(item: pytest.Item) -> bool:
    """Whether a test can tell SQLite from PostgreSQL: it asks for a fixture of
    ``DATABASE_FIXTURES`` (itself or through another fixture), or it reaches the database
    otherwise and says so (``database``). The rest (the rules, the browser tests, whose
    server keeps a SQLite file of its own, tests of an app pinned to ``sqlite://``) would
    run the same on either."""
    fixtures = set(getattr(item, "fixturenames", ()))
    return bool(fixtures & DATABASE_FIXTURES) or item.get_closest_marker("database") is not None


def runs_on_postgres(item: pytest.Item) -> bool:
    """Whether the PostgreSQL pass keeps ``item``: it reaches the database
    (``reaches_the_database``), is not about SQLite's own driver (``sqlite_only``), and its
    checks are ones the database can change: not ``same_on_any_database``, and its body runs
    a statement on the suite's database (not ``no_database_queries``)."""
    return reaches_the_database(item) and not any(
        item.get_closest_marker(name) for name in LEFT_TO_SQLITE
    )


#: The markers that leave a test to the SQLite pass, though it reaches the database.
LEFT_TO_SQLITE = ("sqlite_only", "same_on_any_database", "no_database_queries")

#: The tests under way (a list of one, in a worker): who reached the suite's database.
RUNNING: list[pytest.Item] = []
#: Set on a test that reached the suite's database (``suite_database``).
REACHED = pytest.StashKey[bool]()
#: Statements run on a suite database by the apps of ``app`` in this process so far.
STATEMENTS = [0]


def count_statement(*_args: object) -> None:
    """Count one statement run on a suite database (``STATEMENTS``)."""
    STATEMENTS[0] += 1


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[object]:
    """Keep the test under way in ``RUNNING`` while it runs."""
    RUNNING.append(item)
    try:
        return (yield)
    finally:
        RUNNING.remove(item)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[object]:
    """Fail a test marked ``no_database_queries`` whose body ran a statement on the suite's
    database: the PostgreSQL pass leaves it out, so it would never meet PostgreSQL."""
    marked = item.get_closest_marker("no_database_queries") is not None
    if marked and "app" not in getattr(item, "fixturenames", ()):
        pytest.fail(
            "marked no_database_queries without the app fixture, whose statements are counted",
            pytrace=False,
        )
    before = STATEMENTS[0]
    result = yield
    ran = STATEMENTS[0] - before
    if ran and marked:
        pytest.fail(
            f"marked no_database_queries, but its body ran {ran} statement(s) on the suite's "
            "database: take the marker off, so that it runs on PostgreSQL too",
            pytrace=False,
        )
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[object]:
    """Fail a test that reached the suite's database (``suite_database``, ``database_url``)
    without saying so (a fixture of ``DATABASE_FIXTURES`` or the ``database`` marker): the
    PostgreSQL pass would leave it out. And one marked ``database`` that never reached it."""
    result = yield
    reached = item.stash.get(REACHED, False)
    if reached and not reaches_the_database(item):
        pytest.fail(
            "reached the suite's database without a fixture of DATABASE_FIXTURES or the "
            "database marker: the PostgreSQL pass would leave it out",
            pytrace=False,
        )
    if item.get_closest_marker("database") and not reached:
        pytest.fail(
            "marked database, but never reached the suite's database (database_url, "
            "suite_database): take the marker off",
            pytrace=False,
        )
    return result


#: The folders whose files take longest, run first: under pytest-xdist a worker takes the
#: next file when it is done with one (``--dist loadfile``, in this order: the test command
#: turns xdist's own order, most tests first, off), so a long file started last would keep one
#: worker busy while the other waits. A browser test loads pages in Chromium, an offline test
#: draws every page of hundreds of random rounds twice (by the app, and by the rules worker
#: under CPython), a concurrency test drives gunicorn, packaging builds a wheel, docs builds
#: the documentation.
SLOW_FIRST = (
    "tests/browser/",
    "tests/offline/",
    "tests/concurrency/",
    "tests/packaging/",
    "tests/docs/",
    "tests/fuzz/",
    "tests/scripts/",
)


def slowness_rank(item: pytest.Item) -> int:
    """Where ``item``'s folder stands in ``SLOW_FIRST`` (the rest after it)."""
    for rank, folder in enumerate(SLOW_FIRST):
        if item.nodeid.startswith(folder):
            return rank
    return len(SLOW_FIRST)


def give_each_item_its_own_id(items: list[pytest.Item]) -> None:
    """Make every test's node id its own, or stop the run.

    pytest-xdist hands tests to its workers by node id: tests that share one run once between
    them, counted as one pass, and nothing says the others never ran. Schemathesis makes one
    test per operation of the API's document (``tests/api/test_openapi_schemathesis.py``),
    named after it (``test_...[GET /api/v1/setup]``), but pytest 9.2 builds a test's id from
    the function's name and its ``parametrize`` call, so they all had one id. Such
    a test takes its full name as its id; an id still shared is an error."""
    counts = Counter(item.nodeid for item in items)
    for item in items:
        if counts[item.nodeid] > 1 and item.parent is not None:
            full = f"{item.parent.nodeid}::{item.name}"
            if full != item.nodeid:
                item._id = NodeId.parse(full)
    shared = sorted(
        nodeid for nodeid, count in Counter(i.nodeid for i in items).items() if count > 1
    )
    if shared:
        raise pytest.UsageError(f"tests share a node id, so some would never run: {shared}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give every test an id of its own (``give_each_item_its_own_id``). Run the slowest
    folders first (``SLOW_FIRST``; a file's tests keep their order). On
    PostgreSQL (``TEST_DATABASE_URL``), run only the tests whose checks the database can
    change (``runs_on_postgres``): the others are deselected, never skipped; they ran on the
    SQLite pass."""
    give_each_item_its_own_id(items)
    items.sort(key=slowness_rank)
    if not os.environ.get("TEST_DATABASE_URL"):
        return
    kept = [item for item in items if runs_on_postgres(item)]
    if len(kept) < len(items):
        chosen = set(kept)
        config.hook.pytest_deselected(items=[item for item in items if item not in chosen])
        items[:] = kept


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the developer's SECRET_KEY and DATABASE_URL out of every test."""
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)


@pytest.fixture
def instance_path(tmp_path: Path) -> Path:
    """A fresh instance folder for one test, in place of the real instance/."""
    return tmp_path / "instance"


def suite_database() -> str | None:
    """The PostgreSQL server the suite runs on (``TEST_DATABASE_URL``), None on SQLite; every
    reach for the suite's database goes through here, so that the test that made it is known
    (``check_the_database_reach``)."""
    if RUNNING:
        RUNNING[-1].stash[REACHED] = True
    return os.environ.get("TEST_DATABASE_URL") or None


def database_url(instance_path: Path) -> str:
    """The suite runs on SQLite by default and on PostgreSQL when ``TEST_DATABASE_URL`` says."""
    return suite_database() or f"sqlite:///{instance_path / 'test.sqlite3'}"


@pytest.fixture
def app(instance_path: Path) -> Iterator[Flask]:
    """The app as tests use it: CSRF on, a fresh database, a temporary instance folder."""
    instance_path.mkdir(parents=True, exist_ok=True)
    url = database_url(instance_path)
    config = {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url}
    app = create_app(config, instance_path=str(instance_path))
    with app.app_context():
        make_fresh(url)  # on PostgreSQL, tables as made are emptied, not made again
        if db.engine.dialect.name == "sqlite":
            sa.event.listen(db.engine, "before_cursor_execute", writes_only_under_the_lock)
        sa.event.listen(db.engine, "before_cursor_execute", count_statement)
    yield app
    with app.app_context():
        db.session.remove()
        clear_away(url)
        db.engine.dispose()


#: The statements that change the database.
CHANGES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def writes_only_under_the_lock(
    connection: sa.Connection, _cursor: object, statement: str, *_args: object
) -> None:
    """Fail any request that changes the SQLite database in a transaction that does not hold
    the write lock: its reads could be out of date by the time it writes (two phones at
    once), where PostgreSQL's row lock would have made it wait. Every write path must call
    ``hold_write_lock`` (through ``lock_game`` and its kin) before it reads."""
    if not has_request_context() or not statement.lstrip().upper().startswith(CHANGES):
        return
    assert connection.info.get(SQLITE_WRITE_LOCK), f"written without the write lock: {statement}"


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for ``app``."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A runner for ``app``'s command-line commands."""
    return app.test_cli_runner()


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    """Games, rounds and phones with or without the edit key, built as the app's phones
    build them (tests/table.py)."""
    return Table(app, client)
