"""One game's export (API and pages) and the shape of the backup document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import db
from companion.formats.backup.export import write_history
from companion.rules import PRESETS, table_setup
from tests.backup.history import build_history, classic_led_by, quick_entries
from tests.table import Table

GAME_KEYS = {
    "code",
    "players",
    "variant",
    "rounds_planned",
    "first_leader",
    "status",
    "excluded",
    "next_game",
    "created_at",
    "updated_at",
    "rounds",
}
ROUND_KEYS = {
    "number",
    "leader",
    "mode",
    "status",
    "entries",
    "tricks",
    "scores",
    "explanations",
    "created_at",
    "updated_at",
}


@pytest.fixture
def games(app: Flask, client: FlaskClient, table: Table) -> dict[str, dict[str, Any]]:
    return build_history(table)


def test_the_api_exports_one_game_as_a_versioned_document(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    game = games["classic"]
    answer = client.get(f"/api/v1/games/{game['id']}/export")
    assert answer.status_code == 200
    data = answer.json
    assert data is not None
    assert set(data) == {"format", "version", "exported_at", "games"}  # no circles: see backup
    assert (data["format"], data["version"]) == ("sticheln-companion", 2)
    assert data["exported_at"].endswith("Z")
    [exported] = data["games"]
    assert set(exported) == GAME_KEYS
    assert exported["code"] == game["id"]
    assert exported["players"] == ["Ann", "Ben", "Cleo", "Dan"]
    assert exported["variant"] == game["variant"]
    assert (exported["rounds_planned"], exported["first_leader"]) == (3, 1)
    assert (exported["status"], exported["excluded"]) == ("finished", False)
    assert [r["mode"] for r in exported["rounds"]] == ["quick", "full", "live"]
    for number, (round_, state) in enumerate(
        zip(exported["rounds"], game["rounds"], strict=True), start=1
    ):
        assert set(round_) == ROUND_KEYS
        assert round_["number"] == number
        assert round_["leader"] == state["leader"]
        assert round_["scores"] == state["scores"]
        assert round_["explanations"] == state["explanations"]  # the same terms as the API
        assert [seat["score"] for seat in round_["explanations"]] == state["scores"]
        assert round_["created_at"].endswith("Z")
        assert len(round_["entries"]) == 4
    assert exported["rounds"][0]["tricks"] is None
    assert len(exported["rounds"][2]["tricks"]) == 14  # R5: 4 players, 14 tricks
    assert exported["rounds"][2]["tricks"][0]["leader"] == 3  # R3: round 3 led by seat 3


def test_an_export_holds_no_edit_key_nor_its_hash(
    app: Flask, client: FlaskClient, games: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    with app.app_context():
        hashes = list(db.session.scalars(sa.text("SELECT edit_key_hash FROM games")))
    result = app.test_cli_runner().invoke(args=["export", str(tmp_path / "all.json")])
    assert result.exit_code == 0
    texts = [(tmp_path / "all.json").read_text(encoding="utf-8")]
    for game in games.values():
        texts.append(client.get(f"/api/v1/games/{game['id']}/export").get_data(as_text=True))
        texts.append(client.get(f"/g/{game['id']}/export.json").get_data(as_text=True))
        texts.append(client.get(f"/g/{game['id']}/export.csv").get_data(as_text=True))
    for text in texts:
        assert "edit_key" not in text
        for secret in [*hashes, *(game["edit_key"] for game in games.values())]:
            assert secret not in text


def test_a_hazy_round_still_being_played_is_left_out_of_a_public_export(
    app: Flask, client: FlaskClient, games: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    code = games["hazy"]["id"]
    public = client.get(f"/api/v1/games/{code}/export").json
    assert public is not None
    assert [r["status"] for r in public["games"][0]["rounds"]] == ["scored"]  # R15
    result = app.test_cli_runner().invoke(args=["export", str(tmp_path / "all.json")])
    assert result.exit_code == 0
    whole = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    [full] = [game for game in whole["games"] if game["code"] == code]
    playing = full["rounds"][1]
    assert playing["status"] == "playing" and len(playing["tricks"]) == 2
    assert all(len(entry["marked"]) == 1 for entry in playing["entries"])


def test_the_whole_history_lists_games_oldest_first_with_abandoned_and_excluded_ones(
    app: Flask, games: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    result = app.test_cli_runner().invoke(args=["export", str(tmp_path / "all.json")])
    assert result.exit_code == 0
    data = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    assert [game["code"] for game in data["games"]] == [game["id"] for game in games.values()]
    abandoned = data["games"][-1]
    assert (abandoned["status"], abandoned["excluded"]) == ("abandoned", True)
    assert data["games"][1]["players"][2] == '<script>alert("x")</script>'


def test_the_scoreboard_offers_json_and_csv_downloads(
    client: FlaskClient, games: dict[str, dict[str, Any]]
) -> None:
    code = games["classic"]["id"]
    for path in (f"/g/{code}", f"/g/{code}/view"):
        page = client.get(path).get_data(as_text=True)
        assert f'href="/g/{code}/export.json"' in page
        assert f'href="/g/{code}/export.csv"' in page
    answer = client.get(f"/g/{code}/export.json")
    assert answer.status_code == 200
    assert answer.mimetype == "application/json"
    assert answer.headers["Content-Disposition"] == (f'attachment; filename="sticheln-{code}.json"')
    page_export = json.loads(answer.get_data(as_text=True))
    api_export = client.get(f"/api/v1/games/{code}/export").json
    assert api_export is not None
    assert page_export["games"] == api_export["games"]


def test_the_page_export_imports_back_into_another_database(
    client: FlaskClient, games: dict[str, dict[str, Any]], second_app: Flask, tmp_path: Path
) -> None:
    code = games["hat-trick"]["id"]
    path = tmp_path / "one.json"
    path.write_bytes(client.get(f"/g/{code}/export.json").get_data())
    result = second_app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    assert f"Imported {code}" in result.output
    restored = second_app.test_client().get(f"/api/v1/games/{code}").json
    assert restored is not None
    assert restored["totals"] == games["hat-trick"]["totals"]
    assert restored["players"] == games["hat-trick"]["players"]


def test_exporting_an_unknown_game_is_not_found(client: FlaskClient) -> None:
    answer = client.get("/api/v1/games/nosuchgame/export")
    assert answer.status_code == 404
    assert answer.json == {"error": "There is no game with this id."}
    assert client.get("/g/nosuchgame/export.json").status_code == 404
    assert client.get("/g/nosuchgame/export.csv").status_code == 404


def count_queries(app: Flask, run: Any) -> int:
    """How many SQL statements ``run`` sends."""
    statements = []

    def count(*_args: Any) -> None:
        statements.append(1)

    with app.app_context():
        sa.event.listen(db.engine, "before_cursor_execute", count)
        try:
            run()
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", count)
    return len(statements)


def test_the_whole_history_is_read_in_a_few_queries_however_many_games(
    app: Flask, client: FlaskClient, tmp_path: Path, table: Table
) -> None:
    setup = table_setup(4, PRESETS["classic"])

    def add_games(count: int) -> None:
        for seed in range(count):
            game = table.new_game(["Ann", "Ben", "Cleo", f"Player {seed}"], "classic", 2)
            table.record(game, quick_entries(classic_led_by(setup, 0, seed)))

    def export() -> None:
        with (tmp_path / "out.json").open("w", encoding="utf-8") as file:
            write_history(file)

    add_games(2)
    few = count_queries(app, export)
    add_games(8)
    many = count_queries(app, export)
    assert many == few <= 6
