"""Which tests the PostgreSQL pass keeps, and the checks that keep that choice honest
(tests/conftest.py): a test that reaches the suite's database without saying so, one marked
``database`` that never reaches it, and one marked ``no_database_queries`` whose body runs a
statement each fail."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests import conftest
from tests.conftest import REACHED, STATEMENTS, runs_on_postgres


class Item:
    """What the hooks read of a test: its fixtures, its markers and its stash."""

    def __init__(self, fixtures: tuple[str, ...] = (), markers: tuple[str, ...] = ()) -> None:
        self.fixturenames = list(fixtures)
        self.markers = markers
        self.stash = pytest.Stash()

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


def finish(hook: Iterator[object], during: Any = None) -> None:
    """Run a wrapper hook around a phase: ``during`` is what happens in the phase."""
    next(hook)
    if during is not None:
        during()
    with pytest.raises(StopIteration):
        hook.send(None)


@pytest.mark.parametrize(
    ("fixtures", "markers", "kept"),
    [
        (("app", "client"), (), True),
        (("world",), (), True),
        (("second_database_url",), (), True),
        ((), ("database",), True),
        (("client",), (), False),  # a client of an app pinned to sqlite://, say
        ((), (), False),
        (("app",), ("sqlite_only",), False),
        (("app",), ("same_on_any_database",), False),
        (("app", "client"), ("no_database_queries",), False),
    ],
)
def test_the_postgres_pass_keeps_the_tests_whose_checks_the_database_can_change(
    fixtures: tuple[str, ...], markers: tuple[str, ...], kept: bool
) -> None:
    assert runs_on_postgres(Item(fixtures, markers)) is kept  # type: ignore[arg-type]


def test_a_test_marked_no_database_queries_fails_if_its_body_runs_a_statement() -> None:
    item = Item(("app",), ("no_database_queries",))

    def one_statement() -> None:
        STATEMENTS[0] += 1

    finish(conftest.pytest_runtest_call(item))  # type: ignore[arg-type]
    with pytest.raises(pytest.fail.Exception, match="ran 1 statement"):
        finish(conftest.pytest_runtest_call(item), one_statement)  # type: ignore[arg-type]
    unmarked = Item(("app",))
    finish(conftest.pytest_runtest_call(unmarked), one_statement)  # type: ignore[arg-type]
    without_app = Item(("client",), ("no_database_queries",))
    with pytest.raises(pytest.fail.Exception, match="without the app fixture"):
        next(conftest.pytest_runtest_call(without_app))  # type: ignore[arg-type]


def test_a_test_that_reaches_the_suite_s_database_unannounced_fails() -> None:
    item = Item(("tmp_path",))
    finish(conftest.pytest_runtest_teardown(item))  # type: ignore[arg-type]
    item.stash[REACHED] = True
    with pytest.raises(pytest.fail.Exception, match="PostgreSQL pass would leave it out"):
        finish(conftest.pytest_runtest_teardown(item))  # type: ignore[arg-type]
    for announced in (Item(("app",)), Item((), ("database",))):
        announced.stash[REACHED] = True
        finish(conftest.pytest_runtest_teardown(announced))  # type: ignore[arg-type]


def test_a_test_marked_database_that_never_reaches_it_fails() -> None:
    item = Item((), ("database",))
    with pytest.raises(pytest.fail.Exception, match="never reached"):
        finish(conftest.pytest_runtest_teardown(item))  # type: ignore[arg-type]


def test_reaching_the_suite_s_database_is_recorded_on_the_test_under_way(
    request: pytest.FixtureRequest,
) -> None:
    conftest.suite_database()
    assert request.node.stash.get(REACHED, False)
    request.node.stash[REACHED] = False  # this test's own reach is not the subject
