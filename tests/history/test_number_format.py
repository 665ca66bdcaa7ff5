"""Counts are written as each language writes numbers: "1,000 games" in English, "1.000
Partien" in German, "1 000 parties" in French (a narrow no-break space), and so on."""

from __future__ import annotations

import urllib.parse

import pytest
import sqlalchemy as sa
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from companion.cli.demo import add_demo_games
from companion.data.models import Player, PlayerTotals, db
from tests.history.helpers import stat_values, text_of

#: Each language's words for 12,345 games and for 1 game, and how it writes 2,500.
WRITTEN = {
    "en": ("12,345 games", "1 game", "2,500"),
    "de": ("12.345 Partien", "1 Partie", "2.500"),
    "it": ("12.345 partite", "1 partita", "2.500"),
    "fr": ("12\u202f345 parties", "1 partie", "2\u202f500"),
    "hu": ("12\xa0345 játszma", "1 játszma", "2\xa0500"),
}


@pytest.mark.parametrize("code", sorted(WRITTEN))
def test_a_plural_count_is_written_the_languages_way_and_still_picks_the_form(
    app: Flask, code: str
) -> None:
    many, one, number = WRITTEN[code]
    template = (
        "{{ ngettext('%(num)s game', '%(num)s games', 12345) }}|"
        "{{ ngettext('%(num)s game', '%(num)s games', 1) }}|{{ 2500|decimalformat }}|"
        "{{ ngettext('%(num)s game', '%(num)s games', 2, num='two') }}"
    )
    with app.test_request_context(headers={"Accept-Language": code}):
        written = render_template_string(template).split("|")
    assert written[:3] == [many, one, number]
    assert written[3].startswith("two ")  # a caller's own num is kept


def test_the_history_and_a_players_page_group_their_thousands(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        add_demo_games(1000, seed=3, workers=1)
        name, rounds = db.session.execute(
            sa.select(Player.name, PlayerTotals.rounds)
            .join(PlayerTotals, PlayerTotals.player_id == Player.id)
            .order_by(PlayerTotals.rounds.desc())
            .limit(1)
        ).one()
    assert rounds >= 1000  # so that the page has a thousand to group

    english = text_of(client.get("/history", headers={"Accept-Language": "en"}).text)
    german = text_of(client.get("/history", headers={"Accept-Language": "de"}).text)
    assert "1,000 games · page 1 of 50" in english
    assert "1.000 Partien · Seite 1 von 50" in german

    path = f"/players/{urllib.parse.quote(name)}"
    page = client.get(path, headers={"Accept-Language": "en"}).text
    assert stat_values(page)["Rounds"] == f"{rounds:,}"
