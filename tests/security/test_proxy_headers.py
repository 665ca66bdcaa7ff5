"""No request header may shape the page another phone gets.

Behind a proxy (``PROXY_COUNT=1``) the app trusts what every proxy overwrites: the client's
address and the scheme. ``X-Forwarded-Host`` only with ``PROXY_TRUST_HOST``, and
``X-Forwarded-Prefix`` never: ``URL_PREFIX`` says where the app is mounted. Scoreboards are
rendered once and shared by ETag, so their ETag covers everything that shapes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.config import environment_config
from companion.data.models import db
from tests.conftest import TEST_CONFIG, database_url

#: The tests of an app made here, on the suite's database (``database_url``).
ON_THE_SUITE_DATABASE = pytest.mark.database

EVIL = "evil.example"
#: A request as an attacker sends it through the proxy, which passes these on unchanged.
POISON = {
    "X-Forwarded-Prefix": f"//{EVIL}",
    "X-Forwarded-Host": EVIL,
    "X-Forwarded-Proto": "https",
}
#: A request from one of the phones at the table, through the same proxy.
HONEST = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.4"}

AppMaker = Callable[..., Flask]


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[AppMaker]:
    """Apps with extra settings, each with a fresh database; one game of Ann, Ben and Cleo
    is in each, its id in ``app.config["GAME"]``."""
    made: list[Flask] = []

    def make(**settings: Any) -> Flask:
        instance = tmp_path / f"instance{len(made)}"
        instance.mkdir(parents=True)
        config = {**TEST_CONFIG, **settings, "SQLALCHEMY_DATABASE_URI": database_url(instance)}
        app = create_app(config, instance_path=str(instance))
        with app.app_context():
            db.drop_all()
            db.create_all()
        created = app.test_client().post(
            "/api/v1/games", json={"players": ["Ann", "Ben", "Cleo"], "variant": "classic"}
        )
        app.config["GAME"] = created.json["id"]
        app.config["EDIT_KEY"] = created.json["edit_key"]
        made.append(app)
        return app

    yield make
    for app in made:
        with app.app_context():
            db.session.remove()
            db.drop_all()
            db.engine.dispose()


def everything(response: Any) -> str:
    """A response's body and headers, where a poisoned link could hide."""
    return response.get_data(as_text=True) + str(response.headers)


@ON_THE_SUITE_DATABASE
@pytest.mark.parametrize("page", ["/g/{code}/view", "/g/{code}"])
def test_a_poisoned_request_leaves_the_next_phones_scoreboard_clean(
    make_app: AppMaker, page: str
) -> None:
    app = make_app(PROXY_COUNT=1)
    path = page.format(code=app.config["GAME"])
    attacker, phone = app.test_client(), app.test_client()
    poisoned = attacker.get(path, headers=POISON)
    honest = phone.get(path, headers=HONEST)
    assert poisoned.status_code == honest.status_code == 200
    assert EVIL not in everything(honest)
    assert EVIL not in everything(poisoned)
    assert f'href="/g/{app.config["GAME"]}/share"' in honest.get_data(as_text=True)


@ON_THE_SUITE_DATABASE
def test_the_share_page_links_to_the_real_host_whatever_the_forwarded_host(
    make_app: AppMaker,
) -> None:
    app = make_app(PROXY_COUNT=1)
    code = app.config["GAME"]
    page = app.test_client().get(f"/g/{code}/share", headers={**POISON, "Host": "sticheln.example"})
    text = page.get_data(as_text=True)
    assert EVIL not in text
    assert f"https://sticheln.example/g/{code}/view" in text


@ON_THE_SUITE_DATABASE
def test_pages_shaped_differently_never_share_an_etag(make_app: AppMaker) -> None:
    """With the forwarded host trusted, two hosts are two pages: the same ETag must always
    mean the same bytes, whatever page the first phone asked for."""
    app = make_app(PROXY_COUNT=1, PROXY_TRUST_HOST=True)
    path = f"/g/{app.config['GAME']}/view"
    seen: dict[str, str] = {}
    for headers in (
        {**HONEST, "X-Forwarded-Host": "a.example"},
        {**HONEST, "X-Forwarded-Host": "b.example"},
        {"X-Forwarded-Host": "a.example"},  # plain http
        HONEST,
        {**HONEST, "X-Forwarded-Host": "a.example"},
    ):
        response = app.test_client().get(path, headers=headers)
        tag = response.headers["ETag"]
        body = response.get_data(as_text=True)
        assert seen.setdefault(tag, body) == body, headers
    assert len(seen) == 4


@ON_THE_SUITE_DATABASE
def test_a_trusted_forwarded_host_builds_the_share_links(make_app: AppMaker) -> None:
    app = make_app(PROXY_COUNT=1, PROXY_TRUST_HOST=True)
    code = app.config["GAME"]
    page = app.test_client().get(
        f"/g/{code}/share", headers={**HONEST, "X-Forwarded-Host": "cards.example"}
    )
    assert f"https://cards.example/g/{code}/view" in page.get_data(as_text=True)


@ON_THE_SUITE_DATABASE
def test_url_prefix_mounts_the_app_whatever_the_forwarded_prefix(make_app: AppMaker) -> None:
    """The proxy may pass the prefix on or strip it: the links start with it either way,
    and no header moves them elsewhere."""
    app = make_app(PROXY_COUNT=1, URL_PREFIX="/sticheln")
    code = app.config["GAME"]
    client: FlaskClient = app.test_client()
    for path in (f"/sticheln/g/{code}/view", f"/g/{code}/view"):
        response = client.get(path, headers=POISON)
        text = response.get_data(as_text=True)
        assert response.status_code == 200, path
        assert f'href="/sticheln/g/{code}/share"' in text
        assert EVIL not in everything(response)


def test_the_environment_names_the_proxy_settings() -> None:
    config = environment_config({"PROXY_TRUST_HOST": "1", "URL_PREFIX": "/sticheln"})
    assert config == {"PROXY_TRUST_HOST": True, "URL_PREFIX": "/sticheln"}
    assert environment_config({"PROXY_TRUST_HOST": "0"}) == {"PROXY_TRUST_HOST": False}
