"""The installable app: its manifest, its icons and the favicon, and the links every page has."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, gettext
from werkzeug.test import TestResponse

from scripts.page_reader import read_page

#: Its tests' bodies run no statement on the app's database (tests/conftest.py checks).
pytestmark = pytest.mark.no_database_queries

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def manifest(client: FlaskClient, **headers: str) -> dict[str, object]:
    answer = client.get("/manifest.webmanifest", headers=headers)
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    data: dict[str, object] = answer.get_json(force=True)
    return data


def icons(client: FlaskClient) -> list[dict[str, str]]:
    found = manifest(client)["icons"]
    assert isinstance(found, list)
    return found


def fetch(client: FlaskClient, url: str) -> TestResponse:
    """Answer a GET of ``url``, read whole and closed (static files are streamed)."""
    answer = client.get(url)
    answer.get_data()
    answer.close()
    return answer


def png_chunks(data: bytes) -> dict[bytes, bytes]:
    """The chunks of a PNG file by type (the last of each type)."""
    assert data.startswith(PNG_SIGNATURE)
    chunks, position = {}, len(PNG_SIGNATURE)
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        chunks[kind] = data[position + 8 : position + 8 + length]
        position += 12 + length
    return chunks


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG file's header."""
    width, height = struct.unpack(">II", png_chunks(data)[b"IHDR"][:8])
    return width, height


def test_the_manifest_describes_a_standalone_app_that_starts_at_the_home_page(
    client: FlaskClient,
) -> None:
    data = manifest(client)
    assert data["name"] == "Sticheln companion"
    assert data["short_name"] == "Sticheln"
    assert data["description"]
    assert data["start_url"] == "/"
    assert data["scope"] == "/"
    assert data["id"] == "/"
    assert data["display"] == "standalone"
    assert data["background_color"] == data["theme_color"] == "#fbfaf7"


def test_the_manifest_colours_match_the_light_theme_of_the_pages(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    data = manifest(client)
    light = '<meta name="theme-color" content="{}" media="(prefers-color-scheme: light)">'
    assert light.format(data["theme_color"]) in page


@pytest.mark.parametrize(
    ("cookie", "accept", "locale"),
    [
        (None, None, "en"),
        (None, "de", "de"),
        (None, "it-IT,it;q=0.9", "it"),
        ("hu", "de", "hu"),
    ],
)
def test_the_manifest_speaks_the_language_of_the_request(
    app: Flask, client: FlaskClient, cookie: str | None, accept: str | None, locale: str
) -> None:
    if cookie:
        client.set_cookie("lang", cookie)
    data = manifest(client, **({"Accept-Language": accept} if accept else {}))
    assert data["lang"] == locale
    with app.test_request_context(), force_locale(locale):
        assert data["name"] == gettext("Sticheln companion")


def test_the_manifest_offers_an_svg_two_pngs_and_a_maskable_icon(client: FlaskClient) -> None:
    offered = {(icon["type"], icon["sizes"], icon["purpose"]) for icon in icons(client)}
    assert offered == {
        ("image/svg+xml", "any", "any"),
        ("image/png", "192x192", "any"),
        ("image/png", "512x512", "any"),
        ("image/png", "512x512", "maskable"),
    }


def test_every_icon_answers_with_its_declared_type_and_size(client: FlaskClient) -> None:
    for icon in icons(client):
        answer = fetch(client, icon["src"])
        assert answer.status_code == 200, icon["src"]
        assert answer.mimetype == icon["type"], icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(answer.data)
            assert f"{width}x{height}" == icon["sizes"], icon["src"]
        else:
            view_box = ET.fromstring(answer.data).get("viewBox", "").split()
            assert view_box[:2] == ["0", "0"] and view_box[2] == view_box[3], "a square SVG"
            assert view_box[2].isdigit(), "a square SVG"


def test_png_icons_are_kept_small(client: FlaskClient) -> None:
    for icon in icons(client):
        assert len(fetch(client, icon["src"]).data) < 16_000, icon["src"]


def test_the_maskable_icon_fills_its_whole_square_without_transparency(
    client: FlaskClient,
) -> None:
    (maskable,) = [icon for icon in icons(client) if icon["purpose"] == "maskable"]
    chunks = png_chunks(fetch(client, maskable["src"]).data)
    colour_type = chunks[b"IHDR"][9]
    assert colour_type in (0, 2, 3), "no alpha channel"
    assert b"tRNS" not in chunks, "no transparent palette entries"


def test_the_svg_icon_makes_no_request_to_another_site(client: FlaskClient) -> None:
    svg = fetch(client, "/static/icons/icon.svg").get_data(as_text=True)
    links = [
        value
        for element in ET.fromstring(svg).iter()
        for name, value in element.attrib.items()
        if name.endswith(("href", "src"))
    ]
    assert not [link for link in links if link.startswith(("//", "http://", "https://"))]
    assert "<script" not in svg


def test_favicon_ico_answers_with_an_icon(client: FlaskClient) -> None:
    answer = fetch(client, "/favicon.ico")
    assert answer.status_code == 200
    assert answer.mimetype == "image/x-icon"
    assert answer.data.startswith(b"\0\0\1\0")  # a Windows icon file
    (count,) = struct.unpack("<H", answer.data[4:6])
    assert count >= 2


def test_every_page_links_the_manifest_and_the_icons(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    links = read_page(page).find("head").find_all("link")
    assert [link.get("href") for link in links if link.get("rel") == "manifest"] == [
        "/manifest.webmanifest"
    ]
    for rel in ("icon", "apple-touch-icon"):
        hrefs = [link.get("href") for link in links if link.get("rel") == rel]
        assert hrefs and hrefs[0], rel
        assert fetch(client, hrefs[0]).status_code == 200, rel
