"""Each seat carries a copy of its game's creation time and status.

A player's games are their seats. To list them newest first a page at a time, and count
them with those in progress, the seats' index ``(player_id, game_created_at, game_id,
game_status)`` must hold the game's time and status: then the listing reads that index in
its order and stops after the page, and the count reads it alone, however many games the
player, the circle and the server hold (``data.history``). The copies are the game's at every
moment: triggers keep them, in the writer's own transaction and statement, whichever way the
change was made (a page, the API, an import, the demo data, a copied circle, a hand edit in
``psql``):

- a seat written (inserted, moved to another game, or its copies written by hand) takes its
  game's time and status, whatever it was given;
- a game whose time or status changes (finished, abandoned, a round corrected or deleted)
  gives them to its seats.

A deleted game takes its seats with it (``ON DELETE CASCADE``). The copies are read in SQL
only: a ``Seat`` loaded before a change may hold an older copy. The migration that made them
is 0018; ``install`` gives a schema made by ``create_all`` (the tests) the same triggers, and
a test holds the two equal.
"""

from __future__ import annotations

from companion.data.schema_triggers import install_triggers

#: The seats' copies and the games' columns they copy.
COPIES = {"game_created_at": "created_at", "game_status": "status"}
#: The triggers, by table (SQLite: one per table and operation; PostgreSQL: one per table).
SEAT_TRIGGER = "copy_game_to_seat"
GAME_TRIGGER = "copy_game_to_seats"
#: PostgreSQL's functions, one per trigger, named as it.
FUNCTIONS = (SEAT_TRIGGER, GAME_TRIGGER)


def _game_value(column: str) -> str:
    return f"(SELECT {column} FROM games WHERE games.id = NEW.game_id)"


def create_statements(dialect: str) -> list[str]:
    """The DDL that makes the triggers on ``dialect``."""
    seats_written = ", ".join(COPIES)
    games_written = ", ".join(COPIES.values())
    if dialect == "sqlite":
        # SQLite's triggers cannot change the row being written: the seat is written again
        # after, when its copies differ from its game's (never again after that).
        differs = " OR ".join(
            f"NEW.{copy} IS NOT {_game_value(column)}" for copy, column in COPIES.items()
        )
        assignments = ", ".join(
            f"{copy} = {_game_value(column)}" for copy, column in COPIES.items()
        )
        from_seat = (
            f"WHEN {differs} BEGIN UPDATE seats SET {assignments} "
            "WHERE game_id = NEW.game_id AND position = NEW.position; END"
        )
        game_changed = " OR ".join(
            f"NEW.{column} IS NOT OLD.{column}" for column in COPIES.values()
        )
        given = ", ".join(f"{copy} = NEW.{column}" for copy, column in COPIES.items())
        return [
            f"CREATE TRIGGER {SEAT_TRIGGER}_insert AFTER INSERT ON seats FOR EACH ROW {from_seat}",
            f"CREATE TRIGGER {SEAT_TRIGGER}_update AFTER UPDATE OF game_id, {seats_written} "
            f"ON seats FOR EACH ROW {from_seat}",
            f"CREATE TRIGGER {GAME_TRIGGER} AFTER UPDATE OF {games_written} ON games "
            f"FOR EACH ROW WHEN {game_changed} "
            f"BEGIN UPDATE seats SET {given} WHERE game_id = NEW.id; END",
        ]
    targets = ", ".join(f"NEW.{copy}" for copy in COPIES)
    given = ", ".join(f"{copy} = NEW.{column}" for copy, column in COPIES.items())
    game_changed = " OR ".join(
        f"OLD.{column} IS DISTINCT FROM NEW.{column}" for column in COPIES.values()
    )
    return [
        f"CREATE OR REPLACE FUNCTION {SEAT_TRIGGER}() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN SELECT {games_written} INTO {targets} FROM games WHERE games.id = NEW.game_id; "
        "RETURN NEW; END $$",
        f"CREATE TRIGGER {SEAT_TRIGGER} BEFORE INSERT OR UPDATE OF game_id, {seats_written} "
        f"ON seats FOR EACH ROW EXECUTE FUNCTION {SEAT_TRIGGER}()",
        f"CREATE OR REPLACE FUNCTION {GAME_TRIGGER}() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN UPDATE seats SET {given} WHERE game_id = NEW.id; RETURN NULL; END $$",
        f"CREATE TRIGGER {GAME_TRIGGER} AFTER UPDATE OF {games_written} ON games "
        f"FOR EACH ROW WHEN ({game_changed}) EXECUTE FUNCTION {GAME_TRIGGER}()",
    ]


def drop_statements(dialect: str) -> list[str]:
    """The DDL that removes what :func:`create_statements` made (PostgreSQL: the functions,
    and with them their triggers)."""
    if dialect == "sqlite":
        return [
            f"DROP TRIGGER IF EXISTS {name}"
            for name in (f"{SEAT_TRIGGER}_insert", f"{SEAT_TRIGGER}_update", GAME_TRIGGER)
        ]
    return [f"DROP FUNCTION IF EXISTS {function}() CASCADE" for function in FUNCTIONS]


def fill_statement() -> str:
    """The statement that gives every seat its game's time and status (after the columns
    were added; the same on both databases)."""
    assignments = ", ".join(
        f"{copy} = (SELECT games.{column} FROM games WHERE games.id = seats.game_id)"
        for copy, column in COPIES.items()
    )
    return f"UPDATE seats SET {assignments}"


def install() -> None:
    """Give every schema ``create_all`` makes the copies' triggers (once per process)."""
    install_triggers(create_statements, drop_statements)
