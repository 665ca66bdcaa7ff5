"""What the round pages refuse (the checks, C1-C6), where they say it, and that a refusal
saves nothing: each message stands next to the seat it names (a message naming no seat at
the top), the table's input stays in the form, and the database is exactly as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from babel.support import Translations
from flask import Flask
from flask.testing import FlaskClient

import companion
from companion.rules import (
    Card,
    Colour,
    implied_hat_trick_count,
    implied_tricks,
    seats_at_zero_passes,
    table_setup,
    variant_named,
)
from companion.rules.checks import (
    check_cards_named_once,
    check_hat_trick_holdings,
    check_hat_trick_playable,
    check_indicators,
    check_marked_captures,
    check_trick_total,
    check_tricks_of_seat,
    tricks_from_captures,
)
from companion.web.edit_rights import SESSION_KEYS
from scripts.page_reader import read_page
from tests.games.round_helpers import (
    CONFLICT,
    NAMES,
    assert_redirects_to_scoreboard,
    checked_cards,
    database,
    form_fields,
    game_state,
    messages_in,
    page_of,
    quick_round,
    refusal,
    seat_errors,
    seat_fields,
    seat_section,
    seat_text,
    seats_with_errors,
    send,
    text_of,
    top_errors,
)
from tests.table import Table

#: The deck of a classic game of four (R2).
DECK = table_setup(4, variant_named("classic")).deck

#: A classic round of four that adds up (the first round of the whole-game test).
GOOD_ROUND = [
    {"marked": ["red-4"], "tricks": 4, "marked_captured": ["red-2", "red-5"]},
    {"marked": ["blue-1"], "tricks": 4, "marked_captured": ["blue-0", "blue-2", "blue-8"]},
    {"marked": ["green-7"], "tricks": 3, "marked_captured": []},
    {"marked": ["yellow-0"], "tricks": 3, "marked_captured": ["yellow-11"]},
]


def with_changes(seats: list[dict[str, Any]], **changes: dict[str, Any]) -> list[dict[str, Any]]:
    """``seats`` with some seats' fields changed: ``with_changes(GOOD_ROUND, s1={...})``."""
    changed = [dict(seat) for seat in seats]
    for key, fields in changes.items():
        changed[int(key[1:])].update(fields)
    return changed


def refused(app: Flask, client: FlaskClient, url: str, seats: list[dict[str, Any]]) -> str:
    """Send a round the rules refuse; assert that nothing changed and answer the page."""
    before = database(app)
    response = quick_round(client, url, seats)
    assert response.status_code == 422, response.get_data(as_text=True)[:2000]
    assert database(app) == before
    return response.get_data(as_text=True)


@pytest.fixture
def classic(client: FlaskClient, table: Table) -> str:
    """A classic game of four, editable from the test client."""
    return table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]


# --------------------------------------------------------------------------------------------
# C3: tricks


def test_tricks_that_do_not_add_up_are_refused_at_the_top_with_what_is_missing(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    page = refused(app, client, url, with_changes(GOOD_ROUND, s2={"tricks": 1}))
    expected = refusal(app, lambda: check_trick_total([4, 4, 1, 3], 14))
    assert top_errors(page) == [expected]
    assert "2 still to assign" in expected
    assert seats_with_errors(page) == []
    assert "Tricks assigned: 12 of 14 · 2 still to assign" in text_of(page)
    assert form_fields(page)["s2-tricks"] == ["1"]  # the input is kept
    assert sorted(checked_cards(page, "s1-marked_captured")) == ["blue-0", "blue-2", "blue-8"]


def test_more_tricks_than_the_round_has_are_refused_next_to_that_player(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    page = refused(app, client, url, with_changes(GOOD_ROUND, s1={"tricks": 15}))
    expected = refusal(app, lambda: check_tricks_of_seat(1, 15, 14))
    assert seat_errors(page, 1) == [expected]
    assert expected.startswith("Ben ")
    assert seats_with_errors(page) == [1]
    assert not top_errors(page)


def test_a_trick_count_that_is_no_number_is_refused_next_to_the_field(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    page = refused(app, client, url, with_changes(GOOD_ROUND, s3={"tricks": "three"}))
    # No number chip holds "three", so none is shown tapped (nor the others' implied count).
    assert "s3-tricks" not in form_fields(page)
    assert form_fields(page)["s2-tricks"] == [str(GOOD_ROUND[2]["tricks"])]
    assert "round-errors--field" in seat_section(page, 3)
    assert "round-errors--field" not in seat_section(page, 0)


# --------------------------------------------------------------------------------------------
# C1: each card once, from the deck in use


def test_a_card_named_by_two_players_is_refused_next_to_the_second(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    seats = with_changes(GOOD_ROUND, s2={"marked": ["red-7"], "marked_captured": ["red-2"]})
    page = refused(app, client, url, seats)
    twice = [(0, Card(Colour.RED, 2)), (2, Card(Colour.RED, 2))]
    expected = refusal(app, lambda: check_cards_named_once(twice, DECK))
    assert seat_errors(page, 2) == [expected]
    assert "Ann" in expected and "Cleo" in expected and "red 2" in expected.lower()
    assert seats_with_errors(page) == [2]
    assert '<a href="#seat-2">Cleo</a>' in page  # a link down to the seat from the top
    assert "chip--refused" in seat_section(page, 2)  # the chip itself is marked
    assert "chip--refused" not in seat_section(page, 0)


def test_a_card_outside_the_deck_in_use_is_refused_next_to_the_player(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    page = refused(app, client, url, with_changes(GOOD_ROUND, s0={"marked_captured": ["red-15"]}))
    outside = [(0, Card(Colour.RED, 15))]
    expected = refusal(app, lambda: check_cards_named_once(outside, DECK))
    assert seat_errors(page, 0) == [expected]
    assert "Ann" in expected and "red 15" in expected


def test_a_value_no_chip_sends_is_refused_next_to_the_field(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    page = refused(app, client, url, with_changes(GOOD_ROUND, s1={"marked_captured": ["pink-3"]}))
    assert "“pink-3” is not a card." in seat_section(page, 1)


# --------------------------------------------------------------------------------------------
# C2: indicators


def test_a_player_without_an_indicator_is_refused_next_to_them(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    page = refused(app, client, url, with_changes(GOOD_ROUND, s3={"marked": []}))
    expected = refusal(app, lambda: check_indicators(3, (), 1))
    assert seat_errors(page, 3) == [expected]
    assert expected.startswith("Dan ") and "(C2)" in expected


def test_two_indicators_of_one_colour_are_refused_when_marking_two_colours(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "aggravated", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/mark"
    page = page_of(client, url)
    indicators = [["red-4", "blue-2"], ["green-0", "green-3"], ["brown-6", "red-7"]]
    indicators.append(["blue-11", "yellow-1"])
    before = database(app)
    changes = [seat_fields(seat, marked=cards) for seat, cards in enumerate(indicators)]
    response = send(client, url, page, changes, "")
    assert response.status_code == 422
    assert database(app) == before
    refused_page = response.get_data(as_text=True)
    same = (Card(Colour.GREEN, 0), Card(Colour.GREEN, 3))
    expected = refusal(app, lambda: check_indicators(1, same, 2))
    assert seat_errors(refused_page, 1) == [expected]
    assert "Ben" in expected and "green 3" in expected
    assert seats_with_errors(refused_page) == [1]
    assert checked_cards(refused_page, "s3-marked") == ["blue-11", "yellow-1"]


def test_an_indicator_given_twice_on_the_mark_page_names_the_second_player(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/mark"
    page = page_of(client, url)
    changes = [
        seat_fields(seat, marked=["red-4" if seat in (0, 2) else f"blue-{seat}"])
        for seat in range(4)
    ]
    before = database(app)
    response = send(client, url, page, changes, "")
    assert response.status_code == 422 and database(app) == before
    twice = [(0, Card(Colour.RED, 4)), (2, Card(Colour.RED, 4))]
    expected = refusal(app, lambda: check_cards_named_once(twice, DECK))
    assert seat_errors(response.get_data(as_text=True), 2) == [expected]


# --------------------------------------------------------------------------------------------
# C4: marked-colour captures in quick entry


def test_a_capture_of_another_colour_is_refused_in_quick_entry(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    seats = with_changes(GOOD_ROUND, s0={"marked_captured": ["red-2", "blue-3"]})
    page = refused(app, client, url, seats)
    listed = (Card(Colour.RED, 2), Card(Colour.BLUE, 3))
    expected = refusal(app, lambda: check_marked_captures(0, (Colour.RED,), listed, 4, 4))
    assert seat_errors(page, 0) == [expected]
    assert "Ann" in expected and "blue 3" in expected
    assert seats_with_errors(page) == [0]


def test_more_marked_captures_than_tricks_bring_are_refused(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    seats = with_changes(
        GOOD_ROUND,
        s0={"tricks": 1, "marked_captured": ["red-0", "red-1", "red-2", "red-3", "red-5"]},
        s2={"tricks": 6},
    )
    page = refused(app, client, url, seats)
    listed = tuple(Card(Colour.RED, value) for value in (0, 1, 2, 3, 5))
    expected = refusal(app, lambda: check_marked_captures(0, (Colour.RED,), listed, 1, 4))
    assert seat_errors(page, 0) == [expected]
    assert "Ann" in expected and "(C4)" in expected


def test_a_wrong_trick_total_and_a_wrong_capture_are_shown_together_in_one_answer(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    """C3 and C4 in one round: both refusals come in the first answer, the total (no seat)
    at the top and the capture beside Ann's seat, and nothing is saved."""
    url = f"/g/{classic}/rounds/record"
    seats = with_changes(GOOD_ROUND, s0={"marked_captured": ["red-2", "blue-3"]}, s2={"tricks": 1})
    page = refused(app, client, url, seats)
    listed = (Card(Colour.RED, 2), Card(Colour.BLUE, 3))
    capture = refusal(app, lambda: check_marked_captures(0, (Colour.RED,), listed, 4, 4))
    total = refusal(app, lambda: check_trick_total([4, 4, 1, 3], 14))
    assert top_errors(page) == [total]
    assert seat_errors(page, 0) == [capture]
    assert seats_with_errors(page) == [0]


def test_problems_of_two_players_are_each_shown_beside_their_seat(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    """C2 (Dan lays out no indicator) and C4 (Ann lists a card of another colour): each
    beside its own seat, in one answer, on the record page and on the correct page."""
    url = f"/g/{classic}/rounds/record"
    seats = with_changes(GOOD_ROUND, s0={"marked_captured": ["red-2", "blue-3"]}, s3={"marked": []})
    listed = (Card(Colour.RED, 2), Card(Colour.BLUE, 3))
    capture = refusal(app, lambda: check_marked_captures(0, (Colour.RED,), listed, 4, 4))
    indicator = refusal(app, lambda: check_indicators(3, (), 1))
    page = refused(app, client, url, seats)
    assert seat_errors(page, 0) == [capture]
    assert seat_errors(page, 3) == [indicator]
    assert seats_with_errors(page) == [0, 3]
    assert_redirects_to_scoreboard(quick_round(client, url, GOOD_ROUND), classic)
    page = refused(app, client, f"/g/{classic}/rounds/1", seats)
    assert seat_errors(page, 0) == [capture]
    assert seat_errors(page, 3) == [indicator]


def test_full_entry_captures_that_are_no_whole_tricks_are_refused(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record?mode=full"
    seats = [
        {"marked": ["red-4"], "captured": ["red-2", "red-5", "blue-3"]},
        {"marked": ["blue-1"], "captured": []},
        {"marked": ["green-7"], "captured": []},
        {"marked": ["yellow-0"], "captured": []},
    ]
    page = refused(app, client, url, seats)
    expected = refusal(app, lambda: tricks_from_captures(0, 3, 4))
    assert seat_errors(page, 0) == [expected]
    assert "Ann" in expected and "(C3)" in expected
    assert "Cards entered: 3 · tricks: ?" in seat_text(page, 0)


# --------------------------------------------------------------------------------------------
# C5: Hat Trick


def test_hat_trick_counts_over_a_players_most_are_refused_next_to_the_player(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    seats = [
        {"red": 0, "blue": 0, "green": 0, "passed": 0},
        {"red": 20, "blue": 20, "green": 17, "passed": 0},
        {"red": 0, "blue": 0, "green": 0, "passed": 0},
        {"red": 0, "blue": 0, "green": 0, "passed": 0},
    ]
    page = refused(app, client, f"/g/{code}/rounds/record", seats)
    holdings = [(0, 0), (57, 0), (0, 0), (0, 0)]
    expected = refusal(app, lambda: check_hat_trick_holdings(holdings, 14, 4))
    assert seat_errors(page, 1) == [expected]
    assert "Ben" in expected and "57" in expected
    assert seats_with_errors(page) == [1]


def test_hat_trick_totals_that_miss_cards_are_refused_at_the_top(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    seats = [
        {"red": 9, "blue": 2, "green": 4, "passed": 1},
        {"red": 3, "blue": 10, "green": 1, "passed": 0},
        {"red": 5, "blue": 3, "green": 8, "passed": 2},
        {"red": 2, "blue": 4, "green": 0, "passed": 0},
    ]
    page = refused(app, client, f"/g/{code}/rounds/record", seats)
    holdings = [(15, 1), (14, 0), (16, 2), (6, 0)]
    expected = refusal(app, lambda: check_hat_trick_holdings(holdings, 14, 4))
    assert top_errors(page) == [expected]
    assert "54" in expected and "56" in expected
    assert seats_with_errors(page) == []
    assert "Cards accounted for: 54 of 56 · 2 still unaccounted for" in text_of(page)
    assert form_fields(page)["s3-passed"] == ["0"]


def test_hat_trick_a_forgotten_pass_is_caught_by_the_c5_totals(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """Passes start at 0; every colour count entered but a pass forgotten leaves the table
    one card short, and C5 refuses the round."""
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    seats = [
        {"red": 9, "blue": 2, "green": 4},  # this seat passed once: not entered
        {"red": 3, "blue": 10, "green": 1},
        {"red": 5, "blue": 3, "green": 8, "passed": 2},
        {"red": 3, "blue": 5, "green": 0},
    ]
    url = f"/g/{code}/rounds/record"
    page = page_of(client, url)
    assert form_fields(page)["s0-passed"] == ["0"]
    response = send(client, url, page, [seat_fields(s, **v) for s, v in enumerate(seats)])
    assert response.status_code == 422
    holdings = [(15, 0), (14, 0), (16, 2), (8, 0)]
    expected = refusal(app, lambda: check_hat_trick_holdings(holdings, 14, 4))
    assert top_errors(response.get_data(as_text=True)) == [expected]


def test_hat_trick_without_javascript_the_last_count_is_filled_in_from_c5(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    seats = [
        {"red": 9, "blue": 2, "green": 4, "passed": 1},
        {"red": 3, "blue": 10, "green": 1},
        {"red": 5, "blue": 3, "green": 8, "passed": 2},
        {"red": 3, "blue": 5},
    ]
    url = f"/g/{code}/rounds/record"
    before = database(app)
    response = quick_round(client, url, seats, action="check")
    assert response.status_code == 200
    assert database(app) == before
    page = response.get_data(as_text=True)
    counts: list[int | None] = [
        seat.get(name, 0 if name == "passed" else None)
        for seat in seats
        for name in ("red", "blue", "green", "passed")
    ]
    implied = implied_hat_trick_count(counts, table_setup(4, variant_named("hat-trick")))
    assert implied is not None and implied.index == 14
    assert form_fields(page)["s3-green"] == [str(implied.value)]
    assert read_page(page).find("fieldset", data_count_field="s3-green").get("data-implied")
    assert "Cards accounted for: 56 of 56 · all accounted for" in text_of(page)
    assert_redirects_to_scoreboard(send(client, url, page, []), code)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_hat_trick_the_implied_count_names_the_players_whose_passes_are_at_0(
    app: Flask, client: FlaskClient, table: Table, lang: str
) -> None:
    """A pass forgotten at a seat still at 0 passes goes into the implied count unnoticed
    (C5's totals still add up), so the note under it asks about those players."""
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    client.get(f"/lang/{lang}")
    seats = [
        {"red": 9, "blue": 2, "green": 4, "passed": 1},
        {"red": 3, "blue": 10, "green": 1},  # passes left at 0
        {"red": 5, "blue": 3, "green": 8, "passed": 2},
        {"red": 1, "blue": 5},  # passes left at 0; green follows from the others
    ]
    url = f"/g/{code}/rounds/record"
    page = quick_round(client, url, seats, action="check").get_data(as_text=True)
    counts: list[int | None] = [
        seat.get(name, 0 if name == "passed" else None)
        for seat in seats
        for name in ("red", "blue", "green", "passed")
    ]
    implied = implied_hat_trick_count(counts, table_setup(4, variant_named("hat-trick")))
    assert implied is not None and implied.index == 14
    asked = seats_at_zero_passes(counts, implied)
    assert asked == (1, 3)
    note = read_page(page).find("fieldset", data_count_field="s3-green").find(data_zero_passes=True)
    catalog = Translations.load(str(Path(companion.__file__).parent / "translations"), [lang])
    question = catalog.gettext("%(names)s: 0 passes, right?")
    assert note.text.strip() == question % {"names": "Ben, Dan"}
    assert note.get("hidden") is None
    # no other count is implied, and no other note asks
    assert len(read_page(page).find_all(data_implied="true")) == 1


def test_hat_trick_more_passes_than_the_tricks_allow_are_refused_naming_the_passers(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """C5 from R19: 14 tricks of 4 allow 28 passes; 30 could not have been played."""
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    seats = [
        {"red": 0, "blue": 0, "green": 0, "passed": 10},
        {"red": 0, "blue": 0, "green": 0, "passed": 10},
        {"red": 0, "blue": 0, "green": 0, "passed": 10},
        {"red": 13, "blue": 13, "green": 0, "passed": 0},
    ]
    page = refused(app, client, f"/g/{code}/rounds/record", seats)
    holdings = [(0, 10), (0, 10), (0, 10), (26, 0)]
    expected = refusal(app, lambda: check_hat_trick_playable(holdings, 14, 4))
    assert seat_errors(page, 0) == [expected]
    assert all(name in expected for name in NAMES[:3]) and NAMES[3] not in expected
    assert "30" in expected and "28" in expected


def test_hat_trick_face_up_cards_of_a_seat_that_passed_every_trick_are_refused(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """C5 from R20: a seat that passed in all 14 tricks took no pile."""
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    seats = [
        {"red": 0, "blue": 14, "green": 0, "passed": 0},
        {"red": 14, "blue": 0, "green": 0, "passed": 14},
        {"red": 0, "blue": 0, "green": 14, "passed": 0},
        {"red": 0, "blue": 0, "green": 0, "passed": 0},
    ]
    page = refused(app, client, f"/g/{code}/rounds/record", seats)
    holdings = [(14, 0), (14, 14), (14, 0), (0, 0)]
    expected = refusal(app, lambda: check_hat_trick_playable(holdings, 14, 4))
    assert seat_errors(page, 1) == [expected]
    assert seats_with_errors(page) == [1]
    assert "Ben" in expected and "(C5)" in expected


def test_hat_trick_passes_over_one_a_trick_are_refused(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    seats = [
        {"red": 0, "blue": 0, "green": 0, "passed": 15},
        {"red": 10, "blue": 10, "green": 1, "passed": 0},
        {"red": 5, "blue": 3, "green": 8, "passed": 0},
        {"red": 2, "blue": 2, "green": 0, "passed": 0},
    ]
    page = refused(app, client, f"/g/{code}/rounds/record", seats)
    holdings = [(0, 15), (21, 0), (16, 0), (4, 0)]
    expected = refusal(app, lambda: check_hat_trick_holdings(holdings, 14, 4))
    assert seat_errors(page, 0) == [expected]
    assert "Ann" in expected and "15" in expected


def test_hat_trick_full_entry_refuses_a_card_both_face_up_and_passed(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    seats = [
        {"captured": ["red-1"], "passed": []},
        {"captured": [], "passed": ["red-1"]},
        {"captured": [], "passed": []},
        {"captured": [], "passed": []},
    ]
    page = refused(app, client, f"/g/{code}/rounds/record?mode=full", seats)
    twice = [(0, Card(Colour.RED, 1)), (1, Card(Colour.RED, 1))]
    hat_trick_deck = table_setup(4, variant_named("hat-trick")).deck
    expected = refusal(app, lambda: check_cards_named_once(twice, hat_trick_deck))
    assert seat_errors(page, 1) == [expected]


# --------------------------------------------------------------------------------------------
# Counting without JavaScript, checking before saving


def test_a_trick_count_is_one_chip_per_number_and_none_is_tapped_until_entered(
    client: FlaskClient, classic: str
) -> None:
    page = read_page(page_of(client, f"/g/{classic}/rounds/record"))
    for seat in range(len(NAMES)):
        chips = page.find("fieldset", data_count_field=f"s{seat}-tricks")
        radios = chips.find_all("input", type="radio")
        tricks = table_setup(len(NAMES), variant_named("classic")).tricks_per_round
        assert [radio.get("value") for radio in radios] == [str(n) for n in range(tricks + 1)]
        assert not any("checked" in radio.attrs for radio in radios)  # not entered is not 0


def test_without_javascript_check_fills_in_the_implied_trick_count_and_saves_nothing(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    """C3: with three seats' tricks entered, the fourth follows; the post shows it, marked
    implied, and a save confirms it."""
    url = f"/g/{classic}/rounds/record"
    before = database(app)
    seats = [dict(seat) for seat in GOOD_ROUND]
    del seats[2]["tricks"]
    response = quick_round(client, url, seats, action="save")  # a save that was not seen yet
    assert response.status_code == 200
    assert database(app) == before
    page = response.get_data(as_text=True)
    known = [seat["tricks"] for seat in seats if "tricks" in seat]
    implied = implied_tricks([*known[:2], None, known[2]], table_setup(4, variant_named("classic")))
    assert implied is not None and implied.value == GOOD_ROUND[2]["tricks"]
    assert form_fields(page)["s2-tricks"] == [str(implied.value)]
    field = read_page(page).find("fieldset", data_count_field="s2-tricks")
    assert field.get("data-implied") == "true"
    note = field.find("p", class_="count-chips__implied")
    assert "hidden" not in note.attrs and note.text == "Implied by the other counts: please check."
    assert (
        read_page(page).find("fieldset", data_count_field="s1-tricks").get("data-implied") is None
    )
    assert "Tricks assigned: 14 of 14 · all assigned" in text_of(page)
    assert_redirects_to_scoreboard(send(client, url, page, []), classic)


def test_two_open_trick_counts_imply_nothing_and_are_refused_beside_their_fields(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    seats = [dict(seat) for seat in GOOD_ROUND]
    del seats[2]["tricks"], seats[3]["tricks"]
    response = quick_round(client, url, seats, action="check")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "s2-tricks" not in form_fields(page) and "s3-tricks" not in form_fields(page)
    for seat in (2, 3):
        assert messages_in(seat_section(page, seat), "field") == ["Enter a number."]


def test_checking_a_round_shows_each_score_and_saves_nothing(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/record"
    before = database(app)
    response = quick_round(client, url, GOOD_ROUND, action="check")
    assert response.status_code == 200
    assert database(app) == before
    page = response.get_data(as_text=True)
    assert "The round adds up." in text_of(page)
    assert [text_of(f"<main>{seat_section(page, s)}</main>").split()[0:3] for s in (2, 3)] == [
        ["Cleo", "+5", "Indicator"],
        ["Dan", "0", "Indicator"],
    ]


# --------------------------------------------------------------------------------------------
# Two phones, and a phone without the edit key


def test_a_stale_version_keeps_the_input_shows_the_game_now_and_saves_on_a_second_send(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    """Another phone changed another round (it corrected round 1): round 2 is still the
    one this page was opened for, so the input stays, ready to be sent again as round 2.
    (A round taken by another phone meanwhile: tests/games/test_round_clashes.py.)"""
    url = f"/g/{classic}/rounds/record"
    assert_redirects_to_scoreboard(quick_round(client, url, GOOD_ROUND), classic)
    page = page_of(client, url)  # this phone opens "record round 2" ...
    other = app.test_client()  # ... and another phone corrects round 1 meanwhile
    with client.session_transaction() as session:
        keys = dict(session[SESSION_KEYS])
    with other.session_transaction() as session:
        session[SESSION_KEYS] = keys
    corrected = with_changes(GOOD_ROUND, s0={"tricks": 5}, s2={"tricks": 2})
    assert_redirects_to_scoreboard(quick_round(other, f"/g/{classic}/rounds/1", corrected), classic)
    before = database(app)

    mine = with_changes(GOOD_ROUND, s0={"tricks": 5}, s2={"tricks": 2})
    response = quick_round(client, url, mine, page=page)
    assert response.status_code == 409
    assert database(app) == before
    conflict = response.get_data(as_text=True)
    words = text_of(conflict)
    assert CONFLICT in words
    assert "Nothing was saved." in words
    assert "Now: 1 of 5 rounds scored." in words
    assert "Ann +7 Ben +2 Cleo +1 Dan 0" in words  # the totals as they are now
    assert "Record round 2" in words
    kept = form_fields(conflict)
    assert kept["s0-tricks"] == ["5"] and kept["s2-tricks"] == ["2"]
    assert sorted(kept["s1-marked_captured"]) == ["blue-0", "blue-2", "blue-8"]
    assert kept["version"] == [str(game_state(client, classic)["version"])]
    assert kept["number"] == ["2"]

    kept["action"] = ["save"]
    assert_redirects_to_scoreboard(client.post(url, data=kept), classic)
    state = game_state(client, classic)
    assert [r["scores"] for r in state["rounds"]] == [[7, 2, 1, 0], [7, 2, 1, 0]]


def test_a_stale_mark_page_keeps_the_indicators(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    url = f"/g/{classic}/rounds/mark"
    page = page_of(client, url)
    fields = form_fields(page)
    fields["version"] = ["0"]
    fields.update(seat_fields(0, marked=["red-4"]))
    before = database(app)
    response = client.post(url, data=fields)
    assert response.status_code == 409 and database(app) == before
    conflict = response.get_data(as_text=True)
    assert CONFLICT in text_of(conflict)
    assert form_fields(conflict)["s0-marked"] == ["red-4"]
    assert form_fields(conflict)["version"] == ["1"]


@pytest.mark.parametrize("path", ["rounds/mark", "rounds/record", "rounds/1"])
def test_a_phone_without_the_edit_key_gets_403_and_changes_nothing(
    app: Flask, client: FlaskClient, classic: str, path: str
) -> None:
    assert_redirects_to_scoreboard(
        quick_round(client, f"/g/{classic}/rounds/record", GOOD_ROUND), classic
    )
    stranger = app.test_client()
    before = database(app)
    for response in (
        stranger.get(f"/g/{classic}/{path}"),
        stranger.post(f"/g/{classic}/{path}", data={"version": "2", "action": "save"}),
    ):
        assert response.status_code in (400, 403)
    response = stranger.get(f"/g/{classic}/{path}")
    assert response.status_code == 403
    assert "This phone may only look at this game" in text_of(response.get_data(as_text=True))
    assert "edit link" in text_of(response.get_data(as_text=True))
    assert database(app) == before


def test_a_post_without_edit_rights_but_with_a_valid_token_is_forbidden(
    app: Flask, client: FlaskClient, classic: str
) -> None:
    page = page_of(client, f"/g/{classic}/rounds/record")
    with client.session_transaction() as session:
        session[SESSION_KEYS] = {}
    before = database(app)
    response = quick_round(client, f"/g/{classic}/rounds/record", GOOD_ROUND, page=page)
    assert response.status_code == 403
    assert database(app) == before


def test_a_round_number_the_game_does_not_have_is_not_found(
    client: FlaskClient, classic: str
) -> None:
    assert client.get(f"/g/{classic}/rounds/3").status_code == 404
    assert client.get("/g/nosuchgame/rounds/record").status_code == 404


@pytest.mark.parametrize("missing", [1, 2])
def test_the_progress_line_takes_the_singular_or_plural_of_the_page_language(
    app: Flask, client: FlaskClient, classic: str, missing: int
) -> None:
    """German says "1 ist" but "2 sind": the line is an ngettext, not one text for all."""
    client.get("/lang/de")
    seats = with_changes(GOOD_ROUND, s3={"tricks": GOOD_ROUND[3]["tricks"] - missing})
    page = refused(app, client, f"/g/{classic}/rounds/record", seats)
    catalog = Translations.load(str(Path(companion.__file__).parent / "translations"), ["de"])
    text = "%(missing)s still to assign"
    expected = catalog.ngettext(text, text, missing) % {"missing": missing}
    state = read_page(page).find("strong", data_progress_state=True)
    assert state.text == expected
    assert expected.startswith(f"{missing} {'ist' if missing == 1 else 'sind'} ")
