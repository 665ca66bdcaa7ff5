"""SIGTERM and SIGHUP end a run as Ctrl-C does, through every ``finally``: a throwaway
PostgreSQL server stops, temporary folders go. Python's default for them ends the process
at once, leaving both behind. Standard library only: ``manage.py`` uses it before the
virtual environment exists."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from typing import Any

#: The signals that stop a run besides Ctrl-C (SIGINT, already an exception in Python).
STOPPING = (signal.SIGTERM, signal.SIGHUP)


def stop(number: int, _frame: Any) -> None:
    """End the run by an exception, as Ctrl-C does, with the shell's exit code for it."""
    raise SystemExit(128 + number)


@contextlib.contextmanager
def signals_end_the_run() -> Iterator[None]:
    """Within, SIGTERM and SIGHUP raise ``SystemExit``; their handlers are given back
    afterwards."""
    before = {number: signal.signal(number, stop) for number in STOPPING}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
