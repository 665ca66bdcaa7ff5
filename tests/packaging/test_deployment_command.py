"""The gunicorn command of the README and of the operator's guide (docs/operators/deploying.md)
is the one the tests start (scripts/server_harness.py), so what the concurrency and security tests
show of gunicorn holds for a server started as the documentation says."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from scripts import server_harness

#: The pages that tell an operator how to start the app.
DEPLOYMENT_PAGES = [
    server_harness.ROOT / "README.md",
    server_harness.ROOT / "docs/operators/deploying.md",
]
#: A fenced shell block of a Markdown page.
SHELL_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)


def gunicorn_commands(page: Path) -> list[list[str]]:
    """Every line of the page's shell blocks that runs gunicorn, split as a shell does."""
    blocks = SHELL_BLOCK.findall(page.read_text(encoding="utf-8"))
    lines = [line for block in blocks for line in block.splitlines()]
    return [shlex.split(line, comments=True) for line in lines if line.startswith("gunicorn ")]


@pytest.mark.parametrize("page", DEPLOYMENT_PAGES, ids=lambda page: page.name)
def test_the_documentation_starts_gunicorn_as_the_tests_do(page: Path) -> None:
    assert gunicorn_commands(page) == [server_harness.deployment_command(4, "127.0.0.1:8000")]


@pytest.mark.parametrize("page", DEPLOYMENT_PAGES, ids=lambda page: page.name)
def test_the_documented_gunicorn_settings_come_from_the_installed_package(page: Path) -> None:
    (command,) = gunicorn_commands(page)
    assert command[1:3] == ["-c", "python:companion.gunicorn_conf"]
