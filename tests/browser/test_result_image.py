"""A finished game's "Share the result", in a real browser (static/result_image.js): the phone
draws the final standings into a PNG and downloads it where it cannot share files, or hands it
to the share sheet where it can; offline too, and in every language with its own letters and
names of 30 characters. Without JavaScript there is no button.

Screenshots (``SCREENSHOTS_DIR``): the pictures themselves, ``result-image-<language>.png``,
and the scoreboard's part that offers them, ``after-game-<language>.png``.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.support import Phone, PhoneFactory
from tests.share.helpers import ROUND
from tests.table import Table

#: Per language: the button's words and the seats' names (the second one 30 characters, a
#: winner with the first, as ROUND ties them), with the language's own letters.
LANGUAGES: dict[str, tuple[str, list[str]]] = {
    "en": ("Share the result", ["Ann & Bob", "Christopher Alexander O’Connor", "Eve's #1"]),
    "de": ("Ergebnis teilen", ["Jürgen Groß", "Maximiliane Straßburger-Weißer", "Ößel Düß"]),
    "hu": ("Az eredmény megosztása", ["Őrző Űrsula", "Szőke Gyöngyvér Ürmös-Kovácsné", "Bő Ű"]),
    "fr": ("Partager le résultat", ["Zoé L’Heureux", "Jean-François d’Artagnan-Lévyé", "Anaïs"]),
    "it": ("Condividi il risultato", ["Niccolò", "Maria Carmela dell’Anguillaras", "Luca D’Amico"]),
}
WIDTH = 1080
#: The picture's height for three players: the band, a row each, the foot.
HEIGHT = 330 + 3 * 124 + 210
#: The band's red and the winners' green (static/result_image.js).
BAND = (0xB3, 0x26, 0x1E)
WIN_BG = (0xE6, 0xF4, 0xE8)
#: A share sheet that takes files (Web Share API level 2): it keeps what it was given.
FILE_SHARE_SHEET = """
window.sharedFiles = [];
navigator.canShare = (data) => Boolean(data && data.files && data.files.length);
navigator.share = (data) => {
  window.sharedFiles.push(...data.files.map((f) => ({name: f.name, type: f.type, size: f.size})));
  return Promise.resolve();
};
"""


def png_pixels(data: bytes) -> tuple[int, int, list[list[tuple[int, ...]]]]:
    """Width, height and the RGB(A) pixels of a PNG (8 bits, RGB or RGBA, not interlaced):
    every IDAT chunk inflated and each row's filter undone."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    position, idat, header = 8, b"", b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    size = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * size
    rows: list[list[tuple[int, ...]]] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = line[x - size] if x >= size else 0
            up = previous[x]
            corner = previous[x - size] if x >= size else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                near = min(
                    (abs(guess - left), 0, left),
                    (abs(guess - up), 1, up),
                    (abs(guess - corner), 2, corner),
                )[2]
                line[x] = (line[x] + near) & 0xFF
        rows.append([tuple(line[x : x + 3]) for x in range(0, stride, size)])
        previous = line
    return width, height, rows


def finished_game(table: Table, names: list[str]) -> str:
    game = table.new_game(names, rounds=1)
    table.record(game, ROUND)
    assert game["status"] == "finished" and game["winners"] == [0, 1]
    return str(game["id"])


def open_result(new_phone: PhoneFactory, table: Table, language: str, **options: Any) -> Phone:
    button, names = LANGUAGES[language]
    code = finished_game(table, names)
    phone = new_phone(locale=language, extra_http_headers={"Accept-Language": language}, **options)
    phone.goto(f"/g/{code}/view")
    return phone


def check_picture(data: bytes) -> None:
    """The right size, and drawn: the band, the winners' rows and dark text on the light
    background, not one colour."""
    width, height, rows = png_pixels(data)
    assert (width, height) == (WIDTH, HEIGHT)
    band = rows[20][WIDTH // 2]
    assert band == BAND, band
    first_row = rows[330 + 20]  # the first winner's row, beside its green edge
    assert WIN_BG in first_row
    colours = {pixel for row in rows[::7] for pixel in row[::5]}
    assert len(colours) > 20, "a picture of a few flat colours: nothing was written"
    dark = sum(1 for row in rows[330:] for pixel in row[::3] if max(pixel) < 90)
    assert dark > 2_000, "hardly any text in the standings"


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_button_downloads_a_picture_of_the_result(
    new_phone: PhoneFactory, live_table: Table, language: str
) -> None:
    """Chromium on Linux shares no files: the picture is downloaded, and works offline."""
    phone = open_result(new_phone, live_table, language)
    button = phone.page.get_by_role("button", name=LANGUAGES[language][0])
    expect(button).to_be_visible()
    phone.set_offline(True)
    with phone.page.expect_download() as download_info:
        button.tap()
    download = download_info.value
    assert download.suggested_filename.startswith("sticheln-")
    assert download.suggested_filename.endswith(".png")
    data = Path(download.path()).read_bytes()
    check_picture(data)
    expect(phone.page.locator(".result-image [role=status]")).not_to_be_empty()
    assert phone.foreign_requests() == []
    shots = os.environ.get("SCREENSHOTS_DIR")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        Path(shots, f"result-image-{language}.png").write_bytes(data)
        phone.page.locator(".share").screenshot(path=str(Path(shots, f"after-game-{language}.png")))


def test_where_the_browser_shares_files_the_share_sheet_gets_the_png(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    phone = open_result(new_phone, live_table, "en")
    phone.context.add_init_script(FILE_SHARE_SHEET)
    phone.page.reload()
    phone.page.get_by_role("button", name="Share the result").tap()
    expect(phone.page.locator(".result-image [role=status]")).to_have_text("Shared.")
    shared = phone.page.evaluate("window.sharedFiles")
    assert len(shared) == 1
    assert shared[0]["type"] == "image/png" and shared[0]["name"].endswith(".png")
    assert shared[0]["size"] > 10_000


def test_without_javascript_there_is_no_button(new_phone: PhoneFactory, live_table: Table) -> None:
    phone = open_result(new_phone, live_table, "en", java_script_enabled=False)
    expect(phone.page.get_by_role("button", name="Share the result")).to_have_count(0)
    # The BG Stats link needs no script.
    expect(phone.page.get_by_role("link", name="Log this play in BG Stats")).to_be_visible()
