"""One game as CSV, for a spreadsheet: a row per scored round and seat.

Two flavours. The plain export is for programs: English column names, the colours' API
names and commas, the same bytes whatever the page's language. The localized export is for
a spreadsheet opened by a player: column and colour names in the current language, and the
separator that language's spreadsheets expect: where the decimal mark is a comma (de, it, fr,
hu in Babel's locale data), a comma cannot also split the cells, so they split on semicolons.
Both start with a UTF-8 byte order mark: without it a spreadsheet reads a CSV file in the
computer's old code page, and "Zoë" or "Jörg" come out garbled.

A file may be opened by a spreadsheet that splits on the other separator (the plain file in
a German spreadsheet, say), so both flavours guard against both: a cell holding either
separator is quoted, and no text after a separator starts like a formula (``csv_safe``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from babel.numbers import get_decimal_symbol
from flask_babel import get_locale, pgettext

from companion.data import queries
from companion.data.models import Game
from companion.data.states import RoundStatus
from companion.read_models.messages import colour_name
from companion.rules import entry_from_json

#: The columns of a game's CSV export, one row per scored round and seat.
CSV_COLUMNS = ("round", "seat", "player", "indicators", "colours", "tricks", "score", "total")

#: A Hat Trick game's columns: no colour is marked and tricks are not counted (R17, R22), so
#: a round is its face-up cards per colour, its pass cards (named when entered in full),
#: and the score.
HAT_TRICK_CSV_COLUMNS = (
    "round",
    "seat",
    "player",
    "red",
    "blue",
    "green",
    "passes",
    "pass_cards",
    "score",
    "total",
)


def localized_columns() -> tuple[str, ...]:
    """The same columns as a spreadsheet shows them in the player's language."""
    return (
        pgettext("CSV column", "Round"),
        pgettext("CSV column", "Seat"),
        pgettext("CSV column", "Player"),
        pgettext("CSV column", "Indicator cards"),
        pgettext("CSV column", "Marked colours"),
        pgettext("CSV column", "Tricks"),
        pgettext("CSV column", "Score"),
        pgettext("CSV column", "Total"),
    )


def localized_hat_trick_columns() -> tuple[str, ...]:
    """A Hat Trick game's columns in the player's language."""
    return (
        pgettext("CSV column", "Round"),
        pgettext("CSV column", "Seat"),
        pgettext("CSV column", "Player"),
        pgettext("CSV column", "Red face up"),
        pgettext("CSV column", "Blue face up"),
        pgettext("CSV column", "Green face up"),
        pgettext("CSV column", "Passes"),
        pgettext("CSV column", "Pass cards"),
        pgettext("CSV column", "Score"),
        pgettext("CSV column", "Total"),
    )


#: A spreadsheet reads a cell starting with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

BYTE_ORDER_MARK = "\ufeff"


@dataclass(frozen=True)
class CsvWords:
    """How a flavour of the export writes its header, colours, card lists and cells."""

    columns: Sequence[str]
    delimiter: str
    colour: Callable[[str], str]
    cards_joined_by: str
    colours_joined_by: str


#: The export for programs, unchanged whatever the page's language.
PLAIN = CsvWords(CSV_COLUMNS, ",", str, "; ", " ")


def plain_words(hat_trick: bool) -> CsvWords:
    """The export for programs: a Hat Trick game has its own columns."""
    return replace(PLAIN, columns=HAT_TRICK_CSV_COLUMNS) if hat_trick else PLAIN


def localized_words(hat_trick: bool = False) -> CsvWords:
    """The export for a spreadsheet in the current language (Flask-Babel's locale)."""
    locale = get_locale()
    decimal_comma = locale is not None and get_decimal_symbol(locale) == ","
    columns = localized_hat_trick_columns() if hat_trick else localized_columns()
    return CsvWords(columns, ";" if decimal_comma else ",", colour_name, ", ", ", ")


#: Where a spreadsheet may start a new cell inside a text: at either separator, since the
#: file may be opened by one that splits on the other.
SEPARATORS = re.compile(r"([,;])")

#: What a spreadsheet may drop in front of a formula: spaces (when it trims cells) and the
#: quotes around a quoted cell.
SKIPPED_IN_FRONT = ' "'

#: A cell holding one of these is quoted: the two separators, so that a spreadsheet splitting
#: on either keeps a name in one cell; the quote itself and line breaks, as CSV wants.
QUOTED_IF_HOLDING = frozenset(',;"\r\n')


def csv_safe(value: object) -> object:
    """A cell a spreadsheet will not run: the text, and each part of it after a ``,`` or a
    ``;`` (where a spreadsheet splitting on that character starts a cell), gets a leading
    apostrophe when it starts like a formula. Quoting alone cannot save that part: to a
    spreadsheet splitting on the other character, the quote stands inside an earlier cell.
    Numbers are written as numbers (an integer carries no formula)."""
    if not isinstance(value, str):
        return value
    parts = SEPARATORS.split(value)  # texts at even places, the separators between them
    return "".join(part if place % 2 else _defused(part) for place, part in enumerate(parts))


def _defused(text: str) -> str:
    """``text`` with a leading apostrophe when a spreadsheet would read it as a formula,
    even once it has dropped the spaces or quotes in front."""
    if text.lstrip(SKIPPED_IN_FRONT).startswith(FORMULA_STARTS):
        return "'" + text
    return text


def csv_cell(value: object) -> str:
    """A cell as written: quoted (inner quotes doubled) when it holds a separator, a quote or
    a line break. Python's ``csv`` quotes only for the file's own separator, which leaves a
    name holding the other one to be split by a spreadsheet that uses that."""
    text = str(value)
    if QUOTED_IF_HOLDING.isdisjoint(text):
        return text
    return '"' + text.replace('"', '""') + '"'


def csv_line(cells: Sequence[object], delimiter: str) -> str:
    """One row of the file, ended by CRLF as RFC 4180 (and Python's ``csv``) writes rows."""
    return delimiter.join(csv_cell(cell) for cell in cells) + "\r\n"


def csv_rows(game: Game, words: CsvWords = PLAIN) -> list[list[object]]:
    """One row per scored round and seat (seats counted from 1), with the running total."""
    if game.variant.has_passes:
        return hat_trick_rows(game, words)
    names = [seat.player.name for seat in game.seats]
    totals = queries.totals_of(game).per_round
    rows: list[list[object]] = []
    for round_, running in zip(game.rounds, totals, strict=True):
        if round_.status != RoundStatus.SCORED:
            continue
        marked = queries.marked_of(game, round_) or []
        for result in round_.results:
            indicators = marked[result.seat] if result.seat < len(marked) else []
            colours = [colour for colour in result.colour_names.split(",") if colour]
            rows.append(
                [
                    round_.number,
                    result.seat + 1,
                    names[result.seat],
                    words.cards_joined_by.join(
                        f"{words.colour(str(card['colour']))} {card['value']}"
                        for card in indicators
                    ),
                    words.colours_joined_by.join(words.colour(colour) for colour in colours),
                    "" if result.tricks is None else result.tricks,
                    result.score,
                    running[result.seat],
                ]
            )
    return rows


def hat_trick_rows(game: Game, words: CsvWords) -> list[list[object]]:
    """A Hat Trick game's rows: per scored round and seat, the face-up cards of each colour,
    the passes and, entered in full or played live, the pass cards themselves (R19, R22)."""
    names = [seat.player.name for seat in game.seats]
    totals = queries.totals_of(game).per_round
    setup = queries.setup_of(game)
    rows: list[list[object]] = []
    for round_, running in zip(game.rounds, totals, strict=True):
        if round_.status != RoundStatus.SCORED:
            continue
        entries = [entry_from_json(setup, entry) for entry in round_.entries]
        for result in round_.results:
            entry = entries[result.seat]
            rows.append(
                [
                    round_.number,
                    result.seat + 1,
                    names[result.seat],
                    *entry.face_up_counts().values(),
                    entry.pass_count,
                    words.cards_joined_by.join(
                        f"{words.colour(card.colour.value)} {card.value}"
                        for card in entry.pass_cards
                    ),
                    result.score,
                    running[result.seat],
                ]
            )
    return rows


def game_csv(game: Game, localized: bool = False) -> str:
    """One game as CSV: a header row, then ``csv_rows``; UTF-8 with a byte order mark so
    spreadsheets read the names right. ``localized``: in the current language."""
    hat_trick = game.variant.has_passes
    words = localized_words(hat_trick) if localized else plain_words(hat_trick)
    lines = [csv_line(words.columns, words.delimiter)]
    for row in csv_rows(game, words):
        lines.append(csv_line([csv_safe(cell) for cell in row], words.delimiter))
    return BYTE_ORDER_MARK + "".join(lines)
