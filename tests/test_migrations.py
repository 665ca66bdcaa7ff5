"""The migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade

from companion.data.change_counter import trigger_names
from companion.data.models import db, name_key
from tests.schema import drop_everything


def test_upgrading_an_empty_database_gives_the_models_schema(app: Flask) -> None:
    with app.app_context():
        drop_everything()
        upgrade()
        with db.engine.connect() as connection:
            differences = compare_metadata(
                MigrationContext.configure(connection, opts={"compare_type": True}), db.metadata
            )
        assert differences == []
        tables = set(sa.inspect(db.engine).get_table_names())
        assert {"players", "games", "seats", "rounds", "round_results"} <= tables
        drop_everything()


def test_every_migration_can_be_undone(app: Flask) -> None:
    with app.app_context():
        drop_everything()
        upgrade()
        downgrade(revision="base")
        assert set(sa.inspect(db.engine).get_table_names()) <= {"alembic_version"}
        drop_everything()


def test_upgrading_keeps_every_game_seat_and_round(app: Flask) -> None:
    """No data lost: a database at the first migration, with a whole game in it, keeps all
    of it through every later migration (SQLite batch migrations copy tables)."""
    with app.app_context():
        drop_everything()
        upgrade(revision="0001")
        rows = {
            "players": "INSERT INTO players (id, name, key, created_at) VALUES "
            "(1, 'Ann', 'ann', '2026-01-01'), (2, 'Ben', 'ben', '2026-01-01'), "
            "(3, 'Cleo', 'cleo', '2026-01-01')",
            "games": "INSERT INTO games (id, code, edit_key_hash, game, scoring, colours, reveal, "
            "rounds_planned, first_leader, status, created_at, updated_at, version) VALUES "
            "(1, 'abc', 'h', 'classic', 'classic', 1, 'open', 5, 0, 'in_progress', "
            "'2026-01-01', '2026-01-01', 2)",
            "seats": "INSERT INTO seats (game_id, position, player_id) VALUES "
            "(1, 0, 1), (1, 1, 2), (1, 2, 3)",
            "rounds": "INSERT INTO rounds (id, game_id, number, leader, mode, status, entries, "
            "created_at, updated_at) VALUES (1, 1, 1, 0, 'quick', 'scored', '[]', "
            "'2026-01-01', '2026-01-01')",
            "round_results": "INSERT INTO round_results (round_id, seat, player_id, score, "
            "tricks, colours) VALUES (1, 0, 1, 5, 6, 'red'), (1, 1, 2, 15, 5, 'blue'), "
            "(1, 2, 3, -1, 3, 'green')",
        }
        with db.engine.begin() as connection:
            for statement in rows.values():
                connection.execute(sa.text(statement))
        upgrade()
        with db.engine.connect() as connection:
            counts = {
                table: connection.scalar(sa.text(f"SELECT count(*) FROM {table}")) for table in rows
            }
            excluded = connection.scalar(sa.text("SELECT excluded FROM games"))
            # 0005 filled the ledger from the game, read under the columns of its day.
            ledger = connection.execute(
                sa.text("SELECT player_id, games, rounds, points FROM player_totals ORDER BY 1")
            ).all()
        assert counts == {
            "players": 3,
            "games": 1,
            "seats": 3,
            "rounds": 1,
            "round_results": 3,
        }
        assert not excluded
        assert [tuple(row) for row in ledger] == [(1, 1, 1, 5), (2, 1, 1, 15), (3, 1, 1, -1)]
        drop_everything()


def test_player_names_are_normalised_and_look_alikes_stay_apart(app: Flask) -> None:
    """0007: a full-width "Ａｎｎ" stored before names were normalised (NFKC) becomes "Ann (2)"
    beside the "Ann" already there, and every key is the one a look-up now computes."""
    with app.app_context():
        drop_everything()
        upgrade(revision="0005")
        with db.engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO players (id, name, key, created_at) VALUES "
                    "(1, 'Ann', 'ann', '2026-01-01'), (2, 'Ａｎｎ', 'ａｎｎ', '2026-01-01'), "
                    "(3, 'Ｂｅｎ', 'ｂｅｎ', '2026-01-01'), (4, 'Cleo', 'cleo', '2026-01-01')"
                )
            )
        upgrade()
        with db.engine.connect() as connection:
            rows = connection.execute(sa.text("SELECT id, name, key FROM players ORDER BY id"))
            players = [tuple(row) for row in rows]
        assert players == [
            (1, "Ann", "ann"),
            (2, "Ann (2)", "ann (2)"),
            (3, "Ben", "ben"),
            (4, "Cleo", "cleo"),
        ]
        assert all(key == name_key(name) for _id, name, key in players)
        downgrade(revision="0005")
        drop_everything()


def test_renamed_variant_columns_keep_every_value(app: Flask) -> None:
    """0008: the variant family, the count of colours marked and the names of a seat's
    marked colours keep their values under their new column names, and back again."""
    with app.app_context():
        drop_everything()
        upgrade(revision="0007")
        with db.engine.begin() as connection:
            for statement in (
                "INSERT INTO players (id, name, key, created_at) VALUES "
                "(1, 'Ann', 'ann', '2026-01-01'), (2, 'Ben', 'ben', '2026-01-01'), "
                "(3, 'Cleo', 'cleo', '2026-01-01'), (4, 'Dan', 'dan', '2026-01-01')",
                "INSERT INTO games (id, code, edit_key_hash, game, scoring, colours, reveal, "
                "rounds_planned, first_leader, status, created_at, updated_at, version) VALUES "
                "(1, 'aggr', 'h', 'classic', 'reverse', 2, 'hazy', 5, 0, 'in_progress', "
                "'2026-01-01', '2026-01-01', 2), "
                "(2, 'hat', 'h', 'hat-trick', NULL, NULL, NULL, 3, 1, 'finished', "
                "'2026-01-02', '2026-01-02', 4)",
                "INSERT INTO seats (game_id, position, player_id) VALUES "
                "(1, 0, 1), (1, 1, 2), (1, 2, 3), (2, 0, 1), (2, 1, 2), (2, 2, 3), (2, 3, 4)",
                "INSERT INTO rounds (id, game_id, number, leader, mode, status, entries, "
                "created_at, updated_at) VALUES (1, 1, 1, 0, 'full', 'scored', '[]', "
                "'2026-01-01', '2026-01-01')",
                "INSERT INTO round_results (round_id, seat, player_id, score, tricks, colours) "
                "VALUES (1, 0, 1, 5, 6, 'red,blue'), (1, 1, 2, 15, 5, 'green,yellow'), "
                "(1, 2, 3, -1, 3, '')",
            ):
                connection.execute(sa.text(statement))
        games = "SELECT code, {}, scoring, {}, reveal FROM games ORDER BY id"
        results = "SELECT seat, {} FROM round_results ORDER BY seat"
        stored_games = [
            ("aggr", "classic", "reverse", 2, "hazy"),
            ("hat", "hat-trick", None, None, None),
        ]
        stored_results = [(0, "red,blue"), (1, "green,yellow"), (2, "")]

        upgrade(revision="0008")
        with db.engine.connect() as connection:
            assert _rows(connection, games.format("family", "colours_marked")) == stored_games
            assert _rows(connection, results.format("colour_names")) == stored_results
        variant_index = {
            index["name"]: index["column_names"]
            for index in sa.inspect(db.engine).get_indexes("games")
        }["ix_games_variant"]
        assert variant_index == ["family", "scoring", "colours_marked", "reveal"]

        downgrade(revision="0007")
        with db.engine.connect() as connection:
            assert _rows(connection, games.format("game", "colours")) == stored_games
            assert _rows(connection, results.format("colours")) == stored_results
        drop_everything()


def _rows(connection: sa.Connection, statement: str) -> list[tuple[object, ...]]:
    return [tuple(row) for row in connection.execute(sa.text(statement))]


def test_the_next_game_column_starts_empty_and_empties_when_that_game_goes(app: Flask) -> None:
    """0009: every game kept, with no next game; a next game deleted leaves the column empty
    (ON DELETE SET NULL), and going back drops the column with every game still there."""
    with app.app_context():
        drop_everything()
        upgrade(revision="0008")
        with db.engine.begin() as connection:
            for statement in (
                "INSERT INTO players (id, name, key, created_at) VALUES "
                "(1, 'Ann', 'ann', '2026-01-01'), (2, 'Ben', 'ben', '2026-01-01'), "
                "(3, 'Cleo', 'cleo', '2026-01-01')",
                "INSERT INTO games (id, code, edit_key_hash, family, scoring, colours_marked, "
                "reveal, rounds_planned, first_leader, status, created_at, updated_at, version) "
                "VALUES (1, 'done', 'h', 'classic', 'classic', 1, 'open', 5, 0, 'finished', "
                "'2026-01-01', '2026-01-01', 7), (2, 'next', 'h', 'classic', 'classic', 1, "
                "'open', 5, 1, 'in_progress', '2026-01-02', '2026-01-02', 1)",
                "INSERT INTO seats (game_id, position, player_id) VALUES "
                "(1, 0, 1), (1, 1, 2), (1, 2, 3), (2, 0, 1), (2, 1, 2), (2, 2, 3)",
            ):
                connection.execute(sa.text(statement))
        games = "SELECT code, status, version FROM games ORDER BY id"
        stored = [("done", "finished", 7), ("next", "in_progress", 1)]

        upgrade(revision="0009")
        with db.engine.begin() as connection:
            assert _rows(connection, games) == stored
            assert _rows(connection, "SELECT next_game_id FROM games") == [(None,), (None,)]
            connection.execute(sa.text("UPDATE games SET next_game_id = 2 WHERE id = 1"))
        with db.engine.begin() as connection:
            connection.execute(sa.text("DELETE FROM seats WHERE game_id = 2"))
            connection.execute(sa.text("DELETE FROM games WHERE id = 2"))
        with db.engine.connect() as connection:
            assert _rows(connection, "SELECT code, next_game_id FROM games") == [("done", None)]

        downgrade(revision="0008")
        with db.engine.connect() as connection:
            assert _rows(connection, games) == stored[:1]
        assert "next_game_id" not in {c["name"] for c in sa.inspect(db.engine).get_columns("games")}
        drop_everything()


def test_games_and_players_from_before_circles_are_all_in_the_one_circle(app: Flask) -> None:
    """0013: one circle, "Club", whose invite secret nobody knows (only a hash is stored),
    holds every game and player; a name is then unique within a circle, no longer across
    the server; going back drops the circles and keeps every row."""
    with app.app_context():
        drop_everything()
        upgrade(revision="0012")
        with db.engine.begin() as connection:
            for statement in (
                "INSERT INTO players (id, name, key, created_at) VALUES "
                "(1, 'Ann', 'ann', '2026-01-01'), (2, 'Ben', 'ben', '2026-01-01'), "
                "(3, 'Cleo', 'cleo', '2026-01-01'), (4, 'Dan', 'dan', '2026-01-01')",
                "INSERT INTO games (id, code, edit_key_hash, family, scoring, colours_marked, "
                "reveal, rounds_planned, first_leader, status, created_at, updated_at, version) "
                "VALUES (1, 'one', 'h', 'classic', 'classic', 1, 'open', 5, 0, 'finished', "
                "'2026-01-01', '2026-01-01', 7), (2, 'two', 'h', 'hat-trick', NULL, NULL, "
                "NULL, 3, 1, 'in_progress', '2026-01-02', '2026-01-02', 1)",
                "INSERT INTO seats (game_id, position, player_id) VALUES "
                "(1, 0, 1), (1, 1, 2), (1, 2, 3), (2, 0, 2), (2, 1, 3), (2, 2, 4)",
            ):
                connection.execute(sa.text(statement))

        upgrade(revision="0013")
        with db.engine.begin() as connection:
            circles = _rows(connection, "SELECT id, name, secret_hash FROM circles")
            assert len(circles) == 1
            club, name, secret_hash = circles[0]
            assert name == "Club"
            assert len(str(secret_hash)) == 64
            assert _rows(connection, "SELECT id, circle_id FROM players ORDER BY id") == [
                (player, club) for player in (1, 2, 3, 4)
            ]
            assert _rows(connection, "SELECT code, circle_id, version FROM games ORDER BY id") == [
                ("one", club, 7),
                ("two", club, 1),
            ]
            assert _rows(connection, "SELECT count(*) FROM seats") == [(6,)]
            # Another circle may have its own "Ann"; the same circle may not.
            connection.execute(
                sa.text(
                    "INSERT INTO circles (id, name, secret_hash, created_at) "
                    "VALUES (:id, 'Other', 'h', '2026-01-03')"
                ),
                {"id": club + 1},
            )
            connection.execute(
                sa.text(
                    "INSERT INTO players (id, circle_id, name, key, created_at) "
                    "VALUES (5, :circle, 'Ann', 'ann', '2026-01-03')"
                ),
                {"circle": club + 1},
            )
        with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO players (id, circle_id, name, key, created_at) "
                    "VALUES (6, :circle, 'ANN', 'ann', '2026-01-03')"
                ),
                {"circle": club},
            )
        with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO players (id, name, key, created_at) "
                    "VALUES (7, 'Eve', 'eve', '2026-01-03')"
                )
            )
        with db.engine.begin() as connection:
            connection.execute(sa.text("DELETE FROM players WHERE id = 5"))

        downgrade(revision="0012")
        with db.engine.connect() as connection:
            assert _rows(connection, "SELECT code, version FROM games ORDER BY id") == [
                ("one", 7),
                ("two", 1),
            ]
            assert _rows(connection, "SELECT count(*) FROM players") == [(4,)]
        assert "circles" not in sa.inspect(db.engine).get_table_names()
        drop_everything()


def test_the_circles_journal_starts_empty_and_goes_without_touching_the_circles(
    app: Flask,
) -> None:
    """0014: the journal of circle renames and merges, a table of its own, empty at first;
    it keeps a merged circle's row as it was (secret's hash, creation time) and the lists of
    what moved; going back drops it and keeps every circle, game and player."""
    with app.app_context():
        drop_everything()
        upgrade(revision="0013")
        with db.engine.connect() as connection:
            club = _rows(connection, "SELECT id, name FROM circles")
        upgrade(revision="0014")
        assert "circle_changes" in sa.inspect(db.engine).get_table_names()
        with db.engine.begin() as connection:
            assert _rows(connection, "SELECT count(*) FROM circle_changes") == [(0,)]
            connection.execute(
                sa.text(
                    "INSERT INTO circle_changes (made_at, kind, origin, circle_id, circle_name, "
                    "circle_secret_hash, circle_created_at, target_id, new_name, moved) VALUES "
                    "('2026-11-27', 'merge', 'command', 7, 'Tuesday', :hash, '2026-01-03', "
                    ":club, 'Club', :moved)"
                ),
                {
                    "hash": "a" * 64,
                    "club": club[0][0],
                    "moved": '{"games": [[3, "abc"]], "players": [[9, "Eve"]], "merges": [2]}',
                },
            )
            assert _rows(
                connection, "SELECT kind, circle_id, circle_secret_hash FROM circle_changes"
            ) == [("merge", 7, "a" * 64)]
        downgrade(revision="0013")
        assert "circle_changes" not in sa.inspect(db.engine).get_table_names()
        with db.engine.connect() as connection:
            assert _rows(connection, "SELECT id, name FROM circles") == club
        drop_everything()


def test_a_circle_is_found_by_its_secret_through_an_index(app: Flask) -> None:
    """0015: the hash of a circle's invite secret is indexed (a program starting a game with
    a circle's key finds its circle without reading every circle); going back drops the
    index and keeps every circle."""
    with app.app_context():
        drop_everything()
        upgrade(revision="0015")
        indexes = {index["name"]: index for index in sa.inspect(db.engine).get_indexes("circles")}
        assert indexes["ix_circles_secret_hash"]["column_names"] == ["secret_hash"]
        if db.engine.dialect.name == "sqlite":
            with db.engine.connect() as connection:
                plan = _rows(
                    connection,
                    "EXPLAIN QUERY PLAN SELECT id FROM circles WHERE secret_hash = 'x' LIMIT 1",
                )
            assert any("ix_circles_secret_hash" in str(row[-1]) for row in plan), plan
        with db.engine.connect() as connection:
            circles = _rows(connection, "SELECT id, name, secret_hash FROM circles")
        downgrade(revision="0014")
        names = [index["name"] for index in sa.inspect(db.engine).get_indexes("circles")]
        assert "ix_circles_secret_hash" not in names
        with db.engine.connect() as connection:
            assert _rows(connection, "SELECT id, name, secret_hash FROM circles") == circles
        drop_everything()


def test_a_circles_games_are_listed_and_counted_through_its_indexes(app: Flask) -> None:
    """0017: two indexes start with the circle, one for the listing newest first (created_at,
    id, and status to count those in progress), one for the variant filter; they replace
    the index of circle_id alone and the variant index without the circle. Going back
    makes those two again; every game stays as it was, both ways."""
    listing = ["circle_id", "created_at", "id", "status"]
    variant = ["circle_id", "family", "scoring", "colours_marked", "reveal", "created_at", "id"]
    with app.app_context():
        drop_everything()
        upgrade(revision="0016")
        with db.engine.begin() as connection:
            (club,) = _rows(connection, "SELECT id FROM circles")[0]
            connection.execute(
                sa.text(
                    "INSERT INTO games (id, code, edit_key_hash, family, scoring, "
                    "colours_marked, reveal, rounds_planned, first_leader, status, created_at, "
                    "updated_at, version, circle_id) VALUES (1, 'one', 'h', 'classic', "
                    "'classic', 1, 'open', 5, 0, 'finished', '2026-01-01', '2026-01-01', 7, "
                    ":club), (2, 'two', 'h', 'hat-trick', NULL, NULL, NULL, 3, 1, "
                    "'in_progress', '2026-01-02', '2026-01-02', 1, :club)"
                ),
                {"club": club},
            )
            games = _rows(connection, "SELECT * FROM games ORDER BY id")

        def indexes() -> dict[str, list[str]]:
            return {
                str(index["name"]): [str(column) for column in index["column_names"]]
                for index in sa.inspect(db.engine).get_indexes("games")
            }

        before = indexes()
        assert before["ix_games_circle_id"] == ["circle_id"]
        assert before["ix_games_variant"] == variant[1:5]
        upgrade(revision="0017")
        after = indexes()
        assert after["ix_games_circle_id_created_at"] == listing
        assert after["ix_games_circle_id_variant"] == [*variant, "status"]
        assert "ix_games_circle_id" not in after and "ix_games_variant" not in after
        with db.engine.connect() as connection:
            assert _rows(connection, "SELECT * FROM games ORDER BY id") == games
        downgrade(revision="0016")
        assert indexes() == before
        with db.engine.connect() as connection:
            assert _rows(connection, "SELECT * FROM games ORDER BY id") == games
        drop_everything()


def test_each_seat_copies_its_games_time_and_status_through_an_index(app: Flask) -> None:
    """0018: every seat takes its game's created_at and status, and the index of a
    player's games newest first reads them; from then on the triggers keep them (a game
    finished in a later write moves its seats with it). Going back drops the columns, the
    index and the triggers, keeps every seat, and the seats' writes are counted still."""
    with app.app_context():
        drop_everything()
        upgrade(revision="0017")
        with db.engine.begin() as connection:
            (club,) = _rows(connection, "SELECT id FROM circles")[0]
            for statement in (
                "INSERT INTO players (id, circle_id, name, key, created_at) VALUES "
                "(1, :club, 'Ann', 'ann', '2026-01-01'), (2, :club, 'Ben', 'ben', '2026-01-01'), "
                "(3, :club, 'Cleo', 'cleo', '2026-01-01')",
                "INSERT INTO games (id, code, edit_key_hash, family, scoring, colours_marked, "
                "reveal, rounds_planned, first_leader, status, created_at, updated_at, version, "
                "circle_id) VALUES (1, 'one', 'h', 'classic', 'classic', 1, 'open', 5, 0, "
                "'finished', '2026-01-01 10:00:00', '2026-01-01', 7, :club), (2, 'two', 'h', "
                "'hat-trick', NULL, NULL, NULL, 3, 1, 'in_progress', '2026-01-02 11:00:00', "
                "'2026-01-02', 1, :club)",
                "INSERT INTO seats (game_id, position, player_id) VALUES "
                "(1, 0, 1), (1, 1, 2), (1, 2, 3), (2, 0, 2), (2, 1, 3)",
            ):
                connection.execute(sa.text(statement), {"club": club})
            seats = _rows(connection, "SELECT * FROM seats ORDER BY game_id, position")

        def copies() -> list[tuple[object, ...]]:
            with db.engine.connect() as connection:
                return _rows(
                    connection,
                    "SELECT seats.game_id, seats.position FROM seats JOIN games "
                    "ON games.id = seats.game_id WHERE seats.game_status = games.status "
                    "AND seats.game_created_at = games.created_at "
                    "ORDER BY seats.game_id, seats.position",
                )

        def seat_indexes() -> dict[str, list[str]]:
            return {
                str(index["name"]): [str(column) for column in index["column_names"]]
                for index in sa.inspect(db.engine).get_indexes("seats")
            }

        before = seat_indexes()
        upgrade(revision="0018")
        assert seat_indexes() == {
            **before,
            "ix_seats_player_id_game_created_at": [
                "player_id",
                "game_created_at",
                "game_id",
                "game_status",
            ],
        }
        assert copies() == [(game, seat) for game, seat, _ in seats]
        with db.engine.begin() as connection:
            connection.execute(sa.text("UPDATE games SET status = 'finished' WHERE id = 2"))
            statuses = _rows(connection, "SELECT DISTINCT game_status FROM seats WHERE game_id = 2")
        assert statuses == [("finished",)]
        assert copies() == [(game, seat) for game, seat, _ in seats]

        downgrade(revision="0017")
        assert seat_indexes() == before
        columns = {column["name"] for column in sa.inspect(db.engine).get_columns("seats")}
        assert columns == {"game_id", "position", "player_id"}
        with db.engine.begin() as connection:
            assert _rows(connection, "SELECT * FROM seats ORDER BY game_id, position") == seats
            # no trigger copies into the columns that are gone
            connection.execute(sa.text("UPDATE games SET status = 'abandoned' WHERE id = 2"))
            changes = _rows(connection, "SELECT changes FROM change_counter")
        with db.engine.begin() as connection:
            # the counter still counts a write of the seats alone
            connection.execute(sa.text("DELETE FROM seats WHERE game_id = 2 AND position = 1"))
            assert _rows(connection, "SELECT changes FROM change_counter") != changes
        with db.engine.connect() as connection:
            names = {name for _table, name in trigger_names(connection)}
        assert not any(name.startswith("copy_game_to_seat") for name in names)
        assert any(name.startswith("count_changes_seats") for name in names)
        drop_everything()
