"""Our cookies are our own: named for the app and, under ``URL_PREFIX``, sent only to its
paths, so another app on the same host neither receives the edit keys the session holds nor
replaces the session with a cookie of its own name."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.data.models import db
from companion.web.i18n import LANGUAGE_COOKIE
from tests.conftest import TEST_CONFIG, database_url

#: Its apps are made here, on the suite's database (``database_url``).
pytestmark = pytest.mark.database

PREFIX = "/sticheln"
#: The session cookie's name, as docs/operators/security.md documents it: phones hold it, so
#: it never changes.
SESSION_COOKIE_NAME = "sticheln_session"
PLAYERS = ["Ann", "Ben", "Cleo"]

AppMaker = Callable[..., Flask]


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[AppMaker]:
    """Apps with extra settings, each on a fresh database."""
    made: list[Flask] = []

    def make(**settings: Any) -> Flask:
        instance = tmp_path / f"instance{len(made)}"
        instance.mkdir(parents=True)
        config = {**TEST_CONFIG, **settings, "SQLALCHEMY_DATABASE_URI": database_url(instance)}
        app = create_app(config, instance_path=str(instance))
        with app.app_context():
            db.drop_all()
            db.create_all()
        made.append(app)
        return app

    yield make
    for app in made:
        with app.app_context():
            db.session.remove()
            db.drop_all()
            db.engine.dispose()


def set_cookies(response: Any) -> dict[str, Any]:
    """The cookies a response sets, by name, with their attributes."""
    jar: SimpleCookie = SimpleCookie()
    for header in response.headers.getlist("Set-Cookie"):
        jar.load(header)
    return dict(jar)


def open_edit_link(phone: FlaskClient, prefix: str = "") -> tuple[str, Any]:
    """Start a game through the API and open its edit link on ``phone``: the game's code
    and the edit link's answer, which puts the key into the session."""
    created = phone.post(f"{prefix}/api/v1/games", json={"players": PLAYERS, "variant": "classic"})
    assert created.status_code == 201, created.json
    code = created.json["id"]
    opened = phone.get(f"{prefix}/g/{code}/edit/{created.json['edit_key']}")
    assert opened.status_code == 302
    return code, opened


def test_under_a_url_prefix_the_session_cookie_is_ours_and_sent_to_the_prefix_only(
    make_app: AppMaker,
) -> None:
    phone = make_app(URL_PREFIX=PREFIX).test_client()
    _, opened = open_edit_link(phone, PREFIX)
    cookies = set_cookies(opened)
    assert set(cookies) == {SESSION_COOKIE_NAME}
    assert cookies[SESSION_COOKIE_NAME]["path"] == PREFIX


def test_under_a_url_prefix_the_language_cookie_is_sent_to_the_prefix_only(
    make_app: AppMaker,
) -> None:
    phone = make_app(URL_PREFIX=PREFIX).test_client()
    answer = phone.get(f"{PREFIX}/lang/de", query_string={"next": "/"})
    assert answer.status_code == 302
    assert set_cookies(answer)[LANGUAGE_COOKIE]["path"] == PREFIX


def test_without_a_prefix_both_cookies_are_sent_to_the_whole_site(make_app: AppMaker) -> None:
    phone = make_app().test_client()
    _, opened = open_edit_link(phone)
    assert set_cookies(opened)[SESSION_COOKIE_NAME]["path"] == "/"
    assert set_cookies(phone.get("/lang/de"))[LANGUAGE_COOKIE]["path"] == "/"


def test_another_apps_session_cookie_is_ignored_and_never_replaces_ours(
    make_app: AppMaker,
) -> None:
    """Another app on the host sets its own ``session`` for the whole site: the phone then
    sends both cookies, and still holds its edit rights here."""
    phone = make_app(URL_PREFIX=PREFIX).test_client()
    code, _ = open_edit_link(phone, PREFIX)
    phone.set_cookie("session", "another-apps-session", path="/")
    answer = phone.get(f"{PREFIX}/g/{code}/abandon")
    assert answer.status_code == 200  # the edit rights held in our session
    assert "session" not in set_cookies(answer)
    other = phone.get_cookie("session")
    assert other is not None and other.value == "another-apps-session"


def test_a_phone_keeping_the_session_under_its_old_name_keeps_its_edit_rights(
    make_app: AppMaker,
) -> None:
    """The cookie was called ``session``, for the whole site: this app's own one is read
    once, written under the new name and deleted."""
    app = make_app(URL_PREFIX=PREFIX)
    code, opened = open_edit_link(app.test_client(), PREFIX)
    phone = app.test_client()
    phone.set_cookie("session", set_cookies(opened)[SESSION_COOKIE_NAME].value, path="/")
    answer = phone.get(f"{PREFIX}/g/{code}/abandon")
    assert answer.status_code == 200
    cookies = set_cookies(answer)
    assert cookies[SESSION_COOKIE_NAME]["path"] == PREFIX
    assert cookies["session"].value == "" and cookies["session"]["path"] == "/"
    assert phone.get_cookie("session") is None
    assert phone.get(f"{PREFIX}/g/{code}/abandon").status_code == 200


def test_another_apps_session_cookie_alone_grants_nothing_and_is_left_alone(
    make_app: AppMaker,
) -> None:
    app = make_app(URL_PREFIX=PREFIX)
    code, _ = open_edit_link(app.test_client(), PREFIX)
    phone = app.test_client()
    phone.set_cookie("session", "another-apps-session", path="/")
    answer = phone.get(f"{PREFIX}/g/{code}/abandon")
    assert answer.status_code == 403
    assert "session" not in set_cookies(answer)
