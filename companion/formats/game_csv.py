"""One game as CSV, for a spreadsheet: a row per scored round and seat."""

from __future__ import annotations

import csv
import io

from companion.data import queries
from companion.data.models import Game
from companion.data.states import RoundStatus

#: The columns of a game's CSV export, one row per scored round and seat.
CSV_COLUMNS = ("round", "seat", "player", "indicators", "colours", "tricks", "score", "total")


#: A spreadsheet reads a cell starting with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value: object) -> object:
    """A cell a spreadsheet will not run: text starting like a formula gets a leading
    apostrophe. Numbers are written as numbers (an integer carries no formula)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_rows(game: Game) -> list[list[object]]:
    """One row per scored round and seat (seats counted from 1), with the running total."""
    names = [seat.player.name for seat in game.seats]
    totals = queries.totals_of(game).per_round
    rows: list[list[object]] = []
    for round_, running in zip(game.rounds, totals, strict=True):
        if round_.status != RoundStatus.SCORED:
            continue
        marked = queries.marked_of(game, round_) or []
        for result in round_.results:
            indicators = marked[result.seat] if result.seat < len(marked) else []
            rows.append(
                [
                    round_.number,
                    result.seat + 1,
                    names[result.seat],
                    "; ".join(f"{card['colour']} {card['value']}" for card in indicators),
                    " ".join(colour for colour in result.colour_names.split(",") if colour),
                    "" if result.tricks is None else result.tricks,
                    result.score,
                    running[result.seat],
                ]
            )
    return rows


def game_csv(game: Game) -> str:
    """One game as CSV: a header row, then ``csv_rows``; UTF-8 with a byte order mark so
    spreadsheets read the names right."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for row in csv_rows(game):
        writer.writerow([csv_safe(cell) for cell in row])
    return "\ufeff" + buffer.getvalue()
