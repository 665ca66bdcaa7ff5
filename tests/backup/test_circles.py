"""Backups of several circles (issue 28): format version 2 lists the circles and names each
game's; the export may hold one circle (``--circle``); the import makes the file's circles
anew, or puts every game into one circle of the server (``--circle``); a version 1 file,
written before circles, still imports."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from companion.data import stats
from companion.data.circles import FIRST_CIRCLE_NAME, server_circle_id, unknown_secret_hash
from companion.data.models import Circle, Game, Player, db, name_key
from companion.rules import PRESETS, table_setup
from tests.backup.history import classic_led_by, quick_entries
from tests.backup.test_import_refusals import refused
from tests.db_snapshot import snapshot
from tests.table import Table

Document = dict[str, Any]

#: A whole history as the export wrote it before circles (format version 1): a finished
#: game of Anna, Ben, Cleo and Dan, and the game they started with "Play again".
VERSION_1 = Path(__file__).parent / "data" / "version-1.json"

KITCHEN = "Kitchen table"


class _AnyTime:
    """Equal to any ISO 8601 time in UTC (when a circle was made is not the file's)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and other.endswith("Z")


ANY_TIME = _AnyTime()


def two_circles_with_an_anna(app: Flask, table: Table) -> dict[str, int]:
    """The kitchen table's circle (Anna, Ben, Cleo, Dan: two games) and the server's first
    circle (Anna, Eve, Fay: one game): two players called Anna, with other numbers.
    Games start in the server's first circle, so the kitchen table's are moved into a
    circle of their own, as a later step's own circle would hold them. Answers the
    circles' ids by name."""
    setup = table_setup(3, PRESETS["classic"])
    first = table.new_game(["Anna", "Ben", "Cleo"], rounds=2)
    first = table.record(first, quick_entries(classic_led_by(setup, 0, 1)))
    table.record(first, quick_entries(classic_led_by(setup, 1, 2)))
    second = table.new_game(["anna", "Ben", "Dan"], rounds=1)
    table.record(second, quick_entries(classic_led_by(setup, 0, 3)))
    with app.app_context():
        kitchen = Circle(name=KITCHEN, secret_hash=unknown_secret_hash())
        db.session.add(kitchen)
        db.session.flush()
        db.session.execute(sa.update(Game).values(circle_id=kitchen.id))
        db.session.execute(sa.update(Player).values(circle_id=kitchen.id))
        db.session.commit()
        kitchen_id = int(kitchen.id)
    third = table.new_game(["Anna", "Eve", "Fay"], rounds=1)
    table.record(third, quick_entries(classic_led_by(setup, 0, 4)))
    with app.app_context():
        club = server_circle_id()
    assert club != kitchen_id
    return {FIRST_CIRCLE_NAME: club, KITCHEN: kitchen_id}


def export(app: Flask, path: Path, *options: str) -> Document:
    result = app.test_cli_runner().invoke(args=["export", *options, str(path)])
    assert result.exit_code == 0, result.output
    data: Document = json.loads(path.read_text(encoding="utf-8"))
    return data


def import_file(app: Flask, path: Path, *options: str) -> str:
    result = app.test_cli_runner().invoke(args=["import", *options, str(path)])
    assert result.exit_code == 0, result.output
    return str(result.output)


def written(path: Path, data: Document) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def without_time_of_export(data: Document) -> Document:
    return {key: value for key, value in data.items() if key != "exported_at"}


def anna_of(app: Flask, circle: str) -> tuple[Any, ...]:
    """The statistics of the circle's Anna: her numbers, her opponents and her games."""
    with app.app_context():
        row = db.session.execute(
            sa.select(Player.id, Player.name)
            .join(Circle, Circle.id == Player.circle_id)
            .where(Circle.name == circle, Player.key == name_key("Anna"))
        ).one()
        anna = stats.PlayerRef(row.id, row.name)
        return stats.player_stats(anna), stats.head_to_head(anna), stats.score_history(anna)


def circles_in(app: Flask) -> list[tuple[str, int, list[str]]]:
    """Each circle's name, games and players (by name), oldest first."""
    with app.app_context():
        circles = db.session.scalars(sa.select(Circle).order_by(Circle.id)).all()
        return [
            (
                circle.name,
                db.session.scalar(
                    sa.select(sa.func.count()).select_from(Game).filter_by(circle_id=circle.id)
                )
                or 0,
                sorted(db.session.scalars(sa.select(Player.name).filter_by(circle_id=circle.id))),
            )
            for circle in circles
        ]


def test_two_circles_with_an_anna_each_keep_their_statistics_through_a_restore(
    app: Flask, second_app: Flask, table: Table, tmp_path: Path
) -> None:
    two_circles_with_an_anna(app, table)
    before = {circle: anna_of(app, circle) for circle in (KITCHEN, FIRST_CIRCLE_NAME)}
    assert before[KITCHEN][0].games == 2 and before[FIRST_CIRCLE_NAME][0].games == 1
    data = export(app, tmp_path / "backup.json")
    assert data["version"] == 2
    assert [(circle["key"], circle["name"]) for circle in data["circles"]] == [
        (1, FIRST_CIRCLE_NAME),
        (2, KITCHEN),
    ]
    assert [game["circle"] for game in data["games"]] == [2, 2, 1]  # oldest game first

    output = import_file(second_app, tmp_path / "backup.json")

    assert circles_in(second_app) == [
        (FIRST_CIRCLE_NAME, 1, ["Anna", "Eve", "Fay"]),
        (KITCHEN, 2, ["Anna", "Ben", "Cleo", "Dan"]),
    ]
    assert {circle: anna_of(second_app, circle) for circle in before} == before
    with second_app.app_context():
        made = db.session.execute(sa.select(Circle.id, Circle.name).order_by(Circle.id)).all()
    for circle_id, name in made:
        assert f"New circle {circle_id} ({name})" in output
        assert f"flask --app companion circles invite {circle_id}\n" in output
    again = export(second_app, tmp_path / "again.json")
    assert without_time_of_export(again) == without_time_of_export(data)


def test_a_circles_invite_secret_is_never_exported_nor_its_hash(
    app: Flask, table: Table, tmp_path: Path
) -> None:
    two_circles_with_an_anna(app, table)
    data = export(app, tmp_path / "backup.json")
    text = (tmp_path / "backup.json").read_text(encoding="utf-8")
    with app.app_context():
        hashes = list(db.session.scalars(sa.select(Circle.secret_hash)))
    assert len(hashes) == 2 and all(hashes)
    assert not any(secret in text for secret in hashes)
    assert all(set(circle) == {"key", "name", "created_at"} for circle in data["circles"])


def test_an_export_of_one_circle_holds_only_its_games_and_players(
    app: Flask, table: Table, tmp_path: Path
) -> None:
    circles = two_circles_with_an_anna(app, table)
    data = export(app, tmp_path / "kitchen.json", "--circle", str(circles[KITCHEN]))
    assert [(circle["key"], circle["name"]) for circle in data["circles"]] == [(1, KITCHEN)]
    with app.app_context():
        kitchen_games = sorted(
            db.session.scalars(sa.select(Game.code).filter_by(circle_id=circles[KITCHEN]))
        )
    assert sorted(game["code"] for game in data["games"]) == kitchen_games
    assert len(kitchen_games) == 2
    assert {game["circle"] for game in data["games"]} == {1}
    players = {name for game in data["games"] for name in game["players"]}
    assert {name.casefold() for name in players} == {"anna", "ben", "cleo", "dan"}


def test_an_export_of_an_unknown_circle_writes_nothing(
    app: Flask, table: Table, tmp_path: Path
) -> None:
    circles = two_circles_with_an_anna(app, table)
    unknown = max(circles.values()) + 1
    path = tmp_path / "none.json"
    result = app.test_cli_runner().invoke(args=["export", "--circle", str(unknown), str(path)])
    assert result.exit_code == 1
    assert f"There is no circle {unknown}." in result.output
    assert not path.exists()


def test_a_version_1_backup_still_imports_into_the_servers_first_circle(
    second_app: Flask, tmp_path: Path
) -> None:
    old = json.loads(VERSION_1.read_text(encoding="utf-8"))
    assert old["version"] == 1 and "circles" not in old

    output = import_file(second_app, VERSION_1)

    assert output.count("/edit/") == len(old["games"]) == 2
    assert circles_in(second_app) == [(FIRST_CIRCLE_NAME, 2, ["Anna", "Ben", "Cleo", "Dan"])]
    with second_app.app_context():
        club = server_circle_id()
    assert f"The games were added to circle {club} ({FIRST_CIRCLE_NAME})." in output
    again = export(second_app, tmp_path / "again.json")
    assert again["circles"] == [{"key": 1, "name": FIRST_CIRCLE_NAME, "created_at": ANY_TIME}]
    assert [{**game, "circle": None} for game in again["games"]] == [
        {**game, "circle": None} for game in old["games"]
    ]
    assert {game["circle"] for game in again["games"]} == {1}


def test_a_version_1_backup_imports_into_the_circle_it_is_told(
    app: Flask, table: Table, tmp_path: Path
) -> None:
    circles = two_circles_with_an_anna(app, table)
    kitchen_anna = anna_of(app, KITCHEN)[0]

    import_file(app, VERSION_1, "--circle", str(circles[KITCHEN]))

    assert circles_in(app) == [
        (FIRST_CIRCLE_NAME, 1, ["Anna", "Eve", "Fay"]),
        (KITCHEN, 4, ["Anna", "Ben", "Cleo", "Dan"]),  # the file's Anna is the kitchen's
    ]
    assert anna_of(app, KITCHEN)[0].games == kitchen_anna.games + 2


def test_an_import_told_a_circle_puts_every_game_of_every_circle_there(
    app: Flask, second_app: Flask, table: Table, tmp_path: Path
) -> None:
    two_circles_with_an_anna(app, table)
    export(app, tmp_path / "backup.json")
    restored = second_app.test_client().post(
        "/api/v1/games", json={"players": ["ANNA", "Zoë", "Ben"], "variant": "classic"}
    )
    assert restored.status_code == 201
    with second_app.app_context():
        here = server_circle_id()

    output = import_file(second_app, tmp_path / "backup.json", "--circle", str(here))

    assert "New circle" not in output
    assert f"The games were added to circle {here} ({FIRST_CIRCLE_NAME})." in output
    # One circle: the two Annas of the file are its ANNA, names matched within it.
    assert circles_in(second_app) == [
        (FIRST_CIRCLE_NAME, 4, ["ANNA", "Ben", "Cleo", "Dan", "Eve", "Fay", "Zoë"])
    ]


def test_an_import_into_an_unknown_circle_is_refused_and_writes_nothing(
    app: Flask, second_app: Flask, table: Table, tmp_path: Path
) -> None:
    two_circles_with_an_anna(app, table)
    content = json.dumps(export(app, tmp_path / "backup.json")).encode()
    started = second_app.test_client().post(
        "/api/v1/games", json={"players": ["Anna", "Ben", "Cleo"], "variant": "classic"}
    )
    assert started.status_code == 201
    with second_app.app_context():
        unknown = server_circle_id() + 1
    message = refused(second_app, tmp_path, content, options=("--circle", str(unknown)))
    assert f"There is no circle {unknown}." in message


def test_importing_a_backup_of_circles_twice_makes_nothing_the_second_time(
    app: Flask, second_app: Flask, table: Table, tmp_path: Path
) -> None:
    two_circles_with_an_anna(app, table)
    export(app, tmp_path / "backup.json")
    import_file(second_app, tmp_path / "backup.json")
    with second_app.app_context():
        before = snapshot()
    output = import_file(second_app, tmp_path / "backup.json")
    assert "Games imported: 0. Skipped: 3." in output and "New circle" not in output
    with second_app.app_context():
        assert snapshot() == before
    assert len(circles_in(second_app)) == 2


def version_2(old: Document) -> Document:
    """The version 1 file as version 2 writes it: one circle, every game in it."""
    data = copy.deepcopy(old)
    data["version"] = 2
    data["circles"] = [{"key": 7, "name": "Anna's table", "created_at": "2025-01-02T03:04:05Z"}]
    for game in data["games"]:
        game["circle"] = 7
    return data


def test_a_made_circle_keeps_its_name_and_time(second_app: Flask, tmp_path: Path) -> None:
    data = version_2(json.loads(VERSION_1.read_text(encoding="utf-8")))
    import_file(second_app, written(tmp_path / "v2.json", data))
    assert circles_in(second_app) == [("Anna's table", 2, ["Anna", "Ben", "Cleo", "Dan"])]
    again = export(second_app, tmp_path / "again.json")
    assert again["circles"] == [{**data["circles"][0], "key": 1, "created_at": ANY_TIME}]
    assert again["circles"][0]["created_at"].startswith("2025-01-02T03:04:05")


def unlisted_circles(data: Document) -> None:
    del data["circles"]


def v1_with_circles(data: Document) -> None:
    data["version"] = 1


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda data: data.update(circles={}), 'The document\'s "circles" must be a list.'),
        (
            lambda data: data["circles"][0].pop("key"),
            'Circle 1: The circle is missing the field "key".',
        ),
        (lambda data: data["circles"][0].update(key="7"), "Circle 1: key must be a whole number"),
        (lambda data: data["circles"][0].update(secret="x"), 'unknown field "secret"'),
        (lambda data: data["circles"][0].update(name=" "), "Circle 1: Every circle needs a name."),
        (
            lambda data: data["circles"][0].update(name="Anna\u202etable"),
            "Circle 1: A name cannot contain invisible characters",
        ),
        (lambda data: data["circles"][0].update(name="x" * 41), "Circle 1: A name has at most 40"),
        (
            lambda data: data["circles"][0].update(created_at="yesterday"),
            'Circle 1: created_at "yesterday" is not an ISO 8601 time.',
        ),
        (
            lambda data: data["circles"].append(dict(data["circles"][0])),
            "Circle 2: the key 7 appears twice.",
        ),
        (
            lambda data: data["games"][1].pop("circle"),
            'Game 2 ({code1}): the field "circle" is missing',
        ),
        (
            lambda data: data["games"][0].update(circle=8),
            "Game 1 ({code0}): circle 8 is not one of the document's circles.",
        ),
        (
            unlisted_circles,
            'Game 1 ({code0}): it names circle 7, but the document has no "circles".',
        ),
        (v1_with_circles, 'The document has the unknown field "circles".'),
    ],
)
def test_a_file_whose_circles_do_not_hold_together_is_refused(
    second_app: Flask, tmp_path: Path, change: Any, says: str
) -> None:
    data = version_2(json.loads(VERSION_1.read_text(encoding="utf-8")))
    codes = {f"code{index}": game["code"] for index, game in enumerate(data["games"])}
    change(data)
    assert says.format(**codes) in refused(second_app, tmp_path, json.dumps(data).encode())
