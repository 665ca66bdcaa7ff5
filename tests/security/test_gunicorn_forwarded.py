"""``PROXY_COUNT`` alone decides whether forwarded headers are believed, under gunicorn too.

gunicorn on its own believes ``X-Forwarded-Proto`` (and a ``SCRIPT_NAME`` header) from
127.0.0.1 and from any peer of a unix socket, and sets the request's scheme (and its
path's prefix) from them before the app sees it. Started as docs/operators/deploying.md
says, it believes no peer: with ``PROXY_COUNT=0`` a request saying it came over HTTPS gets
http links and no ``Secure`` cookie, while with ``PROXY_COUNT=1`` the proxy's word is taken,
by the app.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gunicorn.app.base import Application

from scripts import server_harness

FORWARDED_HTTPS = {"X-Forwarded-Proto": "https"}
PLAYERS = {"players": ["Ann", "Ben", "Cleo"], "variant": "classic"}


@pytest.fixture(scope="module", params=[0, 1], ids=["PROXY_COUNT=0", "PROXY_COUNT=1"])
def proxied_server(
    request: pytest.FixtureRequest, served_database: str, server_folder: Path
) -> Iterator[tuple[int, server_harness.Server]]:
    """The documented gunicorn (one worker is enough here) with PROXY_COUNT as given."""
    proxies: int = request.param
    log = server_folder / f"gunicorn-proxy-count-{proxies}.log"
    environment = {"PROXY_COUNT": str(proxies)}
    with server_harness.running_server(served_database, log, 1, environment=environment) as server:
        yield proxies, server


def scheme_believed(proxies: int) -> str:
    """The scheme a request saying ``X-Forwarded-Proto: https`` must be served with."""
    return "https" if proxies else "http"


def test_the_games_links_follow_a_forwarded_https_only_behind_a_proxy(
    proxied_server: tuple[int, server_harness.Server],
) -> None:
    proxies, server = proxied_server
    client = server_harness.Client(server.url)
    created = client.request("POST", "/api/v1/games", PLAYERS, headers=FORWARDED_HTTPS)
    assert created.status == 201, created.text
    scheme = scheme_believed(proxies)
    assert created.json()["url"].startswith(f"{scheme}://127.0.0.1:{server.port}/g/")
    assert created.json()["share_url"].startswith(f"{scheme}://")


def test_the_session_cookie_is_secure_after_a_forwarded_https_only_behind_a_proxy(
    proxied_server: tuple[int, server_harness.Server],
) -> None:
    proxies, server = proxied_server
    client = server_harness.Client(server.url)
    created = client.request("POST", "/api/v1/games", PLAYERS)
    link = f"/g/{created.json()['id']}/edit/{created.json()['edit_key']}"
    opened = client.get(link, headers=FORWARDED_HTTPS)
    assert opened.status == 302
    cookie = opened.headers["Set-Cookie"]
    assert ("; Secure" in cookie) == (proxies > 0), cookie


def test_a_script_name_header_does_not_move_the_app(
    proxied_server: tuple[int, server_harness.Server],
) -> None:
    """gunicorn maps a ``SCRIPT_NAME`` header from a peer it trusts into the request: the
    app would then answer under a prefix of the client's choosing and link to it."""
    _, server = proxied_server
    client = server_harness.Client(server.url)
    moved = client.request(
        "POST", "/elsewhere/api/v1/games", PLAYERS, {"SCRIPT_NAME": "/elsewhere"}
    )
    assert moved.status == 404, moved.text


class DeployedSettings(Application):  # type: ignore[misc]
    """gunicorn's settings as the documented ``-c python:companion.gunicorn_conf`` loads
    them, read by gunicorn's own loader."""

    def load_config(self) -> None:
        self.load_config_from_module_name_or_filename(server_harness.GUNICORN_CONFIG)

    def load(self) -> None:
        raise AssertionError("the settings are read, the app never loaded")


def test_gunicorn_believes_no_peer_not_even_over_a_unix_socket() -> None:
    """A peer of a unix socket counts as trusted whatever ``forwarded_allow_ips`` says:
    without headers to believe, it has nothing to be trusted with."""
    settings = DeployedSettings().cfg
    assert settings.forwarded_allow_ips == []
    assert settings.secure_scheme_headers == {}
    assert settings.forwarder_headers == []
