"""The rules worker run as on the phone: the rules archive unpacked alone, imported by a
Python with nothing but its standard library (``-I -S``: no Flask, no Babel)."""

from __future__ import annotations

import functools
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from companion.web.offline import kit

#: Unpacked in ``sys.argv[1]``; each line of stdin a call ``[path, body, language]`` (a
#: language of null: none given); each line of stdout the worker's answer. ``-S``: no Flask.
RUN_WORKER = """
import json, sys
sys.path.insert(0, sys.argv[1])
import rules_worker
for line in sys.stdin:
    path, body, language = json.loads(line)
    given = () if language is None else (language,)
    print(rules_worker.answer(path, json.dumps(body), *given))
for name in ("flask", "babel", "werkzeug", "sqlalchemy", "companion.web", "companion.services"):
    assert name not in sys.modules, name
shipped = {"companion.data", "companion.data.names", "companion.data.seating"}  # pure checks
assert {name for name in sys.modules if name.startswith("companion.data")} <= shipped
try:
    import flask
except ImportError:
    pass
else:
    raise AssertionError("flask was importable")
"""


def archive(routes: dict[str, str] | None = None) -> zipfile.ZipFile:
    """The rules archive as the app builds it (with its ``routes``, kit.route_map)."""
    return zipfile.ZipFile(io.BytesIO(built_archive(json.dumps(routes or {}, sort_keys=True))))


@functools.cache
def built_archive(routes: str) -> bytes:
    """The rules archive with the routes of ``routes`` (JSON), built once per process: the
    installed sources it packs do not change during a run, and compiling its templates is
    slow (docs/development.md, "Measurements behind the design"). That
    ``kit.rules_archive`` builds the same bytes every time is tested on its own
    (tests/offline/test_rules_archive.py)."""
    return kit.rules_archive(kit.archive_members(json.loads(routes) or None))


def ask_worker(unpacked: Path, calls: list[tuple[str, Any, str | None]]) -> list[Any]:
    """The unpacked worker's answers to ``calls`` (path, body, language)."""
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", RUN_WORKER, str(unpacked)],
        input="".join(json.dumps(call) + "\n" for call in calls),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]
