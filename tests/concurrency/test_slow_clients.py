"""Slow clients do not stop the others: while more clients than gunicorn has worker
processes send a request body a byte at a time, a phone's ordinary request is answered.

The server is the session's, started as docs/operators/deploying.md says (four workers, the
settings of ``companion/gunicorn_conf.py``). With sync workers, each slow upload held a whole worker
until gunicorn's timeout, and every other phone waited behind them.
"""

from __future__ import annotations

import select
import socket
import threading
import urllib.parse
from collections.abc import Iterator

import pytest

from scripts import server_harness

#: More slow uploads than the documented four worker processes.
SLOW_CLIENTS = 8
#: A body announced at this length and never sent whole while the test runs.
BODY_BYTES = 4000
#: A byte of it every two seconds, as the security review's clients did.
SECONDS_BETWEEN_BYTES = 2.0
#: How long a phone waits for its answer (generous: the machine may be busy).
ANSWER_SECONDS = 10.0
#: How long setting up a connection may take, on a busy machine.
CONNECT_SECONDS = 30.0


class SlowUpload:
    """A POST whose headers go at once and whose body follows a byte at a time, from a
    thread of its own, until :meth:`stop`; the connection stays open meanwhile."""

    def __init__(self, base_url: str) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        self.sock = socket.create_connection(
            (parsed.hostname, parsed.port), timeout=CONNECT_SECONDS
        )
        self.first_byte_sent = threading.Event()
        self.stopped = threading.Event()
        self.sent = 0
        self.failure: OSError | None = None
        self.thread = threading.Thread(target=self.trickle, daemon=True)
        self.thread.start()

    def trickle(self) -> None:
        """Send the headers, then one byte of the body, and another every few seconds."""
        headers = (
            "POST /api/v1/tricks/resolve HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {BODY_BYTES}\r\n\r\n"
        )
        try:
            self.sock.sendall(headers.encode())
            while not self.stopped.is_set() and self.sent < BODY_BYTES:
                self.sock.sendall(b" ")
                self.sent += 1
                self.first_byte_sent.set()
                self.stopped.wait(SECONDS_BETWEEN_BYTES)
        except OSError as failure:
            self.failure = failure
        finally:
            self.first_byte_sent.set()

    def still_uploading(self) -> bool:
        """Sending without a hitch, its body unfinished, and no answer or close from the
        server yet (nothing to read on the connection)."""
        readable, _, _ = select.select([self.sock], [], [], 0)
        return self.failure is None and self.sent < BODY_BYTES and not readable

    def stop(self) -> None:
        """Stop sending and close the connection."""
        self.stopped.set()
        self.thread.join(timeout=CONNECT_SECONDS)
        self.sock.close()


@pytest.fixture
def slow_uploads(server: server_harness.Server) -> Iterator[list[SlowUpload]]:
    """SLOW_CLIENTS uploads under way: each has sent its headers and a first byte."""
    uploads: list[SlowUpload] = []
    try:
        for _ in range(SLOW_CLIENTS):
            uploads.append(SlowUpload(server.url))
        for upload in uploads:
            assert upload.first_byte_sent.wait(CONNECT_SECONDS), "an upload never started"
            assert upload.failure is None, f"an upload failed at once: {upload.failure}"
        yield uploads
    finally:
        for upload in uploads:
            upload.stop()


def test_a_phone_is_answered_while_more_slow_uploads_than_workers_are_under_way(
    server: server_harness.Server, slow_uploads: list[SlowUpload]
) -> None:
    phone = server_harness.Client(server.url, timeout=ANSWER_SECONDS)
    try:
        reply = phone.get("/api/v1/setup?players=4")
    except TimeoutError:
        pytest.fail(
            f"no answer within {ANSWER_SECONDS:.0f} s while {SLOW_CLIENTS} slow uploads"
            f" were under way against {server.workers} workers"
        )
    assert reply.status == 200
    assert all(upload.still_uploading() for upload in slow_uploads), (
        "a slow upload ended before the phone's answer: it proves nothing"
    )
