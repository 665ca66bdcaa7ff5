"""A stale save never files a round under another number.

Two phones hold the game's edit rights. One opens a round form (record, correct, mark the
colours, start live), the other changes that same round first. The first phone's save then
stores nothing, says what became of the round, shows both entries side by side and offers
"keep theirs" or "use mine for that same round"; its input never moves on to the next round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.web.edit_rights import SESSION_KEYS
from scripts.page_reader import read_page
from tests.games.round_helpers import (
    CONFLICT,
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
)
from tests.table import Table

#: Round 1 as phone A enters it, and as phone B typed it (other tricks, other captures).
THEIRS = [
    {"marked": ["red-4"], "tricks": 4, "marked_captured": ["red-2", "red-5"]},
    {"marked": ["blue-1"], "tricks": 4, "marked_captured": ["blue-0", "blue-2", "blue-8"]},
    {"marked": ["green-7"], "tricks": 3, "marked_captured": []},
    {"marked": ["yellow-0"], "tricks": 3, "marked_captured": ["yellow-11"]},
]
MINE = [
    {"marked": ["red-4"], "tricks": 5, "marked_captured": ["red-2"]},
    {"marked": ["blue-1"], "tricks": 3, "marked_captured": ["blue-0"]},
    {"marked": ["green-7"], "tricks": 3, "marked_captured": []},
    {"marked": ["yellow-0"], "tricks": 3, "marked_captured": []},
]
THEIR_MARKS = [["red-4"], ["blue-1"], ["green-7"], ["yellow-0"]]
MY_MARKS = [["red-9"], ["blue-3"], ["green-7"], ["brown-2"]]


# --------------------------------------------------------------------------------------------
# Two phones and the conflict view, read as a browser reads it


def second_phone(app: Flask, client: FlaskClient) -> FlaskClient:
    """Another phone at the table holding the same edit rights as ``client``."""
    other = app.test_client()
    with client.session_transaction() as session:
        keys = dict(session[SESSION_KEYS])
    with other.session_transaction() as session:
        session[SESSION_KEYS] = keys
    return other


@dataclass
class PostedForm:
    """A form of a page: where it posts and the fields a browser sends (repeats kept)."""

    action: str
    classes: str
    fields: dict[str, list[str]] = field(default_factory=dict)


class FormReader(HTMLParser):
    """Every form of a page with its hidden fields and its submit button's value."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[PostedForm] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.forms.append(PostedForm(attributes.get("action", ""), attributes.get("class", "")))
        elif self.forms and tag in ("input", "button") and attributes.get("name"):
            if tag == "input" and attributes.get("type") != "hidden":
                return
            fields = self.forms[-1].fields
            fields.setdefault(attributes["name"], []).append(attributes.get("value", ""))


def use_mine_form(page: str) -> PostedForm | None:
    """The "use mine" form of the conflict view, if it offers one."""
    reader = FormReader()
    reader.feed(page)
    found = [form for form in reader.forms if "clash-mine" in form.classes]
    return found[0] if found else None


def keep_link(page: str) -> tuple[str, str]:
    """The "keep theirs" way out: its address and its words."""
    found = read_page(page).find_all("a", class_="button", data_way="keep")
    assert found, "no way to keep theirs"
    (link,) = found
    assert link.get("href") and not link.children, link
    return str(link.get("href")), "".join(link.strings)


def assert_safe_way_first(page: str) -> None:
    """Issue 24, point 12: keeping theirs (which overwrites nothing) is the primary button,
    using mine the secondary one."""
    ways = read_page(page).find("div", class_="clash-ways")
    keep = ways.find(data_way="keep")
    mine = ways.find("button", data_way="mine")
    assert "button--primary" in keep.classes, keep.classes
    assert "button--primary" not in mine.classes and "button" in mine.classes, mine.classes
    assert ways.find_all(class_="button--primary") == [keep]


def sides(page: str, seat: int) -> tuple[str, str]:
    """The words a reader hears of one player's entries: theirs, then mine."""
    tables = read_page(page).find_all("table", class_="clash-seat", data_seat=str(seat))
    assert tables, f"seat {seat} is not compared"
    theirs, mine = (tables[0].find("td", data_side=side).spoken() for side in ("theirs", "mine"))
    return theirs, mine


def send_mine(client: FlaskClient, page: str) -> TestResponse:
    """Tap the "use mine" button of the conflict view."""
    form = use_mine_form(page)
    assert form is not None, "no way to use mine"
    return client.post(form.action, data=form.fields)


def mark_fields(marks: list[list[str]]) -> list[dict[str, list[str]]]:
    """The mark form's change: each seat's indicator chips."""
    return [seat_fields(seat, marked=cards) for seat, cards in enumerate(marks)]


# --------------------------------------------------------------------------------------------
# Recording a round


def test_a_round_recorded_on_another_phone_is_shown_beside_mine_and_never_filed_as_the_next(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/record"
    phone_a = second_phone(app, client)
    page = page_of(client, url)  # phone B opens "record round 1" and fills it in ...
    assert_redirects_to_scoreboard(quick_round(phone_a, url, THEIRS), code)  # ... A is first
    before = database(app)

    response = quick_round(client, url, MINE, page=page)  # B saves
    assert response.status_code == 409
    assert database(app) == before
    conflict = response.get_data(as_text=True)
    words = text_of(conflict)
    assert "Record round 2" not in words and CONFLICT not in words
    assert "Round 1 was recorded on another phone." in words
    assert form_fields(page)["number"] == ["1"]  # the form said which round it was for
    assert form_fields(conflict) == {}  # no round form that could file mine as round 2
    assert sides(conflict, 0) == (
        "Indicator: red 4 Tricks won: 4 Marked-colour cards captured: red 2 red 5 Points: +3",
        "Indicator: red 4 Tricks won: 5 Marked-colour cards captured: red 2 Points: +13",
    )
    assert sides(conflict, 3)[1].endswith("Points: +12")
    assert keep_link(conflict) == (f"/g/{code}/rounds/1/keep-theirs", "Keep theirs")
    assert_safe_way_first(conflict)
    mine = use_mine_form(conflict)
    assert mine is not None and mine.action == f"/g/{code}/rounds/1?mode=quick"
    assert mine.fields["s0-tricks"] == ["5"] and mine.fields["number"] == ["1"]

    assert_redirects_to_scoreboard(send_mine(client, conflict), code)
    state = game_state(client, code)
    assert [r["number"] for r in state["rounds"]] == [1]  # corrected, not a round 2
    assert state["rounds"][0]["scores"] == [13, 10, 5, 12]


def test_the_last_round_recorded_elsewhere_does_not_end_the_game_on_my_entries(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=1, edit_here=True)["id"]
    url = f"/g/{code}/rounds/record"
    phone_a = second_phone(app, client)
    page = page_of(client, url)
    assert_redirects_to_scoreboard(quick_round(phone_a, url, THEIRS), code)
    before = database(app)

    response = quick_round(client, url, MINE, page=page)
    assert response.status_code == 409 and database(app) == before
    conflict = response.get_data(as_text=True)
    assert "Round 1 was recorded on another phone." in text_of(conflict)
    assert sides(conflict, 1)[1].startswith("Indicator: blue 1 Tricks won: 3")
    assert use_mine_form(conflict) is not None
    assert game_state(client, code)["rounds"][0]["scores"] == [3, 2, 5, 0]


def test_a_change_to_another_round_keeps_my_round_and_saves_it_on_a_second_send(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """The version moved on, but round 2 is still the one to record: the form stays round
    2, with the input, and saves as round 2."""
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/record"
    assert_redirects_to_scoreboard(quick_round(client, url, THEIRS), code)
    page = page_of(client, url)  # "record round 2"
    phone_a = second_phone(app, client)
    assert_redirects_to_scoreboard(quick_round(phone_a, f"/g/{code}/rounds/1", MINE), code)

    response = quick_round(client, url, THEIRS, page=page)
    assert response.status_code == 409
    conflict = response.get_data(as_text=True)
    assert CONFLICT in text_of(conflict) and "Record round 2" in text_of(conflict)
    kept = form_fields(conflict)
    assert kept["number"] == ["2"] and kept["s0-tricks"] == ["4"]
    kept["action"] = ["save"]
    assert_redirects_to_scoreboard(client.post(url, data=kept), code)
    assert [r["number"] for r in game_state(client, code)["rounds"]] == [1, 2]


# --------------------------------------------------------------------------------------------
# Correcting a round


def test_a_correction_made_on_another_phone_is_shown_beside_mine_with_both_ways_out(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    assert_redirects_to_scoreboard(quick_round(client, f"/g/{code}/rounds/record", THEIRS), code)
    url = f"/g/{code}/rounds/1"
    page = page_of(client, url)  # B opens "correct round 1"
    phone_a = second_phone(app, client)
    corrected_by_a = [dict(THEIRS[0], tricks=3), dict(THEIRS[1], tricks=5)] + THEIRS[2:]
    assert_redirects_to_scoreboard(quick_round(phone_a, url, corrected_by_a), code)
    before = database(app)

    response = quick_round(client, url, MINE, page=page)
    assert response.status_code == 409 and database(app) == before
    conflict = response.get_data(as_text=True)
    assert "Round 1 was corrected on another phone." in text_of(conflict)
    assert sides(conflict, 0)[0].startswith("Indicator: red 4 Tricks won: 3")
    assert sides(conflict, 0)[1].startswith("Indicator: red 4 Tricks won: 5")
    assert keep_link(conflict)[1] == "Keep theirs"

    assert_redirects_to_scoreboard(send_mine(client, conflict), code)
    assert game_state(client, code)["rounds"][0]["scores"] == [13, 10, 5, 12]


def test_a_correction_is_not_a_clash_when_only_another_round_changed(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    record = f"/g/{code}/rounds/record"
    assert_redirects_to_scoreboard(quick_round(client, record, THEIRS), code)
    page = page_of(client, f"/g/{code}/rounds/1")
    assert_redirects_to_scoreboard(quick_round(second_phone(app, client), record, THEIRS), code)

    response = quick_round(client, f"/g/{code}/rounds/1", MINE, page=page)
    assert response.status_code == 409
    assert CONFLICT in text_of(response.get_data(as_text=True))  # the usual "save again"
    kept = form_fields(response.get_data(as_text=True))
    kept["action"] = ["save"]
    assert_redirects_to_scoreboard(client.post(f"/g/{code}/rounds/1", data=kept), code)
    state = game_state(client, code)
    assert [r["scores"] for r in state["rounds"]] == [[13, 10, 5, 12], [3, 2, 5, 0]]


# --------------------------------------------------------------------------------------------
# Marking colours


def test_colours_marked_on_another_phone_are_shown_beside_mine_and_mine_can_replace_them(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/mark"
    page = page_of(client, url)  # B opens "mark colours, round 1"
    phone_a = second_phone(app, client)
    assert_redirects_to_scoreboard(
        send(phone_a, url, page_of(phone_a, url), mark_fields(THEIR_MARKS)), code
    )
    before = database(app)

    response = send(client, url, page, mark_fields(MY_MARKS))
    assert response.status_code == 409 and database(app) == before
    conflict = response.get_data(as_text=True)
    assert "The colours of round 1 were marked on another phone." in text_of(conflict)
    assert sides(conflict, 0) == ("Indicator: red 4", "Indicator: red 9")
    assert sides(conflict, 3) == ("Indicator: yellow 0", "Indicator: brown 2")
    assert keep_link(conflict) == (f"/g/{code}/rounds/1/keep-theirs", "Keep theirs")
    assert len(game_state(client, code)["rounds"]) == 1  # no round 2 was opened

    assert_redirects_to_scoreboard(send_mine(client, conflict), code)
    state = game_state(client, code)
    assert len(state["rounds"]) == 1
    assert [[c["value"] for c in seat] for seat in state["rounds"][0]["marked"]] == [
        [9],
        [3],
        [7],
        [2],
    ]


def test_hazy_marks_set_on_another_phone_stay_hidden_in_the_conflict_view(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """R15: the other phone's indicators stay face down until the round is scored; this
    phone sees only its own."""
    code = table.new_game(NAMES, "hazy", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/mark"
    page = page_of(client, url)
    phone_a = second_phone(app, client)
    marked = send(phone_a, url, page_of(phone_a, url), mark_fields(THEIR_MARKS))
    assert_redirects_to_scoreboard(marked, code)

    response = send(client, url, page, mark_fields(MY_MARKS))
    assert response.status_code == 409
    conflict = response.get_data(as_text=True)
    assert "The colours of round 1 were marked on another phone." in text_of(conflict)
    assert sides(conflict, 0) == ("Indicator: hidden until scored", "Indicator: red 9")
    assert "red-4" not in conflict and "red 4" not in text_of(conflict)


def test_a_mark_form_whose_round_was_recorded_elsewhere_offers_only_to_keep_theirs(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    page = page_of(client, f"/g/{code}/rounds/mark")
    phone_a = second_phone(app, client)
    assert_redirects_to_scoreboard(quick_round(phone_a, f"/g/{code}/rounds/record", THEIRS), code)
    before = database(app)

    response = send(client, f"/g/{code}/rounds/mark", page, mark_fields(MY_MARKS))
    assert response.status_code == 409 and database(app) == before
    conflict = response.get_data(as_text=True)
    assert "Round 1 was recorded on another phone." in text_of(conflict)
    assert sides(conflict, 0)[1] == "Indicator: red 9"
    assert use_mine_form(conflict) is None  # marks alone cannot correct a scored round
    assert len(game_state(client, code)["rounds"]) == 1


# --------------------------------------------------------------------------------------------
# Starting a live round


def start_page_fields(page: str) -> dict[str, list[str]]:
    """The start form's fields (the last form of the start page)."""
    reader = FormReader()
    reader.feed(page)
    return dict(reader.forms[-1].fields)


def test_a_live_start_whose_round_was_started_on_another_phone_says_so_and_offers_to_continue(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/live"
    page = page_of(client, url)  # B opens "play round 1 live"
    phone_a = second_phone(app, client)
    started = send(phone_a, url, page_of(phone_a, url), mark_fields(THEIR_MARKS), action="")
    assert started.status_code == 302 and started.headers["Location"] == f"/g/{code}/rounds/1/live"
    before = database(app)

    response = send(client, url, page, mark_fields(MY_MARKS), action="")
    assert response.status_code == 409 and database(app) == before
    conflict = response.get_data(as_text=True)
    assert "Round 1 was started live on another phone." in text_of(conflict)
    assert sides(conflict, 1) == ("Indicator: blue 1", "Indicator: blue 3")
    assert keep_link(conflict) == (f"/g/{code}/rounds/1/live", "Continue live round")
    assert use_mine_form(conflict) is None
    assert len(game_state(client, code)["rounds"]) == 1


def test_a_live_start_without_indicators_whose_round_was_started_elsewhere_starts_nothing(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/live"
    page = page_of(client, url)
    fields = start_page_fields(page)
    phone_a = second_phone(app, client)
    answer = phone_a.post(url, data=start_page_fields(page_of(phone_a, url)))
    assert answer.status_code == 302  # A starts round 1 live ...
    before = database(app)

    response = client.post(url, data=fields)  # ... and B's tap must not start round 2
    assert response.status_code == 409 and database(app) == before
    conflict = response.get_data(as_text=True)
    assert "Round 1 was started live on another phone." in text_of(conflict)
    assert keep_link(conflict)[0] == f"/g/{code}/rounds/1/live"
    assert fields["number"] == ["1"]
    state = game_state(client, code)
    assert [r["number"] for r in state["rounds"]] == [1]


def test_a_page_sent_without_a_round_number_keeps_todays_behaviour(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """Pages cached before the round number existed still save the round to record."""
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/record"
    fields: dict[str, Any] = form_fields(page_of(client, url))
    del fields["number"]
    for seat, values in enumerate(THEIRS):
        fields.update(seat_fields(seat, **values))
    fields["action"] = ["save"]
    assert_redirects_to_scoreboard(client.post(url, data=fields), code)
    assert game_state(client, code)["rounds"][0]["scores"] == [3, 2, 5, 0]


def test_my_unreadable_entries_are_shown_unscored_beside_theirs(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """A count left empty or mistyped on the stale form still shows the conflict view
    (never a server error), with a dash for that count and no score for mine."""
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/record"
    page = page_of(client, url)
    assert_redirects_to_scoreboard(quick_round(second_phone(app, client), url, THEIRS), code)
    before = database(app)
    typed = [dict(MINE[0], tricks=""), dict(MINE[1], tricks="x7")] + MINE[2:]

    response = quick_round(client, url, typed, page=page)
    assert response.status_code == 409 and database(app) == before
    conflict = response.get_data(as_text=True)
    assert "Round 1 was recorded on another phone." in text_of(conflict)
    assert sides(conflict, 0)[1] == (
        "Indicator: red 4 Tricks won: \u2014 Marked-colour cards captured: red 2"
    )
    assert "Points" not in sides(conflict, 2)[1]
