"""Security headers, cookies and the proxy setting."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.config import SESSION_COOKIE_NAME
from companion.web.security import CONTENT_SECURITY_POLICY
from tests.conftest import TEST_CONFIG

PAGES_AND_ENDPOINTS = ["/", "/setup", "/resolve", "/history", "/api/v1/setup?players=4", "/nope"]


@pytest.mark.parametrize("path", PAGES_AND_ENDPOINTS)
def test_every_response_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"


def test_the_policy_allows_no_inline_script_and_no_framing() -> None:
    directives = dict(part.split(" ", 1) for part in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["script-src"] == "'self'"
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert directives["frame-ancestors"] == "'none'"


def test_no_page_template_holds_an_inline_script_or_style() -> None:
    for template in Path("templates").rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        for opening in text.split("<script")[1:]:
            assert opening.split(">", 1)[0].count("src=") == 1, f"inline script in {template}"
        assert 'style="' not in text, f"inline style in {template}"


def is_session_cookie(header: str) -> bool:
    """Whether a Set-Cookie header sets the session cookie."""
    return header.startswith(f"{SESSION_COOKIE_NAME}=")


def session_cookie(client: FlaskClient, base_url: str) -> str:
    """The Set-Cookie header of the session, after a request that writes the session."""
    response = client.post(
        "/api/v1/games",
        json={"players": ["Ann", "Ben", "Cleo"], "variant": "classic"},
        base_url=base_url,
    )
    assert response.status_code == 201
    game = response.json["id"]
    response = client.get(f"/g/{game}/edit/{response.json['edit_key']}", base_url=base_url)
    cookies = [
        value for value in response.headers.getlist("Set-Cookie") if is_session_cookie(value)
    ]
    assert cookies, "the edit link gives this phone the key through its session"
    return cookies[0]


def test_the_session_cookie_is_http_only_and_same_site(client: FlaskClient) -> None:
    cookie = session_cookie(client, "http://localhost")
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie


def test_the_session_cookie_is_secure_over_https(client: FlaskClient) -> None:
    assert "Secure" in session_cookie(client, "https://localhost")


def test_behind_a_proxy_the_forwarded_scheme_makes_the_cookie_secure(tmp_path: Path) -> None:
    config = {
        **TEST_CONFIG,
        "PROXY_COUNT": 1,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'proxy.sqlite3'}",
    }
    app: Flask = create_app(config, instance_path=str(tmp_path / "instance"))
    from companion.data.models import db

    with app.app_context():
        db.create_all()
    client = app.test_client()
    created = client.post(
        "/api/v1/games", json={"players": ["Ann", "Ben", "Cleo"], "variant": "classic"}
    )
    link = f"/g/{created.json['id']}/edit/{created.json['edit_key']}"
    response = client.get(link, headers={"X-Forwarded-Proto": "https"})
    cookie = next(
        value for value in response.headers.getlist("Set-Cookie") if is_session_cookie(value)
    )
    assert "Secure" in cookie
    with app.app_context():
        db.engine.dispose()


def test_a_response_that_does_not_change_the_session_sets_no_cookie(client: FlaskClient) -> None:
    session_cookie(client, "http://localhost")
    for path in ("/static/style.css", "/", "/offline", "/manifest.webmanifest"):
        with client.get(path) as response:
            cookies = response.headers.getlist("Set-Cookie")
        assert not [value for value in cookies if is_session_cookie(value)], path
