#!/usr/bin/env python3
"""Set up, serve and test the Sticheln companion with nothing but Python 3.11+.

    python3 manage.py setup           create .venv, install the project, compile translations
    python3 manage.py serve [ARGS]    setup, then run the development server on 127.0.0.1:5000
    python3 manage.py test [ARGS]     setup, then ruff, mypy and pytest (ARGS go to pytest)

Standard library only: this script runs before any dependency is installed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
INSTALL_STAMP = VENV / ".pyproject.sha256"
TRANSLATIONS = ROOT / "companion" / "translations"
RULES = ROOT / "companion" / "rules"
INSTANCE = ROOT / "instance"

PYTEST_NO_TESTS_COLLECTED = 5


class StepFailed(Exception):
    """A step of setup or test failed; the message says which and how."""


def step(name: str) -> None:
    """Announce the step about to run."""
    print(f"==> {name}", flush=True)


def run(name: str, command: list[str]) -> int:
    """Run ``command`` from the repository root under its step name; return its exit code."""
    step(name)
    return subprocess.run(command, cwd=ROOT).returncode


def run_or_fail(name: str, command: list[str]) -> None:
    """Run ``command`` and raise StepFailed if it exits non-zero."""
    code = run(name, command)
    if code != 0:
        raise StepFailed(f"step '{name}' failed with exit code {code}")


def pyproject_hash() -> str:
    """Return the SHA-256 of pyproject.toml, which decides whether to reinstall."""
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_venv() -> None:
    """Create .venv with pip if it does not exist (or has lost its interpreter)."""
    if (BIN / "python").exists():
        return
    step(f"create virtual environment {VENV.relative_to(ROOT)}")
    venv.create(VENV, with_pip=True, clear=VENV.exists())


def install_project() -> None:
    """Install the project and its dev extra, only if pyproject.toml changed since last time."""
    wanted = pyproject_hash()
    if INSTALL_STAMP.exists() and INSTALL_STAMP.read_text().strip() == wanted:
        return
    run_or_fail(
        "pip install -e '.[dev]'",
        [str(BIN / "python"), "-m", "pip", "install", "--quiet", "-e", ".[dev]"],
    )
    INSTALL_STAMP.write_text(wanted + "\n")


def compile_translations() -> None:
    """Compile every message catalog to .mo; having no catalog yet is not an error."""
    catalogs = sorted(TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"))
    if not catalogs:
        step("compile translations: no catalog yet, skipped")
        return
    run_or_fail(
        "compile translations",
        [str(BIN / "pybabel"), "-q", "compile", "-d", str(TRANSLATIONS)],
    )


def setup() -> None:
    """Make the environment ready: virtualenv, installed project, compiled translations."""
    ensure_venv()
    install_project()
    compile_translations()


def upgrade_database() -> None:
    """Create the database on first run and apply every migration it lacks."""
    INSTANCE.mkdir(exist_ok=True)
    run_or_fail(
        "upgrade the database", [str(BIN / "flask"), "--app", "companion", "db", "upgrade"]
    )


def serve(args: list[str]) -> None:
    """Replace this process with the Flask development server; ``args`` go to ``flask run``."""
    setup()
    upgrade_database()
    flask = str(BIN / "flask")
    command = [flask, "--app", "companion", "run", "--host", "127.0.0.1", "--port", "5000"]
    step(" ".join(command + args))
    os.chdir(ROOT)
    os.execv(flask, command + args)


def has_python_files(folder: Path) -> bool:
    """Tell whether ``folder`` holds at least one .py file, at any depth."""
    return folder.is_dir() and any(folder.rglob("*.py"))


def test(args: list[str]) -> None:
    """Run the checks in order, stopping at the first failure; ``args`` go to pytest."""
    setup()
    run_or_fail("ruff check .", [str(BIN / "ruff"), "check", "."])
    run_or_fail("ruff format --check .", [str(BIN / "ruff"), "format", "--check", "."])
    if has_python_files(RULES):
        run_or_fail("mypy companion/rules", [str(BIN / "mypy"), "companion/rules"])
    else:
        step("mypy companion/rules: no Python files yet, skipped")
    code = run("pytest", [str(BIN / "pytest"), *args])
    if code == PYTEST_NO_TESTS_COLLECTED:
        raise StepFailed("step 'pytest' collected no tests (exit code 5)")
    if code != 0:
        raise StepFailed(f"step 'pytest' failed with exit code {code}")


def main(argv: list[str]) -> int:
    """Dispatch the command line; return the process exit code."""
    if len(argv) < 1 or argv[0] not in {"setup", "serve", "test"}:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    command, args = argv[0], argv[1:]
    try:
        if command == "setup":
            if args:
                print("setup takes no arguments", file=sys.stderr)
                return 2
            setup()
        elif command == "serve":
            serve(args)
        else:
            test(args)
    except StepFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    if command == "test":
        print("All checks passed.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
