"""The screenshots of the user's guide (docs/users), taken here so that they stay current:
the new game form, a scoreboard with rounds, the record page and the conflict view, in
English and in German, on a 390×844 phone. Each is taken only once the page shows what it
is meant to.

A run leaves the committed screenshots (docs/_static/screens/, which the guide shows) as they
are: another machine's fonts would change every one of them. It writes its own into a
temporary folder and checks each against the committed one's name and size. Only
``python3 manage.py screens`` (``WRITE_SCREENS=1``) writes them into docs/_static/screens/,
where a screenshot that cannot be written fails the test."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.scenario import FIVE_ROUNDS, QuickSeat
from tests.browser.support import PHONE, Phone, PhoneFactory
from tests.browser.test_journeys import in_language, tap
from tests.table import Table

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "_static" / "screens"
#: Crisp at the width the guide shows them, and light enough to commit.
SCALE = 2
NAMES = ["Ann", "Ben", "Cleo"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Set by ``python3 manage.py screens``: the screenshots replace the committed ones.
WRITE_SCREENS = "WRITE_SCREENS"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header chunk."""
    assert data.startswith(PNG_SIGNATURE), "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def keep(phone: Phone, name: str, folder: Path) -> None:
    """The phone's screen as <folder>/<name>.png, of the phone's size, as the committed
    docs/_static/screens/<name>.png is; fails if it is not written whole."""
    shot = phone.page.screenshot()
    width, height = PHONE["viewport"]["width"], PHONE["viewport"]["height"]
    assert png_size(shot) == (width * SCALE, height * SCALE)
    path = folder / f"{name}.png"
    path.write_bytes(shot)
    assert path.read_bytes() == shot, f"{path} was not written whole"
    committed = SCREENS / f"{name}.png"
    assert committed.is_file(), f"{committed} is missing: python3 manage.py screens takes it"
    assert png_size(committed.read_bytes()) == png_size(shot)


@pytest.fixture
def screens(tmp_path: Path) -> Path:
    """Where the screenshots go: docs/_static/screens/ when asked (``WRITE_SCREENS=1``),
    else a temporary folder, so that a test run leaves the committed ones alone."""
    return SCREENS if os.environ.get(WRITE_SCREENS) == "1" else tmp_path


def chip_name(lang: str, text: str) -> str:
    """A card chip's name (``"red 4"``) as a page in ``lang`` says it (``"Rot 4"``)."""
    colour, value = text.split()
    return f"{in_language(lang, colour)} {value}"


def enter_quick_seat(phone: Phone, lang: str, seat: int, entry: QuickSeat) -> None:
    """Tap a seat's indicator, its tricks and its marked-colour captures on a page in
    ``lang`` (tests/browser/test_journeys.py does it in English)."""
    part = phone.page.locator(f"#seat-{seat}")
    tap(part.locator(f'[data-field="s{seat}-marked"]'), "radio", chip_name(lang, entry.indicator))
    tap(part.locator(f'[data-count-field="s{seat}-tricks"]'), "radio", str(entry.tricks))
    captures = part.locator(f'[data-field="s{seat}-marked_captured"]')
    for text in entry.captured:
        tap(captures, "checkbox", chip_name(lang, text))


def phone_in(new_phone: PhoneFactory, lang: str) -> Phone:
    """A phone whose pages are in ``lang``, chosen as a player chooses it (the footer's
    link)."""
    phone = new_phone(device_scale_factor=SCALE)
    phone.goto(f"/lang/{lang}")
    expect(phone.page.locator("html")).to_have_attribute("lang", lang)
    return phone


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_guides_screenshots_show_the_pages_they_name(
    new_phone: PhoneFactory, live_table: Table, lang: str, screens: Path
) -> None:
    phone = phone_in(new_phone, lang)
    page = phone.page
    heading = page.get_by_role("heading", level=1)

    phone.goto("/games/new")
    expect(heading).to_have_text(in_language(lang, "New game"))
    for seat, name in enumerate(NAMES, start=1):
        page.get_by_label(in_language(lang, "Seat %(number)s") % {"number": seat}).fill(name)
    # No focus ring, and no list of the names other tests left in the database.
    page.evaluate("document.activeElement.blur()")
    keep(phone, f"new-game-{lang}", screens)

    game = live_table.new_game(NAMES, rounds=5)
    code = game["id"]
    for played in FIVE_ROUNDS[:2]:
        live_table.record(game, [seat.entry() for seat in played])
    phone.goto(f"/g/{code}/edit/{game['edit_key']}")
    expect(heading).to_have_text(in_language(lang, "Scoreboard"))
    rounds = page.locator(".score-table")
    expect(rounds.locator("tbody tr")).to_have_count(2)
    players = page.get_by_role("heading", level=2, name=in_language(lang, "Players"))
    players.evaluate("heading => heading.scrollIntoView({block: 'start'})")
    expect(rounds).to_be_in_viewport()
    keep(phone, f"scoreboard-{lang}", screens)

    phone.goto(f"/g/{code}/rounds/record")
    title = in_language(lang, "Record round %(number)s") % {"number": 3}
    expect(heading).to_have_text(title)
    for seat, entry in enumerate(FIVE_ROUNDS[2]):
        enter_quick_seat(phone, lang, seat, entry)
    page.evaluate("window.scrollTo(0, 0)")
    keep(phone, f"record-{lang}", screens)

    live_table.record(game, [seat.entry() for seat in FIVE_ROUNDS[3]])  # another phone
    page.get_by_role("button", name=in_language(lang, "Save round")).click()
    clash = in_language(lang, "Round %(number)s was recorded on another phone.")
    conflict = page.locator(".round-conflict h2")
    expect(conflict).to_have_text(clash % {"number": 3})
    conflict.scroll_into_view_if_needed()
    keep(phone, f"conflict-{lang}", screens)
    assert not phone.foreign_requests()
