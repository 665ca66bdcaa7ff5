"""A document that is malformed, or whose rounds do not check out, is refused as a whole."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.backup.history import build_history
from tests.db_snapshot import snapshot
from tests.table import Table

Document = dict[str, Any]


@pytest.fixture
def exported(app: Flask, client: FlaskClient, tmp_path: Path, table: Table) -> Document:
    """The whole history of ``app`` as exported: classic, delayed, Hat Trick, hazy, mild."""
    build_history(table)
    path = tmp_path / "backup.json"
    assert app.test_cli_runner().invoke(args=["export", str(path)]).exit_code == 0
    data: Document = json.loads(path.read_text(encoding="utf-8"))
    return data


def refused(app: Flask, tmp_path: Path, content: bytes) -> str:
    """Import ``content`` into ``app``: it must fail and leave the database as it was;
    answers the message."""
    path = tmp_path / "import.json"
    path.write_bytes(content)
    with app.app_context():
        before = snapshot()
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    with app.app_context():
        assert snapshot() == before
    assert "Nothing was imported" in result.output
    return result.output


def changed(data: Document, change: Callable[[Document], object]) -> bytes:
    data = copy.deepcopy(data)
    change(data)
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "The file is empty."),
        (b"{nope", "The file is not valid JSON (UTF-8)."),
        (b"[]", "The file must hold a JSON object"),
        (b'{"format": NaN}', "not valid JSON"),
        (b'{"format": "other", "version": 1, "games": []}', "not a Sticheln companion export"),
        (b'{"format": "sticheln-companion", "version": 2, "games": []}', "format version 2"),
        (b'{"format": "sticheln-companion", "version": 1}', '"games"'),
        (b'{"format": "sticheln-companion", "version": 1, "games": {}}', "must be a list"),
        (b'{"format": "sticheln-companion", "version": 1, "games": [7]}', "Game 1"),
        (b"\xff\xfe", "not valid JSON"),
    ],
)
def test_a_malformed_file_is_refused(
    second_app: Flask, tmp_path: Path, content: bytes, says: str
) -> None:
    assert says in refused(second_app, tmp_path, content)


def tamper_score(data: Document) -> None:
    data["games"][0]["rounds"][0]["scores"][0] += 1


def tamper_quick_tricks(data: Document) -> None:
    entries = data["games"][0]["rounds"][0]["entries"]
    entries[0]["tricks"] += 1  # the tricks no longer add up to 14 (C3)


def tamper_live_card(data: Document) -> None:
    trick = data["games"][0]["rounds"][2]["tricks"][5]
    trick["plays"][0], trick["plays"][1] = trick["plays"][1], trick["plays"][0]


def tamper_live_entries(data: Document) -> None:
    entries = data["games"][0]["rounds"][2]["entries"]
    entries[0]["captured"], entries[1]["captured"] = entries[1]["captured"], entries[0]["captured"]


def tamper_leader(data: Document) -> None:
    data["games"][0]["rounds"][1]["leader"] = 0


def tamper_status(data: Document) -> None:
    data["games"][1]["status"] = "finished"


def tamper_duplicate(data: Document) -> None:
    data["games"].append(data["games"][0])


def tamper_missing_field(data: Document) -> None:
    del data["games"][2]["players"]


def tamper_edit_key(data: Document) -> None:
    data["games"][2]["edit_key_hash"] = "0" * 64


def tamper_twice_named(data: Document) -> None:
    data["games"][0]["players"][1] = "ANN"


def tamper_time(data: Document) -> None:
    data["games"][3]["created_at"] = "yesterday"


def tamper_hazy_marks(data: Document) -> None:
    playing = data["games"][3]["rounds"][1]
    playing["entries"][1]["marked"] = playing["entries"][0]["marked"]  # the same card twice


def tamper_hat_trick_counts(data: Document) -> None:
    data["games"][2]["rounds"][2]["entries"][0]["counts"]["red"] += 1


def tamper_unscored_scores(data: Document) -> None:
    data["games"][3]["rounds"][1]["scores"] = [0, 0, 0, 0]


def tamper_explanation(data: Document) -> None:
    terms = data["games"][0]["rounds"][0]["explanations"][0]["terms"]
    terms[0]["points"] += 1


def tamper_variant(data: Document) -> None:
    data["games"][0]["variant"] = "reverse"


@pytest.mark.parametrize(
    ("tamper", "says"),
    [
        (tamper_score, "Game 1 ({code0}), round 1: the scores"),
        (tamper_quick_tricks, "Game 1 ({code0}), round 1:"),
        (tamper_live_card, "Game 1 ({code0}), round 3:"),
        (tamper_live_entries, "Game 1 ({code0}), round 3: entries are not what"),
        (tamper_leader, "Game 1 ({code0}), round 2: leader must be seat 2 (R3)"),
        (tamper_status, 'Game 2 ({code1}): status is "finished"'),
        (tamper_duplicate, "Game 6: the code {code0} appears twice"),
        (tamper_missing_field, 'Game 3 ({code2}): The game is missing the field "players"'),
        (tamper_edit_key, 'unknown field "edit_key_hash"'),
        (tamper_twice_named, "Game 1 ({code0}): ANN is entered twice"),
        (tamper_time, "Game 4 ({code3}): created_at"),
        (tamper_hazy_marks, "Game 4 ({code3}), round 2:"),
        (tamper_hat_trick_counts, "Game 3 ({code2}), round 3:"),
        (tamper_unscored_scores, "Game 4 ({code3}), round 2: a round still being played"),
        (tamper_variant, "Game 1 ({code0}), round 1:"),
        (tamper_explanation, "Game 1 ({code0}), round 1: explanations are not what the rules"),
    ],
)
def test_a_document_with_a_round_that_does_not_check_out_is_refused_whole(
    exported: Document,
    second_app: Flask,
    tmp_path: Path,
    tamper: Callable[[Document], None],
    says: str,
) -> None:
    codes = {f"code{i}": game["code"] for i, game in enumerate(exported["games"])}
    # Every game but the tampered one would be new to the second database: none is kept.
    message = refused(second_app, tmp_path, changed(exported, tamper))
    assert says.format(**codes) in message


def test_the_untampered_document_imports(
    exported: Document, second_app: Flask, tmp_path: Path
) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    result = second_app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    assert "Games imported: 5. Skipped: 0." in result.output
