"""Static files are linked under fingerprinted names, kept for a year, and revalidated by ETag."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web.assets import IMMUTABLE, fingerprinted, split_fingerprint
from scripts.page_reader import addresses
from tests.assets.helpers import STATIC, fingerprint_of, plain_name, served, static_url

IDENTITY = {"Accept-Encoding": "identity"}


def get(client: FlaskClient, url: str, **headers: str):  # type: ignore[no-untyped-def]
    """A GET of ``url``, read whole and closed."""
    answer = client.get(url, headers={**IDENTITY, **headers})
    answer.get_data()
    answer.close()
    return answer


def static_links(page: str) -> list[str]:
    return [address for address in addresses(page) if address.startswith("/static/")]


@pytest.fixture
def static_folder(app: Flask, tmp_path: Path) -> Path:
    """A static folder of its own for one test."""
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "style.css").write_text("body { color: black; }\n")
    app.static_folder = str(folder)
    return folder


def rewrite(path: Path, text: str) -> None:
    """Change a file's content and make sure its modification time changes too."""
    before = path.stat().st_mtime_ns
    path.write_text(text)
    os.utime(path, ns=(before + 10**9, before + 10**9))


# --------------------------------------------------------------------------------------------
# Names


@pytest.mark.parametrize(
    ("plain", "named"),
    [
        ("style.css", "style.3f2a91c0.css"),
        ("icons/icon-192.png", "icons/icon-192.3f2a91c0.png"),
        ("vendor/lib.min.js", "vendor/lib.min.3f2a91c0.js"),
        ("LICENSE", "LICENSE.3f2a91c0"),
        ("data.12345678", "data.3f2a91c0.12345678"),
    ],
)
def test_a_fingerprint_goes_before_the_extension_and_comes_off_again(
    plain: str, named: str
) -> None:
    assert fingerprinted(plain, "3f2a91c0") == named
    assert split_fingerprint(named) == (plain, "3f2a91c0")


@pytest.mark.parametrize("name", ["style.css", "style.3F2A91C0.css", "style.3f2a91c.css"])
def test_a_name_without_eight_lowercase_hex_digits_has_no_fingerprint(name: str) -> None:
    assert split_fingerprint(name) is None


@pytest.mark.no_database_queries
def test_every_link_to_a_static_file_carries_the_fingerprint_of_its_content(
    client: FlaskClient,
) -> None:
    links = static_links(client.get("/").get_data(as_text=True))
    assert static_url("style.css") in links
    assert static_url("app.js") in links
    assert static_url("icons/icon.svg") in links
    for link in links:
        assert link == static_url(plain_name(link)), link


@pytest.mark.no_database_queries
def test_the_manifest_names_its_icons_by_fingerprint(client: FlaskClient) -> None:
    icons = [icon["src"] for icon in client.get("/manifest.webmanifest").json["icons"]]
    assert static_url("icons/icon-192.png") in icons
    assert all(icon == static_url(plain_name(icon)) for icon in icons)


@pytest.mark.no_database_queries
def test_a_link_to_a_file_that_does_not_exist_is_left_as_it_is(app: Flask) -> None:
    with app.test_request_context():
        from flask import url_for

        assert url_for("static", filename="missing.css") == "/static/missing.css"
        assert url_for("static", filename="") == "/static/"


# --------------------------------------------------------------------------------------------
# Lifetimes


@pytest.mark.no_database_queries
def test_a_fingerprinted_file_is_kept_for_a_year_and_never_revalidated(
    client: FlaskClient,
) -> None:
    answer = get(client, static_url("style.css"))
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    assert answer.mimetype == "text/css"
    assert answer.data == served("style.css")


@pytest.mark.no_database_queries
def test_the_plain_name_still_answers_but_is_revalidated_every_time(client: FlaskClient) -> None:
    answer = get(client, "/static/style.css")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-cache"
    assert answer.headers["ETag"].strip('"').startswith(fingerprint_of(STATIC / "style.css"))
    assert answer.data == served("style.css")


@pytest.mark.no_database_queries
def test_an_outdated_fingerprint_gets_the_current_file_but_not_for_keeps(
    client: FlaskClient,
) -> None:
    answer = get(client, "/static/style.00000000.css")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-cache"
    assert answer.data == served("style.css")


@pytest.mark.parametrize(
    "url",
    ["/static/missing.00000000.css", "/static/missing.css", "/static/..%2fREADME.md"],
)
@pytest.mark.no_database_queries
def test_a_file_that_is_not_in_the_static_folder_is_not_found(
    client: FlaskClient, url: str
) -> None:
    assert get(client, url).status_code == 404


@pytest.mark.no_database_queries
def test_a_file_whose_own_name_looks_fingerprinted_is_served_under_it(
    client: FlaskClient, static_folder: Path
) -> None:
    (static_folder / "font.0badc0de.css").write_text("p {}\n")
    answer = get(client, "/static/font.0badc0de.css")
    assert answer.status_code == 200
    assert answer.data == served("font.0badc0de.css", static_folder)
    assert answer.headers["Cache-Control"] == "no-cache"
    url = static_url("font.0badc0de.css", static_folder)
    assert get(client, url).headers["Cache-Control"] == IMMUTABLE


# --------------------------------------------------------------------------------------------
# Changes


@pytest.mark.no_database_queries
def test_in_debug_mode_an_edited_file_gets_a_new_name_at_once(
    app: Flask, client: FlaskClient, static_folder: Path
) -> None:
    app.debug = True
    with app.test_request_context():
        from flask import url_for

        before = url_for("static", filename="style.css")
        rewrite(static_folder / "style.css", "body { color: navy; }\n")
        after = url_for("static", filename="style.css")
    assert before != after == static_url("style.css", static_folder)


@pytest.mark.no_database_queries
def test_a_changed_file_is_never_served_for_keeps_under_its_old_fingerprint(
    app: Flask, client: FlaskClient, static_folder: Path
) -> None:
    old = static_url("style.css", static_folder)
    assert get(client, old).headers["Cache-Control"] == IMMUTABLE
    rewrite(static_folder / "style.css", "body { color: navy; }\n")
    stale = get(client, old)
    assert stale.data == served("style.css", static_folder)
    assert stale.headers["Cache-Control"] == "no-cache"
    new = static_url("style.css", static_folder)
    assert new != old
    assert get(client, new).headers["Cache-Control"] == IMMUTABLE
    with app.test_request_context():
        from flask import url_for

        assert url_for("static", filename="style.css") == new, "the view noticed the change"


# --------------------------------------------------------------------------------------------
# Revalidation


@pytest.mark.no_database_queries
@pytest.mark.parametrize("name", ["style.css", "app.js", "icons/icon-192.png"])
def test_a_file_the_client_already_has_answers_304_by_plain_or_fingerprinted_name(
    client: FlaskClient, name: str
) -> None:
    for url in (f"/static/{name}", static_url(name)):
        first = get(client, url)
        again = get(client, url, **{"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304, url
        assert again.data == b""
        assert again.headers["ETag"] == first.headers["ETag"]


@pytest.mark.no_database_queries
def test_a_file_that_changed_since_the_client_got_it_answers_in_full(
    client: FlaskClient, static_folder: Path
) -> None:
    first = get(client, "/static/style.css")
    rewrite(static_folder / "style.css", "body { color: navy; }\n")
    again = get(client, "/static/style.css", **{"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200
    assert again.data == served("style.css", static_folder)
    assert again.headers["ETag"] != first.headers["ETag"]


@pytest.mark.no_database_queries
def test_the_same_content_has_the_same_etag_whatever_its_modification_time(
    client: FlaskClient, static_folder: Path
) -> None:
    first = get(client, "/static/style.css")
    rewrite(static_folder / "style.css", (static_folder / "style.css").read_text())
    assert get(client, "/static/style.css").headers["ETag"] == first.headers["ETag"]


@pytest.mark.no_database_queries
def test_a_byte_range_of_a_static_file_is_served(client: FlaskClient) -> None:
    answer = get(client, "/static/style.css", Range="bytes=0-9")
    assert answer.status_code == 206
    assert answer.data == served("style.css")[:10]


@pytest.mark.no_database_queries
def test_a_head_request_answers_the_headers_without_the_file(client: FlaskClient) -> None:
    answer = client.head(static_url("app.js"), headers=IDENTITY)
    assert answer.status_code == 200
    assert answer.data == b""
    assert answer.headers["Content-Length"] == str(len(served("app.js")))
    assert answer.headers["Cache-Control"] == IMMUTABLE
