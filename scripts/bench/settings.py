"""What the benchmark's parts share: where the project is, the budgets (see
scripts/benchmark.py's docstring), the table's game and how a step is announced."""

from __future__ import annotations

from pathlib import Path

#: The checkout, its virtual environment and the programs there.
ROOT = Path(__file__).resolve().parent.parent.parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"


#: The budgets (see the docstring).
PAGE_THROUGHPUT_RATIO = 0.25
SCOREBOARD_THROUGHPUT_RATIO = 0.8
SCOREBOARDS = ("scoreboard, read-only", "scoreboard, editing")
HISTORY_LATENCY_RATIO = 1.5
#: The API's listings of games (``GET /api/v1/games``), each at page 1 and page 200 (or the
#: last there is): unfiltered and with each filter the history page offers. ``{player}`` is
#: the frequent player; the variant is the most played preset of the demo data.
LISTING_FILTERS = {
    "all games": "",
    "player": "player={player}&",
    "variant": "variant=classic&",
    "last 30 days": "period=30d&",
    "this year": "period=year&",
}
#: The two kinds of server the listings are measured on: a club's (``CLUB_SERVER``, every
#: game in one circle) and one of circles, where the large circle is one of ``--circles``
#: as large, read with its invite key.
SERVER_KINDS = ("club", "circle")
MOST_STATEMENTS = 5
SCOREBOARD_BYTES = 40_000
#: The record page of a 4-player game, HTML before gzip.
RECORD_FOUR = "record, 4 players"
RECORD_FOUR_BYTES = 100_000
#: The pages rendered once per change and kept: each is also measured right after a change,
#: and must answer 304 when unchanged.
RENDERED_AFTER_CHANGES = (
    "scoreboard, read-only",
    "scoreboard, editing",
    "home",
    "history page 1",
    "history page 200",
    "player page",
    "head to head",
)
#: The round pages, kept once rendered (companion/web/round_page_cache.py):
#: measured after each change too, though they answer no 304 (their page holds this
#: phone's CSRF token and is never stored by the browser). The live page follows another
#: game than the one changed, so it stays out.
KEPT_ROUND_PAGES = ("mark", "record", "correct")
#: Every page measured right after a change.
AFTER_CHANGE_ROWS = (*RENDERED_AFTER_CHANGES, *KEPT_ROUND_PAGES)
#: The first request after a change: its median at most this many times the figure it had
#: before home was kept (:data:`AFTER_CHANGE_BEFORE_MS`).
AFTER_CHANGE_RATIO = 2.0
#: Each page's median latency (ms) right after a change, with 10,000 games, before home was
#: rendered once per change (home then rendered at every request): one run of this
#: benchmark per database, with its default options; docs/operators/performance.md says
#: which run and on what machine.
AFTER_CHANGE_BEFORE_MS: dict[str, dict[str, float]] = {
    "sqlite": {
        "scoreboard, read-only": 14.7,
        "scoreboard, editing": 10.9,
        "home": 15.2,
        "history page 1": 20.0,
        "history page 200": 22.6,
        "player page": 11.6,
        "head to head": 15.4,
        # The round pages, rendered at every request until they were kept: their medians
        # then (docs/operators/performance.md).
        "mark": 105.0,
        "record": 202.4,
        "correct": 196.9,
    },
    "postgres": {
        "scoreboard, read-only": 19.3,
        "scoreboard, editing": 19.9,
        "home": 23.1,
        "history page 1": 39.8,
        "history page 200": 37.4,
        "player page": 22.0,
        "head to head": 27.1,
        "mark": 110.4,
        "record": 209.5,
        "correct": 206.2,
    },
}
#: The median latency (ms) of GET /api/v1/setup in those runs. A busier machine slows every
#: request: the figures before are scaled by how much slower this run's GET /api/v1/setup
#: is than theirs (never below the figures themselves).
AFTER_CHANGE_BEFORE_SETUP_MS = {"sqlite": 2.92, "postgres": 4.10}
#: The games the table's phone holds in its session (home lists them).
PHONE_GAMES = 20

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]
#: Each seat's indicator colour in the 8-player game (deck of R2: six colours, 0-18).
COLOURS = ["red", "blue", "green", "yellow", "brown", "violet", "red", "blue"]
#: Tricks per seat in an 8-player round (13 tricks), turned by one seat every round.
TRICKS = [2, 2, 2, 2, 2, 1, 1, 1]

BROWSER_HEADERS = {"Accept-Language": "en", "User-Agent": "sticheln-benchmark"}


def step(text: str) -> None:
    print(f"==> {text}", flush=True)
