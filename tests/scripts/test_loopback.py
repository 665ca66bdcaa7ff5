"""The one loopback-server helper of manage.py, the scripts and the tests
(scripts/loopback.py): a free port, a wait with a deadline, a stop that takes the whole
process group."""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

from scripts.loopback import HOST, NotAnswering, free_port, stop_group, wait_until_answering

SLEEPER = [sys.executable, "-c", "import time; time.sleep(120)"]


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    """A process that would run for two minutes, in a process group of its own."""
    process = subprocess.Popen(SLEEPER, start_new_session=True)
    yield process
    stop_group(process, grace=5)


def test_a_free_port_can_be_listened_on() -> None:
    port = free_port()
    with socket.socket() as listener:
        listener.bind((HOST, port))
        listener.listen()
        assert listener.getsockname() == (HOST, port)


def test_the_wait_ends_as_soon_as_the_server_answers(sleeper: subprocess.Popen[bytes]) -> None:
    asked = []

    def answers() -> bool:
        asked.append(True)
        if len(asked) < 3:
            raise ConnectionRefusedError("not listening yet")
        return True

    wait_until_answering(sleeper, answers, timeout=30, interval=0)
    assert len(asked) == 3


def test_the_wait_fails_at_once_when_the_server_has_exited() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    gone.wait(timeout=30)
    with pytest.raises(NotAnswering, match="exited with 3"):
        wait_until_answering(gone, lambda: True, timeout=30)


def test_the_wait_fails_at_its_deadline_when_the_server_stays_silent(
    sleeper: subprocess.Popen[bytes],
) -> None:
    with pytest.raises(NotAnswering, match="did not answer within 0 s"):
        wait_until_answering(sleeper, lambda: False, timeout=0.01, interval=0)


def test_stopping_ends_the_whole_process_group() -> None:
    """The parent says its child's pid once the child runs; both must end."""
    spawn = f"import subprocess; print(subprocess.Popen({SLEEPER!r}).pid, flush=True); input()"
    parent = subprocess.Popen(
        [sys.executable, "-c", spawn],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert parent.stdout is not None and parent.stdin is not None
    with parent.stdout, parent.stdin:
        child = int(parent.stdout.readline())
        assert os.getpgid(child) == parent.pid
        child_handle = os.pidfd_open(child)
        stop_group(parent, grace=5)
    assert parent.returncode == -signal.SIGTERM
    try:
        ended, _, _ = select.select([child_handle], [], [], 10)
    finally:
        os.close(child_handle)
    assert ended == [child_handle]
