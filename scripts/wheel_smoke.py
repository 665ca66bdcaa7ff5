#!/usr/bin/env python3
"""Wheel smoke test: the app installed the ordinary Python way is the same app.

    .venv/bin/python scripts/wheel_smoke.py [--keep]

Builds the wheel from a clean copy of the checkout (``pip wheel --no-deps``, so the build
runs with the build requirements of pyproject.toml in an isolated environment), installs it
into a new virtual environment, and from a folder outside the checkout:

- ``flask --app companion db upgrade`` on a new SQLite database;
- gunicorn as the README and docs/operators/deploying.md start it
  (``-c python:companion.gunicorn_conf``, the settings in the installed package), on a free
  loopback port, with its access log;
- the home page in all five languages, then every page (a game started through the API,
  its pages opened with its edit link) in English and German: ``<html lang>`` must name the
  language and the page must say the words of that language (its heading, where it is
  known, and the language switcher's label on every page);
- a static file, the web app manifest, the service worker, the favicon and the API's
  OpenAPI document.

Standard library only. Exits 0 when every check passes and 1, saying which check and why,
at the first that fails. ``--keep`` leaves the temporary folder behind for a look.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.loopback import NotAnswering, free_port, stop_group, wait_until_answering  # noqa: E402
from scripts.page_reader import loads, page_language  # noqa: E402
from scripts.stopping import signals_end_the_run  # noqa: E402

#: What a clean copy of the checkout leaves out: local environments, caches, build output,
#: the instance folder, and compiled catalogs (the build must compile its own).
NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "instance",
    "*.egg-info",
    "__pycache__",
    "*.py[cod]",
    ".*_cache",
    ".hypothesis",
    "*.mo",
)

#: How the home page greets in each language (its ``<h1>``).
WELCOME = {
    "en": "Welcome to the Sticheln companion",
    "de": "Willkommen beim Sticheln-Begleiter",
    "it": "Benvenuti nell’assistente per Sticheln",
    "fr": "Bienvenue dans le compagnon de Sticheln",
    "hu": "Üdvözöl a Sticheln-segéd",
}

#: Every page, ``{game}`` standing for a game's id, with its ``<h1>`` in English and German
#: where that is worth checking (``None``: the language switcher's label alone).
PAGES: dict[str, dict[str, str] | None] = {
    "/rules": {"en": "Rules", "de": "Regeln"},
    "/games/new": {"en": "New game", "de": "Neue Partie"},
    "/g/{game}": {"en": "Scoreboard", "de": "Spielstand"},
    "/g/{game}/view": {"en": "Scoreboard", "de": "Spielstand"},
    "/setup": None,
    "/resolve": None,
    "/history": None,
    "/players/Ann": None,
    "/offline": None,
    "/g/{game}/setup": None,
    "/g/{game}/resolve": None,
    "/g/{game}/rounds/record": None,
    "/g/{game}/rounds/mark": None,
    "/g/{game}/rounds/live": None,
    "/g/{game}/share": None,
    "/g/{game}/abandon": None,
    "/g/{game}/delete": None,
}

#: The language switcher's label, on every page.
SWITCHER = {"en": '<nav aria-label="Language">', "de": '<nav aria-label="Sprache">'}

#: Files that are not pages, with the start of their Content-Type.
FILES = {
    "/manifest.webmanifest": "application/manifest+json",
    "/sw.js": "text/javascript",
    "/favicon.ico": "image/",
    "/api/v1/openapi.json": "application/json",  # the API's document, read from the package
}

#: gunicorn's settings, read from the installed package as the documented command reads them.
GUNICORN_CONFIG = "python:companion.gunicorn_conf"

SERVER_START_SECONDS = 60.0
REQUEST_TIMEOUT_SECONDS = 30.0


class SmokeFailed(Exception):
    """A check failed; the message says which and why."""


def say(message: str) -> None:
    """Report progress on one line."""
    print(f"    wheel smoke: {message}", flush=True)


def run(command: list[str], cwd: Path, env: Mapping[str, str], what: str) -> str:
    """Run ``command``; return its output, or fail with it."""
    done = subprocess.run(
        command, cwd=cwd, env=dict(env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    output = done.stdout.decode(errors="replace")
    if done.returncode != 0:
        raise SmokeFailed(f"{what} failed (exit code {done.returncode}):\n{output}")
    return output


def clean_copy(destination: Path) -> Path:
    """Copy the checkout's sources to ``destination``, without what NOT_SOURCE names."""
    shutil.copytree(ROOT, destination, ignore=NOT_SOURCE)
    return destination


def build_wheel(work: Path) -> Path:
    """Build the wheel from a clean copy of the checkout; return its path."""
    source, dist = clean_copy(work / "source"), work / "dist"
    say("building the wheel")
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), "."]
    run(pip_wheel, source, os.environ, "pip wheel")
    wheels = sorted(dist.glob("*.whl"))
    if len(wheels) != 1:
        raise SmokeFailed(f"expected one wheel in {dist}, found {[w.name for w in wheels]}")
    return wheels[0]


def install(wheel: Path, work: Path) -> Path:
    """Install ``wheel`` and its dependencies into a new virtual environment; return its bin
    folder."""
    environment = work / "venv"
    say(f"installing {wheel.name} into a new virtual environment")
    venv.create(environment, with_pip=True)
    bin_dir = environment / "bin"
    install_command = [
        str(bin_dir / "python"),
        "-m",
        "pip",
        "install",
        "-q",
        "--no-compile",
        str(wheel),
    ]
    run(install_command, work, os.environ, "pip install of the wheel")
    return bin_dir


def outside_environment(bin_dir: Path, database: Path) -> dict[str, str]:
    """The environment of the installed app: its own bin first, its own database, nothing
    that could lead Python back into the checkout."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "FLASK_APP"}
        and not key.endswith("DATABASE_URL")
    }
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["DATABASE_URL"] = f"sqlite:///{database}"
    env["SECRET_KEY"] = "wheel-smoke"
    return env


def check_installed_copy_is_used(bin_dir: Path, place: Path, env: Mapping[str, str]) -> None:
    """The package imported is the installed one, not the checkout."""
    where = run(
        [str(bin_dir / "python"), "-c", "import companion; print(companion.__file__)"],
        place,
        env,
        "import companion",
    ).strip()
    if ROOT in Path(where).resolve().parents:
        raise SmokeFailed(f"companion was imported from the checkout ({where})")
    say(f"companion is imported from {where}")


@dataclass
class Reply:
    """One answer."""

    status: int
    headers: Mapping[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Server:
    """gunicorn serving the installed app, with its log kept for failure messages."""

    def __init__(self, bin_dir: Path, place: Path, env: Mapping[str, str]) -> None:
        self.port = free_port()
        self.log_path = place / "gunicorn.log"
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    str(bin_dir / "gunicorn"),
                    "-c",
                    GUNICORN_CONFIG,
                    "-w",
                    "1",
                    "-b",
                    f"127.0.0.1:{self.port}",
                    "--access-logfile",
                    "-",
                    "companion:create_app()",
                ],
                cwd=place,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def log(self) -> str:
        """What gunicorn and the app wrote."""
        return self.log_path.read_text(errors="replace")

    def request(
        self, method: str, path: str, headers: Mapping[str, str] | None = None, body: object = None
    ) -> Reply:
        """Send one request and read the whole answer."""
        sent = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=REQUEST_TIMEOUT_SECONDS
        )
        try:
            connection.request(method, path, body=data, headers=sent)
            answer = connection.getresponse()
            return Reply(answer.status, dict(answer.getheaders()), answer.read())
        finally:
            connection.close()

    def wait_until_answering(self) -> None:
        """Poll until the server answers, dies, or the deadline passes."""

        def answers() -> bool:
            self.request("GET", "/api/v1/setup?players=4")
            return True

        try:
            wait_until_answering(self.process, answers, SERVER_START_SECONDS)
        except NotAnswering as silence:
            raise SmokeFailed(f"gunicorn: {silence}") from None

    def stop(self) -> None:
        """Stop gunicorn and its worker; kill them if they linger."""
        stop_group(self.process)


@contextlib.contextmanager
def serving(bin_dir: Path, place: Path, env: Mapping[str, str]) -> Iterator[Server]:
    """gunicorn started and answering, stopped at the end whatever happens."""
    server = Server(bin_dir, place, env)
    try:
        server.wait_until_answering()
        say(f"gunicorn answers on port {server.port}")
        yield server
    except SmokeFailed as failure:
        raise SmokeFailed(f"{failure}\n--- gunicorn log ---\n{server.log()}") from None
    finally:
        server.stop()


def fetch_page(server: Server, path: str, language: str, words: list[str], cookie: str) -> str:
    """GET ``path`` asked in ``language``; fail unless it answers 200 with ``lang`` set to
    that language and each of ``words`` in its text."""
    reply = server.request("GET", path, {"Accept-Language": language, "Cookie": cookie})
    where = f"GET {path} in {language}"
    if reply.status != 200:
        raise SmokeFailed(f"{where}: status {reply.status}, expected 200:\n{reply.text[:2000]}")
    page = reply.text
    if page_language(page) != language:
        raise SmokeFailed(f'{where}: <html lang="{page_language(page)}">, expected "{language}"')
    for text in words:
        if text not in page:
            raise SmokeFailed(f"{where}: the page does not say {text!r} (is it translated?)")
    return page


def start_game(server: Server) -> tuple[str, str, str]:
    """Start a game through the API; return its id, its edit key and the session cookie of
    a phone that opened its edit link."""
    players = {"players": ["Ann", "Ben", "Cleo"], "variant": "classic"}
    reply = server.request("POST", "/api/v1/games", body=players)
    if reply.status != 201:
        raise SmokeFailed(f"POST /api/v1/games: status {reply.status}, expected 201:\n{reply.text}")
    state = json.loads(reply.body)
    link = f"/g/{state['id']}/edit/{state['edit_key']}"
    granted = server.request("GET", link)
    cookie = granted.headers.get("Set-Cookie", "").split(";", 1)[0]
    if granted.status != 302 or not cookie:
        raise SmokeFailed(f"GET {link}: status {granted.status}, no session cookie")
    return str(state["id"]), str(state["edit_key"]), cookie


def check_log_masks_key(server: Server, game: str, key: str) -> None:
    """The access log shows the edit link opened as ``/g/<id>/edit/***``, never its key."""
    masked = f"GET /g/{game}/edit/*** "
    try:
        wait_until_answering(server.process, lambda: masked in server.log(), SERVER_START_SECONDS)
    except NotAnswering:
        raise SmokeFailed(f"the access log does not show {masked!r}") from None
    if key in server.log():
        raise SmokeFailed("the edit key is in gunicorn's log")


def fetch_file(server: Server, path: str, content_type: str) -> None:
    """``path`` answers 200 with a body of the expected type."""
    reply = server.request("GET", path)
    served_type = reply.headers.get("Content-Type", "")
    if reply.status != 200 or not served_type.startswith(content_type) or not reply.body:
        raise SmokeFailed(
            f"GET {path}: status {reply.status}, type {served_type!r}, {len(reply.body)} bytes;"
            f" expected 200 and {content_type}"
        )


def stylesheet(home_page: str) -> str:
    """The address of the stylesheet the home page links to."""
    found = [url for url in loads(home_page) if re.fullmatch(r"/static/style.*\.css", url)]
    if not found:
        raise SmokeFailed("the home page links to no /static/style*.css")
    return found[0]


def check_pages(server: Server) -> None:
    """Every page answers in the language asked for, and the files are there."""
    home = ""
    for language, welcome in WELCOME.items():
        page = fetch_page(server, "/", language, [f"<h1>{welcome}</h1>"], "")
        home = page if language == "en" else home
    say("the home page speaks all five languages")
    game, key, cookie = start_game(server)
    check_log_masks_key(server, game, key)
    say("gunicorn's access log shows the edit link without its key")
    for path, headings in PAGES.items():
        for language, switcher in SWITCHER.items():
            words = [switcher] + ([f"<h1>{headings[language]}</h1>"] if headings else [])
            fetch_page(server, path.format(game=game), language, words, cookie)
    say(f"{len(PAGES)} more pages answer in English and German")
    for path, content_type in {stylesheet(home): "text/css", **FILES}.items():
        fetch_file(server, path, content_type)
    say(f"{len(FILES) + 1} files are served: {', '.join([stylesheet(home), *FILES])}")


def smoke(work: Path) -> None:
    """Build, install, migrate, serve and check, all in ``work``."""
    wheel = build_wheel(work)
    bin_dir = install(wheel, work)
    place = work / "elsewhere"
    place.mkdir()
    env = outside_environment(bin_dir, place / "companion.sqlite3")
    check_installed_copy_is_used(bin_dir, place, env)
    say("flask --app companion db upgrade")
    run([str(bin_dir / "flask"), "--app", "companion", "db", "upgrade"], place, env, "db upgrade")
    with serving(bin_dir, place, env) as server:
        check_pages(server)


def main(argv: list[str]) -> int:
    """Run the smoke test in a temporary folder; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    options = parser.parse_args(argv)
    started = time.monotonic()
    # SIGTERM and SIGHUP end the run as Ctrl-C does, through the ``finally`` that removes the
    # folder.
    with signals_end_the_run():
        work = Path(tempfile.mkdtemp(prefix="sticheln-wheel-"))
        try:
            smoke(work)
        except SmokeFailed as failure:
            print(f"wheel smoke test FAILED: {failure}", file=sys.stderr)
            return 1
        finally:
            if options.keep:
                say(f"kept {work}")
            else:
                shutil.rmtree(work, ignore_errors=True)
    say(f"passed in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
