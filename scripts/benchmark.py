#!/usr/bin/env python3
"""Measure the companion the way a table uses it, and check the performance budgets.

    python3 scripts/benchmark.py                        # SQLite, 10,000 games of history
    python3 scripts/benchmark.py --database postgres    # a throwaway PostgreSQL cluster
    python3 scripts/benchmark.py --games 2000 --duration 3   # quicker, rougher
    python3 scripts/benchmark.py --listings-only        # only the API's listings of games

From a fresh clone it first sets up as ``python3 manage.py setup`` does, then runs again with
.venv's Python. It builds three throwaway databases (never the one in instance/), in a
temporary folder removed at every exit, Ctrl-C and SIGTERM included:

- **large**: ``flask demo-data --games 10000`` (a two-year history of a club), then, through
  the JSON API, an 8-player game with 5 of its 10 rounds scored (the table's game), and the
  games of the table's phone: another 8-player game playing round 6 live, 3 tricks in, a
  4-player game with no round yet, and 17 more 4-player games, in progress or finished, so
  that the phone's session holds the edit keys of 20 games (``PHONE_GAMES``);
- **small**: ``flask demo-data --games 20``, then the same games with 1 round scored;
- **circles**: the large database's demo history, copied into ``--circles`` circles in all
  (4), so that its first circle is a large circle among many large ones.

It serves large and small as a club's server (``CLUB_SERVER``, every game in one circle),
circles and small as servers of circles (a circle read with its invite key), each with
gunicorn on loopback (``-w 2``, sync workers unless ``--threads``),
and measures, with threads of ``http.client`` connections, the throughput and the median and
95th-percentile latency of every page and of API calls, each also as a ratio to
``GET /api/v1/setup`` (a request that touches no database) measured in the same run: the
read-only and the editing scoreboard, home (the phone with 20 games), history pages 1 and
200, a frequent player's page, that player's head to head with their most frequent
opponent, the 304 of each of those (asked with its ETag), and the round pages of the
table's game: mark, record, correct (round 1) and live (the other 8-player game), and the
API's listings of games (``GET /api/v1/games``, :data:`LISTING_FILTERS`: pages 1 and 200,
unfiltered and with each filter of the history page) on both kinds of server, each also
with its SQL timed in this process (the fastest of ``--sql-runs``). The
endpoints take turns (``--rounds``), so that a machine busy with something else slows them
all alike. Each page kept once rendered (``RENDERED_AFTER_CHANGES``) is also measured right
after each change (a round of the table's game corrected), as the first phone to ask after a
save finds it: rendered anew, while the other rows mostly serve the kept page. Then, in this
process (the app's test client on the same databases), it counts the SQL statements of each
request, weighs each page with the stylesheets and scripts it loads (plain and gzipped; and
the record page of the 4-player game), and checks that unchanged kept pages and static files
answer 304.

Budgets (the exit status is 1 when one fails):

- every page serves at least 0.25x the requests per second of GET /api/v1/setup, its 304
  too; the scoreboards (read-only and editing) at least 0.8x;
- the first request after a change: median at most 2x its figure before home was kept
  (``AFTER_CHANGE_BEFORE_MS``, measured on main with 10,000 games, per database), scaled
  by how much slower this run's GET /api/v1/setup is than in that run, if it is;
- history page 1, page 200, a frequent player's page and that player's head to head: median
  latency with 10,000 games at most 1.5x the same page with 20 games (page 200 is compared
  with the last page there is); the same for each API listing of games, on a club's server
  and for the large circle among others on a server of circles;
- at most 5 SQL statements per request, the same with 10,000 games as with 20 (and for a game
  of 5 rounds as for one of 1);
- the scoreboard weighs at most 40,000 bytes, HTML, stylesheets and scripts, uncompressed;
  the record page of a 4-player game at most 100,000 bytes of HTML;
- unchanged scoreboards, home, history pages 1 and 200, player page, head to head and every
  static file answer 304 to If-None-Match.

This file runs the measures in order; each measure is a module of ``scripts/bench``.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.bench.databases import clone, copy_circle, databases, fill, invite_key, scratch_folder  # noqa: E402
from scripts.bench.in_process import (  # noqa: E402
    frequent_opponent,
    frequent_player,
    games_of,
    make_app,
    revalidates,
    sql_times,
    statement_counts,
    weigh,
)
from scripts.bench.load import Target, after_changes, measure  # noqa: E402
from scripts.bench.report import listings_report, report  # noqa: E402
from scripts.bench.servers import gunicorn, request  # noqa: E402
from scripts.bench.settings import (  # noqa: E402
    AFTER_CHANGE_ROWS,
    LISTING_FILTERS,
    RECORD_FOUR,
    RENDERED_AFTER_CHANGES,
    step,
)
from scripts.bench.table_game import Phone, Table, card, phone_with_games, play_table_game  # noqa: E402


def in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def reexec_in_venv() -> None:
    """Set up as ``manage.py`` does (a fresh clone gets its .venv; an installed one is kept),
    then run again with .venv's Python, which has Flask, SQLAlchemy and gunicorn."""
    import manage  # standard library only

    try:
        manage.setup()
    except manage.StepFailed as failure:
        sys.exit(str(failure))
    python = BIN / "python"
    os.execv(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]])


# --------------------------------------------------------------------------------------------
# Options


def parse_options(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Measure the companion and check its performance budgets."
    )
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--games", type=int, default=10_000, help="history of the large database")
    parser.add_argument("--small-games", type=int, default=20, help="history of the small one")
    parser.add_argument("--seed", type=int, default=1, help="seed of the demo data")
    parser.add_argument(
        "--duration", type=float, default=6.0, help="seconds of load per endpoint, in all"
    )
    parser.add_argument("--rounds", type=int, default=3, help="turns the endpoints take")
    parser.add_argument("--concurrency", type=int, default=4, help="client threads")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--threads", type=int, default=1, help="gunicorn threads per worker (>1: gthread)"
    )
    parser.add_argument(
        "--identity", action="store_true", help="ask for uncompressed answers (no gzip)"
    )
    parser.add_argument(
        "--circles", type=int, default=4, help="large circles of the circle server's database"
    )
    parser.add_argument(
        "--listings-only",
        action="store_true",
        help="measure only GET /api/v1/setup and the API's listings of games (quicker)",
    )
    parser.add_argument(
        "--sql-runs",
        type=int,
        default=30,
        help="runs of each API listing's statements in-process, the fastest kept",
    )
    parser.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    options = parse_options(argv)
    secret = secrets.token_hex(16)
    encoding = {"Accept-Encoding": "identity" if options.identity else "gzip"}
    with scratch_folder() as folder, databases(options.database, folder) as urls:
        return run(options, secret, encoding, folder, *urls)


def listing_targets(port: int, headers: dict[str, str], player: str, kind: str) -> list[Target]:
    """The API's listings of games (:data:`LISTING_FILTERS`), page 1 and page 200 or the
    last there is, as asked of the server at ``port`` (``headers``: a circle's key)."""
    targets = []
    for name, query in LISTING_FILTERS.items():
        query = query.format(player=urllib.parse.quote(player))
        plain = {k: v for k, v in headers.items() if k != "Accept-Encoding"}
        answer = request(port, "GET", f"/api/v1/games?{query}page=1", headers=plain)
        if answer.status != 200:
            sys.exit(f"GET /api/v1/games?{query}: status {answer.status}")
        last = min(200, int(json.loads(answer.body)["pages"]))
        for label, page in (("page 1", 1), ("page 200", last)):
            path = f"/api/v1/games?{query}page={page}"
            targets.append(Target(f"{kind}: {name}, {label}", "GET", path, headers=headers))
    return targets


def run(
    options: argparse.Namespace,
    secret: str,
    encoding: dict[str, str],
    folder: Path,
    large_url: str,
    small_url: str,
    circles_url: str,
) -> int:
    started = time.monotonic()
    step(f"large database: {options.games} demo games ({options.database})")
    fill(large_url, secret, options.games, options.seed)
    step(f"circles database: {options.circles} circles of {options.games} games each")
    clone(large_url, circles_url)
    copy_circle(circles_url, options.circles - 1)
    step(f"small database: {options.small_games} demo games")
    fill(small_url, secret, options.small_games, options.seed)
    circle_key, small_key = invite_key(circles_url), invite_key(small_url)
    large_app = make_app(large_url, secret, folder)
    small_app = make_app(small_url, secret, folder)
    large_player, small_player = frequent_player(large_app), frequent_player(small_app)
    large_rival = frequent_opponent(large_app, large_player)
    small_rival = frequent_opponent(small_app, small_player)

    step(f"gunicorn -w {options.workers} on each database, club's and circles' servers")
    with (
        gunicorn(large_url, secret, options.workers, options.threads) as large,
        gunicorn(small_url, secret, options.workers, options.threads) as small,
        gunicorn(circles_url, secret, options.workers, options.threads, club=False) as circles,
        gunicorn(small_url, secret, options.workers, options.threads, club=False) as small_circle,
    ):
        large_table = play_table_game(large, rounds=5)
        small_table = play_table_game(small, rounds=1)
        large_phone = phone_with_games(large, large_table, rounds=5)
        small_phone = phone_with_games(small, small_table, rounds=1)
        print(
            f"    the 8-player game: /g/{large_table.code} (5 rounds scored); the phone holds "
            f"{len(large_phone.edit_paths)} games; frequent player: "
            f"{large_player} ({games_of(large_app, large_player)} games; with "
            f"{options.small_games} games: {small_player}, {games_of(small_app, small_player)})",
            flush=True,
        )

        def revalidated(port: int, target: Target) -> list[Target]:
            """``target`` as a 304: asked with the ETag it has now (none without one)."""
            etag = request(port, "GET", target.path, headers=target.headers).headers.get("ETag")
            if not etag:
                return []
            headers = {**target.headers, "If-None-Match": etag}
            return [Target(f"{target.name}, 304", "GET", target.path, headers=headers, status=304)]

        def targets_for(
            port: int, table_: Table, phone: Phone, player: str, rival: str, last_page: int
        ) -> list[Target]:
            player_path = "/players/" + urllib.parse.quote(player)
            versus_path = f"{player_path}/vs/" + urllib.parse.quote(rival)
            cookie = {**encoding, "Cookie": table_.cookie}
            phone_cookie = {**encoding, "Cookie": phone.cookie}
            game = f"/g/{table_.code}"
            kept = [
                Target("scoreboard, read-only", "GET", f"{game}/view", headers=encoding),
                Target("scoreboard, editing", "GET", game, headers=cookie),
                Target("home", "GET", "/", headers=phone_cookie),
                Target("history page 1", "GET", "/history", headers=encoding),
                Target("history page 200", "GET", f"/history?page={last_page}", headers=encoding),
                Target("player page", "GET", player_path, headers=encoding),
                Target("head to head", "GET", versus_path, headers=encoding),
            ]
            rounds = [
                Target("mark", "GET", f"{game}/rounds/mark", headers=phone_cookie),
                Target("record", "GET", f"{game}/rounds/record", headers=phone_cookie),
                Target("correct", "GET", f"{game}/rounds/1", headers=phone_cookie),
                Target("live", "GET", phone.live_path, headers=phone_cookie),
            ]
            return [
                Target(
                    "GET /api/v1/setup",
                    "GET",
                    "/api/v1/setup?players=4",
                    headers=encoding,
                    page=False,
                ),
                *(t for target in kept for t in (target, *revalidated(port, target))),
                *rounds,
                Target(
                    "POST /api/v1/tricks/resolve",
                    "POST",
                    "/api/v1/tricks/resolve",
                    {
                        "variant": "classic",
                        "players": 4,
                        "cards": [card("yellow", 3), card("green", 3), card("blue", 9)]
                        + [card("red", 0)],
                    },
                    headers=encoding,
                    page=False,
                ),
                Target(
                    "POST /api/v1/rounds/score",
                    "POST",
                    "/api/v1/rounds/score",
                    {
                        "variant": "classic",
                        "players": 4,
                        "entries": [
                            {"marked": [card("red", 1)], "tricks": 4, "marked_captured": []},
                            {"marked": [card("blue", 2)], "tricks": 3, "marked_captured": []},
                            {"marked": [card("green", 3)], "tricks": 4, "marked_captured": []},
                            {"marked": [card("yellow", 0)], "tricks": 3, "marked_captured": []},
                        ],
                    },
                    headers=encoding,
                    page=False,
                ),
            ]

        # Page 200 of the large history is compared with page 1 of the small one: the
        # deepest full page there is.
        large_targets = targets_for(
            large,
            large_table,
            large_phone,
            large_player,
            large_rival,
            min(200, options.games // 20),
        )
        small_targets = targets_for(small, small_table, small_phone, small_player, small_rival, 1)
        by_name = {t.name: t for t in large_targets}
        plan = [(f"large {t.name}", large, t) for t in large_targets]
        plan += [
            (f"small {t.name}", small, t)
            for t in small_targets
            if t.name in ("history page 1", "player page", "head to head")
        ]
        # The API's listings, each beside its counterpart with the small history: on a club's
        # server, and on a server of circles, the first of the large circles (its key sent)
        # and the small history's one circle.
        listings: dict[str, list[Target]] = {"large": [], "small": []}
        for kind, (big, little) in {
            "club": ((large, {**encoding}), (small, {**encoding})),
            "circle": (
                (circles, {**encoding, "Authorization": f"Bearer {circle_key}"}),
                (small_circle, {**encoding, "Authorization": f"Bearer {small_key}"}),
            ),
        }.items():
            listings["large"] += listing_targets(*big, large_player, kind)
            listings["small"] += listing_targets(*little, small_player, kind)
        ports = {
            "large": {"club": large, "circle": circles},
            "small": {"club": small, "circle": small_circle},
        }
        listing_plan = [
            (f"{size} {t.name}", ports[size][t.name.split(":", 1)[0]], t)
            for pair in zip(listings["large"], listings["small"], strict=True)
            for size, t in zip(("large", "small"), pair, strict=True)
        ]
        apps = {
            "large": {"club": large_app, "circle": make_app(circles_url, secret, folder, False)},
            "small": {"club": small_app, "circle": make_app(small_url, secret, folder, False)},
        }

        def listing_sql() -> dict[str, float]:
            step(f"the listings' SQL in-process, the fastest of {options.sql_runs} runs")
            return {
                f"{size} {t.name}": sql_times(
                    apps[size][t.name.split(":", 1)[0]], [t], options.sql_runs
                )[t.name]
                for size in ("large", "small")
                for t in listings[size]
            }

        if options.listings_only:
            setup = next(t for t in large_targets if t.name == "GET /api/v1/setup")
            samples = measure([(f"large {setup.name}", large, setup), *listing_plan], options)
            return listings_report(
                options, samples, listing_sql(), listings["large"], time.monotonic() - started
            )
        samples = measure(plan + listing_plan, options)
        listing_times = listing_sql()
        samples["small history page 200"] = samples["small history page 1"]
        for name in AFTER_CHANGE_ROWS:
            step(f"{name}, first request after a change (a round corrected each time)")
            samples[f"large {name}, first after a change"] = after_changes(
                large, large_table, by_name[name], options.duration / 2
            )

        step("SQL statements per request (in-process, same databases)")
        large_counts = statement_counts(large_app, large_phone, large_targets)
        small_counts = statement_counts(small_app, small_phone, small_targets)

        step("page weights and conditional requests")
        four = Target(
            RECORD_FOUR,
            "GET",
            f"/g/{large_phone.four_players}/rounds/record",
            headers={**encoding, "Cookie": large_phone.cookie},
        )
        pages = [t for t in large_targets if t.page and t.status == 200] + [four]
        weights = {target.name: weigh(large, target) for target in pages}
        conditional = {
            name: revalidates(large, by_name[name].path, by_name[name].headers)
            for name in RENDERED_AFTER_CHANGES
        }
        assets = sorted({url for w in weights.values() for url in w.assets})
        for url in assets:
            for accept in ("gzip", "identity"):
                conditional[f"{url} ({accept})"] = revalidates(
                    large, url, {"Accept-Encoding": accept}
                )

    code = report(
        options,
        samples,
        large_counts,
        small_counts,
        weights,
        conditional,
        large_targets,
        time.monotonic() - started,
    )
    listed = listings_report(
        options, samples, listing_times, listings["large"], time.monotonic() - started
    )
    return max(code, listed)


if __name__ == "__main__":
    if not in_venv():
        reexec_in_venv()
    sys.exit(main(sys.argv[1:]))
