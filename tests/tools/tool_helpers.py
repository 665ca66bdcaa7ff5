"""Reading the tool pages as a person and a browser would: visible text, the chips drawn
per colour, and forms sent back with their current values plus the button tapped."""

from __future__ import annotations

import html
from dataclasses import dataclass
from html.parser import HTMLParser

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scripts.page_reader import Element, read_page, words_of_main


def page_text(response: TestResponse) -> str:
    """The page as text (no HTML errors hidden: the body must decode)."""
    return response.get_data(as_text=True)


def text_of(page: str) -> str:
    """The visible words inside <main>: tags dropped, entities decoded, spaces collapsed."""
    return words_of_main(page, joined={"a"})  # a link is no word break


def panel(page: str, title_id: str) -> Element:
    """The <section> labelled by the heading ``title_id``."""
    return read_page(page).find("section", aria_labelledby=title_id)


@dataclass(frozen=True)
class BoxRow:
    """One colour row of the setup page: its range text, card count and chip values."""

    colour: str
    name: str
    range: str
    count: str
    values: tuple[int, ...]


def box_row(row: Element) -> BoxRow:
    """A colour row as it reads: its label, range and count, then the values of its chips."""
    label = row.find("span", class_="tool-colour")
    colour = label.get("data-colour")
    chips = row.find("ul", class_="tool-chips").find_all("span", class_="chip")
    chip_colours = {chip.get("data-colour") for chip in chips}
    assert chip_colours == {colour}, "every chip of a row has the row's colour"
    assert colour is not None
    return BoxRow(
        colour,
        label.own_text,
        row.find("span", class_="box-row__range").text,
        row.find("span", class_="box-row__count").text,
        tuple(int(chip.find("span", class_="chip__value").text) for chip in chips),
    )


def box_rows(page: str, title_id: str) -> list[BoxRow]:
    """The colour rows of the setup section ``taken-title`` or ``kept-title``, in order."""
    return [box_row(row) for row in panel(page, title_id).find_all("li", class_="box-row")]


def setup_numbers(page: str) -> dict[str, str]:
    """The setup tiles: {"Cards per hand": "15", "Tricks per round": "14", ...}: each term
    with the words of the description right after it."""
    numbers = {}
    for parent in read_page(page).find_all():
        pairs = zip(parent.children, parent.children[1:], strict=False)
        for term, description in pairs:
            if term.tag == "dt" and description.tag == "dd":
                numbers[term.text] = description.words()
    return numbers


def field_errors(page: str, field_id: str) -> list[str]:
    """The error messages shown next to the field ``field_id``."""
    errors = read_page(page).find_all("ul", class_="tool-errors", id=f"{field_id}-errors")
    return [item.text for item in errors[0].find_all("li")] if errors else []


class FormReader(HTMLParser):
    """The resolver form as a browser holds it: hidden fields, checked boxes, the selected
    option of each select, and the submit buttons (name, value, disabled)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.buttons: list[tuple[str, str, bool]] = []
        self.action = ""
        self._select: str | None = None
        self._first_option: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form" and a.get("id") == "resolver-form":
            self.action = html.unescape(a["action"])
        elif tag == "input" and a.get("type") == "hidden":
            self.values[a["name"]] = a.get("value", "")
        elif tag == "input" and a.get("type") == "checkbox" and "checked" in a:
            self.values[a["name"]] = a.get("value", "y")
        elif tag == "select":
            self._select = a["name"]
        elif tag == "option" and self._select:
            self._first_option.setdefault(self._select, a["value"])
            if "selected" in a:
                self.values[self._select] = a["value"]
        elif tag == "button" and a.get("type") == "submit" and a.get("name"):
            self.buttons.append((a["name"], a.get("value", ""), "disabled" in a))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select:
            self.values.setdefault(self._select, self._first_option.get(self._select, ""))
            self._select = None


def read_form(page: str) -> FormReader:
    """Read the resolver form of ``page``."""
    reader = FormReader()
    reader.feed(page)
    assert "csrf_token" in reader.values, "the form carries its CSRF token"
    return reader


def chip_buttons(page: str) -> list[str]:
    """The card chips offered to tap, as their ``add`` values, in page order."""
    return [value for name, value, _off in read_form(page).buttons if name == "add"]


def tap(
    client: FlaskClient,
    page: str,
    button: tuple[str, str],
    check_pass: bool = False,
    **changes: str,
) -> TestResponse:
    """Send the resolver form as a browser does when ``button`` is tapped: every field with
    its current value, the settings ``changes`` made, the pass toggle ticked if asked."""
    form = read_form(page)
    name, value = button
    assert (name, value, False) in form.buttons, f"no enabled button {name}={value}"
    data = {**form.values, **changes, name: value}
    if check_pass:
        data["pass_next"] = "y"
    return client.post(form.action.split("#")[0], data=data)


def tap_cards(client: FlaskClient, page: str, *cards: str, **settings: str) -> TestResponse:
    """Tap the chips ``cards`` (e.g. "red-7", or "pass:green-3" for a pass) one after the
    other, each on the page the previous tap returned; answers the last response."""
    response = None
    for card in cards:
        passed = card.startswith("pass:")
        response = tap(client, page, ("add", card.removeprefix("pass:")), passed, **settings)
        page = page_text(response)
        settings = {}
    assert response is not None
    return response
