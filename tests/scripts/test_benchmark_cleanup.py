"""The benchmark's temporary folder (its databases, some 160 MB with 10,000 games) goes at
every exit: when the run ends, fails, or is stopped by Ctrl-C (SIGINT), SIGTERM or SIGHUP
(scripts/bench/databases.py, ``scratch_folder``)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: A run that makes its folder, fills it, says where it is, then waits to be stopped (or,
#: given "fail", fails).
RUN = """
import sys
from scripts.bench.databases import scratch_folder
with scratch_folder() as folder:
    (folder / "large.sqlite3").write_bytes(b"x" * 1024)
    print(folder, flush=True)
    if sys.argv[1] == "fail":
        raise RuntimeError("a failed run")
    sys.stdin.readline()
"""


def start(mode: str) -> tuple[subprocess.Popen[str], Path]:
    process = subprocess.Popen(
        [sys.executable, "-c", RUN, mode],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    folder = Path(process.stdout.readline().strip())
    assert folder.name.startswith("sticheln-bench-"), folder
    return process, folder


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_run_stopped_by_a_signal_leaves_no_folder(number: signal.Signals) -> None:
    process, folder = start("wait")
    assert (folder / "large.sqlite3").exists()
    process.send_signal(number)
    _out, err = process.communicate(timeout=60)
    assert process.returncode != 0, err
    assert not folder.exists(), err


def test_a_run_that_ends_or_fails_leaves_no_folder() -> None:
    process, folder = start("wait")
    process.communicate(input="\n", timeout=60)
    assert process.returncode == 0
    assert not folder.exists()
    process, folder = start("fail")
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 1 and "a failed run" in err
    assert not folder.exists()


def test_the_signals_handlers_are_given_back() -> None:
    from scripts.bench.databases import scratch_folder

    before = signal.getsignal(signal.SIGTERM)
    with scratch_folder() as folder:
        assert signal.getsignal(signal.SIGTERM) is not before
        assert folder.is_dir()
    assert signal.getsignal(signal.SIGTERM) is before
    assert not folder.exists()
