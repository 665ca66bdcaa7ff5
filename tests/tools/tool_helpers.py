"""Reading the tool pages as a person and a browser would: visible text, the chips drawn
per colour, and forms sent back with their current values plus the button tapped."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scripts.page_reader import words_of_main


def page_text(response: TestResponse) -> str:
    """The page as text (no HTML errors hidden: the body must decode)."""
    return response.get_data(as_text=True)


def text_of(page: str) -> str:
    """The visible words inside <main>: tags dropped, entities decoded, spaces collapsed."""
    return words_of_main(page, joined={"a"})  # a link is no word break


def section(page: str, title_id: str) -> str:
    """The HTML of the <section> labelled by the heading ``title_id``."""
    start = page.index(f'aria-labelledby="{title_id}"')
    return page[start : page.index("</section>", start)]


@dataclass(frozen=True)
class BoxRow:
    """One colour row of the setup page: its range text, card count and chip values."""

    colour: str
    name: str
    range: str
    count: str
    values: tuple[int, ...]


def box_rows(page: str, title_id: str) -> list[BoxRow]:
    """The colour rows of the setup section ``taken-title`` or ``kept-title``, in order."""
    rows = []
    for row in re.findall(
        r'<li class="box-row[^"]*">(.*?)</ul>\s*</li>', section(page, title_id), re.S
    ):
        colour = re.search(r'class="tool-colour" data-colour="(\w+)"', row)
        name = re.search(
            r'tool-colour__symbol" aria-hidden="true">[^<]*</span>\s*([^<]+)</span>', row
        )
        ranged = re.search(r'box-row__range">([^<]+)<', row)
        count = re.search(r'box-row__count">([^<]+)<', row)
        assert colour and name and ranged and count, row
        chip_colours = set(re.findall(r'class="chip chip--small[^"]*" data-colour="(\w+)"', row))
        assert chip_colours == {colour.group(1)}, "every chip of a row has the row's colour"
        values = tuple(int(v) for v in re.findall(r'chip__value" aria-hidden="true">(\d+)<', row))
        rows.append(
            BoxRow(
                colour.group(1),
                name.group(1).strip(),
                html.unescape(ranged.group(1)),
                count.group(1),
                values,
            )
        )
    return rows


def setup_numbers(page: str) -> dict[str, str]:
    """The setup tiles: {"Cards per hand": "15", "Tricks per round": "14", ...}."""
    pairs = re.findall(r"<dt>([^<]+)</dt>\s*<dd>(.*?)</dd>", page, re.S)
    return {dt: " ".join(re.sub(r"<[^>]+>", " ", dd).split()) for dt, dd in pairs}


def field_errors(page: str, field_id: str) -> list[str]:
    """The error messages shown next to the field ``field_id``."""
    match = re.search(rf'<ul class="tool-errors" id="{field_id}-errors">(.*?)</ul>', page, re.S)
    if not match:
        return []
    return [
        html.unescape(item).strip() for item in re.findall(r"<li>(.*?)</li>", match.group(1), re.S)
    ]


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
