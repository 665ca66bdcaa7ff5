"""Session cookies checked once per process (``companion/web/session_cookie_cache.py``): a phone
polling with the same cookie is not checked again, and what a check refuses stays refused:
a forged or expired cookie, and one signed with a key the server no longer has."""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from itsdangerous import URLSafeTimedSerializer

from companion.config import SESSION_COOKIE_NAME
from companion.web.session_cookie_cache import VerifiedCookies
from scripts.page_reader import read_page
from tests.table import Table


def record_page(phone: FlaskClient, game: dict[str, Any]) -> Any:
    """The record page of ``game`` as ``phone`` asks for it."""
    return phone.get(f"/g/{game['id']}/rounds/record")


def may_record(phone: FlaskClient, game: dict[str, Any]) -> bool:
    """Whether ``phone``'s session holds the edit key: the record page and its form, or the
    refusal."""
    answer = record_page(phone, game)
    if answer.status_code == 403:
        return False
    assert answer.status_code == 200, answer.status_code
    forms = read_page(answer.text).find_all("form", method="post")
    assert forms, "the record page has no form"
    return True


def cookie_of(phone: FlaskClient) -> str:
    """The session cookie ``phone`` holds."""
    cookie = phone.get_cookie(SESSION_COOKIE_NAME)
    assert cookie is not None
    return cookie.value


def phone_with_cookie(app: Flask, value: str) -> FlaskClient:
    """A new phone that sends ``value`` as its session cookie."""
    phone = app.test_client()
    phone.set_cookie(SESSION_COOKIE_NAME, value)
    return phone


def kept_cookie(table: Table, game: dict[str, Any]) -> str:
    """The session cookie of a phone holding ``game``'s edit key, after a page put its CSRF
    secret into it, and once more, so that this process has checked and kept it."""
    phone = table.phone(game)
    assert may_record(phone, game)
    value = cookie_of(phone)
    assert may_record(phone, game)
    assert cookie_of(phone) == value
    return value


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every cookie whose signature is checked, in order."""
    checked: list[str] = []
    loads = URLSafeTimedSerializer.loads

    def counted(self: URLSafeTimedSerializer, value: Any, *args: Any, **kwargs: Any) -> Any:
        checked.append(value)
        return loads(self, value, *args, **kwargs)

    monkeypatch.setattr(URLSafeTimedSerializer, "loads", counted)
    return checked


def test_a_cookie_is_checked_once_then_its_rights_hold_at_every_poll(
    app: Flask, table: Table, checks: list[str]
) -> None:
    game = table.new_game()
    phone = table.phone(game)
    assert may_record(phone, game)  # the first page puts a CSRF secret into the session
    value = cookie_of(phone)
    for _ in range(3):
        assert may_record(phone, game)
    assert cookie_of(phone) == value
    assert checks.count(value) == 1


def test_a_forged_cookie_is_refused_though_the_real_one_is_kept(app: Flask, table: Table) -> None:
    game = table.new_game()
    value = kept_cookie(table, game)
    payload, _, signature = value.rpartition(".")
    forged = f"{payload}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}"
    for _ in range(2):
        assert not may_record(phone_with_cookie(app, forged), game)
    assert may_record(phone_with_cookie(app, value), game)


def test_a_kept_cookie_expires_with_its_lifetime(
    app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = table.new_game()
    value = kept_cookie(table, game)
    lifetime = app.permanent_session_lifetime.total_seconds()
    later = time.time() + lifetime + 5
    monkeypatch.setattr(time, "time", lambda: later)
    assert not may_record(phone_with_cookie(app, value), game)


def test_a_new_secret_key_refuses_the_cookies_kept_under_the_old_unless_it_falls_back(
    app: Flask, table: Table
) -> None:
    game = table.new_game()
    value = kept_cookie(table, game)
    old_key = app.secret_key
    app.secret_key = "another secret key of this server, long enough"
    assert not may_record(phone_with_cookie(app, value), game)
    app.config["SECRET_KEY_FALLBACKS"] = [old_key]
    assert may_record(phone_with_cookie(app, value), game)


def test_a_session_changed_in_place_leaves_the_kept_data_as_it_was() -> None:
    kept = VerifiedCookies()
    keys = ("key",)
    kept.keep("cookie", keys, {"_flashes": [("message", "Saved")], "keys": {"abc": "k"}}, 1e12)
    session = kept.find("cookie", keys)
    assert session is not None
    session["_flashes"].append(("message", "Saved again"))
    session["keys"]["def"] = "k2"
    assert kept.find("cookie", keys) == {"_flashes": [("message", "Saved")], "keys": {"abc": "k"}}
    assert kept.find("cookie", ("another key",)) is None


def test_the_least_recently_used_cookies_are_forgotten_beyond_the_limit() -> None:
    kept = VerifiedCookies(limit=2)
    keys = ("key",)
    for name in ("first", "second"):
        kept.keep(name, keys, {"name": name}, 1e12)
    assert kept.find("first", keys) == {"name": "first"}  # now the most recently used
    kept.keep("third", keys, {"name": "third"}, 1e12)
    assert kept.find("second", keys) is None
    assert kept.find("first", keys) == {"name": "first"}
    assert kept.find("third", keys) == {"name": "third"}
