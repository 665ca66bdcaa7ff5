"""A server on the loopback interface, started, awaited and stopped one way everywhere.

Standard library only: ``manage.py`` imports it before the virtual environment exists, and
the scripts beside it (benchmark, load and crash tests, Lighthouse audit, wheel smoke test)
import it as ``scripts.loopback``.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from typing import Any

HOST = "127.0.0.1"


class NotAnswering(Exception):
    """The server exited, or stayed silent until its deadline."""


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def wait_until_answering(
    process: subprocess.Popen[Any],
    answers: Callable[[], bool],
    timeout: float,
    interval: float = 0.05,
) -> None:
    """Poll ``answers()`` until it is true; raise NotAnswering if ``process`` exits first or
    the deadline passes. A refused or broken connection only means "not yet"."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise NotAnswering(f"the server exited with {process.returncode}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            if answers():
                return
        time.sleep(interval)
    raise NotAnswering(f"the server did not answer within {timeout:.0f} s")


def stop_group(process: subprocess.Popen[Any], grace: float = 10.0) -> None:
    """End ``process`` and its children (started with ``start_new_session=True``, so they
    share its process group): SIGTERM, then SIGKILL after ``grace`` seconds."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=grace)
