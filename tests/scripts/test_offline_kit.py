"""Vendoring Pyodide for the offline kit (scripts/offline_kit.py) and the npm step of
``manage.py setup``: the pinned package, installed only when its lock changes, copied with
every byte checked against the committed sums, gzipped where that helps (issue 26)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

import manage
from scripts import offline_kit
from tests.needed_tools import require

ROOT = Path(__file__).resolve().parent.parent.parent


def fake_package(folder: Path, version: str = "1.2.3") -> dict[str, bytes]:
    """An npm package folder with the kit's five files: text that gzip shrinks, and for the
    standard library bytes it cannot (as a zip of compressed files)."""
    folder.mkdir(parents=True)
    contents = {name: f"// {name}\n".encode() * 400 for name in offline_kit.FILES}
    contents["python_stdlib.zip"] = os.urandom(4000)
    for name, data in contents.items():
        (folder / name).write_bytes(data)
    (folder / "package.json").write_text(json.dumps({"name": "pyodide", "version": version}))
    (folder / "README.md").write_text("not part of the kit\n")
    return contents


def write_sums(path: Path, contents: dict[str, bytes]) -> Path:
    lines = [f"{hashlib.sha256(data).hexdigest()}  {name}" for name, data in contents.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def write_lock(path: Path, version: str = "1.2.3") -> Path:
    packages = {"": {}, "node_modules/pyodide": {"version": version, "integrity": "sha512-x"}}
    path.write_text(json.dumps({"lockfileVersion": 3, "packages": packages}))
    return path


#: What the fake compiler adds to the standard library (the real one needs Pyodide).
COMPILED = b"compiled"


def fake_compiler(folder: Path) -> None:
    """Stands for scripts/compile_stdlib.mjs: the standard library, changed, in its place,
    compiled from the copy only once every copy checked out (the lock is copied after it)."""
    assert (folder / "pyodide-lock.json").exists()
    stdlib = folder / offline_kit.STDLIB
    stdlib.write_bytes(stdlib.read_bytes() + COMPILED)


@pytest.fixture
def kit(tmp_path: Path) -> dict[str, object]:
    contents = fake_package(tmp_path / "node_modules" / "pyodide")
    return {
        "source": tmp_path / "node_modules" / "pyodide",
        "target": tmp_path / "app" / "pyodide",
        "sums": write_sums(tmp_path / "offline-kit.sha256", contents),
        "lock": write_lock(tmp_path / "package-lock.json"),
        "compiler": fake_compiler,
    }


def test_the_five_files_are_copied_with_their_sizes_and_sums_in_the_manifest(
    kit: dict[str, Path],
) -> None:
    manifest = offline_kit.vendor(**kit)
    target = kit["target"]
    assert manifest["pyodide"] == "1.2.3"
    assert [entry["name"] for entry in manifest["files"]] == list(offline_kit.FILES)
    for entry in manifest["files"]:
        copied = (target / entry["name"]).read_bytes()
        source = (kit["source"] / entry["name"]).read_bytes()
        if entry["name"] == offline_kit.STDLIB:
            assert copied == source + COMPILED, "the standard library is served compiled"
            assert entry["compiled_from"] == hashlib.sha256(source).hexdigest()
        else:
            assert copied == source
        assert entry["size"] == len(copied)
        assert entry["sha256"] == hashlib.sha256(copied).hexdigest()
    assert json.loads((target / offline_kit.MANIFEST).read_text()) == manifest
    assert not (target / "README.md").exists(), "only what the worker needs is copied"


def test_a_gzip_variant_is_kept_only_where_it_shrinks_the_file(kit: dict[str, Path]) -> None:
    manifest = offline_kit.vendor(**kit)
    by_name = {entry["name"]: entry for entry in manifest["files"]}
    wasm = by_name["pyodide.asm.wasm"]
    packed = (kit["target"] / "pyodide.asm.wasm.gz").read_bytes()
    assert wasm["gzip"]["size"] == len(packed) < wasm["size"] * offline_kit.GZIP_WORTH
    assert "gzip" not in by_name["python_stdlib.zip"]
    assert not (kit["target"] / "python_stdlib.zip.gz").exists()


def test_a_file_that_is_not_the_reviewed_bytes_is_refused_and_the_old_kit_stays(
    kit: dict[str, Path],
) -> None:
    offline_kit.vendor(**kit)
    before = (kit["target"] / offline_kit.MANIFEST).read_text()
    (kit["source"] / "pyodide.asm.wasm").write_bytes(b"tampered")
    with pytest.raises(offline_kit.KitError, match=r"pyodide\.asm\.wasm: SHA-256"):
        offline_kit.vendor(**kit)
    assert (kit["target"] / offline_kit.MANIFEST).read_text() == before
    assert not kit["target"].with_name("pyodide.new").exists()


def test_a_package_of_another_version_than_the_lock_pins_is_refused(
    kit: dict[str, Path],
) -> None:
    write_lock(kit["lock"], "9.9.9")
    with pytest.raises(offline_kit.KitError, match="pins 9.9.9"):
        offline_kit.vendor(**kit)
    assert not kit["target"].exists()


def test_a_standard_library_that_is_not_the_reviewed_bytes_is_never_compiled(
    kit: dict[str, Path],
) -> None:
    compiled: list[Path] = []
    (kit["source"] / offline_kit.STDLIB).write_bytes(b"tampered")
    with pytest.raises(offline_kit.KitError, match=r"python_stdlib\.zip: SHA-256"):
        offline_kit.vendor(**{**kit, "compiler": compiled.append})
    assert compiled == [] and not kit["target"].exists()


def test_sums_that_leave_out_a_file_are_refused(kit: dict[str, Path]) -> None:
    lines = kit["sums"].read_text().splitlines()
    kit["sums"].write_text("\n".join(line for line in lines if "wasm" not in line))
    with pytest.raises(offline_kit.KitError, match="no sum for pyodide.asm.wasm"):
        offline_kit.vendor(**kit)


def test_the_vendored_kit_is_recognised_until_a_byte_or_the_pin_changes(
    kit: dict[str, Path],
) -> None:
    check = {key: kit[key] for key in ("target", "sums", "lock")}
    assert not offline_kit.vendored(**check)
    offline_kit.vendor(**kit)
    assert offline_kit.vendored(**check)
    wasm = kit["target"] / "pyodide.asm.wasm"
    wasm.write_bytes(wasm.read_bytes()[:-1] + b"!")
    assert not offline_kit.vendored(**check)
    offline_kit.vendor(**kit)
    (kit["target"] / "pyodide.mjs.gz").write_bytes(b"stale")
    assert not offline_kit.vendored(**check)
    offline_kit.vendor(**kit)
    write_lock(kit["lock"], "1.2.4")
    assert not offline_kit.vendored(**check)


def test_a_kit_vendored_before_the_standard_library_was_compiled_is_vendored_again(
    kit: dict[str, Path],
) -> None:
    """A kit.json without ``compiled_from`` (the source copy served as it came): setup
    vendors the compiled one in its place."""
    check = {key: kit[key] for key in ("target", "sums", "lock")}
    offline_kit.vendor(**{**kit, "compiler": lambda folder: None})
    manifest_path = kit["target"] / offline_kit.MANIFEST
    manifest = json.loads(manifest_path.read_text())
    for entry in manifest["files"]:
        entry.pop("compiled_from", None)
    manifest_path.write_text(json.dumps(manifest))
    assert not offline_kit.vendored(**check)


def test_a_kit_compiled_for_another_list_of_modules_is_vendored_again(
    kit: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module added to what the rules import (the pages' Jinja2 brought eight) makes the
    kit compiled without it out of date, so setup compiles it again."""
    check = {key: kit[key] for key in ("target", "sums", "lock")}
    offline_kit.vendor(**{**kit, "compiler": lambda folder: None})
    assert offline_kit.vendored(**check)
    monkeypatch.setattr(offline_kit, "RULES_STDLIB", (*offline_kit.RULES_STDLIB, "csv"))
    assert not offline_kit.vendored(**check)
    offline_kit.vendor(**{**kit, "compiler": lambda folder: None})
    assert offline_kit.vendored(**check)


def fake_checkout(root: Path) -> Path:
    """A checkout's rules, readers and worker files, as scripts/offline_kit.py finds them."""
    for name in (
        "companion/rules/scoring.py",
        "companion/play_state/parse.py",
        *offline_kit.RULES_DATA,
    ):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"# {name}\n")
    worker = root / offline_kit.WORKER_FOLDER.relative_to(offline_kit.ROOT)
    worker.mkdir(parents=True)
    (worker / "rules_worker.py").write_text("import json\n")
    (worker / "companion_package.py").write_text('"""bare"""\n')
    return root


def test_the_rules_bytecode_is_recognised_until_a_source_changes(tmp_path: Path) -> None:
    """``manage.py setup`` compiles the rules again (with Pyodide, under node) only when a
    source of the archive changed since their index was written."""
    root = fake_checkout(tmp_path / "checkout")
    target = tmp_path / "pyodide"
    sources = offline_kit.rules_sources(root)
    assert set(sources) == {
        "companion/__init__.py",
        "companion/rules/scoring.py",
        "companion/play_state/parse.py",
        *offline_kit.RULES_DATA,  # the pure checks of a new table
        "rules_worker.py",
    }
    assert not offline_kit.rules_compiled(target, root)
    (target / offline_kit.RULES_BYTECODE).mkdir(parents=True)
    index = offline_kit.rules_index(sources, "cpython-314")
    (target / offline_kit.RULES_BYTECODE / offline_kit.BYTECODE_INDEX).write_text(json.dumps(index))
    assert offline_kit.rules_compiled(target, root)
    (root / "companion/rules/scoring.py").write_text("# a rule changed\n")
    assert not offline_kit.rules_compiled(target, root)


# --------------------------------------------------------------------------------------------
# manage.py setup: npm ci only when package-lock.json changed


@pytest.fixture
def npm_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Point manage.py's npm step at a lock in ``tmp_path``; record the commands it runs
    instead of running them (each "npm ci" leaves a node_modules folder, as npm would)."""
    calls: list[list[str]] = []
    lock = write_lock(tmp_path / "package-lock.json")
    modules = tmp_path / "node_modules"
    monkeypatch.setattr(manage, "NPM_LOCK", lock)
    monkeypatch.setattr(manage, "NODE_MODULES", modules)
    monkeypatch.setattr(manage, "NPM_STAMP", modules / ".package-lock.sha256")
    monkeypatch.setattr(manage, "ensure_npm", lambda: True)

    def run_or_fail(_name: str, command: list[str]) -> None:
        modules.mkdir(exist_ok=True)
        calls.append(command)

    monkeypatch.setattr(manage, "run_or_fail", run_or_fail)
    return calls


def test_npm_ci_runs_once_and_again_only_when_the_lock_changes(
    npm_calls: list[list[str]],
) -> None:
    assert manage.install_node_packages()
    assert manage.install_node_packages()
    assert [command[:2] for command in npm_calls] == [["npm", "ci"]]
    assert "--ignore-scripts" in npm_calls[0]
    write_lock(manage.NPM_LOCK, "1.2.4")
    assert manage.install_node_packages()
    assert len(npm_calls) == 2


def test_setup_compiles_the_rules_once_the_kit_is_vendored_and_when_they_change(
    npm_calls: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    done: list[str] = []
    compiled = {"now": False}
    monkeypatch.setattr(offline_kit, "vendored", lambda: "vendor" in done)
    monkeypatch.setattr(offline_kit, "vendor", lambda: done.append("vendor"))
    monkeypatch.setattr(offline_kit, "rules_compiled", lambda: compiled["now"])
    monkeypatch.setattr(offline_kit, "compile_rules", lambda: done.append("compile rules"))
    manage.vendor_offline_kit()
    assert done == ["vendor", "compile rules"]
    compiled["now"] = True
    manage.vendor_offline_kit()
    assert done == ["vendor", "compile rules"], "nothing changed: nothing done"
    compiled["now"] = False  # a rule changed since
    manage.vendor_offline_kit()
    assert done == ["vendor", "compile rules", "compile rules"]


def test_without_npm_outside_ci_the_kit_is_left_out_and_setup_goes_on(
    npm_calls: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(manage, "ensure_npm", lambda: False)
    vendored: list[bool] = []
    monkeypatch.setattr(offline_kit, "vendor", lambda: vendored.append(True))
    manage.vendor_offline_kit()
    assert npm_calls == [] and vendored == []


# --------------------------------------------------------------------------------------------
# The project's own pins


def test_package_json_pins_the_exact_version_the_lock_holds_with_its_integrity() -> None:
    wanted = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    assert wanted == offline_kit.locked_version(ROOT / "package-lock.json"), "an exact pin"
    assert lock["node_modules/pyodide"]["integrity"].startswith("sha512-")
    assert set(offline_kit.read_sums(ROOT / "offline-kit.sha256")) == set(offline_kit.FILES)


def vendored_kit() -> Path:
    """The app's vendored kit, with node to run it (a test skips, or fails in CI, without)."""
    if not (offline_kit.TARGET / offline_kit.MANIFEST).exists():
        require("the offline kit was not vendored here (no npm): run python3 manage.py setup")
    require(None if shutil.which("node") else "node is missing (it comes with npm)")
    return offline_kit.TARGET


#: Run under node with the vendored Pyodide: its start and the rules' standard library
#: imports, then what each module of the standard library zip was loaded from, and the magic
#: number of this CPython's bytecode.
LOADED_FROM = """
import { pathToFileURL } from "node:url";
const [folder, ...modules] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(folder + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: folder + "/", packages: [] });
pyodide.globals.set("MODULES", pyodide.toPy(modules));
console.log(pyodide.runPython(`
import importlib, importlib.util, json, sys
for name in MODULES:
    importlib.import_module(name)
zipped = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip/"
json.dumps({
    "magic": importlib.util.MAGIC_NUMBER.hex(),
    "files": sorted(m.__spec__.origin[len(zipped):] for m in list(sys.modules.values())
                    if (getattr(m.__spec__, "origin", None) or "").startswith(zipped)),
})
`));
"""


def test_the_standard_library_a_start_imports_is_served_compiled_for_pyodide_s_python() -> None:
    """Every module of the standard library zip that Pyodide's start, the rules and the
    unpacking of their archive import is loaded from bytecode that the phone's CPython
    accepts (its exact magic number), none compiled from source on the phone; the rest stay
    sources, and the zip holds both kinds only as Pyodide's zipimport reads them."""
    folder = vendored_kit()
    imported = [*offline_kit.RULES_STDLIB, *offline_kit.UNPACK_STDLIB]
    run = subprocess.run(
        ["node", "--input-type=module", "-e", LOADED_FROM, str(folder), *imported],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    loaded = json.loads(run.stdout.splitlines()[-1])
    assert len(loaded["files"]) > 100, "Pyodide's start and the rules import many modules"
    assert [name for name in loaded["files"] if not name.endswith(".pyc")] == []
    with zipfile.ZipFile(folder / offline_kit.STDLIB) as stdlib:
        names = set(stdlib.namelist())
        compiled = {name for name in names if name.endswith(".pyc")}
        assert compiled == set(loaded["files"]), "what a start imports, no more"
        for name in compiled:
            assert stdlib.read(name)[:4].hex() == loaded["magic"], name
            assert name[:-1] not in names, f"{name[:-1]}: its source is left out"
    assert any(name.endswith(".py") for name in names), "modules a start does not import"


def test_the_compiled_standard_library_is_the_same_bytes_on_every_build(tmp_path: Path) -> None:
    """Servers of one release vendor the kit each for itself: the compiled zip, hence the
    kit's fingerprint, must not depend on the machine or the run."""
    folder = vendored_kit()
    for name in offline_kit.FILES:
        shutil.copyfile(folder / name, tmp_path / name)
    reviewed = offline_kit.read_sums(ROOT / "offline-kit.sha256")[offline_kit.STDLIB]
    shutil.copyfile(offline_kit.SOURCE / offline_kit.STDLIB, tmp_path / offline_kit.STDLIB)
    assert offline_kit.sha256_of(tmp_path / offline_kit.STDLIB) == reviewed
    offline_kit.compile_stdlib(tmp_path)
    served = offline_kit.sha256_of(folder / offline_kit.STDLIB)
    assert offline_kit.sha256_of(tmp_path / offline_kit.STDLIB) == served


def test_setup_has_vendored_the_pinned_kit() -> None:
    """After ``manage.py setup`` the app holds the pinned kit, byte for byte; outside CI a
    machine without npm may lack it (setup said so), in CI never."""
    if not (offline_kit.TARGET / offline_kit.MANIFEST).exists():
        require("the offline kit was not vendored here (no npm): run python3 manage.py setup")
    assert offline_kit.vendored()
