"""A run of ``manage.py`` stopped by SIGTERM or SIGHUP goes through every ``finally``, as
after Ctrl-C (scripts/stopping.py): its throwaway PostgreSQL server stops and its folders go,
where Python's default for those signals ended it at once and left them behind."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: ``manage.py test`` with a step that makes a folder, says where it is and waits to be
#: stopped, removing the folder in its ``finally`` as ``throwaway_postgres`` does.
RUN = """
import pathlib, sys, tempfile
import manage

def test(args):
    folder = pathlib.Path(tempfile.mkdtemp(prefix="sticheln-stopping-"))
    try:
        print(folder, flush=True)
        sys.stdin.readline()
    finally:
        folder.rmdir()

manage.test = test
sys.exit(manage.main(["test"]))
"""


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_manage_stopped_by_a_signal_goes_through_its_finally(number: signal.Signals) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", RUN],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    folder = Path(process.stdout.readline().strip())
    assert folder.name.startswith("sticheln-stopping-") and folder.is_dir()
    process.send_signal(number)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + number, err
    assert not folder.exists(), err


def test_the_handlers_are_given_back() -> None:
    from scripts.stopping import signals_end_the_run

    before = signal.getsignal(signal.SIGTERM)
    with signals_end_the_run():
        assert signal.getsignal(signal.SIGTERM) is not before
    assert signal.getsignal(signal.SIGTERM) is before
