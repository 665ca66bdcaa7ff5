"""One game as CSV: a row per scored round and seat, and no formula a spreadsheet would run."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from babel.numbers import get_decimal_symbol
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from hypothesis import given
from hypothesis import strategies as st

from companion.formats.game_csv import (
    CSV_COLUMNS,
    HAT_TRICK_CSV_COLUMNS,
    csv_cell,
    csv_line,
    csv_safe,
)
from companion.read_models.messages import colour_name
from companion.rules import PRESETS, table_setup
from scripts.page_reader import read_page
from tests.backup.history import HAT_TRICK_NAMES, build_history, classic_led_by, quick_entries
from tests.fuzz.world import fuzz_settings
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


def test_hat_trick_rows_have_the_colour_counts_and_pass_cards_and_no_marked_colour(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    """R22: a Hat Trick round is its face-up cards per colour and its pass cards; no colour
    is marked (R17), so there is no marked-colour column, and no tricks are counted."""
    game = games["hat-trick"]
    header, *rows = csv_of(client, game["id"])
    assert tuple(header) == HAT_TRICK_CSV_COLUMNS
    assert "colours" not in header and "indicators" not in header and "tricks" not in header
    assert len(rows) == 3 * 4
    for number, round_ in enumerate(game["rounds"], start=1):
        mine = [dict(zip(header, row, strict=True)) for row in rows if row[0] == str(number)]
        assert [int(row["score"]) for row in mine] == round_["scores"]
        for row, explained in zip(mine, round_["explanations"], strict=True):
            # the counts the rules' terms give (R22): each colour's face-up cards, the passes
            counted = {"red": 0, "blue": 0, "green": 0, "passes": 0}
            for term in explained["terms"]:
                if term["kind"] == "pass-cards":
                    counted["passes"] = term["count"]
                elif term.get("colour"):
                    counted[term["colour"]] = term["count"]
            assert {key: int(row[key]) for key in counted} == counted
            named = row["pass_cards"].split("; ") if row["pass_cards"] else []
            if round_["mode"] == "quick":  # counted, not named
                assert named == []
            else:  # live and full rounds name every pass card, of the deck (R17)
                assert len(named) == counted["passes"]
                assert all(card.split()[0] in ("red", "blue", "green") for card in named)
        # C5: face-up and face-down cards of the table make players x tricks
        assert sum(int(row[c]) for row in mine for c in ("red", "blue", "green", "passes")) == 56
    assert {round_["mode"] for round_ in game["rounds"]} == {"live", "full", "quick"}
    assert any(row[7] for row in rows)  # some pass cards are named


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
        ('"=1+1"', '\'"=1+1"'),
        ("Eve;=cmd|' /C calc'!A0;", "Eve;'=cmd|' /C calc'!A0;"),
        ("Bob,=1+1,", "Bob,'=1+1,"),
        ("Ann; -Hal", "Ann;' -Hal"),
        ('Gus,"@Fay"', 'Gus,\'"@Fay"'),
        ("=Ben;+Cleo", "'=Ben;'+Cleo"),
        ("red 4; blue 7", "red 4; blue 7"),
        ("Rot 4, Blau 7", "Rot 4, Blau 7"),
        ('Ida "the Ace", Jr.;', 'Ida "the Ace", Jr.;'),
    ],
)
def test_a_cell_starting_like_a_formula_gets_an_apostrophe(cell: object, safe: object) -> None:
    assert csv_safe(cell) == safe


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("Ann", "Ann"),
        ("", ""),
        (-16, "-16"),
        ("red 4; blue 7", '"red 4; blue 7"'),
        ("Rot 4, Blau 7", '"Rot 4, Blau 7"'),
        ('Ida "the Ace"', '"Ida ""the Ace"""'),
        ("Ann\nBen", '"Ann\nBen"'),
    ],
)
def test_a_cell_holding_either_separator_a_quote_or_a_line_break_is_quoted(
    cell: object, written: str
) -> None:
    assert csv_cell(cell) == written


#: Names holding the other flavour's separator before a formula (a spreadsheet splitting on
#: that character would start a cell there), and one holding both and a quote before none.
SEPARATOR_NAMES = ["Eve;=cmd|' /C calc'!A0;", "Bob,=1+1,", 'Ida "the Ace", Jr.;', "Ann"]
#: The same names as a spreadsheet splitting on the file's own separator reads them.
SEPARATOR_NAMES_READ = ["Eve;'=cmd|' /C calc'!A0;", "Bob,'=1+1,", 'Ida "the Ace", Jr.;', "Ann"]


def starts_like_formula(cell: str) -> bool:
    """Whether a spreadsheet could run ``cell``, even after dropping spaces or quotes in
    front of it; a negative number is a number."""
    text = cell.lstrip(' "')
    return text.startswith(("=", "+", "-", "@", "\t", "\r")) and not text.lstrip("-").isdigit()


#: Text as a name may hold it (no control, invisible or line-separating character), with
#: separators, quotes, spaces and formula starts drawn often.
NAME_TEXT = st.lists(
    st.sampled_from([*"=+-@;,\"' ", "Eve", "1"])
    | st.characters(blacklist_categories=("Cc", "Cs", "Cf", "Zl", "Zp")),
    max_size=10,
).map("".join)


@fuzz_settings(200)
@given(text=NAME_TEXT, separator=st.sampled_from([",", ";"]))
def test_no_text_makes_a_formula_whichever_separator_splits_its_row(
    text: str, separator: str
) -> None:
    line = csv_line([1, csv_safe(text), -3], separator)
    for other in (",", ";"):
        split_naively = line.removesuffix("\r\n").split(other)
        read_by_csv = next(csv.reader(io.StringIO(line), delimiter=other))
        for cell in split_naively + read_by_csv:
            assert not starts_like_formula(cell), (line, cell)
    assert next(csv.reader(io.StringIO(line), delimiter=separator)) == ["1", csv_safe(text), "-3"]
    assert csv_safe(text).replace("'", "") == text.replace("'", "")  # apostrophes only added


@pytest.mark.parametrize("lang", ["en", "de", "it", "fr", "hu"])
def test_a_name_holding_the_other_separator_makes_no_formula_when_split_on_it(
    client: FlaskClient, table: Table, lang: str
) -> None:
    setup = table_setup(4, PRESETS["aggravated"])  # two indicator cards a seat: "red 4; blue 7"
    game = table.new_game(SEPARATOR_NAMES, "aggravated")
    game = table.record(game, quick_entries(classic_led_by(setup, 0, 110)))
    if lang == "en":
        text, separator = client.get(f"/g/{game['id']}/export.csv").get_data().decode(), ","
        text = text.removeprefix("\ufeff")
    else:
        text, separator = localized_csv(client, game["id"], lang)
    other = ";" if separator == "," else ","

    split_naively = [cell for line in text.splitlines() for cell in line.split(other)]
    read_by_csv = [cell for row in csv.reader(io.StringIO(text), delimiter=other) for cell in row]
    assert len(split_naively) > len(text.splitlines())  # the other separator is in the file
    for cell in split_naively + read_by_csv:
        assert not starts_like_formula(cell), cell

    _header, *rows = list(csv.reader(io.StringIO(text), delimiter=separator))
    assert [row[2] for row in rows] == SEPARATOR_NAMES_READ
    assert all(len(row) == len(CSV_COLUMNS) for row in rows)
    for name in SEPARATOR_NAMES_READ[:3]:  # quoted, whichever separator the name holds
        quoted = '"' + name.replace('"', '""') + '"'
        assert separator + quoted + separator in text, name
    cards_joined_by = "; " if separator == "," else ", "
    assert all(len(row[3].split(cards_joined_by)) == 2 for row in rows)  # two cards a seat


def test_markup_in_names_stays_text_in_the_csv(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    _header, *rows = csv_of(client, games["delayed"]["id"])
    assert rows[2][2] == '<script>alert("x")</script>'
    assert len(rows) == 3  # one scored round of three seats; the delayed game lays out nothing
    assert all(row[3] == "" for row in rows)


# --------------------------------------------------------------------------------------------
# The plain export, for programs: these bytes, in every language


#: The classic game's export as it was before spreadsheets got their own flavour.
PLAIN_CLASSIC = (
    "\ufeffround,seat,player,indicators,colours,tricks,score,total\r\n"
    "1,1,Ann,yellow 4,yellow,3,1,1\r\n"
    "1,2,Ben,blue 0,blue,4,-16,-16\r\n"
    "1,3,Cleo,red 1,red,4,10,10\r\n"
    "1,4,Dan,yellow 5,yellow,3,-31,-31\r\n"
    "2,1,Ann,yellow 9,yellow,3,-10,-9\r\n"
    "2,2,Ben,yellow 6,yellow,5,-14,-30\r\n"
    "2,3,Cleo,red 11,red,2,-14,-4\r\n"
    "2,4,Dan,brown 10,brown,4,-16,-47\r\n"
    "3,1,Ann,brown 10,brown,3,-36,-45\r\n"
    "3,2,Ben,green 7,green,3,-16,-46\r\n"
    "3,3,Cleo,brown 11,brown,5,3,-1\r\n"
    "3,4,Dan,red 7,red,3,-24,-71\r\n"
)

#: The Hat Trick game's: colour counts and pass cards (named in the live and the full round,
#: counted in the quick one), no marked colour; names that look like formulas.
PLAIN_HAT_TRICK = (
    "\ufeffround,seat,player,red,blue,green,passes,pass_cards,score,total\r\n"
    "1,1,Ben,10,7,3,1,red 11,-2,-2\r\n"
    "1,2,'=SUM(A1:A9),4,6,2,1,red 2,-2,-2\r\n"
    "1,3,Fay,0,3,12,0,,9,9\r\n"
    "1,4,'@Gus,4,0,2,1,blue 20,0,0\r\n"
    "2,1,Ben,1,5,7,1,blue 9,-1,-3\r\n"
    '2,2,\'=SUM(A1:A9),1,0,1,6,"green 19; blue 4; blue 14; blue 8; blue 15; blue 18",-12,-14\r\n'
    "2,3,Fay,5,4,7,1,blue 7,-4,5\r\n"
    '2,4,\'@Gus,11,2,2,2,"blue 11; green 12",3,3\r\n'
    "3,1,Ben,5,5,8,0,,-2,-5\r\n"
    "3,2,'=SUM(A1:A9),3,3,2,0,,-2,-16\r\n"
    "3,3,Fay,4,4,3,1,,-5,0\r\n"
    "3,4,'@Gus,7,5,4,2,,-6,-3\r\n"
)


@pytest.mark.parametrize("lang", [None, "en", "de", "hu"])
def test_the_plain_csv_stays_byte_for_byte_the_same_in_every_page_language(
    client: FlaskClient, games: dict[str, dict[str, Any]], lang: str | None
) -> None:
    if lang:
        client.set_cookie("lang", lang)
    for name, expected in (("classic", PLAIN_CLASSIC), ("hat-trick", PLAIN_HAT_TRICK)):
        answer = client.get(f"/g/{games[name]['id']}/export.csv")
        assert answer.status_code == 200
        assert answer.get_data() == expected.encode("utf-8"), name
    english = client.get(f"/g/{games['classic']['id']}/export.csv?lang=en")
    assert english.get_data() == PLAIN_CLASSIC.encode("utf-8")


# --------------------------------------------------------------------------------------------
# The localized export, for a spreadsheet in the player's language

#: How each language's spreadsheets name the first column (a check of the catalog).
ROUND_COLUMN = {"de": "Runde", "it": "Manche", "fr": "Manche", "hu": "Forduló"}


def localized_csv(client: FlaskClient, code: str, lang: str) -> tuple[str, str]:
    """The export of ``code`` in ``lang``: its text (byte order mark checked and dropped)
    and the separator that language's spreadsheets expect."""
    answer = client.get(f"/g/{code}/export.csv?lang={lang}")
    assert answer.status_code == 200
    assert answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"] == (
        f'attachment; filename="sticheln-{code}-{lang}.csv"'
    )
    body = answer.get_data()
    assert body.startswith("\ufeff".encode()), "spreadsheets need the mark to read UTF-8"
    decimal_comma = get_decimal_symbol(lang) == ","
    return body.decode("utf-8-sig"), ";" if decimal_comma else ","


@pytest.mark.parametrize("lang", ["de", "it", "fr", "hu"])
def test_a_localized_csv_has_the_languages_words_and_separator(
    app: Flask, client: FlaskClient, games: dict[str, dict[str, Any]], lang: str
) -> None:
    code = games["classic"]["id"]
    text, separator = localized_csv(client, code, lang)
    assert separator == ";"  # these languages write decimals with a comma

    header, *rows = list(csv.reader(io.StringIO(text), delimiter=separator))
    plain_header, *plain_rows = csv_of(client, code)

    assert header[0] == ROUND_COLUMN[lang]
    assert len(header) == len(CSV_COLUMNS) and all(header)
    assert not set(header) & set(CSV_COLUMNS)
    assert len(rows) == len(plain_rows)
    with app.test_request_context(), force_locale(lang):
        for row, plain in zip(rows, plain_rows, strict=True):
            numbers = (0, 1, 2, 5, 6, 7)  # round, seat, player, tricks, score, total
            assert [row[i] for i in numbers] == [plain[i] for i in numbers]
            colour, value = plain[3].split()
            assert row[3] == f"{colour_name(colour)} {value}"
            assert row[4] == colour_name(plain[4])


@pytest.mark.parametrize("lang", ["de", "it", "fr", "hu"])
def test_a_localized_hat_trick_csv_has_the_counts_and_pass_cards_in_the_languages_words(
    app: Flask, client: FlaskClient, games: dict[str, dict[str, Any]], lang: str
) -> None:
    code = games["hat-trick"]["id"]
    text, separator = localized_csv(client, code, lang)
    header, *rows = list(csv.reader(io.StringIO(text), delimiter=separator))
    plain_header, *plain_rows = csv_of(client, code)
    assert header[0] == ROUND_COLUMN[lang]
    assert len(header) == len(HAT_TRICK_CSV_COLUMNS) and all(header)
    assert not set(header) & set(HAT_TRICK_CSV_COLUMNS)
    with app.test_request_context(), force_locale(lang):
        for row, plain in zip(rows, plain_rows, strict=True):
            assert row[:7] + row[8:] == plain[:7] + plain[8:]  # numbers and names
            cards = [card.split() for card in plain[7].split("; ") if card]
            assert row[7] == ", ".join(f"{colour_name(c)} {value}" for c, value in cards)


def test_a_localized_csv_keeps_formula_names_as_text(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    text, separator = localized_csv(client, games["hat-trick"]["id"], "fr")
    _header, *rows = list(csv.reader(io.StringIO(text), delimiter=separator))
    assert [row[2] for row in rows[:4]] == ["Ben", "'=SUM(A1:A9)", "Fay", "'@Gus"]


def test_an_export_in_a_language_the_app_does_not_speak_is_not_found(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    for lang in ("xx", "", "de-DE", "<b>"):
        answer = client.get(f"/g/{games['classic']['id']}/export.csv", query_string={"lang": lang})
        assert answer.status_code == 404, lang


@pytest.mark.parametrize("lang", ["en", "de", "it", "fr", "hu"])
def test_a_games_pages_link_the_csv_of_their_language(
    client: FlaskClient, games: dict[str, dict[str, Any]], lang: str
) -> None:
    code = games["classic"]["id"]
    client.set_cookie("lang", lang)
    expected = f"/g/{code}/export.csv" + ("" if lang == "en" else f"?lang={lang}")
    for page in (f"/g/{code}", f"/g/{code}/view"):
        links = read_page(client.get(page).get_data(as_text=True)).find_all("a", download=True)
        csv_links = [link.get("href") for link in links if "export.csv" in str(link.get("href"))]
        assert csv_links == [expected], page
