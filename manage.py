#!/usr/bin/env python3
"""Set up, serve and test the Sticheln companion with nothing but Python 3.11+ (npm, where
the machine has it or can install it, vendors the offline kit).

    python3 manage.py setup           create .venv, install the project, compile translations,
                                      vendor the offline kit (npm ci: pinned Pyodide, checked)
    python3 manage.py serve [ARGS]    setup, then run the development server on 127.0.0.1:5000
    python3 manage.py test [ARGS]     setup, then ruff, mypy, lint-imports, the docs (Sphinx,
                                      warnings are errors) and pytest on SQLite (browser tests
                                      included, in headless Chromium), the wheel smoke test,
                                      and pytest again on a throwaway PostgreSQL server (ARGS
                                      go to pytest)
    python3 manage.py screens         setup, then take the user's guide's screenshots again
                                      into docs/_static/screens/ (a test run leaves them be)

Standard library only: this script runs before any dependency is installed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import venv
from collections.abc import Callable, Iterator
from pathlib import Path

from scripts import offline_kit  # standard library only, beside this file
from scripts.loopback import free_port  # standard library only, beside this file
from scripts.stopping import signals_end_the_run  # standard library only

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
INSTALL_STAMP = VENV / ".pyproject.sha256"
TRANSLATIONS = ROOT / "companion" / "translations"
RULES = ROOT / "companion" / "rules"
WHEEL_SMOKE = ROOT / "scripts" / "wheel_smoke.py"
DOCS = ROOT / "docs"
INSTANCE = ROOT / "instance"
NPM_LOCK = ROOT / "package-lock.json"
NODE_MODULES = ROOT / "node_modules"
NPM_STAMP = NODE_MODULES / ".package-lock.sha256"

PYTEST_NO_TESTS_COLLECTED = 5
#: Where the test command's build of docs/ is, for tests/docs to read (tests/docs/conftest.py).
DOCS_HTML = "STICHELN_DOCS_HTML"
POSTGRES_GLOB = "/usr/lib/postgresql/*/bin/initdb"
#: The browser the browser tests drive (Debian's package; never ``playwright install``).
CHROMIUM = Path("/usr/bin/chromium")


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
    # The same code the wheel build uses (setup.py), run by the virtualenv's Python because
    # babel is installed there only; compiled in place, beside each .po.
    compile_in_place = (
        "import sys, pathlib, setup; "
        "folder = pathlib.Path(sys.argv[1]); setup.compile_catalogs(folder, folder)"
    )
    run_or_fail(
        "compile translations",
        [str(BIN / "python"), "-c", compile_in_place, str(TRANSLATIONS)],
    )


def npm_lock_hash() -> str:
    """Return the SHA-256 of package-lock.json, which decides whether to run ``npm ci``."""
    return hashlib.sha256(NPM_LOCK.read_bytes()).hexdigest()


def install_node_packages() -> bool:
    """``npm ci`` (the versions and integrity hashes of package-lock.json), only if the lock
    changed since last time; False if npm is missing and cannot be installed (outside CI)."""
    wanted = npm_lock_hash()
    if NPM_STAMP.exists() and NPM_STAMP.read_text().strip() == wanted:
        return True
    if not ensure_npm():
        return False
    run_or_fail(
        "npm ci (package-lock.json)",
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
    )
    NPM_STAMP.write_text(wanted + "\n")
    return True


def vendor_offline_kit() -> None:
    """Pyodide's files for the offline rules worker, copied out of node_modules and checked
    (scripts/offline_kit.py), unless the app already holds exactly those; and the rules'
    bytecode for its Python, unless it is that of the rules as they are."""
    if not install_node_packages():
        step("offline kit: npm is missing and cannot be installed here, skipped")
        return
    try:
        if not offline_kit.vendored():
            step(f"vendor the offline kit into {offline_kit.TARGET.relative_to(ROOT)}")
            offline_kit.vendor()
        if not offline_kit.rules_compiled():
            step("compile the rules for the offline kit (Pyodide's Python)")
            offline_kit.compile_rules()
    except offline_kit.KitError as error:
        raise StepFailed(f"offline kit: {error}") from None


def setup() -> None:
    """Make the environment ready: virtualenv, installed project, compiled translations,
    the offline kit."""
    ensure_venv()
    install_project()
    compile_translations()
    vendor_offline_kit()


def upgrade_database() -> None:
    """Create the database on first run and apply every migration it lacks."""
    INSTANCE.mkdir(exist_ok=True)
    run_or_fail("upgrade the database", [str(BIN / "flask"), "--app", "companion", "db", "upgrade"])


def serve_command(args: list[str]) -> list[str]:
    """The Flask development server on 127.0.0.1:5000; ``args`` go to ``flask run``."""
    flask = str(BIN / "flask")
    return [flask, "--app", "companion", "run", "--host", "127.0.0.1", "--port", "5000", *args]


def serve(args: list[str]) -> None:
    """Replace this process with the development server of :func:`serve_command`."""
    setup()
    upgrade_database()
    command = serve_command(args)
    step(" ".join(command))
    os.chdir(ROOT)
    os.execv(command[0], command)


def has_python_files(folder: Path) -> bool:
    """Tell whether ``folder`` holds at least one .py file, at any depth."""
    return folder.is_dir() and any(folder.rglob("*.py"))


@contextlib.contextmanager
def bytecode_cached() -> Iterator[None]:
    """Let the test command's Python processes cache their bytecode, in a throwaway folder,
    where the caller forbids writing it (``PYTHONDONTWRITEBYTECODE``).

    Without a cache each process compiles every module of the project and the tests from
    source again, and pytest rewrites the asserts of every test module and plugin again:
    each collection of the suite (one by the main process and one by each worker, in both
    passes) costs several times the processor time it costs with one. The folder
    (``PYTHONPYCACHEPREFIX``) is outside the tree and removed afterwards, so the caller's
    wish (no ``__pycache__`` in the checkout) still holds."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        yield  # bytecode is cached beside the sources, as Python does by default
        return
    saved = {
        name: os.environ.get(name) for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")
    }
    with tempfile.TemporaryDirectory(prefix="sticheln-bytecode-") as folder:
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        os.environ["PYTHONPYCACHEPREFIX"] = folder
        try:
            yield
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def test(args: list[str]) -> None:
    """Run the checks in order, stopping at the first failure; ``args`` go to pytest."""
    setup()
    with bytecode_cached():
        checks(args)


def checks(args: list[str]) -> None:
    """The test command's steps after the setup (:func:`test`). The docs build, the longest
    of the checks before pytest, runs beside ruff, mypy and lint-imports (each mostly one
    core's work)."""
    with built_docs() as docs_built:
        run_or_fail("ruff check .", [str(BIN / "ruff"), "check", "."])
        run_or_fail("ruff format --check .", [str(BIN / "ruff"), "format", "--check", "."])
        if has_python_files(RULES):
            # The rules and the page models: both run on the phone too, pure and typed.
            typed = ["companion/rules", "companion/pages"]
            run_or_fail(f"mypy {' '.join(typed)}", [str(BIN / "mypy"), *typed])
        else:
            step("mypy companion/rules: no Python files yet, skipped")
        # The layer contracts of pyproject.toml ([tool.importlinter]; DESIGN.md, "Architecture").
        run_or_fail("lint-imports", [str(BIN / "lint-imports")])
        docs_html = docs_built()
        if not ensure_chromium():
            step(f"browser tests: {CHROMIUM} is missing and cannot be installed here, skipped")
        # tests/docs reads the pages built here instead of building them a second time.
        pytest("pytest on SQLite", args, {DOCS_HTML: str(docs_html)})
    run_or_fail("wheel smoke test", [str(BIN / "python"), str(WHEEL_SMOKE)])
    postgres = ensure_postgres()
    if postgres is None:
        step("pytest on PostgreSQL: no PostgreSQL server here, skipped (CI never skips)")
        return
    with throwaway_postgres(postgres) as url:
        # Only the tests that reach the database run again (tests/conftest.py deselects the
        # others: the rules, the browser tests, an app pinned to SQLite...).
        pytest("pytest on PostgreSQL", args, {"TEST_DATABASE_URL": url})


def screens() -> None:
    """Take the screenshots of the user's guide again, into docs/_static/screens/: the only
    way they change (``tests/browser/test_docs_screens.py``)."""
    setup()
    if not ensure_chromium():
        raise StepFailed(f"screenshots: {CHROMIUM} is missing and cannot be installed here")
    step("take the guide's screenshots")
    code = subprocess.run(
        [str(BIN / "pytest"), "-p", "no:cacheprovider", "tests/browser/test_docs_screens.py"],
        cwd=ROOT,
        env={**os.environ, "WRITE_SCREENS": "1"},
    ).returncode
    if code != 0:
        raise StepFailed(f"step 'take the guide's screenshots' failed with exit code {code}")


@contextlib.contextmanager
def built_docs() -> Iterator[Callable[[], Path]]:
    """Build docs/ with Sphinx into a throwaway folder, removed afterwards; a warning (a
    broken link, a missing page or screenshot, a docstring autodoc cannot read) fails the
    step. No link is fetched: the build needs no network. The build starts at once and runs
    beside whatever the block runs; calling what it yields waits for it and answers the
    folder (StepFailed if the build failed). A build still running when the block ends (a
    step before failed) is stopped."""
    name = "sphinx-build -W docs"
    with tempfile.TemporaryDirectory(prefix="sticheln-docs-") as out:
        step(f"{name} (started, runs beside the next steps)")
        command = [str(BIN / "sphinx-build"), "-W", "--keep-going", "-q", "-b", "html"]
        build = subprocess.Popen([*command, str(DOCS), out], cwd=ROOT)

        def finished() -> Path:
            step(f"{name}: waiting for the build")
            code = build.wait()
            if code != 0:
                raise StepFailed(f"step '{name}' failed with exit code {code}")
            return Path(out)

        try:
            yield finished
        finally:
            if build.poll() is None:
                build.terminate()
                build.wait()


def parallel_workers() -> list[str]:
    """pytest-xdist options: one worker per core (at most 4), a test file per worker at a
    time so that a file's expensive fixtures start once, the files in the suite's order (the
    slowest folders first, tests/conftest.py's ``SLOW_FIRST``), not in xdist's own (the files
    of most tests first)."""
    workers = min(os.cpu_count() or 1, 4)
    if workers < 2:
        return []
    return ["-n", str(workers), "--dist", "loadfile", "--no-loadscope-reorder"]


def pytest(name: str, args: list[str], env: dict[str, str] | None = None) -> None:
    """One pytest pass; collecting no test at all is a failure too."""
    step(name)
    code = subprocess.run(
        [str(BIN / "pytest"), *parallel_workers(), *args],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    ).returncode
    if code == PYTEST_NO_TESTS_COLLECTED:
        raise StepFailed(f"step '{name}' collected no tests (exit code 5)")
    if code != 0:
        raise StepFailed(f"step '{name}' failed with exit code {code}")


def in_ci() -> bool:
    """CI sets CI=true; there every tool must be present, nothing may be skipped."""
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def postgres_bin() -> Path | None:
    """The bin folder of the newest PostgreSQL server installed from Debian's packages."""
    found = sorted(Path("/").glob(POSTGRES_GLOB.lstrip("/")), key=lambda p: p.parent.parent.name)
    return found[-1].parent if found else None


def apt_install(package: str) -> None:
    """Install a Debian package (needs root and apt-get)."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise StepFailed(
            f"{package} is missing and cannot be installed here (needs root and apt-get)"
        )
    quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", package]):
        step(" ".join(command))
        if subprocess.run(command, env=quiet).returncode != 0:
            raise StepFailed(f"could not install {package}")


def ensure_postgres() -> Path | None:
    """PostgreSQL's programs, installed if missing where we can; None if absent outside CI."""
    found = postgres_bin()
    if found is None and (in_ci() or (os.geteuid() == 0 and shutil.which("apt-get"))):
        apt_install("postgresql")
        found = postgres_bin()
        if found is None:
            raise StepFailed("postgresql was installed but its programs are not where expected")
    return found


def ensure_npm() -> bool:
    """npm (with Node.js) for the offline kit, installed from Debian's packages if missing
    where we can (as root, and always in CI, where a missing kit is a failure). False if it
    is absent outside CI: setup then leaves the kit out, and the app says so when asked."""
    if shutil.which("npm"):
        return True
    if not in_ci() and (os.geteuid() != 0 or not shutil.which("apt-get")):
        return False
    apt_install("npm")
    if not shutil.which("npm"):
        raise StepFailed("npm was installed but is not on the PATH")
    return True


def ensure_chromium() -> bool:
    """Debian's Chromium for the browser tests, installed if missing where we can (as root,
    and always in CI, where a missing browser is a failure). False if it is absent outside
    CI: the browser tests then skip themselves, saying why."""
    if CHROMIUM.exists():
        return True
    if not in_ci() and (os.geteuid() != 0 or not shutil.which("apt-get")):
        return False
    apt_install("chromium")
    if not CHROMIUM.exists():
        raise StepFailed(f"chromium was installed but {CHROMIUM} is not there")
    return True


@contextlib.contextmanager
def throwaway_postgres(bin_dir: Path) -> Iterator[str]:
    """A private PostgreSQL cluster on a free loopback port, removed afterwards.

    PostgreSQL refuses to run as root, so as root the cluster belongs to the postgres user.
    """
    folder = Path(tempfile.mkdtemp(prefix="sticheln-pg-"))
    owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if owner:
        account = pwd.getpwnam("postgres")
        os.chown(folder, account.pw_uid, account.pw_gid)
    data, port = folder / "data", free_port()
    pg_ctl = [*owner, str(bin_dir / "pg_ctl"), "-D", str(data), "-s"]
    run_or_fail(
        "start a throwaway PostgreSQL",
        [
            *owner,
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-U",
            "sticheln",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        ],
    )
    # A cluster for one run, thrown away after: nothing written needs to survive a crash
    # (fsync, full_page_writes, synchronous_commit off), and no background ANALYZE may change
    # the planner's statistics under a test that reads a plan (autovacuum off).
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        " -c full_page_writes=off -c synchronous_commit=off -c autovacuum=off"
    )
    try:
        run_or_fail(
            f"pg_ctl start (port {port})",
            [*pg_ctl, "-w", "-l", str(folder / "log"), "-o", options, "start"],
        )
        yield f"postgresql+psycopg://sticheln@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "stop"], cwd=folder)
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str]) -> int:
    """Dispatch the command line; return the process exit code."""
    if len(argv) < 1 or argv[0] not in {"setup", "serve", "test", "screens"}:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    command, args = argv[0], argv[1:]
    if command in {"setup", "screens"} and args:
        print(f"{command} takes no arguments", file=sys.stderr)
        return 2
    try:
        # Stopped by SIGTERM or SIGHUP, the run still stops its PostgreSQL server and
        # removes its folders, as after Ctrl-C (scripts/stopping.py).
        with signals_end_the_run():
            run_command(command, args)
    except StepFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    if command == "test":
        print("All checks passed.")
    return 0


def run_command(command: str, args: list[str]) -> None:
    """Run ``command`` with ``args``; StepFailed if a step fails."""
    if command == "setup":
        setup()
    elif command == "screens":
        screens()
    elif command == "serve":
        serve(args)
    else:
        test(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
