"""The rules archive the offline kit ships (companion/web/offline/kit.py): the installed rules
and the pure play state and page models beside them, byte for byte, and the worker's Python
side; unpacked alone, with nothing but Python's standard library (as under Pyodide), it
answers exactly as the API does.
The browser test (tests/browser/test_rules_worker.py) runs the same archive under Pyodide."""

from __future__ import annotations

import ast
import hashlib
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jinja2
import markupsafe
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import ModuleLoader

import companion.data
import companion.pages
import companion.play_state
import companion.rules
from companion import resources
from companion.pages.render import compiled_templates
from companion.play_state.offline_game import offline_state
from companion.play_state.round_fields import DELAYED, FULL, HAT_FULL, HAT_QUICK, QUICK
from companion.web.offline import kit
from scripts import offline_kit
from tests.needed_tools import require
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
    play_state = Path(companion.play_state.__file__).parent
    expected = {f"companion/rules/{path.name}": path for path in rules.glob("*.py")}
    shipped = (
        "parse",
        "entries",
        "rules_answers",
        "offline_game",
        "round_fields",
        "trick_taps",
        "live_taps",
        "new_game",
    )
    for name in ("__init__", *shipped):
        expected[f"companion/play_state/{name}.py"] = play_state / f"{name}.py"
    data = Path(companion.data.__file__).parent
    for name in ("__init__", "names", "seating"):  # a new table's checks
        expected[f"companion/data/{name}.py"] = data / f"{name}.py"
    assert expected["companion/rules/scoring.py"].exists()
    # The export and import formats stay on the server.
    assert not [name for name in members if name.startswith("companion/formats/")]
    for name, path in expected.items():
        assert members[name] == path.read_bytes(), name
    pages = Path(companion.pages.__file__).parent
    for name in (
        "__init__",
        "scoreboard",
        "charts",
        "render",
        "resolver",
        "round_scores",
        "trick",
        "live",
        "record",
        "clash",
    ):
        expected[f"companion/pages/{name}.py"] = pages / f"{name}.py"
    for package in (jinja2, markupsafe):  # what renders the pages, as installed
        folder = Path(str(package.__file__)).parent
        expected.update({f"{folder.name}/{path.name}": path for path in folder.glob("*.py")})
    templates = resources.folder("templates")
    shipped_templates = kit.SHIPPED_TEMPLATES
    for name in (
        "games/scoreboard_board.html",
        "tools/resolver_trick.html",
        "games/round_scores_list.html",
        "games/live_round.html",
        "games/round_record_page.html",
        "games/round_mark_page.html",
        "games/round_stopped.html",
        "games/round_clash_view.html",
    ):
        assert name in shipped_templates
    for name, path in expected.items():
        assert members[name] == path.read_bytes(), name
    # The templates go compiled to Python modules (Jinja's ModuleLoader names), from the
    # installed templates; their sources stay on the server.
    compiled = {
        f"templates/{module}": code.encode()
        for module, code in compiled_templates(templates, shipped_templates).items()
    }
    assert len(compiled) == len(shipped_templates)
    assert {name: members[name] for name in compiled} == compiled
    for name in shipped_templates:
        assert f"templates/{name}" not in members
        assert (
            f"name = {name!r}"
            in compiled[f"templates/{ModuleLoader.get_module_filename(name)}"].decode()
        )
    expected.update({name: Path(name) for name in compiled})
    extra = set(members) - set(expected)
    catalogs = {name for name in extra if name.startswith(f"{kit.CATALOGS}/")}
    assert extra - catalogs == {"companion/__init__.py", "rules_worker.py", "routes.json"}
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


def imported_modules(source: bytes) -> set[str]:
    """The absolute module names a module's source imports (``from x import y``: x)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_standard_library_the_archive_imports_is_compiled_into_the_kit() -> None:
    """scripts/offline_kit.py compiles the standard library modules named in ``RULES_STDLIB``
    (with what they import) at kit-build time, so that no start on the phone compiles them:
    every one the shipped modules import is named there."""
    members = {info.filename: archive().read(info) for info in archive().infolist()}
    # Jinja2's and MarkupSafe's own imports are partly optional: what they load as they run
    # is named in RULES_STDLIB.
    ours = ("companion", "rules_worker", "jinja2", "markupsafe")
    imported = set()
    for name, source in members.items():
        if name.endswith(".py") and name.split("/")[0] not in ("jinja2", "markupsafe"):
            imported |= {m for m in imported_modules(source) if m.split(".")[0] not in ours}
    assert {"json", "gettext", "dataclasses"} <= imported
    assert imported <= set(offline_kit.RULES_STDLIB), "add it to RULES_STDLIB"


#: Run under node with the vendored Pyodide: the served rules archive unpacked where the
#: worker unpacks it, ``rules_worker`` imported as the worker imports it; which of its modules
#: CPython compiled from source there, and which it loaded.
IMPORT_UNDER_PYODIDE = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [folder, rules] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(folder + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: folder + "/", packages: [] });
const place = "/home/pyodide/offline-rules";
pyodide.unpackArchive(new Uint8Array(readFileSync(rules)), "zip", { extractDir: place });
pyodide.globals.set("PLACE", place);
console.log(pyodide.runPython(`
import importlib._bootstrap_external as external, json, sys
compiled = []
to_code = external.SourceLoader.source_to_code
def recorded(self, data, path, **options):
    compiled.append(path)
    return to_code(self, data, path, **options)
external.SourceLoader.source_to_code = recorded
sys.path.insert(0, PLACE)
import rules_worker
compiled_at_start = list(compiled)
json.dumps({
    "compiled": [path for path in compiled if path.startswith(PLACE)],
    "loaded": sorted(name for name, module in list(sys.modules.items())
                     if (getattr(module, "__file__", None) or "").startswith(PLACE)),
    "answer": json.loads(rules_worker.answer("rounds/score", "{")),
    "page": json.loads(rules_worker.answer("pages/resolver", json.dumps(
        {"rule": "classic", "players": 4, "trick": "red-7", "tap": {"add": "blue-9"}}
    ), "hu")),
    "compiled_for_page": [path for path in compiled[len(compiled_at_start):]],
})
`));
"""


def test_pyodide_imports_the_served_rules_without_compiling_them(tmp_path: Path) -> None:
    """The served archive carries bytecode for Pyodide's CPython (compiled at kit-build time,
    scripts/offline_kit.py) for every module the worker imports: the phone compiles none of
    them at a start, and answers as before."""
    folder = kit.PYODIDE_FOLDER
    if not (folder / kit.KIT_MANIFEST).exists():
        require("the offline kit was not vendored here (no npm): run python3 manage.py setup")
    require(None if shutil.which("node") else "node is missing (it comes with npm)")
    served = kit.build_kit(folder, {"rulebook.rules": "/rules"})
    (rules,) = (file for file in served.files.values() if file.name == kit.RULES_ARCHIVE)
    assert rules.plain.data is not None
    (tmp_path / "rules.zip").write_bytes(rules.plain.data)
    run = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            IMPORT_UNDER_PYODIDE,
            str(folder),
            str(tmp_path / "rules.zip"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    imported = json.loads(run.stdout.splitlines()[-1])
    assert "rules_worker" in imported["loaded"] and "companion.rules.scoring" in imported["loaded"]
    assert imported["compiled"] == [], "compiled on the phone at each start"
    # A page's first render imports its templates' modules, compiled at kit-build time.
    assert imported["page"]["status"] == 200, imported["page"]
    assert imported["page"]["body"]["trick"] == "red-7 blue-9"
    assert imported["compiled_for_page"] == [], "templates compiled on the phone"
    assert imported["answer"] == {
        "status": 400,
        "body": {"error": "The request body is not valid JSON."},
    }


def test_bytecode_of_a_source_changed_since_it_was_compiled_is_left_out(tmp_path: Path) -> None:
    """The server ships a module's bytecode only beside the very source it was compiled from
    (a rule edited after the kit was built is compiled on the phone, never run stale)."""
    members = {"companion/rules/a.py": b"A = 1\n", "companion/rules/b.py": b"B = 2\n"}
    bytecode = tmp_path / kit.RULES_BYTECODE
    (bytecode / "companion" / "rules").mkdir(parents=True)
    modules = {}
    for name in members:
        (bytecode / f"{name}c").write_bytes(b"bytecode of " + name.encode())
        modules[name] = {"source_sha256": hashlib.sha256(b"A = 1\n").hexdigest(), "pyc": f"{name}c"}
    index = {"cache_tag": "cpython-314", "modules": modules}
    (bytecode / kit.BYTECODE_INDEX).write_text(json.dumps(index))
    assert kit.bytecode_members(tmp_path, members) == {
        "companion/rules/__pycache__/a.cpython-314.pyc": b"bytecode of companion/rules/a.py"
    }
    assert kit.bytecode_members(tmp_path / "elsewhere", members) == {}
