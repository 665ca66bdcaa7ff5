"""The rules archive the offline kit ships (companion/web/offline/kit.py): the installed rules
and their pure JSON readers, byte for byte, and the worker's Python side; unpacked alone, with
nothing but Python's standard library (as under Pyodide), it answers exactly as the API does.
The browser test (tests/browser/test_rules_worker.py) runs the same archive under Pyodide."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

import companion.formats
import companion.rules
from companion.formats.offline_game import offline_state
from companion.formats.round_fields import DELAYED, FULL, HAT_FULL, HAT_QUICK, QUICK
from companion.web.offline import kit
from tests.offline.requests import random_calls
from tests.offline.test_round_fields import legal_fields, page_form, page_reads, setup_for
from tests.offline.worker_run import archive, ask_worker
from tests.table import Table


def run_worker(unpacked: Path, calls: list[tuple[str, Any]]) -> list[Any]:
    """The unpacked worker's answers to ``calls`` (path, body), in the API's English."""
    return ask_worker(unpacked, [(path, body, None) for path, body in calls])


def test_the_archive_holds_the_installed_rules_and_readers_byte_for_byte() -> None:
    members = {info.filename: archive().read(info) for info in archive().infolist()}
    rules = Path(companion.rules.__file__).parent
    formats = Path(companion.formats.__file__).parent
    expected = {f"companion/rules/{path.name}": path for path in rules.glob("*.py")}
    shipped = (
        "parse",
        "entries",
        "rules_answers",
        "offline_game",
        "round_fields",
        "trick_taps",
        "live_words",
        "live_over",
        "live_page",
        "live_taps",
    )
    for name in ("__init__", *shipped):
        expected[f"companion/formats/{name}.py"] = formats / f"{name}.py"
    assert expected["companion/rules/scoring.py"].exists()
    for name, path in expected.items():
        assert members[name] == path.read_bytes(), name
    extra = set(members) - set(expected)
    catalogs = {name for name in extra if name.startswith(f"{kit.CATALOGS}/")}
    assert extra - catalogs == {"companion/__init__.py", "rules_worker.py"}
    assert catalogs, "the compiled catalogs (tests/offline/test_worker_words.py)"
    assert b"import" not in members["companion/__init__.py"], "no app, no Flask on the phone"


def test_the_archive_is_the_same_bytes_every_time() -> None:
    first = kit.rules_archive(kit.archive_members())
    assert kit.rules_archive(kit.archive_members()) == first
    assert all(info.date_time == kit.ZIP_DATE for info in archive().infolist())


def test_unpacked_alone_it_answers_as_the_api_does(tmp_path: Path, client: FlaskClient) -> None:
    archive().extractall(tmp_path)
    calls = random_calls(seed=26, rounds=60, broken_share=0.2)
    answers = run_worker(tmp_path, [(call.path, call.body) for call in calls])
    assert len(answers) == len(calls)
    statuses = set()
    for call, answer in zip(calls, answers, strict=True):
        server = client.post(f"/api/v1/{call.path}", json=call.body)
        assert answer == {"status": server.status_code, "body": server.get_json()}, call
        statuses.add(server.status_code)
    assert statuses == {200, 400, 422}, "legal rounds, malformed and rule-breaking ones"


def test_a_request_that_is_no_json_or_no_call_is_refused_in_the_api_s_words(
    tmp_path: Path,
) -> None:
    archive().extractall(tmp_path)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import rules_worker\n"
        "print(rules_worker.answer('rounds/score', '{'))\n"
        "print(rules_worker.answer('games', '{}'))\n"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    not_json, unknown = (json.loads(line) for line in run.stdout.splitlines())
    assert not_json == {"status": 400, "body": {"error": "The request body is not valid JSON."}}
    assert unknown["status"] == 404 and "rounds/score" in unknown["body"]["error"]


def test_unpacked_alone_it_shows_a_game_offline_as_the_server_computes_it(
    tmp_path: Path, table: Table
) -> None:
    """The ``games/offline`` call, run as on the phone, equals ``offline_state`` here (which
    tests/offline/test_offline_game.py holds to the server's own answers)."""
    archive().extractall(tmp_path)
    game = table.new_game(["Ann", "Ben", "Cleo", "Dan"], "classic", rounds=2)
    state = table.state(game)
    entry = {"marked": [{"colour": "red", "value": 1}], "tricks": 15, "marked_captured": []}
    queued = [{"action": "record", "body": {"version": 0, "entries": [entry] * 4}}]
    rng = random.Random(27)
    calls = [call for call in random_calls(seed=27, rounds=8) if call.path == "rounds/score"]
    queued += [
        {"action": "record", "body": {"version": 0, "entries": call.body["entries"]}}
        for call in rng.sample(calls, 3)
    ]
    (answer,) = run_worker(tmp_path, [("games/offline", {"state": state, "queued": queued})])
    assert answer == {"status": 200, "body": offline_state(state, queued)}
    assert answer["body"]["refused"], "some of the queued rounds do not fit this table"


def test_unpacked_alone_it_reads_a_round_form_as_the_page_does(tmp_path: Path, app: Flask) -> None:
    """The ``rounds/fields`` call, run as on the phone: a round form's fields, as the page
    posts them, give the entries the page reads, with the count the others imply filled in and
    reported (C3, C5); a field the page refuses is refused with the API's status, naming the
    seat."""
    archive().extractall(tmp_path)
    rng = random.Random(28)
    cases = []
    for kind in (QUICK, FULL, DELAYED, HAT_QUICK, HAT_FULL):
        shown, setup = setup_for(kind, rng)
        fields = legal_fields(kind, setup, rng)
        fields["csrf_token"], fields["s0-captured-tab"] = ["a-token"], ["red"]  # not a seat's
        cases.append((kind, shown, setup, fields))
    kind, shown, setup, quick = cases[0]
    left_out = {name: values for name, values in quick.items() if name != "s1-tricks"}
    garbled = {**quick, "s2-tricks": ["lots"]}
    cases += [(kind, shown, setup, left_out), (kind, shown, setup, garbled)]
    calls = [
        {"kind": kind, "variant": shown, "players": setup.players, "fields": fields}
        for kind, shown, setup, fields in cases
    ]
    answers = run_worker(tmp_path, [("rounds/fields", call) for call in calls])
    for (kind, _shown, setup, fields), answer in zip(cases[:-1], answers, strict=False):
        form = page_form(app, kind, setup, fields)
        assert page_reads(form) and answer["status"] == 200
        assert answer["body"]["entries"] == [entry.as_json() for entry in form.entries()]
        assert (answer["body"]["implied"] is None) == (form.implied is None)
    tricks = int(quick["s1-tricks"][0])
    implied = {"seat": 1, "field": "tricks", "value": tricks, "zero_passes": []}
    assert answers[-2]["body"]["implied"] == implied
    refused = 'Seat 3, tricks won: "lots" is not a whole number.'
    assert answers[-1] == {"status": 400, "body": {"error": refused}}
    assert page_form(app, QUICK, cases[-1][2], garbled).seats[2]["tricks"].errors
