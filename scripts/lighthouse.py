#!/usr/bin/env python3
"""Audit the pages a phone at the table sees with Lighthouse 12 (mobile by default).

    python3 scripts/lighthouse.py [--min 0.95] [--page NAME ...] [--form-factor desktop]
                                  [--runs 3] [--timeout 180] [--reports DIR] [--items 10]

Starts the app (gunicorn, or ``flask run`` without it) on a free loopback port with a
throwaway SQLite database, creates a game of four players with three scored rounds through
the JSON API, runs Lighthouse 12 (fetched by ``npx``) on each page, prints the scores per
page and category, every failing audit (score < 0.9) with the elements or resources it
names, and exits 1 when a category scores below ``--min`` (2 when an audit could not run).

Needs ``python3 manage.py setup`` (for .venv), Node.js with npx and Chromium (CHROME_PATH,
default /usr/bin/chromium). Standard library only, like manage.py.

It is over 450 lines because it is one script run on its own, read from top to bottom in
the order of a run (command line, processes that must not outlive it, the app, a game
through the API, Lighthouse, reading its report, printing); each section is small, and no
other script shares them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.loopback import NotAnswering, free_port, stop_group, wait_until_answering  # noqa: E402

BIN = ROOT / ".venv" / "bin"

LIGHTHOUSE = "lighthouse@12"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
SHORT_NAMES = {"performance": "perf", "accessibility": "a11y", "best-practices": "bp", "seo": "seo"}
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --no-first-run"
)
#: Lighthouse's own line between a passed and a failed audit.
AUDIT_PASS = 0.9
#: Display modes of audits that carry a score.
SCORED_MODES = {"binary", "numeric", "metricSavings"}
#: Below this benchmark index Lighthouse warns that the host is too slow for its timings.
SLOW_HOST = 1000
#: The metrics behind the performance score, in Lighthouse's order.
METRICS = [
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
    "speed-index",
]
SERVER_START_TIMEOUT = 60.0
NPX_PREPARE_TIMEOUT = 300.0

PLAYERS = ["Anna", "Ben", "Clara", "David"]
#: Three quick-entry rounds of a classic game of four: (marked card, tricks, captured values
#: of the marked colour) per seat; 14 tricks a round, no card named twice.
ROUNDS = [
    [
        (("red", 4), 5, [2, 9]),
        (("blue", 0), 3, []),
        (("green", 7), 4, [1]),
        (("yellow", 3), 2, [10, 6]),
    ],
    [
        (("brown", 8), 2, []),
        (("red", 11), 6, [0, 5, 3]),
        (("blue", 6), 3, [2]),
        (("green", 2), 3, []),
    ],
    [
        (("yellow", 1), 4, [9]),
        (("green", 10), 1, []),
        (("brown", 3), 5, [7, 0]),
        (("red", 6), 4, [8]),
    ],
]


class AuditFailed(Exception):
    """The audit could not run (server, API or Lighthouse); the message says where."""


@dataclass(frozen=True)
class Page:
    """One page to audit: its short name, its path and whether it needs the editor's cookie."""

    name: str
    path: str
    as_editor: bool = False


@dataclass
class Result:
    """What one Lighthouse run found: category scores, failing audits, metrics, or an error."""

    page: Page
    seconds: float
    scores: dict[str, float | None] = field(default_factory=dict)
    failing: list[dict[str, Any]] = field(default_factory=list)
    metrics: list[tuple[str, str, float | None]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    #: Lighthouse's measure of the host's CPU speed; under ~1000 the timings are inflated.
    benchmark: float | None = None
    #: The performance score of every run of this page, the kept one included.
    tries: list[float | None] = field(default_factory=list)


@dataclass(frozen=True)
class RunContext:
    """What every Lighthouse run shares: the program, the temp folder, its environment and
    the editor's cookie."""

    program: str
    folder: Path
    env: dict[str, str]
    cookie: str


# --------------------------------------------------------------------------------------------
# Command line


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Read the options; the defaults are what the table of docs/operators/performance.md
    was made with."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min", type=float, default=0.95, help="lowest category score to pass")
    parser.add_argument(
        "--page", action="append", default=None, help="audit only this page (repeatable)"
    )
    parser.add_argument("--form-factor", choices=["mobile", "desktop"], default="mobile")
    parser.add_argument(
        "--timeout", type=float, default=180.0, help="seconds allowed for each Lighthouse run"
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=3,
        help="run a page up to this many times while its performance is under --min",
    )
    parser.add_argument("--reports", type=Path, help="keep each page's JSON report in this folder")
    parser.add_argument("--items", type=int, default=10, help="elements shown per failing audit")
    return parser.parse_args(argv)


def chrome_path() -> str:
    """The browser Lighthouse drives: CHROME_PATH, else Debian's Chromium, else one on PATH."""
    for candidate in (os.environ.get("CHROME_PATH"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise AuditFailed("no Chromium found: set CHROME_PATH")


def npm_cache() -> Path:
    """A persistent npm cache outside the repository, so later runs skip the download."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "sticheln-companion" / "npm"


# --------------------------------------------------------------------------------------------
# Processes that must never outlive the script


def run_bounded(
    command: list[str], env: dict[str, str], timeout: float, log: Path
) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in its own process group, killing the whole group (npx, node and
    Chromium) if it overruns: a plain timeout would leave the browser running."""
    with log.open("w") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True,
            start_new_session=True,
        )  # fmt: skip
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired as error:
            stop_group(process)
            raise AuditFailed(f"{Path(command[0]).name} ran over {timeout:.0f} s") from error
        finally:
            stop_group(process)
    return subprocess.CompletedProcess(command, process.returncode, log.read_text(), "")


def raise_on_signals() -> None:
    """Turn SIGTERM and SIGHUP into SystemExit, so the ``finally`` clauses still stop the
    server and remove the temporary folder when the script is killed."""

    def leave(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, leave)


# --------------------------------------------------------------------------------------------
# The app under test


def app_env(folder: Path) -> dict[str, str]:
    """The environment of the app: a database in ``folder`` and a fixed secret key, so the
    real instance/ database and key are never touched."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLASK_")}
    env["DATABASE_URL"] = f"sqlite:///{folder / 'lighthouse.sqlite3'}"
    env["SECRET_KEY"] = "lighthouse-" + os.urandom(16).hex()
    return env


def create_tables(env: dict[str, str], folder: Path) -> None:
    """Apply the migrations to the throwaway database, as ``manage.py serve`` does."""
    flask = BIN / "flask"
    if not flask.exists():
        raise AuditFailed(f"{flask} is missing: run `python3 manage.py setup` first")
    done = run_bounded(
        [str(flask), "--app", "companion", "db", "upgrade"], env, 120, folder / "migrate.log"
    )
    if done.returncode != 0:
        raise AuditFailed(f"flask db upgrade failed:\n{done.stdout[-2000:]}")


def server_command(port: int) -> list[str]:
    """gunicorn as deployed (docs/operators/deploying.md) when installed, else Flask's own
    server."""
    gunicorn = BIN / "gunicorn"
    if gunicorn.exists():
        config = "python:companion.gunicorn_conf"
        return [
            str(gunicorn),
            "-c",
            config,
            "-w",
            "2",
            "-b",
            f"127.0.0.1:{port}",
            "companion:create_app()",
        ]
    flask = str(BIN / "flask")
    return [flask, "--app", "companion", "run", "--host", "127.0.0.1", "--port", str(port)]


def wait_until_up(base: str, server: subprocess.Popen[Any], log: Path) -> None:
    """Poll the home page until it answers; fail early if the server dies."""

    def home_page_answers() -> bool:
        with urllib.request.urlopen(base + "/", timeout=2) as answer:
            return bool(answer.status == 200)

    try:
        wait_until_answering(server, home_page_answers, SERVER_START_TIMEOUT, interval=0.2)
    except NotAnswering as silence:
        raise AuditFailed(f"{silence}:\n{tail(log)}") from None


@contextlib.contextmanager
def running_app(folder: Path) -> Iterator[str]:
    """Serve the app on a free port for the duration of the block; yield its base URL."""
    env = app_env(folder)
    create_tables(env, folder)
    port = free_port()
    log = folder / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            server_command(port), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base, server, log)
        yield base
    finally:
        stop_group(server)


def tail(path: Path, lines: int = 30) -> str:
    """The end of a log file, to explain a failure without flooding the terminal."""
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return ""


# --------------------------------------------------------------------------------------------
# A realistic game, through the JSON API


def api(base: str, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    """One JSON API call; any refusal stops the audit, since the pages would be wrong."""
    request = urllib.request.Request(base + path, method=method)
    request.add_header("Accept", "application/json")
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, data=data, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise AuditFailed(
            f"{method} {path} answered {error.code}: {error.read()[:500]!r}"
        ) from error
    except OSError as error:
        raise AuditFailed(f"{method} {path} failed: {error}") from error


def quick_entries(round_: list[tuple[tuple[str, int], int, list[int]]]) -> list[dict[str, Any]]:
    """One round in the API's quick-entry shape, from the compact table ``ROUNDS``."""
    return [
        {
            "marked": [{"colour": colour, "value": value}],
            "tricks": tricks,
            "marked_captured": [{"colour": colour, "value": v} for v in captured],
        }
        for (colour, value), tricks, captured in round_
    ]


def create_game(base: str) -> tuple[str, str]:
    """A classic game of four, three of five rounds scored: a scoreboard with totals and a
    chart, as at the table mid-game. Returns the game's id and edit key."""
    game = api(base, "POST", "/api/v1/games", {"players": PLAYERS, "variant": "classic"})
    code, key, version = game["id"], game["edit_key"], game["version"]
    for round_ in ROUNDS:
        body = {"version": version, "entries": quick_entries(round_)}
        version = api(base, "POST", f"/api/v1/games/{code}/rounds", body, key)["version"]
    return code, key


def editor_cookie(base: str, code: str, key: str) -> str:
    """The session cookie the edit link gives a phone, so Lighthouse sees the scoreboard
    with its controls and QR code, as the scorekeeper's phone does."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        response = opener.open(f"{base}/g/{code}/edit/{key}", timeout=10)
    except urllib.error.HTTPError as error:
        response = error  # the 302 arrives as an "error" once redirects are refused
    except OSError as error:
        raise AuditFailed(f"the edit link failed: {error}") from error
    cookies = [c.split(";", 1)[0] for c in response.headers.get_all("Set-Cookie") or []]
    if not cookies:
        raise AuditFailed("the edit link set no cookie")
    return "; ".join(cookies)


def pages(code: str) -> list[Page]:
    """Every page audited, in the order a table meets them. The scorekeeper's phone holds
    the edit key, so it sees its game listed at home and the scoreboard's controls."""
    return [
        Page("home", "/"),
        Page("home-scorer", "/", as_editor=True),
        Page("scoreboard", f"/g/{code}", as_editor=True),
        Page("scoreboard-view", f"/g/{code}/view"),
        Page("table-display", f"/g/{code}/table"),
        Page("resolve", "/resolve"),
        Page("setup", "/setup"),
        Page("rules", "/rules"),
    ]


def exists(base: str, page: Page) -> bool:
    """Whether the app serves ``page`` (the rules page is new and may not be there yet)."""
    try:
        with urllib.request.urlopen(base + page.path, timeout=10):
            return True
    except urllib.error.URLError:  # HTTPError included
        return False


# --------------------------------------------------------------------------------------------
# Lighthouse


def lighthouse_env() -> dict[str, str]:
    """npx's environment: our npm cache, the browser, and no npm chatter."""
    env = dict(os.environ)
    env.update(
        CHROME_PATH=chrome_path(),
        npm_config_cache=str(npm_cache()),
        npm_config_update_notifier="false",
        npm_config_fund="false",
        npm_config_audit="false",
        npm_config_loglevel="error",
    )
    return env


def prepare_lighthouse(env: dict[str, str], folder: Path) -> tuple[str, str]:
    """Fetch Lighthouse 12 with npx once, outside the per-page timeout, and return the path
    of its program and its version.

    The pages then run that program directly: each ``npx`` start costs 5-10 s of package
    resolution here, more than a tenth of a page's audit.
    """
    if not shutil.which("npx"):
        raise AuditFailed("npx is missing: install Node.js 18 or newer")
    locate = ["npx", "--yes", f"--package={LIGHTHOUSE}", "--call", "command -v lighthouse"]
    done = run_bounded(locate, env, NPX_PREPARE_TIMEOUT, folder / "npx.log")
    found = done.stdout.strip().splitlines()[-1:] if done.returncode == 0 else []
    if not found or not Path(found[0]).is_file():
        raise AuditFailed(f"npx could not fetch {LIGHTHOUSE}:\n{done.stdout[-2000:]}")
    done = run_bounded([found[0], "--version"], env, 60, folder / "version.log")
    version = done.stdout.strip().splitlines()[-1:]
    if done.returncode != 0 or not version or not version[0].startswith("12."):
        raise AuditFailed(f"{found[0]} is not Lighthouse 12:\n{done.stdout[-2000:]}")
    return found[0], version[0]


def lighthouse_command(
    program: str, url: str, report: Path, form_factor: str, cookie: str | None
) -> list[str]:
    """The Lighthouse command line for one page (the editor's pages carry its cookie)."""
    command = [
        program, url,
        f"--chrome-flags={CHROME_FLAGS}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--output=json", f"--output-path={report}", "--quiet",
    ]  # fmt: skip
    if form_factor == "desktop":
        command.append("--preset=desktop")
    else:
        command.append("--form-factor=mobile")
    if cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    return command


def audit_page(page: Page, url: str, options: argparse.Namespace, run: RunContext) -> Result:
    """Audit a page, again while its performance is under ``--min``, and keep the best run.

    A busy host only ever slows a page down (every other category is deterministic), so
    the fastest of a few runs is the fairest measure of the page itself; every run's score
    is kept and printed, so a retry never hides a slow page.
    """
    results: list[Result] = []
    for attempt in range(1, max(1, options.runs) + 1):
        result = audit(page, url, options, run, attempt)
        results.append(result)
        performance = result.scores.get("performance")
        if not result.error and performance is not None and performance >= options.min:
            break
        if attempt < options.runs:
            print(f"    performance {fmt(performance)}, run {attempt + 1}", flush=True)
    best = max(results, key=lambda r: (r.error is None, r.scores.get("performance") or 0.0))
    best.tries = [r.scores.get("performance") for r in results]
    best.seconds = sum(r.seconds for r in results)
    best.warnings += [
        f"run {n} failed: {r.error}" for n, r in enumerate(results, 1) if r.error and r is not best
    ]
    return best


def audit(
    page: Page, url: str, options: argparse.Namespace, run: RunContext, attempt: int
) -> Result:
    """Run Lighthouse on one page and read its report; a failure is kept, not raised, so
    the other pages are still audited."""
    report = run.folder / f"{page.name}-{attempt}.json"
    cookie = run.cookie if page.as_editor else None
    command = lighthouse_command(run.program, url, report, options.form_factor, cookie)
    started = time.monotonic()
    try:
        done = run_bounded(command, run.env, options.timeout, report.with_suffix(".log"))
        if done.returncode != 0 or not report.exists():
            raise AuditFailed(f"lighthouse exited with {done.returncode}:\n{done.stdout[-1500:]}")
        lhr = json.loads(report.read_text())
    except (AuditFailed, ValueError) as error:
        return Result(page, time.monotonic() - started, error=str(error))
    if options.reports:
        options.reports.mkdir(parents=True, exist_ok=True)
        shutil.copy(report, options.reports / report.name)
    return read_report(page, lhr, time.monotonic() - started)


# --------------------------------------------------------------------------------------------
# Reading a report


def read_report(page: Page, lhr: dict[str, Any], seconds: float) -> Result:
    """Pull the scores, the failing audits and the metrics out of a Lighthouse report."""
    result = Result(page, seconds, warnings=list(lhr.get("runWarnings", [])))
    result.benchmark = (lhr.get("environment") or {}).get("benchmarkIndex")
    if lhr.get("runtimeError"):
        result.error = f"{lhr['runtimeError'].get('code')}: {lhr['runtimeError'].get('message')}"
    audits = lhr["audits"]
    for name in CATEGORIES:
        category = lhr["categories"].get(name, {})
        result.scores[name] = category.get("score")
        for ref in category.get("auditRefs", []):
            found = audits.get(ref["id"], {})
            if failing(found):
                result.failing.append({**found, "category": name, "weight": ref["weight"]})
    result.metrics = [
        (audits[m]["title"], audits[m].get("displayValue", "?"), audits[m].get("score"))
        for m in METRICS
        if m in audits
    ]
    return result


def failing(audit_: dict[str, Any]) -> bool:
    """An audit Lighthouse scored below its pass line, or could not run; informative,
    manual and not-applicable ones carry no score and never fail."""
    mode, score = audit_.get("scoreDisplayMode"), audit_.get("score")
    if mode == "error":
        return True
    return mode in SCORED_MODES and score is not None and score < AUDIT_PASS


def item_text(item: dict[str, Any]) -> str:
    """One line naming what an audit item points at: an element, a resource or a message."""
    node = next((v for v in item.values() if isinstance(v, dict) and v.get("type") == "node"), None)
    parts = []
    if node:
        parts.append(f"{node.get('selector', '')}  {node.get('snippet', '')}".strip())
        if node.get("explanation"):
            parts.append(" ".join(node["explanation"].split()))
    for key in ("url", "reason", "source", "description", "directive", "severity", "label"):
        value = item.get(key)
        if isinstance(value, dict) and value.get("type") == "source-location":
            value = f"{value.get('url')}:{value.get('line')}:{value.get('column')}"
        if isinstance(value, str | int | float) and value != "":
            parts.append(str(value) if key == "label" else f"{key}={value}")
    for key in ("wastedMs", "wastedBytes", "totalBytes", "score"):
        if isinstance(item.get(key), int | float):
            parts.append(f"{key}={round(item[key])}")
    subitems = (item.get("subItems") or {}).get("items") or []
    urls = [sub.get("url") or sub.get("frameUrl") for sub in subitems if isinstance(sub, dict)]
    if any(urls):
        parts.append("at " + ", ".join(u for u in urls if u))
    if not parts:  # e.g. main-thread work by group, the phases of the LCP
        parts = [f"{k}={round(v) if isinstance(v, float) else v}" for k, v in item.items()]
    return " | ".join(parts)


def audit_items(audit_: dict[str, Any]) -> list[dict[str, Any]]:
    """The items of an audit's details, whatever shape they come in: a table, a list of
    tables, a checklist (its unmet points) or a request tree (its longest chain)."""
    details = audit_.get("details") or {}
    if details.get("type") == "checklist":
        points = details.get("items") or {}
        return [{"label": point["label"]} for point in points.values() if not point.get("value")]
    items: list[Any] = []
    for part in details.get("items") or []:
        value = part.get("value") if isinstance(part, dict) else None
        if isinstance(value, dict) and value.get("type") == "network-tree":
            items.append({"label": longest_chain(value.get("chains") or {})})
        elif details.get("type") == "list" and isinstance(part, dict):
            items.extend(part.get("items") or [])
        else:
            items.append(part)
    return [item for item in items if isinstance(item, dict)]


def longest_chain(chains: dict[str, Any]) -> str:
    """The chain of requests that delays the page most, as ``url -> url (ms)``."""
    urls: list[str] = []
    end = 0.0
    while chains:
        link = next((c for c in chains.values() if c.get("isLongest")), None)
        if link is None:
            link = max(chains.values(), key=lambda c: c.get("navStartToEndTime", 0))
        urls.append(link.get("url", "?"))
        end = link.get("navStartToEndTime", end)
        chains = link.get("children") or {}
    return f"longest chain: {' -> '.join(urls)} ({end:.0f} ms)"


# --------------------------------------------------------------------------------------------
# Printing


def fmt(score: float | None) -> str:
    """A 0-1 score with two decimals, or a dash where Lighthouse gave none."""
    return "  -  " if score is None else f"{score:.2f}"


def print_table(results: list[Result]) -> None:
    """Scores per page and category, one row a page."""
    width = max(len(r.page.name) for r in results) + 2
    header = "page".ljust(width) + "  ".join(SHORT_NAMES[c].rjust(5) for c in CATEGORIES)
    print(header + "   time   cpu  runs")
    print("-" * (len(header) + 18))
    for result in results:
        cells = "  ".join(fmt(result.scores.get(c)).rjust(5) for c in CATEGORIES)
        cpu = f"{result.benchmark:5.0f}" if result.benchmark else "    -"
        note = "  ERROR" if result.error else ""
        row = f"{result.page.name.ljust(width)}{cells}  {result.seconds:4.0f}s  {cpu}"
        print(f"{row}  {len(result.tries) or 1:4d}{note}")
    if any(r.benchmark and r.benchmark < SLOW_HOST for r in results):
        print(
            f"cpu: Lighthouse's benchmark index of the host; under {SLOW_HOST} the host is "
            "busy or slow and the performance timings come out too long"
        )


def print_details(result: Result, limit: int) -> None:
    """Everything wrong on one page: the run's error and warnings, the performance metrics,
    and each failing audit with the elements or resources it names."""
    print(f"\n== {result.page.name} ({result.page.path})")
    if result.error:
        print(f"  error: {result.error}")
    for warning in result.warnings:
        print(f"  warning: {' '.join(warning.split())}")
    if len(result.tries) > 1:
        print("  performance of each run: " + ", ".join(fmt(t) for t in result.tries))
    if result.metrics:
        print("  metrics: " + ", ".join(f"{t} {v} ({fmt(s)})" for t, v, s in result.metrics))
    if not result.failing and not result.error:
        print("  no failing audit")
    for found in sorted(result.failing, key=lambda a: -a["weight"]):
        value = f" - {found['displayValue']}" if found.get("displayValue") else ""
        print(
            f"  [{SHORT_NAMES[found['category']]} {fmt(found['score'])} weight {found['weight']}] "
            f"{found['id']}: {found['title']}{value}"
        )
        items = audit_items(found)
        for item in items[:limit]:
            print(f"      - {item_text(item)}")
        if len(items) > limit:
            print(f"      ... and {len(items) - limit} more")


def below(results: list[Result], minimum: float) -> list[str]:
    """The page/category pairs under ``minimum`` (a missing score counts as under)."""
    return [
        f"{r.page.name}/{c}={fmt(r.scores.get(c))}"
        for r in results
        for c in CATEGORIES
        if (r.scores.get(c) or 0.0) < minimum
    ]


# --------------------------------------------------------------------------------------------
# Main


def chosen(all_pages: list[Page], names: list[str] | None) -> list[Page]:
    """The pages named by ``--page``, all of them by default; an unknown name is an error."""
    if not names:
        return all_pages
    known = {p.name: p for p in all_pages}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise AuditFailed(f"unknown page {', '.join(unknown)}; pages: {', '.join(known)}")
    return [known[n] for n in names]


def audit_all(options: argparse.Namespace, folder: Path) -> list[Result]:
    """Serve the app, create the game and audit each page in turn."""
    chosen(pages("<id>"), options.page)  # a misspelt page fails now, not after the setup
    env = lighthouse_env()
    program, version = prepare_lighthouse(env, folder)
    print(f"==> Lighthouse {version} ({options.form_factor}): {program}", flush=True)
    with running_app(folder) as base:
        code, key = create_game(base)
        run = RunContext(program, folder, env, editor_cookie(base, code, key))
        print(f"==> app at {base}, game {code}", flush=True)
        results = []
        for page in chosen(pages(code), options.page):
            if not exists(base, page):
                print(f"==> {page.name}: {page.path} not served, skipped", flush=True)
                continue
            print(f"==> {page.name}: {page.path}", flush=True)
            results.append(audit_page(page, base + page.path, options, run))
        return results


def main(argv: list[str]) -> int:
    """Audit, print, and answer 0 (all at or above --min), 1 (some below) or 2 (no audit)."""
    options = parse_args(argv)
    raise_on_signals()
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="lighthouse-") as temp:
            results = audit_all(options, Path(temp))
    except AuditFailed as error:
        print(f"lighthouse.py: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the server and browser are stopped by now
        print("lighthouse.py: interrupted", file=sys.stderr)
        return 130
    if not results:
        print("lighthouse.py: no page audited", file=sys.stderr)
        return 2
    print()
    print_table(results)
    for result in results:
        print_details(result, options.items)
    print("\n(weight 0: a diagnostic that does not count in the category score)")
    print(f"total {time.monotonic() - started:.0f} s")
    if any(r.error for r in results):
        print("some Lighthouse runs failed (see above)", file=sys.stderr)
        return 2
    failed = below(results, options.min)
    if failed:
        print(f"below {options.min:.2f}: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"every category at or above {options.min:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
