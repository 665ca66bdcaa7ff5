"""The benchmark's tables and its budgets, passed or failed."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

from scripts.bench.in_process import Weight
from scripts.bench.load import Sample, Target
from scripts.bench.settings import (
    AFTER_CHANGE_BEFORE_MS,
    AFTER_CHANGE_BEFORE_SETUP_MS,
    AFTER_CHANGE_RATIO,
    AFTER_CHANGE_ROWS,
    HISTORY_LATENCY_RATIO,
    MOST_STATEMENTS,
    PAGE_THROUGHPUT_RATIO,
    RECORD_FOUR,
    RECORD_FOUR_BYTES,
    SCOREBOARD_BYTES,
    SCOREBOARD_THROUGHPUT_RATIO,
    SCOREBOARDS,
)
from scripts.bench.stylesheet import PageFeatures, stylesheet_use


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(row: list[str]) -> str:
        return "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        )

    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


@dataclass
class Budget:
    name: str
    passed: bool
    detail: str


def listing_ratios(samples: dict[str, Sample], targets: list[Target]) -> dict[str, float]:
    """Each listing's median with the large history over its median with the small one."""
    return {
        t.name: samples[f"large {t.name}"].median_ms / samples[f"small {t.name}"].median_ms
        for t in targets
    }


def listings_report(
    options: argparse.Namespace,
    samples: dict[str, Sample],
    sql: dict[str, float],
    targets: list[Target],
    seconds: float,
) -> int:
    """The API's listings' table and their budgets: each median with the large history at
    most :data:`HISTORY_LATENCY_RATIO` times the same listing's with the small one. Beside
    them, each listing's SQL in-process (``sql``, ``in_process.sql_times``), which has no
    budget: a page of 20 games costs more SQL than the few a filter leaves of the small
    history."""
    ratios = listing_ratios(samples, targets)
    rows = [
        [
            name,
            f"{samples[f'large {name}'].median_ms:.1f}",
            f"{samples[f'small {name}'].median_ms:.1f}",
            f"{ratio:.2f}",
            f"{sql[f'large {name}']:.2f}",
            f"{sql[f'small {name}']:.2f}",
            f"{samples[f'large {name}'].errors + samples[f'small {name}'].errors}",
        ]
        for name, ratio in ratios.items()
    ]
    print()
    print(
        f"{options.database}, GET /api/v1/games on a club's server and on a server of "
        f"{options.circles} circles; GET /api/v1/setup median "
        f"{samples['large GET /api/v1/setup'].median_ms:.1f} ms"
    )
    print(
        table(
            rows,
            [
                "GET /api/v1/games, median",
                f"{options.games} games ms",
                f"{options.small_games} games ms",
                "ratio",
                f"SQL {options.games} ms",
                f"SQL {options.small_games} ms",
                "errors",
            ],
        )
    )
    budgets = [
        Budget(
            f"API listing, {name}: median with the large history <= {HISTORY_LATENCY_RATIO}x "
            "the small",
            ratio <= HISTORY_LATENCY_RATIO,
            f"{ratio:.2f}x",
        )
        for name, ratio in ratios.items()
    ]
    failed = [
        f"{size} {t.name}: {samples[f'{size} {t.name}'].errors} "
        f"({samples[f'{size} {t.name}'].last_error})"
        for t in targets
        for size in ("large", "small")
        if samples[f"{size} {t.name}"].errors
    ]
    budgets.append(Budget("no API listing failed", not failed, ", ".join(failed) or "none"))
    print()
    for budget in budgets:
        print(f"{'PASS' if budget.passed else 'FAIL'}  {budget.name}: {budget.detail}")
    if options.listings_only:
        print(f"\n{seconds:.0f} s in all.")
        if options.json:
            options.json.write_text(
                json.dumps(
                    {
                        "samples": {
                            k: {"median_ms": s.median_ms, "requests": len(s.latencies)}
                            for k, s in samples.items()
                        },
                        "sql_ms": sql,
                        "budgets": [vars(b) for b in budgets],
                    },
                    indent=2,
                )
            )
    return 0 if all(b.passed for b in budgets) else 1


def report(
    options: argparse.Namespace,
    samples: dict[str, Sample],
    large_counts: dict[str, int],
    small_counts: dict[str, int],
    weights: dict[str, Weight],
    conditional: dict[str, tuple[int, int, str]],
    targets: list[Target],
    seconds: float,
) -> int:
    baseline = samples["large GET /api/v1/setup"].throughput
    names = [t.name for t in targets]
    rows = []
    for name in names:
        sample = samples[f"large {name}"]
        rows.append(
            [
                name,
                f"{sample.throughput:.0f}",
                f"{sample.median_ms:.1f}",
                f"{sample.p95_ms:.1f}",
                f"{sample.throughput / baseline:.2f}",
                f"{large_counts[name]}",
                f"{small_counts[name]}",
                f"{sample.errors}",
            ]
        )
    print()
    print(
        f"{options.database}, gunicorn -w {options.workers}, {options.concurrency} client "
        f"threads, {options.duration:.0f} s per endpoint, "
        f"{'identity' if options.identity else 'gzip'}; {options.games} games"
    )
    print(
        table(
            rows,
            ["request", "req/s", "median ms", "p95 ms", "x setup", "SQL", "SQL small", "errors"],
        )
    )

    before = AFTER_CHANGE_BEFORE_MS.get(options.database, {})
    after_rows = [
        [
            name,
            f"{len(after.latencies)}",
            f"{after.median_ms:.1f}",
            f"{after.p95_ms:.1f}",
            f"{samples[f'large {name}'].median_ms:.1f}",
            f"{before[name]:.1f}" if name in before else "-",
        ]
        for name in AFTER_CHANGE_ROWS
        if (after := samples.get(f"large {name}, first after a change")) is not None
    ]
    if after_rows:
        print()
        print(
            table(
                after_rows,
                [
                    "first request after a change",
                    "requests",
                    "median ms",
                    "p95 ms",
                    "kept: ms",
                    "before: ms",
                ],
            )
        )

    compared = ["history page 1", "history page 200", "player page", "head to head"]
    ratio_rows = []
    ratios = {}
    for name in compared:
        big, little = samples[f"large {name}"], samples[f"small {name}"]
        ratios[name] = big.median_ms / little.median_ms
        ratio_rows.append(
            [name, f"{big.median_ms:.1f}", f"{little.median_ms:.1f}", f"{ratios[name]:.2f}"]
        )
    print()
    print(
        table(
            ratio_rows,
            [
                "median latency",
                f"{options.games} games ms",
                f"{options.small_games} games ms",
                "ratio",
            ],
        )
    )

    weight_rows = [
        [
            name,
            f"{w.html:,}",
            f"{w.css:,}",
            f"{w.js:,}",
            f"{w.total:,}",
            f"{w.gzipped:,}",
        ]
        for name, w in weights.items()
    ]
    print()
    print(table(weight_rows, ["page bytes", "HTML", "CSS", "JS", "total", "gzipped"]))

    stylesheets = {url for w in weights.values() for url in w.assets if url.endswith(".css")}
    for url in sorted(stylesheets):
        users = {name: w for name, w in weights.items() if url in w.sources}
        features = {
            name: PageFeatures.of(w.page, [t for u, t in w.sources.items() if u.endswith(".js")])
            for name, w in users.items()
        }
        css = next(iter(users.values())).sources[url]
        print()
        print(
            table(
                stylesheet_use(css, features),
                [f"{url}: section", "bytes", "no comments", *(f"used: {n}" for n in users)],
            )
        )

    print()
    print(
        table(
            [
                [name, str(first), str(again) if again else "no ETag", etag]
                for name, (first, again, etag) in conditional.items()
            ],
            ["conditional GET", "first", "with ETag", "ETag"],
        )
    )

    budgets = budgets_of(samples, baseline, ratios, large_counts, small_counts, weights)
    setup_before = AFTER_CHANGE_BEFORE_SETUP_MS.get(options.database)
    setup_now = samples["large GET /api/v1/setup"].median_ms
    slowdown = max(1.0, setup_now / setup_before) if setup_before else 1.0
    budgets += page_budgets(samples, baseline, targets, weights, before, slowdown)
    budgets.append(
        Budget(
            "no request failed",
            not any(s.errors for s in samples.values()),
            ", ".join(f"{k}: {s.errors} ({s.last_error})" for k, s in samples.items() if s.errors)
            or "none",
        )
    )
    budgets += [
        Budget(
            f"{name} answers 304 when unchanged",
            again == 304,
            f"{first} then {again or 'no ETag'}",
        )
        for name, (first, again, _) in conditional.items()
    ]
    print()
    for budget in budgets:
        print(f"{'PASS' if budget.passed else 'FAIL'}  {budget.name}: {budget.detail}")
    print(f"\n{seconds:.0f} s in all.")
    if options.json:
        options.json.write_text(
            json.dumps(
                {
                    "samples": {
                        k: {
                            "requests": len(s.latencies),
                            "throughput": s.throughput,
                            "median_ms": s.median_ms,
                            "p95_ms": s.p95_ms,
                            "errors": s.errors,
                        }
                        for k, s in samples.items()
                    },
                    "statements": {"large": large_counts, "small": small_counts},
                    "weights": {k: vars(w) for k, w in weights.items()},
                    "conditional": conditional,
                    "budgets": [vars(b) for b in budgets],
                },
                indent=2,
            )
        )
    return 0 if all(b.passed for b in budgets) else 1


def budgets_of(
    samples: dict[str, Sample],
    baseline: float,
    ratios: dict[str, float],
    large_counts: dict[str, int],
    small_counts: dict[str, int],
    weights: dict[str, Weight],
) -> list[Budget]:
    budgets = []
    for name in SCOREBOARDS:
        ratio = samples[f"large {name}"].throughput / baseline
        budgets.append(
            Budget(
                f"{name} throughput >= {SCOREBOARD_THROUGHPUT_RATIO}x GET /api/v1/setup",
                ratio >= SCOREBOARD_THROUGHPUT_RATIO,
                f"{ratio:.2f}x",
            )
        )
    for name, ratio in ratios.items():
        budgets.append(
            Budget(
                f"{name}: median with the large history <= {HISTORY_LATENCY_RATIO}x the small",
                ratio <= HISTORY_LATENCY_RATIO,
                f"{ratio:.2f}x",
            )
        )
    for name, count in large_counts.items():
        budgets.append(
            Budget(
                f"{name}: <= {MOST_STATEMENTS} SQL statements, whatever the size",
                count <= MOST_STATEMENTS and count == small_counts[name],
                f"{count} (small database: {small_counts[name]})",
            )
        )
    for name in SCOREBOARDS:
        weight = weights[name]
        budgets.append(
            Budget(
                f"{name} weighs <= {SCOREBOARD_BYTES:,} bytes with its CSS and JS",
                weight.total <= SCOREBOARD_BYTES,
                f"{weight.total:,} (HTML {weight.html:,}, CSS {weight.css:,}, JS {weight.js:,})",
            )
        )
    return budgets


def page_budgets(
    samples: dict[str, Sample],
    baseline: float,
    targets: list[Target],
    weights: dict[str, Weight],
    before: dict[str, float],
    slowdown: float,
) -> list[Budget]:
    """Every page's throughput, the first request after a change against its figure before
    home was kept (times ``slowdown``: how much slower this run's GET /api/v1/setup was than
    in the runs of those figures, at least 1), and the record page of 4 players' HTML."""
    budgets = []
    for target in targets:
        if not target.page:
            continue
        ratio = samples[f"large {target.name}"].throughput / baseline
        budgets.append(
            Budget(
                f"{target.name} throughput >= {PAGE_THROUGHPUT_RATIO}x GET /api/v1/setup",
                ratio >= PAGE_THROUGHPUT_RATIO,
                f"{ratio:.2f}x",
            )
        )
    for name in AFTER_CHANGE_ROWS:
        after = samples.get(f"large {name}, first after a change")
        if after is None or name not in before:
            continue
        figure = before[name] * slowdown
        budgets.append(
            Budget(
                f"{name}, first request after a change: median <= {AFTER_CHANGE_RATIO}x "
                "its figure before",
                after.median_ms <= AFTER_CHANGE_RATIO * figure,
                f"{after.median_ms:.1f} ms (before: {before[name]:.1f} ms, x{slowdown:.2f} "
                f"for this run's GET /api/v1/setup: {figure:.1f} ms)",
            )
        )
    weight = weights[RECORD_FOUR]
    budgets.append(
        Budget(
            f"{RECORD_FOUR}: HTML <= {RECORD_FOUR_BYTES:,} bytes",
            weight.html <= RECORD_FOUR_BYTES,
            f"{weight.html:,} (gzipped with its CSS and JS: {weight.gzipped:,})",
        )
    )
    return budgets
