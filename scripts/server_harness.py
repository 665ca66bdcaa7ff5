"""What the concurrency, load and crash tests share: a real gunicorn server on loopback,
a small HTTP client that times every request, valid rounds dealt through the rules, and the
checks that the database is whole afterwards.

Used by ``scripts/load_test.py``, ``scripts/crash_test.py`` and ``tests/concurrency``; it
needs the project's virtual environment (``companion`` is installed there) and nothing else.
Everything happens on 127.0.0.1; every wait has a deadline.

It is over 450 lines because it is one kit for three users, each of which reaches every part
as ``server_harness.<name>`` (a server, a client, rounds, games, timings, the checks of the
database); its sections follow that order, and each is small and stands alone.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from companion.config import SESSION_COOKIE_NAME
from companion.data import queries
from companion.rules import QuickEntry, TableSetup, deal, score_round, table_setup, variant_named
from scripts import loopback

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
#: The secret every worker of a test server signs sessions with (all must share one).
SECRET_KEY = "server_harness-secret-key"
#: Classic-family presets that lay out indicators, so every round can be entered quickly.
VARIANTS = ("classic", "mild", "reverse", "aggravated")
#: What a stale version answers (the API's English message).
CONFLICT_TEXT = "changed on another phone"


class KitError(Exception):
    """The test harness could not do its part (a server that never answered, a failed
    migration): not a finding about the app, but a reason to stop."""


# --------------------------------------------------------------------------------------------
# Databases


def sqlite_url(path: Path) -> str:
    """The URL of a SQLite database file."""
    return f"sqlite:///{path}"


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL; ``None`` for any other database."""
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    return Path(parsed.database)


def upgrade(url: str) -> None:
    """Create the tables by the migrations, as a deployment does (``flask db upgrade``)."""
    done = subprocess.run(
        [str(BIN / "flask"), "--app", "companion", "db", "upgrade"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url, "SECRET_KEY": SECRET_KEY},
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        raise KitError(f"flask db upgrade failed:\n{done.stdout}{done.stderr}")


@contextlib.contextmanager
def postgres_database(server_url: str, name: str) -> Iterator[str]:
    """A new, empty database ``name`` on the PostgreSQL server of ``server_url``, dropped
    afterwards: the servers under test never share tables with other tests."""
    url = sa.engine.make_url(server_url)
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@contextlib.contextmanager
def migrated_database(folder: Path, name: str, postgres_url: str | None = None) -> Iterator[str]:
    """A database made by the migrations, removed afterwards: a SQLite file ``<name>.sqlite3``
    in ``folder``, or, given a PostgreSQL server's URL, a database ``<its database>_<name>``
    on that server."""
    if not postgres_url:
        path = folder / f"{name}.sqlite3"
        upgrade(sqlite_url(path))
        try:
            yield sqlite_url(path)
        finally:
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)
        return
    base = sa.engine.make_url(postgres_url).database or "postgres"
    with postgres_database(postgres_url, f"{base}_{name}") as url:
        upgrade(url)
        yield url


@contextlib.contextmanager
def scratch_database(kind: str) -> Iterator[tuple[str, Path]]:
    """For the scripts: a temporary folder (for the server's log) and a migrated database of
    ``kind``, a SQLite file in that folder or a throwaway PostgreSQL cluster started with
    manage.py's helpers; everything is removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="sticheln-server_harness-") as name:
        folder = Path(name)
        if kind == "sqlite":
            with migrated_database(folder, "scratch") as url:
                yield url, folder
            return
        import manage

        bin_dir = manage.ensure_postgres()
        if bin_dir is None:
            raise KitError("no PostgreSQL server here (apt-get install postgresql)")
        with (
            manage.throwaway_postgres(bin_dir) as server_url,
            migrated_database(folder, "scratch", server_url) as url,
        ):
            yield url, folder


# --------------------------------------------------------------------------------------------
# The server


#: The settings gunicorn is started with, from the installed package (docs/operators/deploying.md).
GUNICORN_CONFIG = "python:companion.gunicorn_conf"
#: The app gunicorn serves.
APP_FACTORY = "companion:create_app()"


def deployment_command(workers: int, address: str, *options: str) -> list[str]:
    """The command the README and docs/operators/deploying.md start the app with, ``options`` added
    before the app: ``gunicorn -c python:companion.gunicorn_conf -w 4 -b 127.0.0.1:8000
    'companion:create_app()'``. The tests start exactly this, so what they show holds for
    the documented server."""
    return [
        "gunicorn",
        "-c",
        GUNICORN_CONFIG,
        "-w",
        str(workers),
        "-b",
        address,
        *options,
        APP_FACTORY,
    ]


def gunicorn_options() -> list[str]:
    """gunicorn 25.1+ opens a control socket in $HOME by default, shared by every server of
    the user; test servers (and killed ones) must leave it alone."""
    from gunicorn import config

    return ["--no-control-socket"] if hasattr(config, "ControlSocketDisable") else []


class Server:
    """The documented ``gunicorn -c python:companion.gunicorn_conf -w <workers> -b
    127.0.0.1:<port> 'companion:create_app()'`` on ``url``, in a process group of its own,
    so that :meth:`kill` takes the master and every worker at once, as a power cut or an OOM
    kill would. ``options`` go on its command line (such as ``--access-logfile -``) and
    ``environment`` into its environment (such as ``PROXY_COUNT``)."""

    def __init__(
        self,
        database_url: str,
        log_path: Path,
        workers: int = 4,
        options: Sequence[str] = (),
        environment: Mapping[str, str] | None = None,
    ):
        self.database_url = database_url
        self.log_path = log_path
        self.workers = workers
        self.options = list(options)
        self.environment = dict(environment or {})
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        """Where the server answers."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        """Start the server and return once it answers a request (or raise KitError)."""
        self.port = loopback.free_port()
        address = f"127.0.0.1:{self.port}"
        program, *arguments = deployment_command(self.workers, address, *self.options)
        command = [str(BIN / program), *gunicorn_options(), *arguments]
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": SECRET_KEY,
            # Its simulated tables all start their games from 127.0.0.1: no limit of game
            # starts (companion/web/rate_limits.py), unless ``environment`` sets one.
            "GAME_STARTS_LIMIT": "",
            **self.environment,
        }
        env.pop("TEST_DATABASE_URL", None)
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.starts += 1
        self.wait_until_answering(timeout)

    def wait_until_answering(self, timeout: float) -> None:
        """Poll until a request is answered, the server dies, or the deadline passes."""
        assert self.process is not None
        client = Client(self.url, timeout=5)
        try:
            loopback.wait_until_answering(
                self.process, lambda: client.get("/api/v1/setup?players=4").status == 200, timeout
            )
        except loopback.NotAnswering as silence:
            self.stop()
            raise KitError(f"gunicorn: {silence}:\n{self.log()}") from None

    def kill(self) -> None:
        """SIGKILL the whole process group: no worker gets to finish what it was doing."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.process = None

    def stop(self) -> None:
        """Stop gracefully (SIGTERM: the master waits for its workers), or kill the group
        after ten seconds."""
        if self.process is None:
            return
        loopback.stop_group(self.process)
        self.process = None

    def log(self) -> str:
        """Everything the server wrote (gunicorn's log and the app's tracebacks)."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def tracebacks(self) -> list[str]:
        """The log records that hold a traceback: every one is a 500 or a crashed worker,
        to report. A record starts with gunicorn's or Flask's ``[<time>]``; the lines that
        follow belong to it (chained exceptions included)."""
        records: list[list[str]] = []
        for line in self.log().splitlines():
            if line.startswith("[") or not records:
                records.append([line])
            else:
                records[-1].append(line)
        return [
            "\n".join(record)
            for record in records
            if any(line.startswith("Traceback") for line in record)
        ]


@contextlib.contextmanager
def running_server(
    database_url: str,
    log_path: Path,
    workers: int = 4,
    options: Sequence[str] = (),
    environment: Mapping[str, str] | None = None,
) -> Iterator[Server]:
    """A started server (see :class:`Server`), stopped at the end whatever happens."""
    server = Server(database_url, log_path, workers, options, environment)
    try:
        server.start()
        yield server
    finally:
        server.stop()


# --------------------------------------------------------------------------------------------
# HTTP


@dataclass
class Reply:
    """One answer, with how long it took."""

    status: int
    body: bytes
    headers: Mapping[str, str]
    seconds: float
    cookies: Mapping[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)

    @property
    def text(self) -> str:
        """The body as text."""
        return self.body.decode("utf-8", errors="replace")

    @property
    def session(self) -> str | None:
        """The session cookie this answer sets, if it sets one."""
        return self.cookies.get(SESSION_COOKIE_NAME)


class Client:
    """A new connection per request (gunicorn's sync workers close it after each answer)."""

    def __init__(self, base_url: str, timeout: float = 30.0):
        parsed = urllib.parse.urlsplit(base_url)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.timeout = timeout

    def request(
        self,
        method: str,
        path: str,
        body: object = None,
        headers: Mapping[str, str] | None = None,
        form: Mapping[str, str | Sequence[str]] | None = None,
    ) -> Reply:
        """Send one request; ``body`` goes as JSON, ``form`` as a urlencoded form."""
        sent = dict(headers or {})
        data: bytes | None = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        started = time.perf_counter()
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            payload = response.read()
            cookies = {}
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                cookies[name.strip()] = rest.partition(";")[0]
            seconds = time.perf_counter() - started
            return Reply(response.status, payload, dict(response.getheaders()), seconds, cookies)
        finally:
            connection.close()

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> Reply:
        """A GET request."""
        return self.request("GET", path, headers=headers)


def session_header(session: str | None) -> dict[str, str]:
    """The Cookie header of a phone whose session cookie holds ``session``."""
    assert session, "no session cookie to send"
    return {"Cookie": f"{SESSION_COOKIE_NAME}={session}"}


def bearer(key: str) -> dict[str, str]:
    """The API's edit-key header."""
    return {"Authorization": f"Bearer {key}"}


def at_once(calls: Sequence[Callable[[], Reply]], timeout: float = 60.0) -> list[Reply]:
    """Run every call in a thread of its own, all released together by a barrier, so that
    the requests reach the server's workers at the same moment; answers in call order."""
    barrier = threading.Barrier(len(calls))

    def released(call: Callable[[], Reply]) -> Reply:
        barrier.wait(timeout=timeout)
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        futures = [pool.submit(released, call) for call in calls]
        return [future.result(timeout=timeout) for future in futures]


# --------------------------------------------------------------------------------------------
# Rounds the rules accept


@dataclass(frozen=True)
class PlannedRound:
    """One round's quick entries (API shape, as the server stores them) and their scores."""

    entries: list[dict[str, Any]]
    scores: list[int]


def setup_for(variant: str, players: int) -> TableSetup:
    """The table setup of a preset for ``players``."""
    return table_setup(players, variant_named(variant))


def random_round(setup: TableSetup, rng: random.Random) -> PlannedRound:
    """A round as a table could have played it: the rules deal the hands, each seat lays
    out indicators of different colours from its hand (C2), and every trick of the other
    cards goes to a random seat (C3). The quick entries are scored by the rules here, so a
    refusal by the server would be a finding, never a bad test round."""
    colours = setup.cards_laid_out  # one indicator per marked colour (R4, R14)
    while True:
        hands = deal(setup, rng).hands
        indicators = []
        for hand in hands:
            by_colour = {card.colour: card for card in rng.sample(hand, len(hand))}
            if len(by_colour) < colours:
                break  # a hand of fewer colours than marked colours: deal again
            indicators.append(tuple(rng.sample(sorted(by_colour.values(), key=str), colours)))
        else:
            break
    laid_out = {card for marked in indicators for card in marked}
    rest = [card for hand in hands for card in hand if card not in laid_out]
    rng.shuffle(rest)
    players, tricks = setup.players, setup.tricks_per_round
    if len(rest) != players * tricks:
        raise KitError(f"{len(rest)} cards left for {tricks} tricks of {players}")
    won, captured = [0] * players, [[] for _ in range(players)]
    for trick in range(tricks):
        winner = rng.randrange(players)
        won[winner] += 1
        captured[winner].extend(rest[trick * players : (trick + 1) * players])
    entries = []
    for seat in range(players):
        marked_colours = {card.colour for card in indicators[seat]}
        kept = tuple(card for card in captured[seat] if card.colour in marked_colours)
        entries.append(QuickEntry(indicators[seat], won[seat], kept))
    scored = score_round(setup, entries)
    return PlannedRound([entry.as_json() for entry in entries], scored.scores)


def distinct_rounds(setup: TableSetup, rng: random.Random, count: int) -> list[PlannedRound]:
    """``count`` rounds whose entries all differ, so the stored round tells who won."""
    rounds: list[PlannedRound] = []
    while len(rounds) < count:
        candidate = random_round(setup, rng)
        if all(candidate.entries != other.entries for other in rounds):
            rounds.append(candidate)
    return rounds


# --------------------------------------------------------------------------------------------
# Games through the API


@dataclass
class Table:
    """A game as one table's scorekeeping phone knows it."""

    code: str
    key: str
    version: int
    setup: TableSetup
    rounds_planned: int
    acknowledged: dict[int, PlannedRound] = field(default_factory=dict)

    @property
    def next_number(self) -> int:
        """The number of the next round to record."""
        return len(self.acknowledged) + 1


def table_names(label: str, players: int) -> list[str]:
    """Names no other table uses (two new players of one name at once is another matter)."""
    return [f"{label} seat {seat + 1}" for seat in range(players)]


def create_game(
    client: Client, names: Sequence[str], variant: str, rounds: int
) -> tuple[Reply, Table | None]:
    """``POST /api/v1/games``; the table, if the server created the game."""
    reply = client.request(
        "POST", "/api/v1/games", {"players": list(names), "variant": variant, "rounds": rounds}
    )
    if reply.status != 201:
        return reply, None
    state = reply.json()
    setup = setup_for(variant, len(names))
    return reply, Table(state["id"], state["edit_key"], state["version"], setup, rounds)


def post_round(client: Client, table: Table, planned: PlannedRound, version: int) -> Reply:
    """``POST /api/v1/games/<id>/rounds`` with ``version``."""
    return client.request(
        "POST",
        f"/api/v1/games/{table.code}/rounds",
        {"version": version, "entries": planned.entries},
        bearer(table.key),
    )


def put_round(
    client: Client, table: Table, number: int, planned: PlannedRound, version: int
) -> Reply:
    """``PUT /api/v1/games/<id>/rounds/<n>`` with ``version``."""
    return client.request(
        "PUT",
        f"/api/v1/games/{table.code}/rounds/{number}",
        {"version": version, "entries": planned.entries},
        bearer(table.key),
    )


def form_fields(planned: PlannedRound) -> dict[str, list[str]]:
    """A round's quick entries as the record page's form sends them (``s<seat>-<field>``,
    cards as chip tokens such as ``red-7``)."""
    fields: dict[str, list[str]] = {}
    for seat, entry in enumerate(planned.entries):
        fields[f"s{seat}-marked"] = [f"{c['colour']}-{c['value']}" for c in entry["marked"]]
        fields[f"s{seat}-tricks"] = [str(entry["tricks"])]
        fields[f"s{seat}-marked_captured"] = [
            f"{c['colour']}-{c['value']}" for c in entry["marked_captured"]
        ]
    return fields


def stored_rounds(client: Client, code: str) -> list[dict[str, Any]]:
    """The game's rounds as its export holds them (entries and scores)."""
    reply = client.get(f"/api/v1/games/{code}/export")
    if reply.status != 200:
        raise KitError(f"export of {code} answered {reply.status}: {reply.text[:300]}")
    rounds: list[dict[str, Any]] = reply.json()["games"][0]["rounds"]
    return rounds


@dataclass
class Comparison:
    """How a game's stored rounds match what its table was told."""

    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    unacknowledged: list[str] = field(default_factory=list)


def compare_rounds(
    code: str,
    acknowledged: Mapping[int, PlannedRound],
    stored: Sequence[Mapping[str, Any]],
    in_flight: Mapping[int, PlannedRound] | None = None,
) -> Comparison:
    """Every acknowledged round must be stored as sent; a stored round nobody was told of
    is allowed only if it is exactly the write that was in flight when the server died."""
    result = Comparison()
    by_number = {round_["number"]: round_ for round_ in stored}
    for number, planned in sorted(acknowledged.items()):
        here = by_number.get(number)
        if here is None:
            result.lost.append(f"{code} round {number}: acknowledged, not stored")
        elif here["entries"] != planned.entries or here["scores"] != planned.scores:
            result.lost.append(f"{code} round {number}: stored differs from the acknowledged one")
    seen: list[Any] = []
    for round_ in stored:
        if round_["entries"] in seen:
            result.duplicated.append(f"{code} round {round_['number']}: same entries as before")
        seen.append(round_["entries"])
        number = round_["number"]
        if number in acknowledged:
            continue
        flying = (in_flight or {}).get(number)
        if flying is not None and round_["entries"] == flying.entries:
            result.unacknowledged.append(f"{code} round {number}")
        else:
            result.duplicated.append(f"{code} round {number}: stored, never acknowledged")
    return result


# --------------------------------------------------------------------------------------------
# Timing


class Timings:
    """Latencies and outcomes per request kind, from many threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seconds: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []

    def add(self, kind: str, reply: Reply, expected: int) -> bool:
        """Note one answer; a status other than ``expected`` is an error (kept with its body)."""
        with self.lock:
            self.seconds[kind].append(reply.seconds)
            if reply.status != expected:
                self.errors.append(f"{kind}: {reply.status} {reply.text[:300]}")
                return False
        return True

    def fail(self, kind: str, error: BaseException) -> None:
        """Note a request that got no answer at all."""
        self.note(f"{kind}: {type(error).__name__}: {error}")

    def note(self, error: str) -> None:
        """Note an answer of the expected status that says something wrong."""
        with self.lock:
            self.errors.append(error)

    @property
    def requests(self) -> int:
        """How many requests got an answer."""
        return sum(len(values) for values in self.seconds.values())

    def rows(self) -> list[tuple[str, int, float, float, float]]:
        """Per kind: count, p50, p95 and max in milliseconds."""
        return [
            (kind, len(values), *(1000 * value for value in percentiles(values)))
            for kind, values in sorted(self.seconds.items())
        ]


def percentiles(values: Sequence[float]) -> tuple[float, float, float]:
    """p50, p95 (nearest rank) and the maximum."""
    ordered = sorted(values)
    if not ordered:
        return (0.0, 0.0, 0.0)

    def rank(share: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]

    return (rank(0.50), rank(0.95), ordered[-1])


def timing_table(timings: Timings) -> str:
    """The latency table as text."""
    lines = [f"{'request':<10} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}"]
    for kind, count, p50, p95, most in timings.rows():
        lines.append(f"{kind:<10} {count:>6} {p50:>8.1f} {p95:>8.1f} {most:>8.1f}")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Is the database whole?


@dataclass
class Consistency:
    """What the check of a whole database found."""

    games: int = 0
    rounds: int = 0
    problems: list[str] = field(default_factory=list)


def check_database(url: str) -> Consistency:
    """Check every game as an import would (companion.formats.backup): rounds numbered 1..k without
    gaps, each seat's score what the rules give when the round is scored again, the status
    right for the rounds scored; and every total the sum of the re-scored rounds. On SQLite
    also ``PRAGMA integrity_check`` and ``PRAGMA foreign_key_check``."""
    from companion import create_app
    from companion.data.models import db
    from companion.formats.backup.export import all_games

    result = Consistency()
    path = sqlite_path(url)
    if path is not None:
        result.problems.extend(sqlite_problems(path))
    with tempfile.TemporaryDirectory(prefix="server_harness-check-") as instance:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET_KEY}, instance_path=instance
        )
        with app.app_context():
            try:
                for game in all_games():
                    result.games += 1
                    result.rounds += len(game.rounds)
                    result.problems.extend(game_problems(game))
            finally:
                db.session.remove()
                db.engine.dispose()
    return result


def game_problems(game: Any) -> list[str]:
    """What is wrong with one stored game (empty when it checks out)."""
    from companion.formats.backup.export import document, game_document
    from companion.formats.backup.plans import BackupError
    from companion.formats.backup.reading import read_document
    from companion.play_state.entries import read_entries

    numbers = [round_.number for round_ in game.rounds]
    problems = []
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"{game.code}: rounds numbered {numbers}")
    try:
        read_document(document([game_document(game)]))
    except BackupError as error:
        problems.append(f"{game.code}: {error.message}")
        return problems
    setup = queries.setup_of(game)
    rescored = [0] * setup.players
    for round_ in game.rounds:
        if round_.status == "scored":
            scores = score_round(setup, read_entries(round_.entries, setup)).scores
            rescored = [total + score for total, score in zip(rescored, scores, strict=True)]
    totals = queries.totals_of(game).totals
    if totals != rescored:
        problems.append(f"{game.code}: totals {totals}, re-scored rounds add up to {rescored}")
    return problems


def sqlite_problems(path: Path) -> list[str]:
    """SQLite's own checks of the file (it recovers a WAL left by a killed writer first)."""
    connection = sqlite3.connect(path, timeout=30)
    try:
        integrity = [row[0] for row in connection.execute("PRAGMA integrity_check")]
        foreign = connection.execute("PRAGMA foreign_key_check").fetchall()
    finally:
        connection.close()
    problems = [] if integrity == ["ok"] else [f"integrity_check: {integrity}"]
    if foreign:
        problems.append(f"foreign_key_check: {foreign[:5]}")
    return problems
