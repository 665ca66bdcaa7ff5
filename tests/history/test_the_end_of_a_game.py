"""The end of a game in the history (issue 17, point 9): cards that tell the games of one
evening apart, a player's chart in points per round with each date once, and two players
head to head.

Expected numbers come from the games' states, scored by ``companion.rules`` through the API
(the fixed history of tests/history/helpers.py), never written out by hand.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo

import pytest
from babel.dates import format_date, format_time
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.data import stats
from companion.data.models import db
from companion.rules import winners
from scripts.page_reader import Element, read_page
from tests.charts.test_charts import SVG, by_class, points_of, value_scale
from tests.conftest import TEST_CONFIG, database_url
from tests.history.helpers import (
    FixedHistory,
    build_fixed_history,
    quick,
    set_created,
    stat_values,
)
from tests.table import Table

THREE = [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)]


@pytest.fixture
def history(table: Table) -> FixedHistory:
    return build_fixed_history(table)


def state(client: FlaskClient, code: str) -> dict[str, Any]:
    answer = client.get(f"/api/v1/games/{code}")
    assert answer.status_code == 200
    result: dict[str, Any] = answer.json
    return result


def scored_rounds(game: dict[str, Any]) -> list[list[int]]:
    """Each scored round's scores, as the rules scored them."""
    return [r["scores"] for r in game["rounds"] if r["status"] == "scored"]


def per_round(game: dict[str, Any], seat: int) -> float:
    """A seat's points per scored round."""
    rounds = scored_rounds(game)
    return sum(scores[seat] for scores in rounds) / len(rounds)


def card_of(page: str, code: str) -> Element:
    """The history card of the game ``code``."""
    for item in read_page(page).find_all("li", class_="history-game"):
        if item.find("a", class_="history-game__date").get("href") == f"/g/{code}":
            return item
    raise AssertionError(f"no card of {code}")


def history_chart(page: str) -> ET.Element:
    """The player page's chart, parsed as the SVG it is."""
    start = page.index('<svg class="chart chart--history"')
    return ET.fromstring(page[start : page.index("</svg>", start) + len("</svg>")])


def plotted_values(chart: ET.Element) -> list[float]:
    """The values of the chart's line, read back through its y axis."""
    [path] = by_class(chart, "chart-line")
    zero, per_point = value_scale(chart)
    return [(y + 12 * 0.35 - zero) / per_point for _, y in points_of(path)]


def x_labels(chart: ET.Element) -> list[str]:
    return [str(text.text) for text in by_class(chart, "chart-x-labels")[0]]


# --------------------------------------------------------------------------------------------
# History cards


def test_a_card_shows_the_time_of_day_the_players_the_winner_with_total_and_the_rounds(
    client: FlaskClient, table: Table
) -> None:
    evening = datetime(2026, 11, 25, 19, 0, tzinfo=UTC)
    codes = []
    for minutes in (0, 50, 95, 140):  # four games of one evening
        game = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
        table.record(game, THREE)
        table.record(game, THREE)
        set_created(table.app, game["id"], evening + timedelta(minutes=minutes))
        codes.append(game["id"])
    page = client.get("/history").get_data(as_text=True)
    heads = []
    for code in codes:
        game = state(client, code)
        card = card_of(page, code)
        moment = evening + timedelta(minutes=(0, 50, 95, 140)[codes.index(code)])
        shown = card.find("time").text
        assert format_time(moment, format="short", locale="en") in shown
        assert format_date(moment, format="medium", locale="en") in shown
        heads.append(card.find("p", class_="history-game__head").words())
        names = [link.text for link in card.find_all("a", class_="history-seat__name")]
        assert names == game["players"]  # in seat order
        won = winners(game["totals"])
        assert won == game["winners"]
        result = card.find("p", class_="history-game__result")
        total = game["totals"][won[0]]
        assert result.get("data-winning-total") == str(total)
        assert result.words() == f"★ Winner: {game['players'][won[0]]} with +{total}"
        status = card.find("p", class_="history-game__status").words()
        assert status == f"Finished: {len(scored_rounds(game))} of {game['rounds_planned']} rounds"
    assert len(set(heads)) == 4, "the games of one evening read alike"


def test_a_shared_win_names_both_winners_and_their_total(
    client: FlaskClient, history: FixedHistory
) -> None:
    game = state(client, history.shared)
    result = card_of(client.get("/history").get_data(as_text=True), history.shared)
    shared = [game["players"][seat] for seat in winners(game["totals"])]
    total = game["totals"][winners(game["totals"])[0]]
    assert len(shared) == 2
    assert result.find("p", class_="history-game__result").words() == (
        f"★ Shared win: {', '.join(shared)} with +{total}"
    )


def test_a_card_speaks_german_with_the_time_of_day(
    client: FlaskClient, history: FixedHistory
) -> None:
    client.set_cookie("lang", "de")
    page = client.get("/history").get_data(as_text=True)
    game = state(client, history.live)
    card = card_of(page, history.live)
    created = datetime.fromisoformat(str(card.find("time").get("datetime")))
    shown = card.find("time").text
    assert shown.startswith(format_date(created, format="medium", locale="de"))
    assert shown.endswith(format_time(created, format="short", locale="de"))
    status = card.find("p", class_="history-game__status").words()
    assert status == (
        f"Läuft: {len(scored_rounds(game))} von {game['rounds_planned']} Runden gewertet"
    )


# --------------------------------------------------------------------------------------------
# A player's chart


def test_the_chart_draws_points_per_round_not_totals(
    client: FlaskClient, app: Flask, history: FixedHistory
) -> None:
    page = client.get("/players/Ann").get_data(as_text=True)
    chart = history_chart(page)
    finished = [state(client, code) for code in (history.first, history.shared)]
    expected = [per_round(game, game["players"].index("Ann")) for game in finished]
    assert len({len(scored_rounds(game)) for game in finished}) == 2  # 2 and 1 rounds
    assert plotted_values(chart) == pytest.approx(expected, abs=0.05)
    with app.app_context():
        ann = stats.find_player("Ann")
        assert ann is not None
        points = stats.score_history(ann)
    assert [point.per_round for point in points] == pytest.approx(expected)
    title = chart.find(f"{SVG}title")
    assert title is not None and title.text == "Points per round in each finished game"
    caption = read_page(page).find("p", class_="chart-caption")
    assert caption.text == "Points per round in each finished game"


def test_games_of_the_same_day_share_one_date_label(client: FlaskClient, table: Table) -> None:
    days = [datetime(2026, 11, 24, 19, tzinfo=UTC), datetime(2026, 11, 25, 19, tzinfo=UTC)]
    for day, games in zip(days, (3, 2), strict=True):
        for number in range(games):
            game = table.new_game(["Ann", "Ben", "Cleo"])
            table.record(game, THREE)
            set_created(table.app, game["id"], day + timedelta(minutes=40 * number))
    chart = history_chart(client.get("/players/Ann").get_data(as_text=True))
    assert len(plotted_values(chart)) == 5
    assert x_labels(chart) == [format_date(day, format="short", locale="en") for day in days]


def test_the_chart_title_speaks_german(client: FlaskClient, history: FixedHistory) -> None:
    client.set_cookie("lang", "de")
    chart = history_chart(client.get("/players/Ann").get_data(as_text=True))
    title = chart.find(f"{SVG}title")
    assert title is not None and title.text == "Punkte pro Runde in jeder beendeten Partie"


# --------------------------------------------------------------------------------------------
# Head to head


def versus_values(page: str) -> dict[str, str]:
    """The head-to-head summary by its ``data-stat`` hook."""
    stats_shown = read_page(page).find_all("div", class_="stat")
    return {str(stat.get("data-stat")): stat.find("dd").text for stat in stats_shown}


def test_head_to_head_counts_games_wins_shared_wins_and_the_difference_per_round(
    client: FlaskClient, history: FixedHistory
) -> None:
    answer = client.get("/players/Ann/vs/Ben")
    assert answer.status_code == 200
    counted = [state(client, code) for code in (history.first, history.shared, history.live)]
    finished = [game for game in counted if game["status"] == "finished"]
    ann_wins = sum(game["players"].index("Ann") in winners(game["totals"]) for game in finished)
    ben_wins = sum(game["players"].index("Ben") in winners(game["totals"]) for game in finished)
    shared = sum(
        {game["players"].index("Ann"), game["players"].index("Ben")} <= set(winners(game["totals"]))
        for game in finished
    )
    difference = sum(
        game["totals"][game["players"].index("Ann")] - game["totals"][game["players"].index("Ben")]
        for game in finished
    )
    rounds = sum(len(scored_rounds(game)) for game in finished)
    values = versus_values(answer.get_data(as_text=True))
    assert values == {
        "games": str(len(counted)),  # the excluded game counts nowhere
        "finished": str(len(finished)),
        "wins": str(ann_wins),
        "other-wins": str(ben_wins),
        "shared-wins": str(shared),
        "difference": f"+{difference / rounds:.1f}",
    }
    assert shared == 1 and difference / rounds > 0
    mirrored = versus_values(client.get("/players/ben/vs/ann").get_data(as_text=True))
    assert (mirrored["wins"], mirrored["other-wins"]) == (values["other-wins"], values["wins"])
    assert mirrored["difference"] == f"\u2212{difference / rounds:.1f}"


@pytest.mark.parametrize(
    ("language", "label"),
    [
        ("en", "Finished games"),
        ("fr", "Parties terminées"),
        ("it", "Partite finite"),
        ("de", "Beendete Partien"),
        ("hu", "Befejezett játszmák"),
    ],
)
def test_head_to_head_says_finished_games_in_the_plural_of_each_language(
    client: FlaskClient, history: FixedHistory, language: str, label: str
) -> None:
    page = client.get("/players/Ann/vs/Ben", headers={"Accept-Language": language})
    stat = read_page(page.get_data(as_text=True)).find("div", **{"data-stat": "finished"})
    assert int(stat.find("dd").text) > 1
    assert stat.find("dt").text == label


def test_head_to_head_lists_the_latest_finished_games_together(
    client: FlaskClient, history: FixedHistory
) -> None:
    page = read_page(client.get("/players/Ann/vs/Cleo").get_data(as_text=True))
    rows = page.find("table", class_="versus-games").find("tbody").find_all("tr")
    assert [row.get("data-game") for row in rows] == [history.shared, history.first]
    for row in rows:
        game = state(client, str(row.get("data-game")))
        cells = [cell.own_text.strip() for cell in row.find_all("td")]
        ann, cleo = game["players"].index("Ann"), game["players"].index("Cleo")
        assert cells == [f"+{game['totals'][ann]}", f"+{game['totals'][cleo]}"]


def test_the_page_says_how_a_shared_win_counts(client: FlaskClient, history: FixedHistory) -> None:
    hint = read_page(client.get("/players/Ann/vs/Ben").get_data(as_text=True)).find(
        "p", class_="hint"
    )
    assert "A shared win (equal highest totals) counts as a win for each of them" in hint.words()


@pytest.mark.parametrize(
    "url",
    ["/players/Nobody/vs/Ann", "/players/Ann/vs/Nobody", "/players/Ann/vs/ann", "/players/Ann/vs/"],
)
def test_unknown_names_and_a_player_against_themselves_are_not_found(
    client: FlaskClient, history: FixedHistory, url: str
) -> None:
    answer = client.get(url)
    assert answer.status_code == 404
    assert read_page(answer.get_data(as_text=True)).find("main").find("h1")


def test_names_with_spaces_and_accents_have_their_head_to_head(
    client: FlaskClient, table: Table
) -> None:
    names = ["Zoë Anne", "Bartholomäus", "Cleo"]
    game = table.new_game(names)
    table.record(game, THREE)
    player = read_page(client.get(f"/players/{quote(names[0])}").get_data(as_text=True))
    link = player.find("a", **{"data-versus": names[1]})
    assert link.get("href") == f"/players/{quote(names[0])}/vs/{quote(names[1])}"
    answer = client.get(str(link.get("href")))
    assert answer.status_code == 200
    title = read_page(answer.get_data(as_text=True)).find("h1", class_="versus-title")
    assert [a.text for a in title.find_all("a")] == names[:2]


def test_the_player_page_picks_an_opponent_without_script(
    client: FlaskClient, history: FixedHistory
) -> None:
    page = read_page(client.get("/players/Ann").get_data(as_text=True))
    form = page.find("form", class_="versus-pick")
    assert form.get("method") == "get"
    options = [option.text for option in form.find("select").find_all("option")]
    assert options == ["Ben", "Cleo", "Dan"]
    picked = client.get(f"{form.get('action')}?opponent=cleo")
    assert picked.status_code == 302
    assert picked.headers["Location"] == "/players/Ann/vs/Cleo"
    none = client.get(f"{form.get('action')}?opponent=")
    assert none.status_code == 302 and none.headers["Location"] == "/players/Ann"
    assert client.get(f"{form.get('action')}?opponent=Nobody").status_code == 404


def test_head_to_head_speaks_german(client: FlaskClient, history: FixedHistory) -> None:
    client.set_cookie("lang", "de")
    page = client.get("/players/Ann/vs/Ben").get_data(as_text=True)
    labels = stat_values(page)
    assert "Gemeinsame Partien" in labels
    assert "Geteilte Siege" in labels


@pytest.mark.database  # makes its apps itself, on database_url()
def test_the_time_of_day_is_shown_in_the_configured_time_zone(instance_path: Path) -> None:
    instance_path.mkdir(parents=True, exist_ok=True)
    (instance_path / "config.py").write_text('BABEL_DEFAULT_TIMEZONE = "Europe/Rome"\n')
    config = {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(instance_path)}
    app = create_app(config, instance_path=str(instance_path))
    with app.app_context():
        db.create_all()
    try:
        client = app.test_client()
        table = Table(app, client)
        game = table.new_game(["Ann", "Ben", "Cleo"])
        table.record(game, THREE)
        moment = datetime(2026, 11, 25, 19, 30, tzinfo=UTC)
        set_created(app, game["id"], moment)
        shown = card_of(client.get("/history").get_data(as_text=True), game["id"]).find("time")
        rome = format_time(moment, format="short", tzinfo=ZoneInfo("Europe/Rome"), locale="en")
        assert shown.text.endswith(rome)
        assert rome != format_time(moment, format="short", locale="en")  # 20:30, not 19:30
    finally:
        with app.app_context():
            db.session.remove()
            db.drop_all()
            db.engine.dispose()
