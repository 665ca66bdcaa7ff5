"""Every test has a node id of its own (tests/conftest.py, ``give_each_item_its_own_id``):
pytest-xdist runs tests that share an id once between them, and counts that as one pass."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from _pytest.nodeid import NodeId

from tests.conftest import give_each_item_its_own_id

MODULE = "tests/api/test_example.py"


@dataclass
class Parent:
    nodeid: str


class Item:
    """What the hook reads of a collected test: its name, its parent and its id."""

    def __init__(self, name: str, nodeid: str) -> None:
        self.name = name
        self.parent = Parent(MODULE)
        self._id = NodeId.parse(nodeid)

    @property
    def nodeid(self) -> str:
        return str(self._id)


def test_tests_named_apart_but_sharing_an_id_take_their_full_names() -> None:
    items = [
        Item("test_api[GET /api/v1/setup]", f"{MODULE}::test_api"),
        Item("test_api[POST /api/v1/games]", f"{MODULE}::test_api"),
        Item("test_other", f"{MODULE}::test_other"),
    ]
    give_each_item_its_own_id(items)  # type: ignore[arg-type]
    assert [item.nodeid for item in items] == [
        f"{MODULE}::test_api[GET /api/v1/setup]",
        f"{MODULE}::test_api[POST /api/v1/games]",
        f"{MODULE}::test_other",
    ]


def test_tests_that_cannot_be_told_apart_stop_the_run() -> None:
    items = [Item("test_api", f"{MODULE}::test_api"), Item("test_api", f"{MODULE}::test_api")]
    with pytest.raises(pytest.UsageError, match="test_api"):
        give_each_item_its_own_id(items)  # type: ignore[arg-type]
