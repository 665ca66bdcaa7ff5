"""One game as CSV: a row per scored round and seat, and no formula a spreadsheet would run."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.formats.game_csv import CSV_COLUMNS, csv_safe
from tests.backup.history import HAT_TRICK_NAMES, build_history
from tests.table import Table


@pytest.fixture
def games(app: Flask, client: FlaskClient, table: Table) -> dict[str, dict[str, Any]]:
    return build_history(table)


def csv_of(client: FlaskClient, code: str) -> list[list[str]]:
    answer = client.get(f"/g/{code}/export.csv")
    assert answer.status_code == 200
    assert answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"] == f'attachment; filename="sticheln-{code}.csv"'
    text = answer.get_data().decode("utf-8-sig")  # UTF-8 with a byte order mark
    return list(csv.reader(io.StringIO(text)))


def test_the_csv_has_a_header_and_a_row_per_scored_round_and_seat(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    game = games["classic"]
    header, *rows = csv_of(client, game["id"])
    assert tuple(header) == CSV_COLUMNS
    assert len(rows) == 3 * 4
    assert [(row[0], row[1], row[2]) for row in rows[:4]] == [
        ("1", "1", "Ann"),
        ("1", "2", "Ben"),
        ("1", "3", "Cleo"),
        ("1", "4", "Dan"),
    ]
    for number, round_ in enumerate(game["rounds"], start=1):
        mine = [row for row in rows if row[0] == str(number)]
        assert [int(row[6]) for row in mine] == round_["scores"]
    assert [int(row[7]) for row in rows[-4:]] == game["totals"]  # running totals
    assert sum(int(row[5]) for row in rows[:4]) == 14  # tricks of round 1 (R5)
    first = rows[0]
    colour, value = first[3].split()  # the indicator card, "red 4"
    assert first[4] == colour and value.isdigit()  # the marked colour


def test_hat_trick_rows_have_the_scoring_colour_and_no_trick_count(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    _header, *rows = csv_of(client, games["hat-trick"]["id"])
    assert len(rows) == 3 * 4
    assert all(row[3] == "" and row[5] == "" for row in rows)
    assert all(row[4] in ("red", "blue", "green") for row in rows)


def test_names_that_look_like_formulas_are_written_as_text(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    _header, *rows = csv_of(client, games["hat-trick"]["id"])
    names = [row[2] for row in rows[:4]]
    assert names == ["Ben", "'=SUM(A1:A9)", "Fay", "'@Gus"]
    assert HAT_TRICK_NAMES[1] == "=SUM(A1:A9)"
    _header, *rows = csv_of(client, games["hazy"]["id"])
    assert rows[3][2] == "'-Hal"
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            assert not cell.startswith("-") or cell.lstrip("-").isdigit(), cell


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1+2", "'-1+2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Ann", "Ann"),
        ("", ""),
        ("a=b", "a=b"),
        (-7, -7),
        (12, 12),
    ],
)
def test_a_cell_starting_like_a_formula_gets_an_apostrophe(cell: object, safe: object) -> None:
    assert csv_safe(cell) == safe


def test_markup_in_names_stays_text_in_the_csv(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    _header, *rows = csv_of(client, games["delayed"]["id"])
    assert rows[2][2] == '<script>alert("x")</script>'
    assert len(rows) == 3  # one scored round of three seats; the delayed game lays out nothing
    assert all(row[3] == "" for row in rows)
