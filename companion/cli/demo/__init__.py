"""Demo data: many realistic finished games, dealt and played through ``companion.rules``.

    flask --app companion demo-data --games 10000 --seed 1

A group of about 200 players (first names in the app's five languages) meets in circles of
friends over two years and plays every variant. Each round is dealt from a shuffled deck
(R2, R17), colours are marked with cards of the hands (R4, R14, R16), every trick is played
with random legal cards and taken as the rules say (R7-R9, R13, R19-R21), and the round is
scored by :func:`companion.rules.score_round` from the entries the table would have typed
(quick or full) or the tricks the app would have followed (live). The rows are the ones the
app writes, so history, statistics, the API and the import's checks all take them as real.

Modules: ``plan`` (players, circles, which game when), ``play`` (one round through the
rules), ``games`` (a whole game, its times and version), ``store`` (bulk inserts).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime

from companion.cli.demo.games import GameTask, PlayedGame, play_game
from companion.cli.demo.plan import GamePlan, make_circles, make_group, plan_games
from companion.cli.demo.store import existing_codes, insert_games, player_ids
from companion.data.circles import server_circle_id
from companion.data.database import refresh_planner_statistics
from companion.data.models import db

#: Games written per transaction.
BATCH_SIZE = 1000
#: Below this many games, worker processes cost more than they save.
PARALLEL_FROM = 300


@dataclass(frozen=True)
class DemoSummary:
    """What a run added."""

    games: int
    rounds: int
    players: int  #: players seated in the new games
    new_players: int  #: of those, players who were not in the database before
    seconds: float


def _task(plan: GamePlan) -> GameTask:
    return GameTask(
        seed=plan.seed,
        players=len(plan.seats),
        variant=plan.variant.as_json(),
        first_leader=plan.first_leader,
        modes=plan.modes,
        marks_first=plan.marks_first,
        created_at=plan.created_at,
    )


def _played_batches(
    plans: Sequence[GamePlan], workers: int
) -> Iterator[list[tuple[GamePlan, PlayedGame]]]:
    """The planned games played, ``BATCH_SIZE`` at a time and in plan order, by ``workers``
    processes (1: this one). The workers play the next batch while this process stores the
    last one, and no more than that is held in memory."""
    batches = [plans[start : start + BATCH_SIZE] for start in range(0, len(plans), BATCH_SIZE)]
    if workers <= 1:
        for batch in batches:
            yield [(plan, play_game(_task(plan))) for plan in batch]
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    chunk = max(1, min(50, BATCH_SIZE // (4 * workers)))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        ahead = pool.map(play_game, [_task(plan) for plan in batches[0]], chunksize=chunk)
        for number, batch in enumerate(batches):
            current = ahead
            if number + 1 < len(batches):
                tasks = [_task(plan) for plan in batches[number + 1]]
                ahead = pool.map(play_game, tasks, chunksize=chunk)
            yield list(zip(batch, current, strict=True))


def default_workers(games: int) -> int:
    """Processes worth starting for ``games`` games: one per core, or just this one."""
    return min(os.cpu_count() or 1, 4) if games >= PARALLEL_FROM else 1


def add_demo_games(
    count: int,
    seed: int | None = None,
    end: date | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> DemoSummary:
    """Add ``count`` finished demo games, played over the two years before ``end`` (default
    today, UTC), and commit them a batch at a time.

    With a ``seed`` the same games come out every time, codes and edit keys included (only
    the keys' hashes are stored, as for every game, and the keys are never shown); without
    one, codes and keys come from the system's secure generator, as the app's do. Players
    already in the database are reused, matched by name.
    """
    started = time.perf_counter()
    rng = random.Random(seed)
    group = make_group(rng)
    circles = make_circles(rng, group)
    with db.engine.connect() as connection:
        taken = existing_codes(connection)
    # Seeded, codes and keys follow from the seed too; else they are as secret as the app's.
    ids = random.Random(rng.getrandbits(64)) if seed is not None else random.SystemRandom()
    plans = plan_games(rng, count, group, circles, end or datetime.now(UTC).date(), taken, ids)
    first_seen: dict[int, datetime] = {}
    for plan in plans:
        for index in plan.seats:
            first_seen.setdefault(index, plan.created_at)
    seated = sorted(first_seen, key=first_seen.__getitem__)  # ids grow with time, as in use
    with db.engine.begin() as connection:
        circle_id = server_circle_id(connection)  # the server's one circle
        known, new_players = player_ids(
            connection, circle_id, [group[i].name for i in seated], [first_seen[i] for i in seated]
        )
    player_id = [0] * len(group)
    for index, id_ in zip(seated, known, strict=True):
        player_id[index] = id_
    rounds = done = 0
    processes = workers if workers is not None else default_workers(count)
    for batch in _played_batches(plans, processes):
        with db.engine.begin() as connection:
            rounds += insert_games(connection, batch, player_id, circle_id)
        done += len(batch)
        if progress is not None:
            progress(done)
    refresh_planner_statistics()
    return DemoSummary(count, rounds, len(seated), new_players, time.perf_counter() - started)
