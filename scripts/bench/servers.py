"""The app served by gunicorn on loopback, and the plain HTTP requests the benchmark sends
it."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from scripts.bench.settings import BIN, BROWSER_HEADERS, ROOT
from scripts.loopback import HOST, NotAnswering, free_port, stop_group, wait_until_answering


@contextlib.contextmanager
def gunicorn(url: str, secret: str, workers: int, threads: int, club: bool = True) -> Iterator[int]:
    """Serve the app on the database at ``url`` as a club's server (or, not ``club``, a
    server of circles); yield its port; stop it afterwards."""
    port = free_port()
    command = [
        str(BIN / "gunicorn"),
        "-w",
        str(workers),
        "--threads",
        str(threads),
        "-b",
        f"{HOST}:{port}",
        "--log-level",
        "warning",
        "companion:create_app()",
    ]
    # The benchmark's tables start their games from one address: no limit of game starts.
    # Mostly a club's server: one circle, whose history every phone reads.
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": secret,
        "GAME_STARTS_LIMIT": "",
        "CLUB_SERVER": "1" if club else "",
    }
    process = subprocess.Popen(command, cwd=ROOT, env=environment, start_new_session=True)
    try:
        try:
            wait_until_answering(
                process,
                lambda: request(port, "GET", "/api/v1/setup?players=4").status == 200,
                timeout=60,
                interval=0.2,
            )
        except NotAnswering as silence:
            sys.exit(f"gunicorn: {silence}")
        yield port
    finally:
        stop_group(process, grace=20)


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    """One request on a connection of its own."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        data, sent = encode(body, headers)
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        return Answer(response.status, response.msg, response.read())
    finally:
        connection.close()


def encode(body: Any, headers: dict[str, str] | None) -> tuple[bytes | None, dict[str, str]]:
    sent = {**BROWSER_HEADERS, **(headers or {})}
    if body is None:
        return None, sent
    sent["Content-Type"] = "application/json"
    return json.dumps(body).encode(), sent
