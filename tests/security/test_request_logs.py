"""No log holds an edit key.

An edit link (``/g/<code>/edit/<key>``) carries the game's edit key in its path. The request
logs of ``manage.py serve`` (Werkzeug) and of the documented gunicorn (its access log, and its
error log) write ``/g/<code>/edit/***`` instead, and so does the app's own log.
"""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

import manage
from companion.web.request_logs import EditKeyFilter, mask_edit_keys
from scripts import loopback, server_harness

SERVER_START_SECONDS = 120.0
LOG_SECONDS = 30.0


@pytest.mark.parametrize(
    ("line", "logged"),
    [
        (
            '"GET /g/93jine9682/edit/ai-9G3G67oUHXVbmS24o3bHZ HTTP/1.1" 302 -',
            '"GET /g/93jine9682/edit/*** HTTP/1.1" 302 -',
        ),
        ("/sticheln/g/abc/edit/k_e-y?x=1", "/sticheln/g/abc/edit/***?x=1"),
        (
            "\x1b[32mGET /g/abc/edit/k%2Dey HTTP/1.1\x1b[0m",
            "\x1b[32mGET /g/abc/edit/*** HTTP/1.1\x1b[0m",
        ),
        ("GET /g/abc//edit//key/more HTTP/1.1", "GET /g/abc//edit//*** HTTP/1.1"),
        ("GET /g/abc/view HTTP/1.1", "GET /g/abc/view HTTP/1.1"),
        # A game started offline: its address holds its start's idempotency key.
        (
            '"GET /games/new/c0ffee00-1234-4abc-8def-000000000026 HTTP/1.1" 302 -',
            '"GET /games/new/*** HTTP/1.1" 302 -',
        ),
        ("/sticheln/games/new/k_e-y12345/rounds/record", "/sticheln/games/new/***"),
        ("GET /games/new HTTP/1.1", "GET /games/new HTTP/1.1"),
        ("GET /games/new?circle=3 HTTP/1.1", "GET /games/new?circle=3 HTTP/1.1"),
    ],
)
def test_the_key_of_an_edit_link_is_masked_and_the_rest_of_the_line_kept(
    line: str, logged: str
) -> None:
    assert mask_edit_keys(line) == logged


def test_a_record_whose_arguments_hold_an_edit_link_is_logged_masked() -> None:
    """gunicorn's access log passes the request line as one of a mapping's values."""
    record = logging.LogRecord(
        "gunicorn.access",
        logging.INFO,
        __file__,
        1,
        '"%(r)s" %(s)s',
        ({"r": "GET /g/a/edit/KEY", "s": "302"},),
        None,
    )
    assert EditKeyFilter().filter(record) is True
    assert record.getMessage() == '"GET /g/a/edit/***" 302'


@pytest.mark.no_database_queries
def test_the_apps_own_log_masks_the_key_of_a_failed_request(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    """Flask logs "Exception on <path>" for a request that failed with a 500."""

    def broken(key: str) -> str:
        raise RuntimeError("broken")

    app.add_url_rule("/broken/edit/<key>", view_func=broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with caplog.at_level(logging.ERROR, logger=app.logger.name):
        answer = app.test_client().get("/broken/edit/ThisIsTheSecretKey")
    assert answer.status_code == 500
    assert "Exception on /broken/edit/*** [GET]" in caplog.text
    assert "ThisIsTheSecretKey" not in caplog.text


# --------------------------------------------------------------------------------------------
# The servers themselves


def open_edit_link(base_url: str) -> tuple[str, str]:
    """Start a game and open its edit link, as a phone does; answer the game's edit link
    without its key, and the key."""
    client = server_harness.Client(base_url, timeout=30)
    created = client.request(
        "POST", "/api/v1/games", {"players": ["Ann", "Ben", "Cleo"], "variant": "classic"}
    )
    assert created.status == 201, created.text
    code, key = created.json()["id"], created.json()["edit_key"]
    opened = client.get(f"/g/{code}/edit/{key}")
    assert opened.status == 302, "the edit link did not open the game"
    return f"/g/{code}/edit/", key


def wait_for_log(process: subprocess.Popen[bytes], log: Path, text: str) -> str:
    """The log once it holds ``text``: a server may write a request's line after its answer.
    (Raises NotAnswering if the server exits, or the line is not there in LOG_SECONDS.)"""
    loopback.wait_until_answering(
        process, lambda: text in log.read_text(errors="replace"), timeout=LOG_SECONDS
    )
    return log.read_text(errors="replace")


@pytest.fixture
def development_server(
    served_database: str, tmp_path: Path
) -> Iterator[tuple[str, Path, subprocess.Popen[bytes]]]:
    """The server ``python3 manage.py serve --port <free port>`` runs (README, Run), on its
    own log; its address, log and process. Started without manage.py's setup steps, which
    would compile the catalogs again under the feet of tests running beside this one."""
    port, log = loopback.free_port(), tmp_path / "serve.log"
    env = {**os.environ, "DATABASE_URL": served_database, "SECRET_KEY": server_harness.SECRET_KEY}
    with log.open("wb") as output:
        process = subprocess.Popen(
            manage.serve_command(["--port", str(port)]),
            cwd=server_harness.ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base_url = f"http://{loopback.HOST}:{port}"
    client = server_harness.Client(base_url, timeout=5)
    try:
        loopback.wait_until_answering(
            process,
            lambda: client.get("/api/v1/setup?players=4").status == 200,
            SERVER_START_SECONDS,
        )
        yield base_url, log, process
    finally:
        loopback.stop_group(process)


def test_the_development_servers_request_log_masks_the_edit_key(
    development_server: tuple[str, Path, subprocess.Popen[bytes]],
) -> None:
    base_url, log, process = development_server
    link, key = open_edit_link(base_url)
    text = wait_for_log(process, log, link)
    assert f"GET {link}*** HTTP/1.1" in text
    assert key not in text


def test_gunicorns_access_log_masks_the_edit_key(served_database: str, tmp_path: Path) -> None:
    """The documented command (docs/operators/deploying.md), with the access log its
    operators may switch on."""
    log = tmp_path / "gunicorn.log"
    with server_harness.running_server(
        served_database, log, workers=1, options=["--access-logfile", "-"]
    ) as server:
        link, key = open_edit_link(server.url)
        assert server.process is not None
        text = wait_for_log(server.process, log, link)
    assert f"GET {link}*** HTTP/1.1" in text
    assert key not in text
