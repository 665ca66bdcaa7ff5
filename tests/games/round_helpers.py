"""Helpers for the round-page tests: a phone's way of reading and sending the round forms.

A page is read like a browser reads it (hidden fields, checked chips, numbers, selected
options), the test changes what the table would change, and sends it back with the CSRF
token of the page. Cards are chip values: ``"red-4"``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html.parser import HTMLParser
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.data.models import db
from companion.read_models.messages import render_message
from companion.rules import RuleError
from scripts.page_reader import read_page, words_of_main
from tests.db_snapshot import snapshot

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
MINUS = "\u2212"
CONFLICT = "This game changed on another phone"

Fields = dict[str, list[str]]


class RoundFormReader(HTMLParser):
    """What a browser would send from the round form, left as it is."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: Fields = {}
        self.in_form = False
        self.select: str | None = None
        self.first_option: str | None = None
        self.selected = False

    def add(self, name: str, value: str) -> None:
        self.fields.setdefault(name, []).append(value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        if tag == "form" and "round-form" in attributes.get("class", ""):
            self.in_form = True
        if not self.in_form:
            return
        name = attributes.get("name")
        if tag == "input" and name:
            kind = attributes.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attributes:
                    self.add(name, attributes.get("value", "on"))
            else:
                self.add(name, attributes.get("value", ""))
        elif tag == "select" and name:
            self.select, self.first_option, self.selected = name, None, False
        elif tag == "option" and self.select:
            value = attributes.get("value", "")
            if self.first_option is None:
                self.first_option = value
            if "selected" in attributes:
                self.add(self.select, value)
                self.selected = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_form = False
        if tag == "select" and self.select:
            if not self.selected and self.first_option is not None:
                self.add(self.select, self.first_option)
            self.select = None


def form_fields(page: str) -> Fields:
    """The round form's fields as the page shows them (tab radios left out: they only
    choose which colour of chips is shown)."""
    reader = RoundFormReader()
    reader.feed(page)
    return {name: values for name, values in reader.fields.items() if not name.endswith("-tab")}


def game_state(client: FlaskClient, code: str) -> dict[str, Any]:
    """The game as the API shows it."""
    response = client.get(f"/api/v1/games/{code}")
    assert response.status_code == 200
    state: dict[str, Any] = response.get_json()
    return state


def page_of(client: FlaskClient, url: str) -> str:
    """A page the phone opens; it must open."""
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def seat_fields(seat: int, **values: Any) -> Fields:
    """Form values of one seat: cards as lists of chip values, counts as numbers."""
    fields: Fields = {}
    for name, value in values.items():
        if isinstance(value, list | tuple):
            fields[f"s{seat}-{name}"] = [str(item) for item in value]
        else:
            fields[f"s{seat}-{name}"] = [str(value)]
    return fields


def send(
    client: FlaskClient, url: str, page: str, changes: Iterable[Fields], action: str = "save"
) -> TestResponse:
    """Send the form of ``page`` to ``url`` with the table's ``changes`` applied."""
    fields = form_fields(page)
    for change in changes:
        fields.update(change)
    if action:
        fields["action"] = [action]
    return client.post(url, data=fields)


def quick_round(
    client: FlaskClient,
    url: str,
    seats: list[dict[str, Any]],
    action: str = "save",
    page: str | None = None,
) -> TestResponse:
    """Open ``url`` (unless ``page`` is given) and send one change per seat."""
    page = page if page is not None else page_of(client, url)
    changes = [seat_fields(seat, **values) for seat, values in enumerate(seats)]
    return send(client, url, page, changes, action)


def text_of(page: str) -> str:
    """The visible words of a page's main part (tags dropped, spaces collapsed)."""
    return words_of_main(page, joined={"a"})  # a link is no word break


def seat_section(page: str, seat: int) -> str:
    """The HTML of one seat's part of a round form."""
    anchor = page.index(f'id="seat-{seat}"')
    start = page.rindex("<", 0, anchor)
    ends = [page.find('<fieldset class="round-seat"', anchor), page.find("round-actions", anchor)]
    return page[start : min(end for end in ends if end > 0)]


def messages_in(part: str, kind: str) -> list[str]:
    """The messages of the error lists of ``kind`` (seat, top, field) in ``part``."""
    lists = read_page(part).find_all("ul", class_=f"round-errors--{kind}")
    assert all("round-errors" in found.classes for found in lists)
    return [item.words() for found in lists for item in found.find_all("li")]


def seat_errors(page: str, seat: int) -> list[str]:
    """The refusals shown next to one seat."""
    return messages_in(seat_section(page, seat), "seat")


def seats_with_errors(page: str, players: int = 4) -> list[int]:
    """The seats that show a refusal."""
    return [seat for seat in range(players) if seat_errors(page, seat)]


def top_errors(page: str) -> list[str]:
    """The refusals shown at the top of the page (those naming no seat)."""
    return messages_in(page, "top")


def seat_text(page: str, seat: int) -> str:
    """The visible words of one seat's part of the form."""
    return read_page(seat_section(page, seat)).words()


def checked_cards(page: str, name: str) -> list[str]:
    """The chips of field ``name`` the page shows tapped."""
    return form_fields(page).get(name, [])


def refusal(app: Flask, check: Callable[[], object], names: list[str] | None = None) -> str:
    """The sentence the rules refuse with, as a page renders it (names, English): tests
    compare the page to the rules' own words instead of copying them."""
    with app.test_request_context():
        try:
            check()
        except RuleError as error:
            return render_message(error.message, names or NAMES)
    raise AssertionError("the rules accepted what the test expected them to refuse")


def database(app: Flask) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the database, to prove a refusal saved nothing."""
    with app.app_context():
        rows = snapshot()
        db.session.remove()
        return rows


def assert_redirects_to_scoreboard(response: TestResponse, code: str) -> None:
    """Post/redirect/get: a saved form goes to the game's scoreboard."""
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    assert response.headers["Location"] == f"/g/{code}"


def signed(number: int) -> str:
    """A score as the pages show it (real minus sign)."""
    return f"+{number}" if number > 0 else f"{MINUS}{-number}" if number < 0 else "0"
