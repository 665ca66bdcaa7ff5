"""The whole history out and back: export, import into an empty database, export again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import Game, Player, db
from tests.backup.history import build_history
from tests.db_snapshot import snapshot
from tests.schema import (
    assert_planner_knows,
    drop_everything,
    latest_revision,
    migrated_revision,
)
from tests.table import Table, auth


def export(app: Flask, path: Path) -> dict[str, Any]:
    """Run ``flask export`` on ``app``; answers the document written."""
    result = app.test_cli_runner().invoke(args=["export", str(path)])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def import_file(app: Flask, path: Path, *options: str) -> Any:
    return app.test_cli_runner().invoke(args=["import", *options, str(path)])


def without_time_of_export(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key != "exported_at"}


def test_export_import_into_an_empty_database_and_export_again_gives_the_same_data(
    app: Flask, client: FlaskClient, second_app: Flask, tmp_path: Path, table: Table
) -> None:
    games = build_history(table)
    first = export(app, tmp_path / "first.json")
    assert first["format"] == "sticheln-companion" and first["version"] == 2
    assert sorted(game["code"] for game in first["games"]) == sorted(
        game["id"] for game in games.values()
    )

    result = import_file(second_app, tmp_path / "first.json")
    assert result.exit_code == 0, result.output
    assert result.output.count("/edit/") == len(games)

    second = export(second_app, tmp_path / "second.json")
    assert without_time_of_export(second) == without_time_of_export(first)


def test_a_restore_onto_a_database_without_tables_makes_them_first(
    app: Flask, client: FlaskClient, second_app: Flask, tmp_path: Path, table: Table
) -> None:
    """A new server restoring a backup before the app was ever served there."""
    games = build_history(table)
    first = export(app, tmp_path / "backup.json")
    with second_app.app_context():
        drop_everything()
    try:
        result = import_file(second_app, tmp_path / "backup.json")
        assert result.exit_code == 0, result.output
        assert "The database was empty: its tables were made." in result.output
        assert result.output.count("/edit/") == len(games)
        with second_app.app_context():
            assert migrated_revision() == latest_revision()
        second = export(second_app, tmp_path / "again.json")
        assert without_time_of_export(second) == without_time_of_export(first)
    finally:
        with second_app.app_context():
            drop_everything()


def test_the_restored_games_show_the_same_state_through_the_api(
    app: Flask, client: FlaskClient, second_app: Flask, tmp_path: Path, table: Table
) -> None:
    games = build_history(table)
    export(app, tmp_path / "backup.json")
    assert import_file(second_app, tmp_path / "backup.json").exit_code == 0
    with second_app.app_context():
        assert_planner_knows("games", len(games))  # a restore is a bulk load: ANALYZE
    restored = second_app.test_client()
    for game in games.values():
        before = client.get(f"/api/v1/games/{game['id']}").json
        after = restored.get(f"/api/v1/games/{game['id']}").json
        assert before is not None and after is not None
        for key in ("players", "variant", "rounds", "totals", "winners", "status"):
            assert after[key] == before[key], key


def test_the_printed_edit_key_gives_edit_rights_to_a_restored_game(
    app: Flask, client: FlaskClient, second_app: Flask, tmp_path: Path, table: Table
) -> None:
    games = build_history(table)
    export(app, tmp_path / "backup.json")
    result = import_file(second_app, tmp_path / "backup.json")
    code = games["hazy"]["id"]
    line = next(line for line in result.output.splitlines() if f"/g/{code}/edit/" in line)
    link = line[line.index("/g/") :].strip()
    restored = second_app.test_client()
    answer = restored.get(link)
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/g/{code}"
    page = restored.get(f"/g/{code}").get_data(as_text=True)
    assert "Continue live round" in page  # this phone may edit now
    # the old key opens nothing on the restored game: keys are never exported
    old = restored.get(f"/g/{code}/edit/{games['hazy']['edit_key']}")
    assert old.status_code == 403


def test_importing_the_same_backup_again_adds_nothing(
    app: Flask, client: FlaskClient, tmp_path: Path, table: Table
) -> None:
    games = build_history(table)
    export(app, tmp_path / "backup.json")
    with app.app_context():
        before = snapshot()
    result = import_file(app, tmp_path / "backup.json")
    assert result.exit_code == 0, result.output
    assert "/edit/" not in result.output
    assert result.output.count("already here, unchanged") == len(games)
    with app.app_context():
        assert snapshot() == before


def test_a_second_import_into_the_restored_database_adds_nothing(
    app: Flask, client: FlaskClient, second_app: Flask, tmp_path: Path, table: Table
) -> None:
    build_history(table)
    export(app, tmp_path / "backup.json")
    assert import_file(second_app, tmp_path / "backup.json").exit_code == 0
    with second_app.app_context():
        before = snapshot()
        games = db.session.scalar(sa.select(sa.func.count()).select_from(Game))
    assert import_file(second_app, tmp_path / "backup.json").exit_code == 0
    with second_app.app_context():
        assert snapshot() == before
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == games


def test_import_into_an_existing_database_matches_players_by_name_whatever_the_case(
    app: Flask, client: FlaskClient, second_app: Flask, tmp_path: Path, table: Table
) -> None:
    build_history(table)
    export(app, tmp_path / "backup.json")
    restored = second_app.test_client()
    answer = restored.post(
        "/api/v1/games", json={"players": ["ANN", "BEN", "Xavier"], "variant": "classic"}
    )
    assert answer.status_code == 201
    with second_app.app_context():
        here = db.session.scalar(sa.select(Game.circle_id))
    assert import_file(second_app, tmp_path / "backup.json", "--circle", str(here)).exit_code == 0
    with second_app.app_context():
        names = sorted(db.session.scalars(sa.select(Player.name)))
    with app.app_context():
        original = sorted(db.session.scalars(sa.select(Player.name)))
    # Ann and Ben are the players already here in the circle (as "ANN" and "BEN"), not new ones
    expected = [*(name for name in original if name not in ("Ann", "Ben")), "ANN", "BEN", "Xavier"]
    assert names == sorted(expected)


def test_a_changed_game_with_a_known_code_is_reported_and_skipped(
    app: Flask, client: FlaskClient, tmp_path: Path, table: Table
) -> None:
    games = build_history(table)
    data = export(app, tmp_path / "backup.json")
    changed = next(g for g in data["games"] if g["code"] == games["delayed"]["id"])
    changed["excluded"] = True
    (tmp_path / "changed.json").write_text(json.dumps(data), encoding="utf-8")
    with app.app_context():
        before = snapshot()
    result = import_file(app, tmp_path / "changed.json")
    assert result.exit_code == 0, result.output
    assert f"Skipped {games['delayed']['id']}: a game with this code is already here" in (
        result.output
    )
    with app.app_context():
        assert snapshot() == before


def test_export_to_standard_output(app: Flask, client: FlaskClient, table: Table) -> None:
    games = build_history(table)
    result = app.test_cli_runner().invoke(args=["export", "-"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert len(data["games"]) == len(games)
    assert "Games exported: 5." in result.stderr


def test_an_empty_history_exports_and_imports(
    app: Flask, second_app: Flask, tmp_path: Path
) -> None:
    data = export(app, tmp_path / "empty.json")
    assert data["games"] == []
    result = import_file(second_app, tmp_path / "empty.json")
    assert result.exit_code == 0, result.output


def hat_trick_round_recorded_before_the_r21_correction(app: Flask, table: Table) -> str:
    """A live Hat Trick round as stored before R21 was corrected: after red 15, blue 15,
    red 3, blue 2 the red pile's taker (seat 0) led, where R21 now gives the lead to red 3's
    player (seat 2). Answers the game's code."""
    game = table.new_game(["Ann", "Ben", "Cleo", "Dan"], "hat-trick", rounds=5)
    headers = auth(game)
    client = table.client
    opened = client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"]},
        headers=headers,
    ).json
    plays = [
        {"colour": colour, "value": value}
        for colour, value in (("red", 15), ("blue", 15), ("red", 3), ("blue", 2))
    ]
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/1/tricks",
        json={"version": opened["version"], "plays": plays},
        headers=headers,
    )
    assert answer.status_code == 201, answer.json
    with app.app_context():
        stored = db.session.scalar(sa.select(Game).filter_by(code=game["id"]))
        greens = [{"colour": "green", "value": value} for value in (5, 6, 7, 8)]
        stored.rounds[0].tricks = [*stored.rounds[0].tricks, {"leader": 0, "plays": greens}]
        db.session.commit()
    return str(game["id"])


def test_a_live_round_recorded_before_the_r21_correction_restores_as_it_was_played(
    app: Flask, table: Table, second_app: Flask, tmp_path: Path
) -> None:
    code = hat_trick_round_recorded_before_the_r21_correction(app, table)
    data = export(app, tmp_path / "before.json")

    result = import_file(second_app, tmp_path / "before.json")

    assert result.exit_code == 0, result.output
    again = export(second_app, tmp_path / "after.json")
    assert without_time_of_export(again) == without_time_of_export(data)
    tricks = again["games"][0]["rounds"][0]["tricks"]
    assert [trick["leader"] for trick in tricks] == [0, 0]
    assert (
        second_app.test_client().get(f"/api/v1/games/{code}").json["rounds"][0]["next_leader"] == 3
    )  # green 8 was seat 3's card


def test_a_recorded_lead_that_no_rule_gave_is_refused_on_import(
    app: Flask, table: Table, second_app: Flask, tmp_path: Path
) -> None:
    hat_trick_round_recorded_before_the_r21_correction(app, table)
    data = export(app, tmp_path / "before.json")
    data["games"][0]["rounds"][0]["tricks"][1]["leader"] = 1  # neither taker nor R21
    (tmp_path / "forged.json").write_text(json.dumps(data), encoding="utf-8")

    result = import_file(second_app, tmp_path / "forged.json")

    assert result.exit_code == 1
    assert "tricks[1].leader must be seat 2, who leads it (R9, R21)." in result.output
