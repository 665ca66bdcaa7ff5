"""Switching between quick entry and every card keeps what carries and says what it drops,
before and after; recording before marking asks each seat's indicator first.

A switch posts the form to the other mode's address with ``action=switch``: nothing is
checked or saved. Without JavaScript the record page before marking shows each seat's
indicator only, and Continue opens the seats whose indicator is chosen.
"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from companion.rules import tricks_of_cards
from scripts.page_reader import Element, read_page
from tests.games.round_helpers import (
    NAMES,
    database,
    form_fields,
    page_of,
    seat_fields,
    seats_with_errors,
    send,
    top_errors,
)
from tests.table import Table

PLAYERS = len(NAMES)
#: A round of four players before the switch: Ann's three tricks list one red card; Ben
#: has only his indicator.
QUICK_TYPED = [
    seat_fields(0, marked=["red-4"], tricks=3, marked_captured=["red-2"]),
    seat_fields(1, marked=["blue-1"]),
]
#: Every card: Ann's eight cards make two tricks, one of them red; Ben's three make none.
ANN_CARDS = ["red-2", "green-0", "green-1", "green-2", "brown-3", "brown-4", "yellow-5", "yellow-6"]
BEN_CARDS = ["blue-3", "green-8", "brown-9"]
FULL_TYPED = [
    seat_fields(0, marked=["red-4"], captured=ANN_CARDS),
    seat_fields(1, marked=["blue-1"], captured=BEN_CARDS),
]


def new_game(table: Table, variant: str = "classic") -> str:
    return str(table.new_game(NAMES, variant, rounds=5, edit_here=True)["id"])


def warnings_shown(page: str) -> list[str]:
    """The ``data-warn`` of the warnings beside the switch that the page shows."""
    return [
        str(warning.get("data-warn"))
        for warning in read_page(page).find_all("p", class_="round-modes__warning")
        if warning.get("hidden") is None
    ]


def switched_notice(page: str) -> list[str]:
    """The lines of the notice a switch leaves."""
    notice = read_page(page).find(data_switched=True)
    assert notice.get("role") == "status"
    return [line.words() for line in notice.find_all("p")]


def switch_buttons(page: str) -> list[Element]:
    return read_page(page).find_all("button", data_switch=True)


def test_the_other_mode_is_a_button_of_the_round_form(client: FlaskClient, table: Table) -> None:
    code = new_game(table)
    page = page_of(client, f"/g/{code}/rounds/record")
    (button,) = switch_buttons(page)
    assert button.text == "Every card"
    assert button.get("form") == "round-form" and button.get("type") == "submit"
    assert (button.get("name"), button.get("value")) == ("action", "switch")
    assert button.get("formaction") == f"/g/{code}/rounds/record?mode=full"
    assert read_page(page).find("form", id="round-form").get("method") == "post"
    assert warnings_shown(page) == []  # nothing typed, nothing to lose


def test_quick_to_every_card_keeps_indicators_and_marked_cards_and_says_the_tricks_are_not(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    url = f"/g/{code}/rounds/record"
    page = page_of(client, url)
    before = send(client, url, page, QUICK_TYPED, "continue")
    assert before.status_code == 200
    assert warnings_shown(before.get_data(as_text=True)) == ["to-full"]

    rows = database(app)
    switched = send(client, f"{url}?mode=full", page, QUICK_TYPED, "switch")
    assert switched.status_code == 200
    after = switched.get_data(as_text=True)
    assert database(app) == rows  # a switch saves nothing
    fields = form_fields(after)
    assert read_page(after).find("form", id="round-form").get("data-kind") == "full"
    assert fields["s0-marked"] == ["red-4"] and fields["s1-marked"] == ["blue-1"]
    assert fields["s0-captured"] == ["red-2"]
    assert "s1-captured" not in fields and "s0-tricks" not in fields
    kept, dropped = switched_notice(after)
    assert kept == "Switched to every card. Kept: the indicators and the marked-colour cards."
    assert dropped == "Not kept: the tricks won by Ann (3); enter every card of their tricks."
    assert top_errors(after) == [] and seats_with_errors(after) == []  # no checks shown


def test_every_card_to_quick_counts_the_tricks_and_names_the_cards_kept_only_as_a_count(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    url = f"/g/{code}/rounds/record?mode=full"
    page = page_of(client, url)
    before = send(client, url, page, FULL_TYPED, "check")
    assert set(warnings_shown(before.get_data(as_text=True))) == {"to-quick", "no-whole-tricks"}

    rows = database(app)
    switched = send(client, f"/g/{code}/rounds/record?mode=quick", page, FULL_TYPED, "switch")
    assert switched.status_code == 200
    after = switched.get_data(as_text=True)
    assert database(app) == rows
    fields = form_fields(after)
    assert fields["s0-marked"] == ["red-4"] and fields["s1-marked"] == ["blue-1"]
    assert fields["s0-tricks"] == [str(tricks_of_cards(len(ANN_CARDS), PLAYERS))]
    assert tricks_of_cards(len(BEN_CARDS), PLAYERS) is None
    assert "s1-tricks" not in fields  # three cards make no whole trick: no count is made up
    assert "s2-tricks" not in fields  # nor for a seat with nothing entered
    assert fields["s0-marked_captured"] == ["red-2"]
    assert fields["s1-marked_captured"] == ["blue-3"]
    kept, counted, lost = switched_notice(after)
    assert kept.startswith("Switched to quick entry. Kept: the indicators")
    assert counted == "Kept only in the trick count: the cards of other colours of Ann (7)."
    assert lost == (
        "Not kept: the cards of other colours of Ben (2), which make no whole number of tricks."
    )
    assert top_errors(after) == [] and seats_with_errors(after) == []


def test_every_card_without_other_colours_switches_with_no_warning(
    client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    url = f"/g/{code}/rounds/record?mode=full"
    typed = [seat_fields(0, marked=["red-4"], captured=["red-2", "red-3", "red-5", "red-6"])]
    before = send(client, url, page_of(client, url), typed, "check")
    assert warnings_shown(before.get_data(as_text=True)) == []
    after = send(client, f"/g/{code}/rounds/record", page_of(client, url), typed, "switch")
    fields = form_fields(after.get_data(as_text=True))
    assert fields["s0-tricks"] == ["1"] and fields["s0-marked_captured"] == typed[0]["s0-captured"]
    assert len(switched_notice(after.get_data(as_text=True))) == 1  # kept, nothing dropped


def test_a_correction_switches_modes_without_changing_the_saved_round(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    url = f"/g/{code}/rounds/record?mode=full"
    deck = [f"{c}-{v}" for c in ("green", "brown", "red", "blue", "yellow") for v in range(12)]
    marked = ["red-4", "blue-1", "green-7", "yellow-0"]
    rest = [card for card in deck if card not in marked]
    seats = [
        seat_fields(s, marked=[marked[s]], captured=rest[s * 12 : s * 12 + 12]) for s in range(4)
    ]
    seats[3] = seat_fields(3, marked=[marked[3]], captured=rest[36:])
    saved = send(client, url, page_of(client, url), seats)
    assert saved.status_code == 302, saved.get_data(as_text=True)[:3000]
    rows = database(app)
    correct = f"/g/{code}/rounds/1"
    page = page_of(client, correct)
    switched = send(client, f"{correct}?mode=quick", page, [], "switch")
    after = switched.get_data(as_text=True)
    assert switched.status_code == 200 and database(app) == rows
    fields = form_fields(after)
    assert fields["s0-tricks"] == [str(tricks_of_cards(12, PLAYERS))]
    assert fields["s3-tricks"] == [str(tricks_of_cards(len(rest) - 36, PLAYERS))]
    assert fields["s0-marked"] == ["red-4"]
    assert switched_notice(after)[1].startswith("Kept only in the trick count")


def test_hat_trick_cards_become_counts_and_counts_are_said_to_be_dropped(
    client: FlaskClient, table: Table
) -> None:
    code = new_game(table, "hat-trick")
    full = f"/g/{code}/rounds/record?mode=full"
    typed = [seat_fields(0, captured=["red-3", "red-9", "blue-2"], passed=["green-5"])]
    before = send(client, full, page_of(client, full), typed, "check")
    assert warnings_shown(before.get_data(as_text=True)) == ["hat-to-quick"]
    quick = send(client, f"/g/{code}/rounds/record", page_of(client, full), typed, "switch")
    page = quick.get_data(as_text=True)
    fields = form_fields(page)
    assert [fields[f"s0-{name}"] for name in ("red", "blue", "green", "passed")] == [
        ["2"],
        ["1"],
        ["0"],
        ["1"],
    ]
    assert "s1-red" not in fields  # a count nobody entered is not 0
    assert switched_notice(page)[1] == (
        "Kept only as counts: the cards of Ann (4), not which cards they were."
    )
    assert warnings_shown(page) == ["hat-to-full"]
    back = send(client, full, page, [], "switch").get_data(as_text=True)
    assert "s0-captured" not in form_fields(back)
    assert switched_notice(back)[1] == (
        "Not kept: the counts of Ann (4); enter their cards one by one."
    )


# --------------------------------------------------------------------------------------------
# Recording before marking


def seat_state(page: str, seat: int) -> tuple[bool, bool]:
    """Whether the seat's tricks and cards are shown, and whether its waiting note is."""
    part = read_page(page).find("fieldset", id=f"seat-{seat}")
    rest = part.find("div", data_seat_rest=True)
    note = part.find("p", data_seat_waiting=True)
    return rest.get("hidden") is None, note.get("hidden") is None


def step_buttons(page: str) -> dict[str, bool]:
    """Which button rows the page shows: the indicators step's and the round's."""
    return {
        str(row.get("data-step")): row.get("hidden") is None
        for row in read_page(page).find_all("div", data_step=True)
    }


def test_before_marking_the_record_page_asks_only_the_indicators(
    client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    page = page_of(client, f"/g/{code}/rounds/record")
    assert [seat_state(page, seat) for seat in range(PLAYERS)] == [(False, True)] * PLAYERS
    assert step_buttons(page) == {"indicators": True, "round": False}
    buttons = read_page(page).find("div", data_step="indicators").find_all("button")
    assert [(b.text, b.get("value")) for b in buttons] == [("Continue", "continue")]


def test_continue_opens_the_seats_whose_indicator_is_chosen_with_their_colour_only(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    url = f"/g/{code}/rounds/record"
    rows = database(app)
    answer = send(client, url, page_of(client, url), [seat_fields(0, marked=["red-4"])], "continue")
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert database(app) == rows  # the indicators travel in the form, nothing is saved
    assert seat_state(page, 0) == (True, False)
    assert [seat_state(page, seat) for seat in (1, 2, 3)] == [(False, True)] * 3
    captures = read_page(page).find("fieldset", data_field="s0-marked_captured")
    shown = [g.get("data-colour") for g in captures.find_all("div", class_="chip-group")
             if g.get("hidden") is None]  # fmt: skip
    assert shown == ["red"]  # C4: only the marked colour's cards
    assert form_fields(page)["s0-marked"] == ["red-4"]
    assert top_errors(page) == [] and seats_with_errors(page) == []
    assert step_buttons(page) == {"indicators": True, "round": False}

    every = [
        seat_fields(s, marked=[c]) for s, c in enumerate(["red-4", "blue-1", "green-7", "yellow-0"])
    ]
    done = send(client, url, page, every, "continue").get_data(as_text=True)
    assert [seat_state(done, seat) for seat in range(PLAYERS)] == [(True, False)] * PLAYERS
    assert step_buttons(done) == {"round": True}


def test_a_marked_round_opens_every_seat_at_once(client: FlaskClient, table: Table) -> None:
    code = new_game(table)
    url = f"/g/{code}/rounds/mark"
    marks = [
        seat_fields(s, marked=[c]) for s, c in enumerate(["red-4", "blue-1", "green-7", "yellow-0"])
    ]
    assert send(client, url, page_of(client, url), marks, "").status_code == 302
    page = page_of(client, f"/g/{code}/rounds/record")
    assert [seat_state(page, seat) for seat in range(PLAYERS)] == [(True, False)] * PLAYERS
    assert step_buttons(page) == {"round": True}
