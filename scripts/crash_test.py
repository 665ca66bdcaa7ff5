#!/usr/bin/env python3
"""Crash test: kill gunicorn in the middle of a burst of writes and check that nothing the
server acknowledged is lost and that the database is whole.

    .venv/bin/python scripts/crash_test.py [--database sqlite|postgres] [--kills 3]
        [--writers 6] [--after 20-60] [--workers 4] [--seed 1]

Each cycle starts the app (gunicorn, four workers) on the same database, lets ``--writers``
threads start games and record their rounds as fast as the server answers, and once a
random number of writes in ``--after`` has been acknowledged, SIGKILLs the server's whole
process group (master and workers) while the others are still in flight. Then, on SQLite
before anything else opens the file, ``PRAGMA integrity_check``; the server is started again
and:

- every round answered 201 before the kill is stored, exactly as sent;
- a round nobody was told of is stored only if it is exactly the write that was in flight
  (committed just before the kill: allowed, and counted);
- the whole database checks out (scripts/server_harness.py: rounds numbered 1..k without gaps,
  every round scored again by the rules gives the stored scores, totals add up);
- every unfinished game takes its next round at once (no lock left behind).

Exits 1 on any violation, 2 if the harness could not run.
"""

from __future__ import annotations

import argparse
import http.client
import random
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts import server_harness  # noqa: E402
from scripts.server_harness import Client, Consistency, PlannedRound, Server, Table  # noqa: E402

#: Rounds per game: the most a game has, so a writer records many before it starts another.
ROUNDS = 10
#: No burst runs longer than this while waiting for its writes (then it is killed anyway).
BURST_LIMIT_SECONDS = 60.0


class Ledger:
    """What the writers were told, shared by their threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.tables: list[Table] = []
        self.in_flight: dict[str, dict[int, PlannedRound]] = {}
        self.acknowledged_writes = 0
        self.unanswered_creates = 0
        self.errors: list[str] = []
        self.killed = threading.Event()

    def lost_connection(self, what: str, error: BaseException) -> None:
        """A request without an answer: expected once the server is killed, an error before."""
        with self.lock:
            if not self.killed.is_set():
                self.errors.append(f"{what}: {type(error).__name__}: {error}")
            elif what == "create":
                self.unanswered_creates += 1

    def refused(self, what: str, reply: server_harness.Reply) -> None:
        """An answer other than the one expected."""
        with self.lock:
            self.errors.append(f"{what}: {reply.status} {reply.text[:300]}")


def writer(client: Client, ledger: Ledger, label: str, seed: int) -> None:
    """Start games and record their rounds back to back until the server is gone."""
    rng = random.Random(seed)
    games = 0
    table: Table | None = None
    while not ledger.killed.is_set():
        if table is None or table.next_number > table.rounds_planned:
            games += 1
            variant = server_harness.VARIANTS[(seed + games) % len(server_harness.VARIANTS)]
            names = server_harness.table_names(f"{label}-{games}", 3 + (seed + games) % 4)
            try:
                reply, table = server_harness.create_game(client, names, variant, ROUNDS)
            except (OSError, http.client.HTTPException) as error:
                ledger.lost_connection("create", error)
                return
            if table is None:
                ledger.refused("create", reply)
                return
            with ledger.lock:
                ledger.tables.append(table)
            continue
        planned, number = server_harness.random_round(table.setup, rng), table.next_number
        with ledger.lock:
            ledger.in_flight[table.code] = {number: planned}
        try:
            reply = server_harness.post_round(client, table, planned, table.version)
        except (OSError, http.client.HTTPException) as error:
            ledger.lost_connection("record", error)
            return
        if reply.status != 201:
            ledger.refused(f"record {table.code} round {number}", reply)
            return
        with ledger.lock:
            table.acknowledged[number] = planned
            table.version = reply.json()["version"]
            ledger.in_flight.pop(table.code)
            ledger.acknowledged_writes += 1


@dataclass
class Cycle:
    """One kill and what the restarted server showed."""

    acknowledged: int = 0
    writers_running: int = 0
    in_flight: int = 0
    creates_in_flight: int = 0
    committed_in_flight: int = 0
    restart_seconds: float = 0.0
    continued: int = 0
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    integrity: list[str] = field(default_factory=list)
    consistency: Consistency = field(default_factory=Consistency)

    @property
    def failures(self) -> list[str]:
        """Everything that makes the cycle fail."""
        return [
            *self.errors,
            *self.lost,
            *self.duplicated,
            *self.integrity,
            *self.consistency.problems,
        ]

    def line(self, number: int) -> str:
        """The cycle in one line."""
        return (
            f"kill {number}: {self.acknowledged} writes acknowledged, {self.writers_running}"
            f" writers running, {self.in_flight} rounds ({self.committed_in_flight} committed)"
            f" and {self.creates_in_flight} new games in flight at the kill; restart"
            f" {self.restart_seconds:.1f}"
            f" s; lost {len(self.lost)}, duplicated {len(self.duplicated)}, errors"
            f" {len(self.errors)}; database: {self.consistency.games} games,"
            f" {self.consistency.rounds} rounds, {len(self.consistency.problems)} problems;"
            f" games continued after restart: {self.continued}"
        )


def crash_cycle(server: Server, writers: int, after: int, seed: int) -> Cycle:
    """Burst, kill once ``after`` writes are acknowledged, restart, check. ``server`` must
    be running; it is running again afterwards."""
    client = Client(server.url, timeout=15)
    ledger = Ledger()
    threads = [
        threading.Thread(
            target=writer, args=(client, ledger, f"crash {seed}-{index}", seed * 100 + index)
        )
        for index in range(writers)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + BURST_LIMIT_SECONDS
    while ledger.acknowledged_writes < after and time.monotonic() < deadline:
        if not any(thread.is_alive() for thread in threads):
            break
        time.sleep(0.005)
    cycle = Cycle(writers_running=sum(thread.is_alive() for thread in threads))
    ledger.killed.set()
    server.kill()
    for thread in threads:
        thread.join(timeout=60)
    cycle.acknowledged = ledger.acknowledged_writes
    cycle.errors = list(ledger.errors)
    cycle.in_flight = sum(len(rounds) for rounds in ledger.in_flight.values())
    cycle.creates_in_flight = ledger.unanswered_creates
    path = server_harness.sqlite_path(server.database_url)
    if path is not None:
        cycle.integrity = server_harness.sqlite_problems(path)
    started = time.perf_counter()
    server.start()
    cycle.restart_seconds = time.perf_counter() - started
    client = Client(server.url, timeout=30)
    for table in ledger.tables:
        stored = server_harness.stored_rounds(client, table.code)
        compared = server_harness.compare_rounds(
            table.code, table.acknowledged, stored, ledger.in_flight.get(table.code)
        )
        cycle.lost += compared.lost
        cycle.duplicated += compared.duplicated
        cycle.committed_in_flight += len(compared.unacknowledged)
    cycle.consistency = server_harness.check_database(server.database_url)
    cycle.continued = continue_games(client, ledger.tables, random.Random(seed), cycle)
    return cycle


def continue_games(client: Client, tables: list[Table], rng: random.Random, cycle: Cycle) -> int:
    """Record the next round of every unfinished game on the restarted server: a lock or a
    half-written row left by the kill would refuse or stall it. Answers how many took it."""
    continued = 0
    for table in tables:
        state = client.get(f"/api/v1/games/{table.code}").json()
        if len(state["rounds"]) >= table.rounds_planned:
            continue
        reply = server_harness.post_round(
            client, table, server_harness.random_round(table.setup, rng), state["version"]
        )
        if reply.status == 201:
            continued += 1
        else:
            cycle.errors.append(f"after restart {table.code}: {reply.status} {reply.text[:300]}")
    return continued


def run_crashes(
    server: Server, kills: int, writers: int, after: tuple[int, int], seed: int
) -> list[Cycle]:
    """``kills`` cycles on one database, each killing the server at a random moment."""
    rng = random.Random(seed)
    cycles = []
    for number in range(kills):
        cycles.append(crash_cycle(server, writers, rng.randint(*after), seed * 10 + number))
    return cycles


def parse_range(text: str) -> tuple[int, int]:
    """``20-60`` as (20, 60); a single number as both ends."""
    low, _, high = text.partition("-")
    first, last = int(low), int(high or low)
    if not 1 <= first <= last:
        raise argparse.ArgumentTypeError("give N or N-M with 1 <= N <= M")
    return first, last


def main(argv: list[str]) -> int:
    """Run the crash test as the command line asks; answer the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--writers", type=int, default=6, help="threads writing at once")
    parser.add_argument("--after", type=parse_range, default=(20, 60), help="writes before a kill")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.kills < 1 or args.writers < 1:
        parser.error("--kills and --writers must be at least 1")
    try:
        with (
            server_harness.scratch_database(args.database) as (url, folder),
            server_harness.running_server(url, folder / "gunicorn.log", args.workers) as server,
        ):
            print(f"crash test on {args.database}, gunicorn -w {args.workers}", flush=True)
            cycles = run_crashes(server, args.kills, args.writers, args.after, args.seed)
            tracebacks = server.tracebacks()
    except server_harness.KitError as error:
        print(f"the crash test could not run: {error}", file=sys.stderr)
        return 2
    failures = [failure for cycle in cycles for failure in cycle.failures] + tracebacks
    for number, cycle in enumerate(cycles, 1):
        print(cycle.line(number))
    print(
        f"total: {sum(c.acknowledged for c in cycles)} acknowledged writes,"
        f" {sum(len(c.lost) for c in cycles)} lost, {sum(len(c.duplicated) for c in cycles)}"
        f" duplicated, {len(tracebacks)} server tracebacks"
    )
    if failures:
        print("FAILURES (first 10):", *failures[:10], sep="\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
