"""The terms of each score in the backup: written by the rules, read back without trust.

An export carries each scored round's terms (R10, R12-R16, R22); an import checks them
against the rules (tampered terms are refused in test_import_refusals), and a file written
before the terms existed imports as well and exports with them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.play_state.entries import read_entries
from companion.rules import explain_round, table_setup, variant_from_settings, variant_named
from tests.backup.history import build_history
from tests.table import Table


def export(app: Flask, path: Path) -> dict[str, Any]:
    result = app.test_cli_runner().invoke(args=["export", str(path)])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def variant_of(game: dict[str, Any]):
    variant = game["variant"]
    if variant["game"] == "hat-trick":
        return variant_named("hat-trick")
    return variant_from_settings(variant["scoring"], variant["colours"], variant["reveal"])


def test_every_scored_round_exports_the_terms_the_rules_give(
    app: Flask, client: FlaskClient, table: Table, tmp_path: Path
) -> None:
    build_history(table)
    data = export(app, tmp_path / "all.json")
    checked = 0
    for game in data["games"]:
        setup = table_setup(len(game["players"]), variant_of(game))
        for round_ in game["rounds"]:
            if round_["status"] != "scored":
                assert round_["explanations"] is None
                continue
            entries = read_entries(round_["entries"], setup)
            expected = [seat.as_json() for seat in explain_round(setup, entries)]
            assert round_["explanations"] == expected
            for seat, score in zip(round_["explanations"], round_["scores"], strict=True):
                assert sum(term["points"] for term in seat["terms"]) == score == seat["score"]
            checked += 1
    assert checked >= 5


def test_a_file_without_terms_imports_and_exports_with_them(
    app: Flask, client: FlaskClient, second_app: Flask, table: Table, tmp_path: Path
) -> None:
    build_history(table)
    first = export(app, tmp_path / "first.json")
    older = json.loads(json.dumps(first))
    for game in older["games"]:
        for round_ in game["rounds"]:
            del round_["explanations"]
    (tmp_path / "older.json").write_text(json.dumps(older), encoding="utf-8")
    result = second_app.test_cli_runner().invoke(args=["import", str(tmp_path / "older.json")])
    assert result.exit_code == 0, result.output
    second = export(second_app, tmp_path / "second.json")
    assert second["games"] == first["games"]


def test_an_exported_indicator_card_stays_on_one_line(
    app: Flask, client: FlaskClient, table: Table, tmp_path: Path
) -> None:
    build_history(table)
    export(app, tmp_path / "all.json")
    text = (tmp_path / "all.json").read_text(encoding="utf-8")
    flagged = [line for line in text.splitlines() if '"indicator": true' in line]
    assert flagged
    for line in flagged:
        assert line.strip().startswith('{"colour": "') and line.strip().rstrip(",").endswith("}")
