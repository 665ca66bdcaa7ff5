"""The API's listing of a circle's games reads an index in its order, newest first, and
stops after the page: no sort of the whole circle, however many games it and the other
circles hold (migration 0017); a player's games are read so from their seats' index, which
holds each game's time and status, and counted there without the games table (migration
0018). Held on the query plans of the statements served, on SQLite (``EXPLAIN QUERY PLAN``:
no temporary B-tree for the listing's ORDER BY) and on PostgreSQL (``EXPLAIN``: an index
scan under the page's LIMIT, no Sort of the circle's games), with thousands of games in the
measured circle and in another one, the planner's statistics taken as after a bulk load."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.circles import server_circle_id
from companion.data.database import refresh_planner_statistics
from companion.data.history import HistoryFilter, history_page
from companion.data.models import Circle, Game, Player, Seat, db
from companion.data.states import GameStatus

#: Games in each of the two circles: enough for a planner to prefer an index to a sort.
GAMES = 3000
#: The index the listing reads.
LISTING_INDEX = "ix_games_circle_id_created_at"
#: The index the listing of a player's games reads, and its count.
PLAYER_INDEX = "ix_seats_player_id_game_created_at"
#: The players of each circle, seated three a game in turn: Ann plays every other game.
PLAYERS = ("Ann", "Ben", "Cleo", "Dan")
#: Ann's games in each circle.
ANNS_GAMES = GAMES // 2


def fill(app: Flask) -> tuple[int, int]:
    """The club's circle and another one, each with ``GAMES`` games over two years; answers
    both ids."""
    start = datetime(2025, 1, 1, tzinfo=UTC)
    with app.app_context():
        club = server_circle_id()
        other = db.session.scalar(
            sa.insert(Circle)
            .values(name="Other", secret_hash="0" * 64, created_at=start)
            .returning(Circle.id)
        )
        rows: list[dict[str, Any]] = []
        for circle in (club, other):
            for number in range(GAMES):
                moment = start + timedelta(hours=5 * number)
                rows.append(
                    {
                        "circle_id": circle,
                        "code": f"c{circle}g{number}",
                        "edit_key_hash": "h",
                        "family": "classic",
                        "scoring": "classic",
                        "colours_marked": 1,
                        "reveal": "open",
                        "rounds_planned": 5,
                        "first_leader": 0,
                        "status": GameStatus.FINISHED if number % 7 else GameStatus.IN_PROGRESS,
                        "created_at": moment,
                        "updated_at": moment,
                    }
                )
        db.session.execute(sa.insert(Game), rows)
        seat_players(club)
        seat_players(int(other))
        db.session.commit()
        refresh_planner_statistics()
        assert other is not None
        return club, int(other)


def seat_players(circle: int) -> None:
    """Seat :data:`PLAYERS` of ``circle`` at its games, three a game: Ann in every other
    one, the other three in turn."""
    players = db.session.scalars(
        sa.insert(Player).returning(Player.id, sort_by_parameter_order=True),
        [{"circle_id": circle, "name": name, "key": name.lower()} for name in PLAYERS],
    ).all()
    games = db.session.scalars(
        sa.select(Game.id).where(Game.circle_id == circle).order_by(Game.id)
    ).all()
    others = players[1:]
    seats: list[dict[str, Any]] = []
    for number, game in enumerate(games):
        seated = [others[number % 3], others[(number + 1) % 3]]
        seated.append(players[0] if number % 2 == 0 else others[(number + 2) % 3])
        seats += [
            {"game_id": game, "position": position, "player_id": player}
            for position, player in enumerate(seated)
        ]
    db.session.execute(sa.insert(Seat), seats)


def caught(app: Flask, serve: Any) -> list[tuple[str, Any]]:
    """The statements (and their parameters) run by ``serve()``."""
    statements: list[tuple[str, Any]] = []

    def catch(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        statements.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", catch)
    try:
        serve()
    finally:
        sa.event.remove(engine, "before_cursor_execute", catch)
    return statements


def listing_statement(statements: list[tuple[str, Any]]) -> tuple[str, Any]:
    """The statement that reads the page's games (the one with their LIMIT)."""
    listed = [(s, p) for s, p in statements if "LIMIT" in s.upper() and "games" in s]
    assert len(listed) == 1, [s for s, _ in statements]
    return listed[0]


def count_statement(statements: list[tuple[str, Any]]) -> tuple[str, Any]:
    """The statement that counts the games listed (before the page's)."""
    counted = [(s, p) for s, p in statements if "count(" in s.lower() and "LIMIT" not in s]
    assert len(counted) == 1, [s for s, _ in statements]
    return counted[0]


def sqlite_plan(statement: str, parameters: Any) -> list[tuple[int, int, str]]:
    with db.engine.connect() as connection:
        rows = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
    return [(int(row[0]), int(row[1]), str(row[-1])) for row in rows]


def assert_sqlite_reads_in_order(
    statement: str, parameters: Any, index: str = LISTING_INDEX, table: str = "games"
) -> None:
    """The rows of ``table`` are searched through ``index``, and the part of the plan that
    reads them (its co-routine or subquery) sorts nothing; the one ORDER BY sorted at the
    top is the page's own rows. No table of games or seats is scanned whole."""
    plan = sqlite_plan(statement, parameters)
    reads = [row for row in plan if row[2].startswith(f"SEARCH {table} USING") and index in row[2]]
    assert reads, plan
    scans = [row for row in plan if row[2].startswith(("SCAN games", "SCAN seats"))]
    assert not scans, plan
    for _id, parent, _detail in reads:
        siblings = [row[2] for row in plan if row[1] == parent]
        assert "USE TEMP B-TREE FOR ORDER BY" not in siblings, plan
    sorts = [row for row in plan if row[2] == "USE TEMP B-TREE FOR ORDER BY"]
    assert all(row[1] == 0 for row in sorts), plan


def postgres_nodes(
    plan: dict[str, Any], above: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every node of a JSON plan, with the node types above it."""
    nodes = [(above, plan)]
    for child in plan.get("Plans", []):
        nodes += postgres_nodes(child, (*above, plan["Node Type"]))
    return nodes


def postgres_plan(statement: str, parameters: Any) -> dict[str, Any]:
    with db.engine.connect() as connection:
        driver = connection.connection.driver_connection
        with driver.cursor() as cursor:
            cursor.execute("EXPLAIN (FORMAT JSON) " + statement, parameters)
            (document,) = cursor.fetchone()
    plan: dict[str, Any] = document[0]["Plan"]
    return plan


def assert_postgres_reads_in_order(
    statement: str, parameters: Any, index: str = LISTING_INDEX
) -> None:
    """The rows are read through ``index``, under a Limit, with no Sort between the two; no
    other node reads the games or the seats table whole."""
    plan = postgres_plan(statement, parameters)
    nodes = postgres_nodes(plan)
    reads = [(above, node) for above, node in nodes if node.get("Index Name") == index]
    assert reads, plan
    for above, node in reads:
        assert node["Node Type"] in ("Index Scan", "Index Only Scan"), node
        assert "Limit" in above, above
        below_limit = above[len(above) - above[::-1].index("Limit") :]
        assert "Sort" not in below_limit and "Incremental Sort" not in below_limit, above
    whole = [
        node
        for _, node in nodes
        if node.get("Relation Name") in ("games", "seats") and "Seq" in node["Node Type"]
    ]
    assert not whole, plan


def assert_reads_in_order(
    app: Flask, statement: str, parameters: Any, index: str = LISTING_INDEX, table: str = "games"
) -> None:
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            assert_sqlite_reads_in_order(statement, parameters, index, table)
        else:
            assert_postgres_reads_in_order(statement, parameters, index)


def assert_counted_from_the_seats(app: Flask, statement: str, parameters: Any) -> None:
    """The player's games are counted from their seats alone, found through an index on
    the player: the games table is not read. (SQLite reads the seats' index alone;
    PostgreSQL may read the seats' rows too until a vacuum marks the table's pages as all
    visible, as after this bulk load.)"""
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            plan = sqlite_plan(statement, parameters)
            details = [row[2] for row in plan]
            assert any(
                detail.startswith("SEARCH seats USING COVERING INDEX " + PLAYER_INDEX)
                for detail in details
            ), plan
            assert not any("games" in detail for detail in details), plan
        else:
            nodes = [node for _, node in postgres_nodes(postgres_plan(statement, parameters))]
            indexes = {node.get("Index Name") for node in nodes}
            assert indexes & {PLAYER_INDEX, "ix_seats_player_id"}, nodes
            assert not any(node.get("Relation Name") == "games" for node in nodes), nodes
            seats = [node for node in nodes if node.get("Relation Name") == "seats"]
            assert seats and not any("Seq" in node["Node Type"] for node in seats), nodes


@pytest.mark.parametrize("page", [1, GAMES // 20 - 1])
def test_the_clubs_listing_reads_its_index_in_order(
    app: Flask, client: FlaskClient, page: int
) -> None:
    fill(app)

    def serve() -> None:
        answer = client.get(f"/api/v1/games?page={page}")
        assert answer.status_code == 200, answer.data[:300]
        assert answer.json is not None and answer.json["total"] == GAMES

    assert_reads_in_order(app, *listing_statement(caught(app, serve)))


@pytest.mark.parametrize("page", [1, GAMES // 20 - 1])
def test_a_circles_listing_among_others_reads_its_index_in_order(app: Flask, page: int) -> None:
    _club, other = fill(app)

    def serve() -> None:
        with app.app_context():
            listing = history_page(HistoryFilter(circle_id=other), page)
            assert listing.total == GAMES and listing.page == page

    assert_reads_in_order(app, *listing_statement(caught(app, serve)))


@pytest.mark.parametrize("page", [1, ANNS_GAMES // 20 - 1])
def test_a_players_listing_reads_their_seats_index_in_order(
    app: Flask, client: FlaskClient, page: int
) -> None:
    fill(app)

    def serve() -> None:
        answer = client.get(f"/api/v1/games?player=ann&page={page}")
        assert answer.status_code == 200, answer.data[:300]
        assert answer.json is not None and answer.json["total"] == ANNS_GAMES
        assert all("Ann" in game["players"] for game in answer.json["games"])

    statements = caught(app, serve)
    assert_reads_in_order(app, *listing_statement(statements), PLAYER_INDEX, "seats")
    assert_counted_from_the_seats(app, *count_statement(statements))


@pytest.mark.parametrize("page", [1, ANNS_GAMES // 20 - 1])
def test_a_players_listing_in_a_circle_among_others_reads_their_seats_index_in_order(
    app: Flask, page: int
) -> None:
    _club, other = fill(app)

    def serve() -> None:
        with app.app_context():
            listing = history_page(HistoryFilter(player="Ann", circle_id=other), page)
            assert listing.total == ANNS_GAMES and listing.page == page

    statements = caught(app, serve)
    assert_reads_in_order(app, *listing_statement(statements), PLAYER_INDEX, "seats")
    assert_counted_from_the_seats(app, *count_statement(statements))
