"""Every save confirmed: after a round is saved or corrected, the scoreboard says so (a status
notice) and tints that round's row, once, on the phone that saved. The note is neither kept by
the browser nor shared through the scoreboard's cache: a reload, or another phone, shows the
game without it."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, gettext

from scripts.page_reader import Element, read_page
from tests.games.round_helpers import NAMES, assert_redirects_to_scoreboard, quick_round
from tests.table import Table

#: A classic round of four that adds up to the 14 tricks (R2).
ROUND = [
    {"marked": ["red-4"], "tricks": 4, "marked_captured": ["red-2", "red-5"]},
    {"marked": ["blue-1"], "tricks": 4, "marked_captured": ["blue-0", "blue-2", "blue-8"]},
    {"marked": ["green-7"], "tricks": 3, "marked_captured": []},
    {"marked": ["yellow-0"], "tricks": 3, "marked_captured": ["yellow-11"]},
]
#: The same round with the tricks of the first two players swapped.
CORRECTED = [
    {**ROUND[0], "tricks": 3},
    ROUND[1],
    ROUND[2],
    {**ROUND[3], "tricks": 4},
]


def new_game(table: Table) -> str:
    """A classic game of four, editable from the test client."""
    code: str = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    return code


def record(client: FlaskClient, code: str) -> None:
    """Save the next round from the record page."""
    response = quick_round(client, f"/g/{code}/rounds/record", ROUND)
    assert_redirects_to_scoreboard(response, code)


def notices(page: str) -> list[str]:
    """The words of the save confirmations the page shows."""
    return [
        element.words()
        for element in read_page(page).find_all(role="status")
        if "notice--saved" in element.classes
    ]


def saved_rows(page: str) -> list[str]:
    """The round numbers of the score table's rows tinted as just saved."""
    table = read_page(page).find("table")
    rows: list[Element] = table.find_all("tr")
    return [row.find("th").words() for row in rows if "is-saved" in row.classes]


def test_the_scoreboard_confirms_a_saved_round_and_tints_its_row(
    client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    record(client, code)
    record(client, code)
    response = client.get(f"/g/{code}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert notices(page) == ["Round 2 saved."]
    assert saved_rows(page) == ["2"]
    # Shown once, on this phone: never kept by the browser, never revalidated into a 304.
    assert response.headers["Cache-Control"] == "no-store"
    assert "ETag" not in response.headers


def test_a_reload_shows_the_scoreboard_without_the_confirmation(
    client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    record(client, code)
    assert notices(client.get(f"/g/{code}").get_data(as_text=True)) == ["Round 1 saved."]
    again = client.get(f"/g/{code}")
    page = again.get_data(as_text=True)
    assert notices(page) == []
    assert saved_rows(page) == []
    assert "ETag" in again.headers  # the usual, cached scoreboard again
    revalidated = client.get(f"/g/{code}", headers={"If-None-Match": again.headers["ETag"]})
    assert revalidated.status_code == 304


def test_another_phone_never_sees_this_phones_confirmation(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    record(client, code)
    other = app.test_client()
    for url in (f"/g/{code}", f"/g/{code}/view"):
        page = other.get(url).get_data(as_text=True)
        assert notices(page) == []
        assert saved_rows(page) == []
    assert notices(client.get(f"/g/{code}").get_data(as_text=True)) == ["Round 1 saved."]


def test_the_confirmation_belongs_to_its_game(client: FlaskClient, table: Table) -> None:
    code = new_game(table)
    other_game = new_game(table)
    record(client, code)
    assert notices(client.get(f"/g/{other_game}").get_data(as_text=True)) == []
    assert notices(client.get(f"/g/{code}").get_data(as_text=True)) == ["Round 1 saved."]


def test_a_corrected_round_is_confirmed_and_its_row_tinted(
    client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    record(client, code)
    record(client, code)
    client.get(f"/g/{code}")
    response = quick_round(client, f"/g/{code}/rounds/1", CORRECTED)
    assert_redirects_to_scoreboard(response, code)
    page = client.get(f"/g/{code}").get_data(as_text=True)
    assert notices(page) == ["Round 1 corrected."]
    assert saved_rows(page) == ["1"]


def test_checking_a_round_confirms_nothing(client: FlaskClient, table: Table) -> None:
    code = new_game(table)
    response = quick_round(client, f"/g/{code}/rounds/record", ROUND, action="check")
    assert response.status_code == 200
    assert notices(client.get(f"/g/{code}").get_data(as_text=True)) == []


def test_the_confirmation_speaks_the_page_language(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    client.get("/lang/de")
    record(client, code)
    with app.test_request_context(), force_locale("de"):
        expected = gettext("Round %(number)s saved.", number=1)
    assert expected == "Runde 1 gespeichert."
    assert notices(client.get(f"/g/{code}").get_data(as_text=True)) == [expected]
