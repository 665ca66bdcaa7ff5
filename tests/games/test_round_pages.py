"""How the round pages behave around the rounds themselves: which page a game needs now,
an expired form, chips a colour-blind player can read, pages without inline scripts."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import db
from companion.rules.wording import COLOUR_SYMBOLS
from companion.services.games import abandon_game, get_game
from scripts.page_reader import read_page
from tests.assets.helpers import static_url
from tests.games.round_helpers import (
    NAMES,
    assert_redirects_to_scoreboard,
    database,
    form_fields,
    game_state,
    page_of,
    quick_round,
    seat_fields,
    send,
    text_of,
    top_errors,
)
from tests.table import Table

INDICATORS = ["red-4", "blue-1", "green-7", "yellow-0"]


def mark(client: FlaskClient, code: str) -> None:
    """Mark the next round's colours on the mark page."""
    url = f"/g/{code}/rounds/mark"
    changes = [seat_fields(seat, marked=[card]) for seat, card in enumerate(INDICATORS)]
    assert_redirects_to_scoreboard(send(client, url, page_of(client, url), changes, ""), code)


def test_the_mark_page_lists_the_seats_from_the_rounds_leader(
    client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, first_leader=2, edit_here=True)["id"]
    page = page_of(client, f"/g/{code}/rounds/mark")
    assert "Cleo leads the first trick." in text_of(page)  # R3
    fieldsets = read_page(page).find_all("fieldset", class_="round-seat")
    seats = [int(str(seat.get("id")).removeprefix("seat-")) for seat in fieldsets]
    assert seats == [2, 3, 0, 1]
    chip = read_page(page).find("input", name="s2-marked", value="red-4")
    assert chip.get("type") == "radio"


def test_once_colours_are_marked_the_mark_page_leads_to_the_record_page(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    mark(client, code)
    response = client.get(f"/g/{code}/rounds/mark")
    assert response.headers["Location"] == f"/g/{code}/rounds/record"
    page = page_of(client, f"/g/{code}/rounds/record")
    assert "indicator-fold" in page  # the marked indicators fold to their chips
    assert form_fields(page)["s2-marked"] == ["green-7"]


def test_marked_cards_are_left_out_of_the_capture_chips(client: FlaskClient, table: Table) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    mark(client, code)
    page = page_of(client, f"/g/{code}/rounds/record")
    read = read_page(page)
    assert read.find_all("input", name="s0-marked_captured", value="red-3")
    assert not read.find_all("input", name="s0-marked_captured", value="red-4")  # Ann's own
    assert not read.find_all("input", name="s1-marked_captured", value="blue-1")  # Ben's
    ann_captures = read_page(page).find(data_field="s0-marked_captured")
    blue = ann_captures.find("div", class_="chip-group", data_colour="blue")
    assert blue.get("hidden") is not None  # Ann marked red: blue chips start hidden


def test_an_expired_form_keeps_the_entries_and_saves_nothing(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/record"
    fields = form_fields(page_of(client, url))
    fields.update(seat_fields(0, marked=["red-4"], tricks=4, marked_captured=["red-2"]))
    fields["csrf_token"] = ["expired"]
    fields["action"] = ["save"]
    before = database(app)
    response = client.post(url, data=fields)
    assert response.status_code == 400
    assert database(app) == before
    page = response.get_data(as_text=True)
    assert "nothing was saved. Your entries are kept" in top_errors(page)[0]
    kept = form_fields(page)
    assert kept["s0-tricks"] == ["4"] and kept["s0-marked_captured"] == ["red-2"]
    assert kept["csrf_token"] != ["expired"]  # a fresh token to send them again with


def test_a_form_without_a_token_saves_nothing(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    before = database(app)
    data = {"version": "1", "s0-marked": "red-4"}
    response = client.post(f"/g/{code}/rounds/mark", data=data)
    assert response.status_code == 400
    assert database(app) == before


def test_an_abandoned_game_takes_no_round(app: Flask, client: FlaskClient, table: Table) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    with app.app_context():
        game = get_game(code)
        abandon_game(game, game.version)
        db.session.commit()
    for path in ("rounds/record", "rounds/mark"):
        response = client.get(f"/g/{code}/{path}")
        assert response.status_code == 409
        assert "This game was abandoned" in text_of(response.get_data(as_text=True))


def test_a_round_not_yet_scored_is_recorded_not_corrected(
    client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    mark(client, code)
    response = client.get(f"/g/{code}/rounds/1")
    assert response.headers["Location"] == f"/g/{code}/rounds/record"


def test_a_correction_can_switch_to_quick_entry_keeping_tricks_and_cursed_cards(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(["Ann", "Ben", "Cleo"], "classic", rounds=5, edit_here=True)["id"]
    deck = [f"{c}-{v}" for c in ("green", "brown", "red", "blue", "yellow") for v in range(9)]
    ann = ["red-2", "red-5", "brown-8"] + [f"yellow-{value}" for value in range(9)]
    ben = [f"brown-{value}" for value in range(8)] + ["blue-0", "blue-2", "blue-3", "blue-4"]
    marked = ["red-4", "blue-1", "green-7"]
    cleo = [card for card in deck if card not in ann + ben + marked]
    seats = [
        {"marked": ["red-4"], "captured": ann},
        {"marked": ["blue-1"], "captured": ben},
        {"marked": ["green-7"], "captured": cleo},
    ]
    url = f"/g/{code}/rounds/record?mode=full"
    assert_redirects_to_scoreboard(quick_round(client, url, seats), code)
    assert game_state(client, code)["rounds"][0]["scores"] == [-1, -2, -26]

    short_url = f"/g/{code}/rounds/1?mode=quick"  # the form is sent to the page's own URL
    short = form_fields(page_of(client, short_url))
    assert short["s0-tricks"] == ["4"] and short["s2-tricks"] == ["6"]
    assert short["s0-marked_captured"] == ["red-2", "red-5"]
    assert short["s2-marked_captured"] == [f"green-{v}" for v in (0, 1, 2, 3, 4, 5, 6, 8)]
    short["action"] = ["save"]
    assert_redirects_to_scoreboard(client.post(short_url, data=short), code)
    state = game_state(client, code)
    assert state["rounds"][0]["scores"] == [-1, -2, -26]  # the same round, told in short
    assert state["rounds"][0]["mode"] == "quick"


def test_chips_show_value_colour_symbol_and_name(client: FlaskClient, table: Table) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    page = page_of(client, f"/g/{code}/rounds/mark")
    picker = read_page(page).find("fieldset", data_field="s0-marked")
    red = picker.find("div", class_="chip-group", data_colour="red")  # its colour, and shape
    (label,) = [it for it in red.find_all("label") if it.find("input").get("value") == "red-7"]
    control, chip = label.children  # the chip is in the radio's label: one tap picks red 7
    # a screen reader says the card's name; the value is seen, not heard
    assert (control.get("type"), control.get("aria-label")) == ("radio", "red 7")
    seen = ("span", ["chip"], "true", "7")
    assert (chip.tag, chip.classes, chip.get("aria-hidden"), chip.text) == seen
    assert static_url("chips.css") in page  # which draws the group's colour and its shape


def test_the_stylesheet_draws_each_colours_shape_as_the_rules_name_it() -> None:
    css = (Path(__file__).parents[2] / "static" / "chips.css").read_text(encoding="utf-8")
    drawn = re.findall(r'\[data-colour="(\w+)"\] \{[^}]*--chip-symbol: "([^"]+)";', css)
    assert dict(drawn) == {colour.value: symbol for colour, symbol in COLOUR_SYMBOLS.items()}


def test_round_pages_load_their_script_from_this_app_only(
    client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    for url in (f"/g/{code}/rounds/record", f"/g/{code}/rounds/record?mode=full"):
        page = page_of(client, url)
        scripts = read_page(page).find_all("script")
        assert [script.get("src") for script in scripts] == [
            static_url("forms.js"),
            static_url("app.js"),
            static_url("rounds.js"),
        ]
        assert all("defer" in script.attrs for script in scripts)
        links = [
            str(e.get(k))
            for e in read_page(page).find_all()
            for k in ("src", "href")
            if e.get(k) is not None
        ]
        assert not any("http" in link.replace("http://localhost/", "") for link in links)
    with client.get("/static/rounds.js") as script:
        assert script.status_code == 200
        assert b"round-form" in script.data
