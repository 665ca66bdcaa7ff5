"""A finished game's scoreboard offers, in the page's language, the picture of its result
(data in the page, drawn by the phone: static/result_image.js) and the link that logs it in
BG Stats (companion/formats/bg_stats.py); a game in progress offers neither, and the page
without JavaScript shows no button that cannot work."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import Circle, Game, db
from companion.services.circles import rename_circle
from scripts.page_reader import read_page
from tests.share.helpers import page_of, record_round
from tests.share.test_bg_stats import decoded
from tests.table import Table

#: The link's words and the play's comments, in each language (the page's language).
WORDS = {
    "en": ("Log this play in BG Stats", "Variant: Classic. 1 round."),
    "de": ("Diese Partie in BG Stats eintragen", "Variante: Klassisch. 1 Runde."),
    "hu": ("A játszma rögzítése a BG Statsben", "Változat: Klasszikus. 1 forduló."),
}


def finished_game(table: Table, names: list[str]) -> dict[str, Any]:
    game = table.new_game(names, "classic", rounds=1)
    assert record_round(table.client, game).status_code == 201
    return game


@pytest.mark.parametrize("language", list(WORDS))
def test_a_finished_games_page_offers_bg_stats_in_its_language(
    client: FlaskClient, table: Table, language: str
) -> None:
    game = finished_game(table, ["Ann & Ben", "Őrző", "Straße 'n' \"Co\""])
    words, comments = WORDS[language]
    for path in (f"/g/{game['id']}", f"/g/{game['id']}/view"):
        page = read_page(page_of(client, path, headers={"Accept-Language": language}))
        link = page.find("p", class_="bg-stats").find("a")
        assert " ".join(link.strings).strip() == words
        play = decoded(link.attrs["href"])
        assert play["comments"] == comments
        state = client.get(f"/api/v1/games/{game['id']}").json
        assert [p["name"] for p in play["players"]] == state["players"]
        assert [p["score"] for p in play["players"]] == state["totals"]
        # The API's link is the same play, its comments in the API request's language.
        assert {**decoded(state["bg_stats_url"]), "comments": comments} == play


def test_the_pictures_data_is_the_final_standings(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """By rank, the two seats with 5 tricks sharing rank 1 and the win (R11), each total as
    the scoreboard writes it; the variant, rounds, date and circle in the page's language."""
    names = ["Ann's", 'Ben "<b>"', "Cleo & Co"]
    game = finished_game(table, names)
    state = client.get(f"/api/v1/games/{game['id']}").json
    page = read_page(page_of(client, f"/g/{game['id']}", headers={"Accept-Language": "de"}))
    block = page.find("div", data_result_image=True)
    data = json.loads(block.attrs["data-result-image"])
    totals = state["totals"]
    assert totals[0] == totals[1] > totals[2] and state["winners"] == [0, 1]
    assert data["rows"] == [
        {"rank": 1, "name": names[0], "total": f"+{totals[0]}", "winner": True},
        {"rank": 1, "name": names[1], "total": f"+{totals[1]}", "winner": True},
        {"rank": 3, "name": names[2], "total": f"+{totals[2]}", "winner": False},
    ]
    assert data["title"] == "Ergebnis" and data["winner"] == "Sieger"
    assert data["variant"] == "Klassisch" and data["rounds"] == "Beendet nach 1 Runde"
    with app.app_context():
        stored = db.session.query(Game).filter_by(code=game["id"]).one()
        assert data["circle"] == db.session.get(Circle, stored.circle_id).name
    assert data["file"].startswith("sticheln-") and data["file"].endswith(f"-{game['id']}.png")
    # Without JavaScript the button stays hidden: the script shows it once it can draw.
    assert "hidden" in block.attrs and block.find("button")
    assert page.find("script", src=True) and any(
        script.attrs.get("src", "").startswith("/static/result_image")
        for script in page.find_all("script")
    )


def test_a_game_in_progress_offers_neither(client: FlaskClient, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], "classic", rounds=2)
    assert record_round(client, game).status_code == 201
    page = page_of(client, f"/g/{game['id']}")
    assert "bgstatsapp" not in page and "result-image" not in page and "result_image" not in page


def test_renaming_the_circle_changes_the_finished_page(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """The page's ETag covers the circle's name, which the picture and the play show."""
    game = finished_game(table, ["Ann", "Ben", "Cleo"])
    first = client.get(f"/g/{game['id']}/view")
    with app.app_context():
        stored = db.session.query(Game).filter_by(code=game["id"]).one()
        rename_circle(stored.circle_id, "Thursday club")
        db.session.commit()
    again = client.get(f"/g/{game['id']}/view", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200
    link = read_page(again.get_data(as_text=True)).find("p", class_="bg-stats").find("a")
    assert decoded(link.attrs["href"])["location"] == "Thursday club"
