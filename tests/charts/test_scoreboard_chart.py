"""The scoreboard draws the cumulative chart once a round is scored."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from companion.rules import PRESETS, table_setup
from scripts.page_reader import read_page
from tests.backup.history import classic_led_by, play_classic_live, quick_entries
from tests.table import Table

NAMES = ["Ann", '<script>alert("x")</script>', 'Cleo "C"', "Dan"]


def test_no_chart_before_the_first_round_is_scored(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, "classic", rounds=3)
    page = client.get(f"/g/{game['id']}/view").get_data(as_text=True)
    assert '<svg class="chart' not in page


def test_the_chart_follows_the_scored_rounds_on_both_scoreboards(
    client: FlaskClient, table: Table
) -> None:
    setup = table_setup(4, PRESETS["classic"])
    game = table.new_game(NAMES, "classic", rounds=3)
    game = table.record(game, quick_entries(classic_led_by(setup, 0, 1)))
    game = table.record(game, quick_entries(classic_led_by(setup, 1, 2)))
    game = play_classic_live(client, game, classic_led_by(setup, 2, 3), tricks=3)  # playing
    for path in (f"/g/{game['id']}", f"/g/{game['id']}/view"):
        page = client.get(path).get_data(as_text=True)
        assert page.count('<svg class="chart chart--cumulative"') == 1
        chart = page[page.index('<svg class="chart') : page.index("</svg>", page.index("chart--"))]
        assert chart.count('class="chart-line"') == 4 + 4  # a line per seat, a legend sample each
        # two scored rounds: round 0 and the two rounds, not the one being played
        first_line = read_page(chart).find(class_="chart-line", data_seat="0").get("d")
        assert first_line is not None and first_line.count("L") == 2
        total = game["totals"][0]
        sign = "+" if total > 0 else ("\u2212" if total < 0 else "")
        assert f"Running totals after round 2: Ann {sign}{abs(total)}" in chart
        assert "<script>alert" not in page
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in chart
        assert 'aria-labelledby="totals-title"' in chart


def test_the_chart_is_in_the_players_language(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    setup = table_setup(4, PRESETS["classic"])
    game = table.new_game(NAMES, "classic", rounds=3)
    table.record(game, quick_entries(classic_led_by(setup, 0, 1)))
    client.set_cookie("lang", "de")
    page = client.get(f"/g/{game['id']}/view").get_data(as_text=True)
    chart = page[page.index('<svg class="chart') :]
    assert ">Runde</text>" in chart
    assert "Zwischenstand nach Runde 1" in chart
