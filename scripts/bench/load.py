"""Load on one endpoint: threads of ``http.client`` connections for a time, the
latencies they saw, and the first requests after each change."""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from scripts.bench.servers import encode, request
from scripts.bench.settings import step
from scripts.bench.table_game import Table, round_entries
from scripts.loopback import HOST


@dataclass(frozen=True)
class Target:
    """One request to measure."""

    name: str
    method: str
    path: str
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    status: int = 200
    page: bool = True  #: a page (held to the pages' budget), not an API call


@dataclass
class Sample:
    """What the load on one target gave."""

    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    errors: int = 0
    last_error: str = ""

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.latencies) * 1000 if self.latencies else float("nan")

    @property
    def p95_ms(self) -> float:
        if len(self.latencies) < 2:
            return self.median_ms
        return statistics.quantiles(self.latencies, n=20, method="inclusive")[18] * 1000


def load(port: int, target: Target, seconds: float, concurrency: int, sample: Sample) -> None:
    """Send ``target`` from ``concurrency`` threads for ``seconds``, each thread on its own
    keep-alive connection (re-opened when the server closes it); add to ``sample``."""
    data, sent = encode(target.body, target.headers)
    lock = threading.Lock()
    start = time.perf_counter()
    deadline = start + seconds

    def client() -> None:
        connection = http.client.HTTPConnection(HOST, port, timeout=60)
        headers = dict(sent)
        mine: list[float] = []
        errors, last_error = 0, ""
        while time.perf_counter() < deadline:
            began = time.perf_counter()
            try:
                connection.request(target.method, target.path, body=data, headers=headers)
                response = connection.getresponse()
                response.read()
            except (http.client.HTTPException, OSError) as error:
                connection.close()  # a closed keep-alive connection: open a new one
                errors, last_error = errors + 1, repr(error)
                continue
            mine.append(time.perf_counter() - began)
            if renewed(target, headers, response):
                continue
            if response.status != target.status:
                errors, last_error = errors + 1, f"status {response.status}"
        connection.close()
        with lock:
            sample.latencies.extend(mine)
            sample.errors += errors
            sample.last_error = last_error or sample.last_error

    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    sample.seconds += time.perf_counter() - start


def renewed(target: Target, headers: dict[str, str], response: http.client.HTTPResponse) -> bool:
    """Whether a revalidation (``target`` expects 304) was answered with the page under a
    new ETag, which ``headers`` now carry, as a browser keeps the new page: an editing page's
    tag changes with every half of its CSRF token's lifetime (at :00 and :30 of each hour),
    which a run may cross. The same tag answered 200 again is still an error."""
    etag = response.headers.get("ETag")
    if target.status != 304 or response.status != 200 or not etag:
        return False
    if headers.get("If-None-Match") == etag:
        return False
    headers["If-None-Match"] = etag
    return True


def measure(
    targets: list[tuple[str, int, Target]], options: argparse.Namespace
) -> dict[str, Sample]:
    """Load every target (keyed, with its server's port) for ``options.duration`` seconds in
    all, in ``options.rounds`` turns, after a short warm-up of each."""
    samples = {key: Sample() for key, _, _ in targets}
    for _key, port, target in targets:
        load(port, target, 0.3, options.concurrency, Sample())
    slot = options.duration / options.rounds
    for turn in range(options.rounds):
        step(f"load, turn {turn + 1} of {options.rounds} ({slot:.1f} s per endpoint)")
        for key, port, target in targets:
            load(port, target, slot, options.concurrency, samples[key])
    return samples


def after_changes(port: int, table_: Table, target: Target, seconds: float) -> Sample:
    """The latency of ``target`` asked right after each change to the table's game (its
    first round corrected, to one of two entries in turn), for ``seconds`` in all: the page
    rendered anew, as the first phone to ask after a round is saved finds it."""
    key = table_.edit_path.rsplit("/", 1)[1]
    auth = {"Authorization": f"Bearer {key}"}
    version = json.loads(request(port, "GET", f"/api/v1/games/{table_.code}").body)["version"]
    sample = Sample()
    deadline = time.perf_counter() + seconds
    turn = 0
    while time.perf_counter() < deadline:
        turn += 1
        body = {"version": version, "entries": round_entries(turn % 2)}
        answer = request(port, "PUT", f"/api/v1/games/{table_.code}/rounds/1", body, auth)
        if answer.status != 200:
            sample.errors, sample.last_error = sample.errors + 1, f"status {answer.status}"
            break
        version = json.loads(answer.body)["version"]
        began = time.perf_counter()
        page = request(port, "GET", target.path, headers=target.headers)
        sample.latencies.append(time.perf_counter() - began)
        sample.seconds += time.perf_counter() - began
        if page.status != 200:
            sample.errors, sample.last_error = sample.errors + 1, f"status {page.status}"
    return sample
