"""Two phones doing *different* things to one game at the same moment, against gunicorn with
four worker processes: a card that completes a trick against "Undo last card", "Undo last
trick" against the next trick's first card, recording the next round against correcting
the last one, marking colours against starting the round live.

Every change is a read-then-write (the page a phone tapped on says which state it was
based on), so exactly one of the two may go through and the other is told that the game
changed meanwhile (409), with nothing of its change stored; and what the winner is told is
what the database holds. Each pair is raced several times on a fresh game, as timing
decides which request reaches the database first.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest

from scripts import server_harness
from scripts.page_reader import Element, read_page
from scripts.server_harness import Client, PlannedRound, Reply, Table

#: How often each pair is raced: on SQLite without serialized writes about two races in
#: three lost a change, so ten tell a lost change from luck.
RACES = 10
#: The indicators of the live rounds: every seat lays out its colour's 0 (R4).
COLOURS = ("red", "blue", "green", "yellow")
MARKED = [[{"colour": colour, "value": 0}] for colour in COLOURS]


@dataclass
class Phone:
    """A phone of the table holding the edit link: it keeps the cookies the server sets,
    as a browser does, and reads the forms of the pages it was shown."""

    http: Client
    cookies: dict[str, str] = field(default_factory=dict)

    def send(self, method: str, path: str, form: Mapping[str, Any] | None = None) -> Reply:
        """One request with this phone's cookies; the cookies it sets are kept."""
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        reply = self.http.request(method, path, headers={"Cookie": cookie}, form=form)
        self.cookies.update(reply.cookies)
        return reply

    def page(self, path: str) -> Element:
        """A page this phone is shown (it must answer 200)."""
        reply = self.send("GET", path)
        assert reply.status == 200, reply.text[:300]
        return read_page(reply.text)


def phone_of(http: Client, table: Table) -> Phone:
    """A phone that opened the game's edit link."""
    phone = Phone(http)
    granted = phone.send("GET", f"/g/{table.code}/edit/{table.key}")
    assert granted.status == 302, granted.text[:300]
    return phone


#: A form as a phone sends it: where to, and its hidden fields.
Form = tuple[str, dict[str, str]]


def hidden_fields(form: Element) -> dict[str, str]:
    """What a form sends of itself: its hidden inputs (token, version, cards seen)."""
    return {
        str(field_.get("name")): str(field_.get("value") or "")
        for field_ in form.find_all("input")
        if field_.get("type") == "hidden" and field_.get("name")
    }


def form_with_class(page: Element, name: str) -> Form:
    """The action and the hidden fields of the page's form of class ``name``."""
    found = [form for form in page.find_all("form") if name in form.get("class", "").split()]
    assert len(found) == 1, f"{len(found)} forms of class {name}"
    return str(found[0].get("action")), hidden_fields(found[0])


def form_with_action(page: Element, ending: str) -> Form:
    """The action and the hidden fields of the page's form posted to ``…ending``."""
    found = [form for form in page.find_all("form") if form.get("action", "").endswith(ending)]
    assert len(found) == 1, f"{len(found)} forms posted to …{ending}"
    return str(found[0].get("action")), hidden_fields(found[0])


def new_table(http: Client, label: str) -> Table:
    """A classic game of four started through the API."""
    reply, table = server_harness.create_game(
        http, server_harness.table_names(label, 4), "classic", 5
    )
    assert table is not None, reply.text
    return table


def live_table(http: Client, label: str) -> Table:
    """A game whose first round is being played live."""
    table = new_table(http, label)
    opened = http.request(
        "POST",
        f"/api/v1/games/{table.code}/rounds/live",
        {"version": table.version, "marked": MARKED},
        server_harness.bearer(table.key),
    )
    assert opened.status == 201, opened.text[:300]
    table.version = opened.json()["version"]
    return table


def live_path(table: Table) -> str:
    """The live page of round 1."""
    return f"/g/{table.code}/rounds/1/live"


def tap(phone: Phone, table: Table, card: str) -> None:
    """Tap ``card`` on the live page as it is now, as one phone alone at the table does."""
    action, fields = form_with_class(phone.page(live_path(table)), "live-picker")
    reply = phone.send("POST", action, {**fields, "card": card})
    assert reply.status == 302, reply.text[:300]


def unfinished_trick(phone: Phone, table: Table) -> list[str]:
    """The cards of the unfinished trick, as every live page shows them (stored on the
    round, one trick for the table)."""
    trick = phone.page(live_path(table)).find("section", class_="live-trick")
    return [str(place.get("data-card")) for place in trick.find_all("li") if place.get("data-card")]


def saved_tricks(http: Client, table: Table) -> list[list[str]]:
    """The saved tricks of round 1, as chip tokens in play order, from the game's export."""
    tricks = server_harness.stored_rounds(http, table.code)[0]["tricks"] or []
    return [[f"{play['colour']}-{play['value']}" for play in trick["plays"]] for trick in tricks]


def flash_after(phone: Phone, reply: Reply) -> str:
    """What the phone is told on the page its change redirected to."""
    assert reply.status == 302, reply.text[:300]
    page = phone.page(reply.headers["Location"])
    return " ".join(note.text for note in page.find_all(role="status"))


def one_won(replies: Sequence[Reply]) -> int:
    """The index of the one change that went through (302); the other was refused (409)."""
    statuses = [reply.status for reply in replies]
    assert sorted(statuses) == [302, 409], [(r.status, r.text[:200]) for r in replies]
    return statuses.index(302)


def race_a_card_against_an_undo(
    http: Client, label: str, entered: Sequence[str], card: str, undo: Callable[[Element], Form]
) -> tuple[Table, Phone, Phone, list[Reply]]:
    """A live round in which ``entered`` were tapped; then, from pages showing that, one
    phone taps ``card`` while another sends the undo form ``undo`` finds on its page, at the
    same moment. Answers the table, the tapping and the undoing phone, and their replies."""
    table = live_table(http, label)
    tapping, undoing = phone_of(http, table), phone_of(http, table)
    for played in entered:
        tap(tapping, table, played)
    card_url, card_form = form_with_class(tapping.page(live_path(table)), "live-picker")
    undo_url, undo_form = undo(undoing.page(live_path(table)))
    assert card_form["cards"] == undo_form["cards"] == str(len(entered) % len(COLOURS))
    replies = server_harness.at_once(
        [
            partial(tapping.send, "POST", card_url, {**card_form, "card": card}),
            partial(undoing.send, "POST", undo_url, undo_form),
        ]
    )
    return table, tapping, undoing, replies


@pytest.mark.parametrize("race", range(RACES))
def test_a_card_completing_a_trick_against_undo_last_card_one_wins_and_is_stored(
    http: Client, race: int
) -> None:
    table, tapping, undoing, replies = race_a_card_against_an_undo(
        http,
        f"last card against undo {race}",
        ["red-1", "red-2", "red-3"],
        "red-4",
        lambda page: form_with_class(page, "live-undo-card"),
    )
    if one_won(replies) == 0:
        assert saved_tricks(http, table) == [["red-1", "red-2", "red-3", "red-4"]]
        assert unfinished_trick(tapping, table) == []
    else:
        assert "Taken back: red 3" in flash_after(undoing, replies[1])
        assert saved_tricks(http, table) == []
        assert unfinished_trick(undoing, table) == ["red-1", "red-2"]


@pytest.mark.parametrize("race", range(RACES))
def test_undo_last_trick_against_the_next_tricks_first_card_one_wins_and_is_stored(
    http: Client, race: int
) -> None:
    table, tapping, undoing, replies = race_a_card_against_an_undo(
        http,
        f"undo trick against card {race}",
        ["red-1", "red-2", "red-3", "red-4"],
        "red-5",
        lambda page: form_with_action(page, "/live/undo-trick"),
    )
    if one_won(replies) == 0:
        assert saved_tricks(http, table) == [["red-1", "red-2", "red-3", "red-4"]]
        assert unfinished_trick(tapping, table) == ["red-5"]
    else:
        assert "Trick 1 taken back" in flash_after(undoing, replies[1])
        assert saved_tricks(http, table) == []
        assert unfinished_trick(undoing, table) == []


def round_form(page: Element, planned: PlannedRound) -> dict[str, Any]:
    """A record or correct page's quick-entry form holding ``planned``, as a phone without
    JavaScript sends it."""
    _, fields = form_with_class(page, "round-form")
    return {**fields, **server_harness.form_fields(planned), "action": "save"}


@pytest.mark.parametrize("race", range(RACES))
def test_recording_the_next_round_against_correcting_the_last_one_wins_and_is_stored(
    http: Client, race: int
) -> None:
    rng = random.Random(race)
    table = new_table(http, f"record against correct {race}")
    first, second, corrected = server_harness.distinct_rounds(table.setup, rng, 3)
    reply = server_harness.post_round(http, table, first, table.version)
    assert reply.status == 201, reply.text[:300]
    recording, correcting = phone_of(http, table), phone_of(http, table)
    record_path = f"/g/{table.code}/rounds/record?mode=quick"
    correct_path = f"/g/{table.code}/rounds/1?mode=quick"
    record_form = round_form(recording.page(record_path), second)
    correct_form = round_form(correcting.page(correct_path), corrected)
    replies = server_harness.at_once(
        [
            partial(recording.send, "POST", record_path, record_form),
            partial(correcting.send, "POST", correct_path, correct_form),
        ]
    )
    stored = [round_["entries"] for round_ in server_harness.stored_rounds(http, table.code)]
    if one_won(replies) == 0:
        assert "Round 2 saved" in flash_after(recording, replies[0])
        assert stored == [first.entries, second.entries]
    else:
        assert "Round 1 corrected" in flash_after(correcting, replies[1])
        assert stored == [corrected.entries]


def marks_form(page: Element, marked: Sequence[str]) -> dict[str, Any]:
    """A mark or live-start page's form giving each seat's indicator (``marked`` in seat
    order, chip tokens)."""
    _, fields = form_with_class(page, "round-form")
    return {**fields, **{f"s{seat}-marked": [card] for seat, card in enumerate(marked)}}


@pytest.mark.parametrize("race", range(RACES))
def test_marking_colours_against_starting_the_round_live_one_wins_and_is_stored(
    http: Client, race: int
) -> None:
    table = new_table(http, f"mark against live {race}")
    marking, starting = phone_of(http, table), phone_of(http, table)
    mark_path, live_start_path = f"/g/{table.code}/rounds/mark", f"/g/{table.code}/rounds/live"
    by_marking = [f"{colour}-1" for colour in COLOURS]
    by_starting = [f"{colour}-2" for colour in COLOURS]
    mark_form = marks_form(marking.page(mark_path), by_marking)
    start_form = marks_form(starting.page(live_start_path), by_starting)
    replies = server_harness.at_once(
        [
            partial(marking.send, "POST", mark_path, mark_form),
            partial(starting.send, "POST", live_start_path, start_form),
        ]
    )
    state = http.get(f"/api/v1/games/{table.code}").json()
    assert len(state["rounds"]) == 1, state["rounds"]
    laid_out = state["rounds"][0]["marked"]
    marked = [f"{card['colour']}-{card['value']}" for seat in laid_out for card in seat]
    if one_won(replies) == 0:
        assert "Colours of round 1 marked" in flash_after(marking, replies[0])
        assert (marked, state["rounds"][0]["mode"]) == (by_marking, "quick")
    else:
        assert replies[1].headers["Location"].endswith(live_path(table))
        assert (marked, state["rounds"][0]["mode"]) == (by_starting, "live")
