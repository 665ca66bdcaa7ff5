"""The share page: the read-only link for every phone, the secret edit link only for a phone
that may change the game; the scoreboards link to it instead of carrying QR codes."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scripts.page_reader import read_page
from tests.share.helpers import (
    QR_SVG,
    edit_url_on,
    page_of,
    record_round,
    text_of,
)
from tests.table import Table


def test_a_phone_with_edit_rights_sees_both_links_each_with_its_qr_code_and_copy_button(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code, key = game["id"], game["edit_key"]
    response = table.phone(game).get(f"/g/{code}/share")
    page = response.get_data(as_text=True)
    words = text_of(page)

    assert response.status_code == 200
    assert page.count(QR_SVG) == 2
    assert f'href="http://localhost/g/{code}/view"' in page
    assert edit_url_on(page, code) == key
    assert f"http://localhost/g/{code}/edit/{key}" in words  # as text too, to copy by hand
    assert page.count('class="copy-source"') == 2 and 'data-copy="Copy"' in page
    assert "Edit link: keep it secret" in words
    assert "Anyone with this link can change the scores." in words
    assert "Make a new edit link" in words
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_a_watching_phone_sees_only_the_read_only_link_and_one_qr_code(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code, key = game["id"], game["edit_key"]
    page = page_of(table.phone(), f"/g/{code}/share")
    words = text_of(page)

    assert page.count(QR_SVG) == 1
    assert f'href="http://localhost/g/{code}/view"' in page
    assert key not in page and "/edit/" not in page
    assert "change the scores" not in words and "Make a new edit link" not in words
    assert 'name="csrf_token"' not in page
    assert "Scan this code with another phone to follow the scoreboard." in words
    assert f'href="/g/{code}/view">Back to the scoreboard' in page


def test_the_editing_phone_goes_back_to_its_own_scoreboard(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    page = page_of(table.phone(game), f"/g/{game['id']}/share")
    assert f'href="/g/{game["id"]}">Back to the scoreboard' in page


def test_the_scoreboards_link_to_the_share_page_and_carry_no_qr_code(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code = game["id"]
    assert record_round(client, game).status_code == 201  # so the page has a chart (an SVG)
    editor = table.phone(game)
    for who, path, button in [
        (editor, f"/g/{code}", "button"),  # recording rounds stays the main action
        (editor, f"/g/{code}/view", "button button--primary"),
        (table.phone(), f"/g/{code}", "button button--primary"),
    ]:
        page = page_of(who, path)
        assert f'<a class="{button} share-button" href="/g/{code}/share">' in page
        assert "Share with other phones" in text_of(page)
        assert QR_SVG not in page and 'class="segno"' not in page
        assert "Follow on other phones" not in page and "link-box" not in page
        assert game["edit_key"] not in page and "/edit/" not in page
        assert f'href="/g/{code}/export.json"' in page and f'href="/g/{code}/export.csv"' in page
        assert '<svg class="chart' in page  # the chart is still there


def test_the_share_page_of_an_unknown_game_is_a_clear_404(client: FlaskClient) -> None:
    response = client.get("/g/nosuchgame/share")
    assert response.status_code == 404
    assert "There is no game at this address." in text_of(response.get_data(as_text=True))


def test_the_share_page_offers_to_keep_the_offline_kit_with_its_words_in_the_language(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """Issue 26: "Keep for offline play", drawn hidden (nothing can be kept without
    JavaScript) and shown by static/keep.js, which reads the kit's manifest there named."""
    game = table.new_game(rounds=3)
    for phone, language in ((table.phone(game), "en"), (table.phone(), "de")):
        response = phone.get(f"/g/{game['id']}/share", headers={"Accept-Language": language})
        page = read_page(response.get_data(as_text=True))
        control = page.find("section", id="keep")
        assert control.get("hidden") == "" and control.get("data-keep") == ""
        assert control.get("data-manifest") == "/offline-kit/manifest.json"
        button = control.find("button")
        assert button.get("type") == "button"
        scripts = [element.get("src") or "" for element in page.find_all("script")]
        assert any("/static/keep." in src for src in scripts)
        for name in ("size", "update", "downloading", "kept"):
            assert "{size}" in (control.get(f"data-{name}") or ""), name
        assert "{percent}" in (control.get("data-percent") or "")
        if language == "en":
            assert button.text == "Keep for offline play"
            assert control.get("data-kept") == "Kept for offline play ({size} on this phone)."
            assert "HTTPS" in (control.get("data-insecure") or "")
        else:
            assert button.text == "Für das Spielen ohne Netz speichern"
            assert control.find("h2").text == "Spielen ohne Netz"


def test_the_editing_scoreboard_offers_readiness_on_its_first_screen_and_the_read_only_one_not(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """Under the scoreboard's heading, before its board: "Ready this phone for offline play"
    with the kit's size, then "Ready offline" beside "Forget this phone's copies"; drawn
    hidden (static/keep.js shows it: without JavaScript no dead button), in the language."""
    game = table.new_game(rounds=3)
    code, key = game["id"], game["edit_key"]
    phone = table.phone(game)
    html = page_of(phone, f"/g/{code}/edit/{key}", follow_redirects=True)
    assert html.index("<h1>") < html.index("data-ready") < html.index("data-board")
    editing = read_page(html)
    control = editing.find(data_ready=True)
    assert control.get("hidden") == "" and control.get("data-keep") == ""
    assert control.get("data-manifest") == "/offline-kit/manifest.json"
    said = table.client.get("/offline/words.json?lang=en").json  # its words (keep.js)
    assert said["ready_offer"] == "Ready this phone for offline play, {size}"
    assert said["ready_kept"] == "Ready offline"
    assert "{size}" in table.client.get("/offline/words.json?lang=hu").json["ready_offer"]
    forget = control.find("button", class_="keep__forget")
    assert forget.get("hidden") == "" and forget.text == ""  # named by keep.js, from its words
    assert said["forget"] == "Forget this phone’s copies"
    app = [s for s in editing.find_all("script") if "/static/app." in (s.get("src") or "")]
    assert "/static/keep." in (app[0].get("data-keeping") or "")  # loaded once the page is in
    german = table.client.get("/offline/words.json?lang=de").json
    assert german["forget"] == "Kopien auf diesem Handy vergessen"
    watching = read_page(page_of(table.phone(), f"/g/{code}/view"))
    assert watching.find_all(data_keep=True) == []
    assert not [a for a in editing.find_all("a") if "#keep" in (a.get("href") or "")]
