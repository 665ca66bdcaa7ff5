"""Building histories through the JSON API, and reading the history pages as a phone would.

The fixed history (``build_fixed_history``) is small enough to compute every statistic by
hand; the expected numbers are written out next to the games in test_statistics.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data import ledger, stats
from companion.data.models import Game, PlayerChange, db
from companion.services.games import delete_game, exclude_game, get_game
from companion.services.player_changes import PAGE, merge_players, rename_player
from companion.services.player_journal import undo_change
from scripts.page_reader import read_page, words_of_main
from tests.table import Table, auth


def card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def quick(indicator: str, tricks: int, captured: list[str] | None = None) -> dict[str, Any]:
    """A quick entry: "red 1" as the indicator, the trick count, the marked cards captured."""
    colour, value = indicator.split()
    marked = [card(c, int(v)) for c, v in (name.split() for name in captured or [])]
    return {"marked": [card(colour, int(value))], "tricks": tricks, "marked_captured": marked}


def set_created(app: Flask, code: str, when: datetime) -> None:
    """Date a game (the history sorts and filters by it)."""
    with app.app_context():
        game_id = db.session.scalar(sa.select(Game.id).where(Game.code == code))
        with ledger.tracking(db.session.connection(), [game_id]):
            db.session.execute(sa.update(Game).where(Game.id == game_id).values(created_at=when))
        db.session.commit()


def exclude(app: Flask, code: str, excluded: bool = True) -> None:
    """Leave a game out of the statistics through the service, as the scoreboard does."""
    with app.app_context():
        game = get_game(code, for_update=True)
        exclude_game(game, game.version, excluded)
        db.session.commit()


def when(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, 12, 0, tzinfo=UTC)


# The live round of game 3 (Ann, Ben, Dan; all mark yellow): every trick is of one colour,
# so the highest card takes it (R8). Cards in play order from the trick's leader.
LIVE_INDICATORS = [[card("yellow", 0)], [card("yellow", 1)], [card("yellow", 2)]]
LIVE_TRICKS: list[tuple[int, list[tuple[str, int]]]] = [
    (0, [("green", 8), ("green", 0), ("green", 1)]),  # Ann
    (0, [("green", 7), ("green", 2), ("green", 3)]),  # Ann
    (0, [("green", 6), ("green", 4), ("green", 5)]),  # Ann
    (0, [("brown", 8), ("brown", 0), ("brown", 1)]),  # Ann
    (0, [("brown", 7), ("brown", 2), ("brown", 3)]),  # Ann
    (0, [("brown", 6), ("brown", 4), ("brown", 5)]),  # Ann
    (0, [("red", 0), ("red", 8), ("red", 1)]),  # Ben
    (1, [("red", 7), ("red", 2), ("red", 3)]),  # Ben
    (1, [("red", 6), ("red", 4), ("red", 5)]),  # Ben
    (1, [("blue", 8), ("blue", 0), ("blue", 1)]),  # Ben
    (1, [("blue", 7), ("blue", 2), ("blue", 3)]),  # Ben
    (1, [("blue", 4), ("blue", 6), ("blue", 5)]),  # Dan
    (2, [("yellow", 8), ("yellow", 3), ("yellow", 4)]),  # Dan
    (2, [("yellow", 7), ("yellow", 5), ("yellow", 6)]),  # Dan
]


def play_live_round(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """Play the live round above as the next round of ``game`` (Ann, Ben, Dan, leader Ann)."""
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"], "marked": LIVE_INDICATORS},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    game.update(answer.json)
    number = len(game["rounds"])
    for leader, cards in LIVE_TRICKS:
        assert game["rounds"][-1]["next_leader"] == leader
        answer = client.post(
            f"/api/v1/games/{game['id']}/rounds/{number}/tricks",
            json={"version": game["version"], "cards": [card(c, v) for c, v in cards]},
            headers=auth(game),
        )
        assert answer.status_code == 201, answer.json
        game.update(answer.json)
    assert game["rounds"][-1]["status"] == "scored"
    return game


@dataclass
class FixedHistory:
    """The codes of the four games of the fixed history."""

    first: str  # Ann, Ben, Cleo: 2 rounds, Ann wins
    shared: str  # Ann, Ben, Cleo: 1 round, Ann and Ben share the win
    live: str  # Ann, Ben, Dan: 1 of 2 rounds, played live; in progress
    excluded: str  # Ann, Ben, Cleo: 1 round, Cleo wins; excluded from statistics
    keys: dict[str, str]  # each game's edit key, by code


def build_fixed_history(table: Table) -> FixedHistory:
    """Four games of classic Sticheln with three players (deck 0-8, 14 tricks, R2)."""
    first = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
    # scores 14, 13, 9 then 12, 12, 10: totals 26, 25, 19
    table.record(first, [quick("red 1", 5), quick("blue 2", 5), quick("green 3", 4)])
    table.record(
        first,
        [quick("yellow 0", 4), quick("red 0", 6, ["red 5"]), quick("red 2", 4)],
    )
    assert first["totals"] == [26, 25, 19] and first["winners"] == [0]

    shared = table.new_game(["Ann", "Ben", "Cleo"])
    table.record(shared, [quick("red 0", 5), quick("blue 0", 5), quick("green 1", 4)])
    assert shared["totals"] == [15, 15, 11] and shared["winners"] == [0, 1]

    live = table.new_game(["Ann", "Ben", "Dan"], rounds=2)
    play_live_round(table.client, live)
    assert live["totals"] == [18, 14, -32] and live["status"] == "in_progress"

    excluded = table.new_game(["Ann", "Ben", "Cleo"])
    greens = [f"green {value}" for value in range(1, 9)]
    table.record(excluded, [quick("red 8", 0), quick("red 7", 0), quick("green 0", 14, greens)])
    assert excluded["totals"] == [-8, -7, -2] and excluded["winners"] == [2]

    for code, day in (
        (first["id"], when(2025, 1, 10)),
        (shared["id"], when(2025, 2, 15)),
        (live["id"], when(2025, 3, 20)),
        (excluded["id"], when(2025, 3, 25)),
    ):
        set_created(table.app, code, day)
    exclude(table.app, excluded["id"])
    keys = {game["id"]: game["edit_key"] for game in (first, shared, live, excluded)}
    return FixedHistory(first["id"], shared["id"], live["id"], excluded["id"], keys)


# --------------------------------------------------------------------------------------------
# Reading pages


def text_of(page: str) -> str:
    """The visible words of the page's main part (tags dropped, spaces collapsed)."""
    return words_of_main(page, skip={"svg"})


def stat_values(page: str) -> dict[str, str]:
    """The player page's summary: each statistic's label and value."""
    stats = read_page(page).find_all("div", class_="stat")
    return {stat.find("dt").text: stat.find("dd").text for stat in stats}


def history_items(page: str) -> list[str]:
    """The text of each game in the history list, in order."""
    return [item.words() for item in read_page(page).find_all("li", class_="history-game")]


def history_codes(page: str) -> list[str]:
    """The game codes of the history list, in order (from each game's date link)."""
    links = read_page(page).find_all("a", class_="history-game__date")
    return [str(link.get("href")).removeprefix("/g/") for link in links]


#: A round recorded, and the same round corrected, in a game of Ann, Ben and Cleo's shape.
ROUND = [quick("red 1", 5), quick("blue 2", 5, ["blue 4"]), quick("green 3", 4)]
CORRECTED = [quick("red 1", 4), quick("blue 2", 6), quick("green 3", 4, ["green 5"])]


def page_changes(
    app: Flask,
    table: Table,
    game: dict[str, Any],
    *,
    renamed: tuple[str, str],
    merged: tuple[str, str],
    doomed: str,
) -> dict[str, Callable[[], None]]:
    """Each change that must show at once on the pages kept for the history (issue 29), by
    name, in the order made: a round of ``game`` recorded and corrected, the game excluded,
    a player renamed (``renamed``: from, to) and the rename undone from the journal, two
    players merged (``merged``: source, target), and the game ``doomed`` deleted."""

    def in_app(change: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            with app.app_context():
                change()
                db.session.commit()

        return run

    def rename() -> None:
        player = stats.find_player(renamed[0])
        assert player is not None
        rename_player(player, renamed[1], PAGE)

    def undo() -> None:
        undo_change(db.session.scalar(sa.select(sa.func.max(PlayerChange.id))))

    def merge() -> None:
        source, target = stats.find_player(merged[0]), stats.find_player(merged[1])
        assert source is not None and target is not None
        merge_players(source, target, PAGE)

    def delete() -> None:
        gone = get_game(doomed, for_update=True)
        delete_game(gone, gone.version)

    return {
        "round recorded": lambda: table.record(game, ROUND),
        "round corrected": lambda: table.correct(game, 1, CORRECTED),
        "game excluded": lambda: exclude(app, game["id"]),
        "player renamed": in_app(rename),
        "rename undone": in_app(undo),
        "players merged": in_app(merge),
        "game deleted": in_app(delete),
    }
