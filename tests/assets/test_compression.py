"""Text responses are gzipped for clients that accept it, and conditional GET still works."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from flask import Flask, Response, make_response, request
from flask.testing import FlaskClient

from companion.web import compression
from tests.assets.helpers import STATIC, served, static_url

GZIP = {"Accept-Encoding": "gzip, deflate, br"}
IDENTITY = {"Accept-Encoding": "identity"}


def get(client: FlaskClient, url: str, **headers: str):  # type: ignore[no-untyped-def]
    """A GET of ``url``, read whole and closed."""
    answer = client.get(url, headers=headers)
    answer.get_data()
    answer.close()
    return answer


def add_tagged_route(app: Flask) -> FlaskClient:
    """Give ``app`` a page with an ETag that answers 304 itself when the client has it, as a
    view that saves its own rendering does."""

    def tagged() -> Response:
        if request.if_none_match.contains("page-v1"):
            answer = make_response("", 304)
            answer.set_etag("page-v1")
            return answer
        answer = make_response("<p>" + "The same words again. " * 100 + "</p>")
        answer.set_etag("page-v1")
        return answer

    app.add_url_rule("/tagged", "tagged", tagged)
    return app.test_client()


@pytest.mark.no_database_queries
def test_a_page_is_gzipped_for_a_client_that_accepts_it(client: FlaskClient) -> None:
    plain = get(client, "/rules", **IDENTITY)
    packed = get(client, "/rules", **GZIP)
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data) / 3
    for answer in (plain, packed):
        assert "Accept-Encoding" in answer.headers["Vary"]


@pytest.mark.no_database_queries
@pytest.mark.parametrize("accept", ["", "identity", "gzip;q=0, deflate", "br"])
def test_a_client_that_does_not_accept_gzip_gets_the_plain_page(
    client: FlaskClient, accept: str
) -> None:
    answer = get(client, "/rules", **{"Accept-Encoding": accept})
    assert "Content-Encoding" not in answer.headers
    assert b"<h1>" in answer.data


@pytest.mark.no_database_queries
def test_a_small_response_is_not_worth_compressing(client: FlaskClient) -> None:
    answer = get(client, "/api/v1/setup?players=4", **GZIP)
    assert len(answer.data) < compression.MIN_SIZE
    assert "Content-Encoding" not in answer.headers
    assert answer.json["hand_size"] == 15
    assert "Accept-Encoding" in answer.headers["Vary"], "a larger answer would be compressed"


@pytest.mark.no_database_queries
def test_json_answers_are_gzipped_like_pages(client: FlaskClient) -> None:
    answer = get(client, "/manifest.webmanifest", **GZIP)
    body = gzip.decompress(answer.data) if "Content-Encoding" in answer.headers else answer.data
    assert json.loads(body)["short_name"] == "Sticheln"
    answer = get(client, "/sw.js", **GZIP)
    assert answer.headers["Content-Encoding"] == "gzip"
    assert b"caches.open(CACHE)" in gzip.decompress(answer.data)


@pytest.mark.no_database_queries
def test_a_head_request_is_answered_plain(client: FlaskClient) -> None:
    answer = client.head("/rules", headers=GZIP)
    assert "Content-Encoding" not in answer.headers


@pytest.mark.no_database_queries
def test_a_streamed_response_is_left_alone(app: Flask) -> None:
    def stream() -> Response:
        return Response(iter(["x" * 2000]), mimetype="text/plain")

    app.add_url_rule("/stream", "stream", stream)
    answer = get(app.test_client(), "/stream", **GZIP)
    assert "Content-Encoding" not in answer.headers
    assert answer.data == b"x" * 2000


@pytest.mark.no_database_queries
def test_images_other_than_svg_are_never_gzipped(client: FlaskClient) -> None:
    answer = get(client, static_url("icons/icon-512.png"), **GZIP)
    assert "Content-Encoding" not in answer.headers
    assert answer.data == (STATIC / "icons" / "icon-512.png").read_bytes()
    assert "Accept-Encoding" not in answer.headers.get("Vary", "")


# --------------------------------------------------------------------------------------------
# Static files


@pytest.mark.no_database_queries
@pytest.mark.parametrize("name", ["style.css", "rounds.js", "icons/icon.svg"])
def test_a_static_text_file_is_sent_gzipped_with_an_etag_of_its_own(
    client: FlaskClient, name: str
) -> None:
    plain = get(client, static_url(name), **IDENTITY)
    packed = get(client, static_url(name), **GZIP)
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data == served(name)
    assert int(packed.headers["Content-Length"]) == len(packed.data)
    assert packed.headers["ETag"] == plain.headers["ETag"][:-1] + '-gzip"'
    assert packed.headers["Cache-Control"] == plain.headers["Cache-Control"]
    for answer in (plain, packed):
        assert "Accept-Encoding" in answer.headers["Vary"]


@pytest.mark.no_database_queries
def test_a_static_file_is_compressed_once_per_content(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    original = compression.gzip_bytes

    def counting(data: bytes, level: int = compression.LEVEL) -> bytes:
        calls.append(len(data))
        return original(data, level)

    monkeypatch.setattr(compression, "gzip_bytes", counting)
    first = get(client, static_url("style.css"), **GZIP)
    for url in (static_url("style.css"), "/static/style.css"):
        assert get(client, url, **GZIP).data == first.data
    assert calls == [len(served("style.css"))]


@pytest.mark.no_database_queries
def test_each_variant_of_a_static_file_answers_304_to_its_own_etag(client: FlaskClient) -> None:
    for headers in (GZIP, IDENTITY):
        first = get(client, "/static/style.css", **headers)
        tag = first.headers["ETag"]
        again = get(client, "/static/style.css", **headers, **{"If-None-Match": tag})
        assert again.status_code == 304
        assert again.headers["ETag"] == first.headers["ETag"]
        assert again.data == b""


# --------------------------------------------------------------------------------------------
# ETags of pages


@pytest.mark.no_database_queries
def test_a_gzipped_page_has_its_etag_marked_and_answers_304_to_it(app: Flask) -> None:
    client = add_tagged_route(app)
    plain = get(client, "/tagged", **IDENTITY)
    packed = get(client, "/tagged", **GZIP)
    assert plain.headers["ETag"] == '"page-v1"'
    assert packed.headers["ETag"] == '"page-v1-gzip"'
    again = get(client, "/tagged", **GZIP, **{"If-None-Match": '"page-v1-gzip"'})
    assert again.status_code == 304
    assert again.headers["ETag"] == '"page-v1-gzip"'
    assert "Accept-Encoding" in again.headers["Vary"]
    again = get(client, "/tagged", **IDENTITY, **{"If-None-Match": '"page-v1"'})
    assert again.status_code == 304
    assert again.headers["ETag"] == '"page-v1"'


@pytest.mark.no_database_queries
def test_a_weak_etag_stays_weak_in_the_gzip_variant(app: Flask) -> None:
    def weak() -> Response:
        answer = make_response("<p>" + "words " * 200 + "</p>")
        answer.set_etag("w1", weak=True)
        return answer.make_conditional(request)

    app.add_url_rule("/weak", "weak", weak)
    client = app.test_client()
    packed = get(client, "/weak", **GZIP)
    assert packed.headers["ETag"] == 'W/"w1-gzip"'
    again = get(client, "/weak", **GZIP, **{"If-None-Match": 'W/"w1-gzip"'})
    assert again.status_code == 304
    assert again.headers["ETag"] == 'W/"w1-gzip"'


@pytest.mark.no_database_queries
def test_an_outdated_gzip_etag_gets_the_whole_page(app: Flask) -> None:
    client = add_tagged_route(app)
    answer = get(client, "/tagged", **GZIP, **{"If-None-Match": '"page-v0-gzip"'})
    assert answer.status_code == 200
    assert b"The same words again." in gzip.decompress(answer.data)


@pytest.mark.no_database_queries
def test_a_changed_static_file_is_sent_gzipped_as_it_is_now(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    folder = tmp_path / "static"
    folder.mkdir()
    style = folder / "style.css"
    style.write_text("p { color: black; }\n" * 40)
    app.static_folder = str(folder)
    before = get(client, "/static/style.css", **GZIP)
    black = served("style.css", folder)
    style.write_text("p { color: navy; }\n" * 40)
    os.utime(style, ns=(style.stat().st_mtime_ns + 10**9,) * 2)
    after = get(client, "/static/style.css", **GZIP)
    assert gzip.decompress(before.data) == black
    assert gzip.decompress(after.data) == served("style.css", folder) != black
    assert after.headers["ETag"] != before.headers["ETag"]


@pytest.mark.no_database_queries
def test_a_page_with_a_strong_etag_is_gzipped_once_and_the_gzip_reused(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.web import compression

    calls: list[int] = []
    real = compression.gzip_bytes

    def counted(data: bytes, level: int = compression.LEVEL) -> bytes:
        calls.append(len(data))
        return real(data, level)

    monkeypatch.setattr(compression, "gzip_bytes", counted)
    body = "<p>The same scoreboard for every phone.</p>" * 40

    @app.get("/kept")
    def kept() -> Response:
        response = make_response(body)
        response.set_etag(f"kept-{request.args.get('v', '1')}")
        return response

    first, again = get(client, "/kept", **GZIP), get(client, "/kept", **GZIP)
    assert gzip.decompress(again.data).decode() == body and again.data == first.data
    assert calls == [len(body)]
    get(client, "/kept?v=2", **GZIP)  # another tag: compressed again
    assert calls == [len(body), len(body)]


#: What a kept page's answer must say as the rendered one did.
KEPT_HEADERS = ("Content-Type", "Content-Encoding", "ETag", "Cache-Control", "Content-Length")


def generic_answer(page: bytes, tag: str) -> Response:
    """A kept page answered the generic way, taken apart by ``compress_response``."""
    answer = make_response(page, 200)
    answer.set_etag(tag)
    return answer


@pytest.mark.parametrize("accept", ["gzip, deflate, br", "identity", "gzip;q=0, deflate", ""])
def test_a_kept_scoreboard_is_answered_as_the_generic_compression_answers_it(
    app: Flask, accept: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.table import Table

    game = Table(app, app.test_client()).new_game()
    phone = app.test_client()
    path, headers = f"/g/{game['id']}/view", {"Accept-Encoding": accept}
    get(phone, path, **headers)  # rendered and kept
    kept = get(phone, path, **headers)
    monkeypatch.setattr("companion.web.scoreboard_cache.kept_page_response", generic_answer)
    generic = get(phone, path, **headers)
    assert kept.data == generic.data
    for name in KEPT_HEADERS:
        assert kept.headers.get(name) == generic.headers.get(name), name
    assert set(kept.headers["Vary"].split(", ")) == set(generic.headers["Vary"].split(", "))
    gzipped = accept.startswith("gzip,")
    assert (kept.headers.get("Content-Encoding") == "gzip") is gzipped
    page = gzip.decompress(kept.data) if gzipped else kept.data
    assert b"<h1" in page


def test_a_kept_scoreboard_asked_with_head_is_answered_plain(app: Flask) -> None:
    from tests.table import Table

    game = Table(app, app.test_client()).new_game()
    phone = app.test_client()
    whole = get(phone, f"/g/{game['id']}/view", **IDENTITY)
    head = phone.head(f"/g/{game['id']}/view", headers=GZIP)
    assert head.status_code == 200
    assert "Content-Encoding" not in head.headers
    assert head.headers["ETag"] == whole.headers["ETag"]
    assert head.headers["Content-Length"] == str(len(whole.data))
