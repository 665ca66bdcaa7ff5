"""The benchmark's revalidations (scripts/bench/load.py, ``renewed``): a page answered under a
new ETag is kept as a browser keeps it, and asked for with that tag from then on; a 200
under the tag already sent is still an error."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from scripts.bench.load import Target, renewed

EDITING_304 = Target("scoreboard, editing, 304", "GET", "/g/abc", status=304)


def answer(status: int, etag: str | None) -> Any:
    """What ``renewed`` reads of an answer."""
    return SimpleNamespace(status=status, headers={"ETag": etag} if etag else {})


def test_a_page_under_a_new_tag_is_kept_and_its_tag_sent_from_then_on() -> None:
    headers = {"If-None-Match": '"old"'}
    assert renewed(EDITING_304, headers, answer(200, '"new"'))
    assert headers["If-None-Match"] == '"new"'
    assert not renewed(EDITING_304, headers, answer(304, '"new"'))


def test_a_page_under_the_tag_already_sent_is_no_renewal() -> None:
    headers = {"If-None-Match": '"same"'}
    assert not renewed(EDITING_304, headers, answer(200, '"same"'))
    assert not renewed(EDITING_304, headers, answer(200, None))
    assert headers == {"If-None-Match": '"same"'}


def test_a_page_asked_for_itself_is_never_a_renewal() -> None:
    page = Target("scoreboard, editing", "GET", "/g/abc")
    headers: dict[str, str] = {}
    assert not renewed(page, headers, answer(200, '"new"'))
    assert headers == {}
