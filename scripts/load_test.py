#!/usr/bin/env python3
"""Load test: many tables play whole games at once against gunicorn with four workers.

    .venv/bin/python scripts/load_test.py [--database sqlite|postgres] [--tables 8]
        [--rounds 10] [--watchers 2] [--duration 120] [--workers 4] [--seed 1]

Starts the app on a loopback port, on a SQLite file (WAL) or on a throwaway PostgreSQL
cluster (manage.py's helpers), and lets every table, each in a thread of its own and all at
once, start a game through the API and record every round with the version it holds; the
rounds are hands dealt at random by ``companion.rules``, so the rules accept them. Between
rounds the table's watchers load the read-only scoreboard (``/g/<id>/view``).

Reports the requests, the errors (any answer but the expected one, or none), rounds lost or
duplicated (every game's stored rounds against what its table was told), the database check
of scripts/server_harness.py, the throughput and p50/p95/max latency per kind of request. Exits 1
on any error, lost or duplicated round or inconsistency; 2 if the harness could not run.
Stops starting new requests after ``--duration`` seconds.
"""

from __future__ import annotations

import argparse
import http.client
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts import server_harness  # noqa: E402
from scripts.server_harness import Client, Consistency, Server, Table, Timings  # noqa: E402


@dataclass
class LoadReport:
    """What a load run did and found."""

    tables: list[Table]
    planned_rounds: int
    seconds: float
    timings: Timings
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    consistency: Consistency = field(default_factory=Consistency)
    tracebacks: list[str] = field(default_factory=list)

    @property
    def acknowledged(self) -> int:
        """Rounds the server said it saved."""
        return sum(len(table.acknowledged) for table in self.tables)

    @property
    def unfinished(self) -> int:
        """Tables that did not record every round (the duration cap, or an error)."""
        return sum(len(table.acknowledged) < self.planned_rounds for table in self.tables)

    @property
    def throughput(self) -> float:
        """Answered requests per second while the tables played."""
        return self.timings.requests / self.seconds if self.seconds else 0.0

    @property
    def failures(self) -> list[str]:
        """Everything that makes the run fail."""
        return [
            *self.timings.errors,
            *self.lost,
            *self.duplicated,
            *self.consistency.problems,
            *self.tracebacks,
        ]

    def text(self) -> str:
        """The report as printed."""
        lines = [
            f"tables: {len(self.tables)}, rounds acknowledged: {self.acknowledged}"
            f" (unfinished tables: {self.unfinished})",
            f"requests: {self.timings.requests} in {self.seconds:.1f} s"
            f" = {self.throughput:.1f} requests/s",
            f"errors: {len(self.timings.errors)}, server tracebacks: {len(self.tracebacks)}",
            f"lost rounds: {len(self.lost)}, duplicated rounds: {len(self.duplicated)}",
            f"database check: {self.consistency.games} games, {self.consistency.rounds} rounds,"
            f" {len(self.consistency.problems)} problems",
            "",
            server_harness.timing_table(self.timings),
        ]
        if self.failures:
            lines += ["", "FAILURES (first 10):", *self.failures[:10]]
        return "\n".join(lines)


def play_table(
    client: Client,
    index: int,
    rounds: int,
    watchers: int,
    deadline: float,
    seed: int,
    timings: Timings,
) -> Table | None:
    """One table: start a game, then record each round with the version last answered,
    the watchers loading the scoreboard after each. Stops at the first unexpected answer."""
    rng = random.Random(seed * 1000 + index)
    variant = server_harness.VARIANTS[index % len(server_harness.VARIANTS)]
    names = server_harness.table_names(f"load {seed}-{index}", 3 + index % 4)
    try:
        reply, table = server_harness.create_game(client, names, variant, rounds)
    except (OSError, http.client.HTTPException) as error:
        timings.fail("create", error)
        return None
    if not timings.add("create", reply, 201) or table is None:
        return None
    kind = "record"
    try:
        for number in range(1, rounds + 1):
            if time.monotonic() > deadline:
                break
            planned = server_harness.random_round(table.setup, rng)
            kind = "record"
            reply = server_harness.post_round(client, table, planned, table.version)
            if not timings.add(kind, reply, 201):
                break
            state = reply.json()
            if state["rounds"][-1]["scores"] != planned.scores or len(state["rounds"]) != number:
                timings.note(f"record: {table.code} round {number} answered {state}")
                break
            table.acknowledged[number] = planned
            table.version = state["version"]
            kind = "view"
            for _ in range(watchers):
                view = client.get(f"/g/{table.code}/view")
                if timings.add(kind, view, 200) and names[0] not in view.text:
                    timings.note(f"view: {table.code} shows no {names[0]}")
    except (OSError, http.client.HTTPException) as error:
        timings.fail(kind, error)
    return table


def run_load(
    server: Server, tables: int, rounds: int, watchers: int, duration: float, seed: int
) -> LoadReport:
    """Let ``tables`` tables play at once on ``server``; check what was stored."""
    client = Client(server.url, timeout=30)
    timings = Timings()
    tracebacks_before = len(server.tracebacks())
    deadline = time.monotonic() + duration
    barrier = threading.Barrier(tables)

    def one_table(index: int) -> Table | None:
        barrier.wait(timeout=60)
        return play_table(client, index, rounds, watchers, deadline, seed, timings)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=tables) as pool:
        played = [table for table in pool.map(one_table, range(tables)) if table is not None]
    seconds = time.perf_counter() - started
    report = LoadReport(played, rounds, seconds, timings)
    for game in played:
        compared = server_harness.compare_rounds(
            game.code, game.acknowledged, server_harness.stored_rounds(client, game.code)
        )
        report.lost += compared.lost
        report.duplicated += compared.duplicated + compared.unacknowledged
    report.consistency = server_harness.check_database(server.database_url)
    report.tracebacks = server.tracebacks()[tracebacks_before:]
    return report


def main(argv: list[str]) -> int:
    """Run the load test as the command line asks; answer the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--tables", type=int, default=8, help="tables playing at once")
    parser.add_argument("--rounds", type=int, default=10, choices=range(1, 11), metavar="1-10")
    parser.add_argument("--watchers", type=int, default=2, help="scoreboard loads per round")
    parser.add_argument("--duration", type=float, default=120.0, help="cap in seconds")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.tables < 1:
        parser.error("--tables must be at least 1")
    try:
        with (
            server_harness.scratch_database(args.database) as (url, folder),
            server_harness.running_server(url, folder / "gunicorn.log", args.workers) as server,
        ):
            print(
                f"load test: {args.tables} tables x {args.rounds} rounds on {args.database},"
                f" gunicorn -w {args.workers} at {server.url}",
                flush=True,
            )
            report = run_load(
                server, args.tables, args.rounds, args.watchers, args.duration, args.seed
            )
    except server_harness.KitError as error:
        print(f"the load test could not run: {error}", file=sys.stderr)
        return 2
    print(report.text())
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
