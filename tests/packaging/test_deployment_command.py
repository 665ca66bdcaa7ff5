"""The README's gunicorn command is the one the tests start (scripts/loadkit.py), so what
the concurrency and security tests show of gunicorn holds for a server started as the
README says."""

from __future__ import annotations

import re
import shlex

from scripts import loadkit

README = loadkit.ROOT / "README.md"
#: A fenced shell block of the README.
SHELL_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)


def readme_gunicorn_commands() -> list[list[str]]:
    """Every line of the README's shell blocks that runs gunicorn, split as a shell does."""
    blocks = SHELL_BLOCK.findall(README.read_text(encoding="utf-8"))
    lines = [line for block in blocks for line in block.splitlines()]
    return [shlex.split(line, comments=True) for line in lines if line.startswith("gunicorn ")]


def test_the_readme_starts_gunicorn_as_the_tests_do() -> None:
    assert readme_gunicorn_commands() == [loadkit.deployment_command(4, "127.0.0.1:8000")]


def test_the_readmes_gunicorn_settings_come_from_the_installed_package() -> None:
    (command,) = readme_gunicorn_commands()
    assert command[1:3] == ["-c", "python:companion.gunicorn_conf"]
