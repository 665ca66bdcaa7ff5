"""A document that is malformed, or whose rounds do not check out, is refused as a whole."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from companion import create_app
from companion.data.models import Game, db
from tests.backup.history import build_history
from tests.conftest import TEST_CONFIG, database_url, writes_only_under_the_lock
from tests.db_snapshot import snapshot
from tests.fresh_tables import clear_away, make_fresh
from tests.table import Table

#: Its apps are made here, on the suite's database (``database_url``).
pytestmark = pytest.mark.database

Document = dict[str, Any]


@pytest.fixture(scope="module")
def exported_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Document]:
    """A whole history as exported: classic, delayed, Hat Trick, hazy, mild; built once for
    the module (some two seconds of API calls), on an app and database of its own as the
    ``app`` fixture makes them. The tests only read it: each gets a copy (:func:`exported`)."""
    instance = tmp_path_factory.mktemp("exported")
    url = database_url(instance)
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url}, instance_path=str(instance))
    with app.app_context():
        make_fresh(url)
        if db.engine.dialect.name == "sqlite":
            sa.event.listen(db.engine, "before_cursor_execute", writes_only_under_the_lock)
    try:
        build_history(Table(app, app.test_client()))
        path = instance / "backup.json"
        assert app.test_cli_runner().invoke(args=["export", str(path)]).exit_code == 0
        yield json.loads(path.read_text(encoding="utf-8"))
    finally:
        with app.app_context():
            db.session.remove()
            clear_away(url)
            db.engine.dispose()


@pytest.fixture
def exported(exported_once: Document) -> Document:
    """This test's own copy of the exported history."""
    return copy.deepcopy(exported_once)


def refused(
    app: Flask,
    tmp_path: Path,
    content: bytes,
    nothing_imported: str = "Nothing was imported",
    options: tuple[str, ...] = (),
) -> str:
    """Import ``content`` into ``app`` (with the command's ``options``): it must fail with
    the command's own error (not an exception the runner caught) and leave the database as
    it was; answers the message."""
    path = tmp_path / "import.json"
    path.write_bytes(content)
    with app.app_context():
        before = snapshot()
    result = app.test_cli_runner().invoke(args=["import", *options, str(path)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    with app.app_context():
        assert snapshot() == before
    assert nothing_imported in result.output
    return result.output


def games_in(app: Flask) -> int:
    """How many games the database of ``app`` holds."""
    with app.app_context():
        count = db.session.scalar(sa.select(sa.func.count()).select_from(Game))
        db.session.rollback()
    return int(count or 0)


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
        (b'{"format": "sticheln-companion", "version": 3, "games": []}', "format version 3"),
        (b'{"format": "sticheln-companion", "version": true, "games": []}', "format version true;"),
        (
            b'{"format": "sticheln-companion", "version": 1.0, "games": []}',
            "reads versions 1 and 2",
        ),
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


def tamper_hat_trick_passes(data: Document) -> None:
    """30 passes in 14 tricks of 4, which allow 28 (C5, from R19); the counts add up."""
    round_ = data["games"][2]["rounds"][2]
    nothing = {"red": 0, "blue": 0, "green": 0}
    round_["entries"] = [{"counts": nothing, "passed": 10}] * 3 + [
        {"counts": {"red": 13, "blue": 13, "green": 0}, "passed": 0}
    ]
    round_["scores"] = [-20, -20, -20, 0]
    round_.pop("explanations", None)  # optional: the round would import without the check


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
        (tamper_hat_trick_passes, "allow at most 28 passes"),
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


@pytest.mark.parametrize(
    ("game", "round_", "field", "time"),
    [
        (1, None, "created_at", "9999-12-31T23:59:59-23:59"),  # in UTC: after the year 9999
        (1, None, "updated_at", "0001-01-01T00:00:00+23:59"),  # in UTC: before the year 1
        (0, 2, "created_at", "0001-01-01T12:00:00+12:01"),
        (0, 2, "updated_at", "9999-12-31T23:59:59.999999-00:01"),
        (3, None, "created_at", "9999-12-31T23:30:00Z"),  # in Rome: after the year 9999
        (3, 2, "updated_at", "0001-01-01T00:30:00"),  # UTC; in New York: before the year 1
    ],
)
def test_a_time_the_app_cannot_convert_or_show_is_refused_naming_the_game(
    exported: Document,
    second_app: Flask,
    tmp_path: Path,
    game: int,
    round_: int | None,
    field: str,
    time: str,
) -> None:
    data = copy.deepcopy(exported)
    written = data["games"][game]
    (written if round_ is None else written["rounds"][round_ - 1])[field] = time
    message = refused(second_app, tmp_path, json.dumps(data).encode())
    where = f"Game {game + 1} ({written['code']})" + (f", round {round_}" if round_ else "")
    assert f"{where}: The time “{time}” in {field} is out of range" in message
    assert games_in(second_app) == 0


@pytest.mark.parametrize("code", ["a", "k7", "sticheln", "sticheln9"])
def test_a_code_shorter_than_the_apps_codes_is_refused_and_nothing_is_imported(
    exported: Document, second_app: Flask, tmp_path: Path, code: str
) -> None:
    message = refused(second_app, tmp_path, changed(exported, lambda data: set_code(data, code)))
    assert f"Game 3 ({code}): The code is too short; a game's code has at least 10" in message
    assert games_in(second_app) == 0


def set_code(data: Document, code: str) -> None:
    data["games"][2]["code"] = code


def test_a_code_as_long_as_the_apps_codes_is_imported(
    exported: Document, second_app: Flask, tmp_path: Path
) -> None:
    path = tmp_path / "ten.json"
    path.write_bytes(changed(exported, lambda data: set_code(data, "sticheln10")))
    result = second_app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    assert "Imported sticheln10;" in result.output
    assert games_in(second_app) == len(exported["games"])


def test_the_import_refuses_in_the_language_of_the_server(
    exported: Document, second_app: Flask, tmp_path: Path
) -> None:
    second_app.config["BABEL_DEFAULT_LOCALE"] = "de"
    late = changed(exported, lambda data: data["games"][0].update(created_at="9999-12-31T23:59Z"))
    message = refused(second_app, tmp_path, late, "Nichts wurde importiert")
    assert "Die Zeitangabe „9999-12-31T23:59Z“ in created_at liegt außerhalb" in message
    short = changed(exported, lambda data: set_code(data, "a"))
    message = refused(second_app, tmp_path, short, "Nichts wurde importiert")
    assert "Game 3 (a): Der Code ist zu kurz; der Code eines Spiels hat mindestens 10" in message


def test_times_at_the_ends_of_the_range_are_imported_as_written(
    exported: Document, second_app: Flask, tmp_path: Path
) -> None:
    earliest, latest = "0002-01-01T00:00:00.000000Z", "9998-12-31T23:59:59.999999Z"
    path = tmp_path / "ends.json"
    path.write_bytes(
        changed(
            exported, lambda data: data["games"][1].update(created_at=earliest, updated_at=latest)
        )
    )
    result = second_app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    written = second_app.test_cli_runner().invoke(args=["export", str(tmp_path / "again.json")])
    assert written.exit_code == 0, written.output
    again = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
    [game] = [game for game in again["games"] if game["code"] == exported["games"][1]["code"]]
    assert (game["created_at"], game["updated_at"]) == (earliest, latest)
