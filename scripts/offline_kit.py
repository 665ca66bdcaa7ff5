"""Vendor Pyodide for the offline kit: copy the files the rules worker needs out of the npm
package into the app, check every byte, compile the standard library a start imports, gzip
those that shrink, write the kit's manifest.

``python3 manage.py setup`` runs ``npm ci`` (package.json pins ``pyodide``; package-lock.json
holds the tarball's integrity hash, which npm checks) and then :func:`vendor`. The copies are
checked against ``offline-kit.sha256`` (committed, ``sha256sum`` format): the bytes served are
the bytes reviewed, whatever npm or the copy did. ``kit.json`` beside them records each file's
size and SHA-256 (and its gzip variant's), which is all the app reads to serve them
(companion/web/offline): it never hashes 13 MB at run time, and never fetches anything.

The standard library is served compiled: once its copy checked out, the vendored Pyodide
itself, under node, compiles the modules a rules worker's start imports
(scripts/compile_stdlib.mjs), the same bytes for the same sources; ``kit.json`` keeps the sum
of the reviewed copy it was compiled from (``compiled_from``) beside the sum of what is served.

After upgrading ``pyodide`` in package.json on purpose, ``python3 scripts/offline_kit.py
--sums`` prints the new sums for ``offline-kit.sha256`` (read them before committing them).

Standard library only: ``manage.py`` imports it before the virtual environment exists.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Where ``npm ci`` puts the package.
SOURCE = ROOT / "node_modules" / "pyodide"
#: The committed sums of the files as they must be served.
EXPECTED_SUMS = ROOT / "offline-kit.sha256"
#: Where the app looks for the vendored files (git-ignored; see companion/web/offline/kit.py).
TARGET = ROOT / "companion" / "web" / "offline" / "pyodide"
LOCK = ROOT / "package-lock.json"
MANIFEST = "kit.json"
#: What the worker loads: Pyodide's loader, its runtime (JavaScript and WebAssembly), the
#: standard library and the package lock it reads at start (it loads no package from it).
FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: A gzip variant is kept only when it is at most this share of the file: the standard
#: library is a zip of compressed files already, and gzip saves it 2 %.
GZIP_WORTH = 0.9
GZIP_SUFFIX = ".gz"
CHUNK = 1 << 20
#: The standard library, as served: compiled (scripts/compile_stdlib.mjs) from the reviewed
#: copy, whose sum its manifest entry keeps as ``compiled_from``.
STDLIB = "python_stdlib.zip"
COMPILER = ROOT / "scripts" / "compile_stdlib.mjs"
#: The standard library modules the rules archive imports (companion/web/offline/kit.py
#: ships it; tests/offline/test_rules_archive.py holds this list to its imports): compiled
#: at kit-build time with all they import, beside what Pyodide's own start imports.
RULES_STDLIB = (
    "__future__",
    "abc",
    "collections.abc",
    "copy",
    "dataclasses",
    "enum",
    "functools",
    "gettext",
    "itertools",
    "json",
    "math",
    "pathlib",
    "random",
    "re",
    "typing",
    "unicodedata",
    # What Jinja2 and MarkupSafe, which render the pages the worker draws, load as they run.
    "hashlib",
    "importlib.util",
    "numbers",
    "pickle",
    "pprint",
    "string",
    "tempfile",
    "threading",
    "urllib.parse",
)
#: What the worker's unpacking of the rules archive imports besides (``unpackArchive`` runs
#: ``shutil.unpack_archive``; zip names are read as code page 437).
UNPACK_STDLIB = ("shutil", "zipfile", "encodings.cp437")
#: Compiling the standard library runs Pyodide under node: seconds, or a minute when busy.
COMPILE_TIMEOUT_S = 600
#: The rules' bytecode for Pyodide's CPython, beside the vendored files (in ``TARGET``): the
#: server ships a module's with its source while the source is the bytes it was compiled from
#: (companion/web/offline/kit.py reads the index).
RULES_COMPILER = ROOT / "scripts" / "compile_rules.mjs"
RULES_BYTECODE = "rules-bytecode"
BYTECODE_INDEX = "index.json"
#: The rules archive's packages, shipped whole, by their path inside it (kit.py ships these:
#: the rules, the play state and the page models).
RULES_FOLDERS = ("companion/rules", "companion/play_state", "companion/pages")
#: And the pure modules of companion/data it ships (a new table's checks, kit.py).
RULES_DATA = ("companion/data/__init__.py", "companion/data/names.py", "companion/data/seating.py")
#: The worker's Python side and the bare ``companion`` package it ships (kit.py).
WORKER_FOLDER = ROOT / "companion" / "web" / "offline" / "worker"
#: The pure-Python packages that render the worker's pages, as ``manage.py setup`` installed
#: them in the virtual environment (kit.py ships them from the installed packages).
TEMPLATE_PACKAGES = ("jinja2", "markupsafe")
VENV_PACKAGES = ".venv/lib/python*/site-packages"
#: The templates the worker renders, compiled to Python modules by the installed app as the
#: server compiles them into the archive (companion/web/offline/kit.py, ``template_members``),
#: so that their bytecode is built with the rules'; written in ``TARGET`` beside it.
VENV_PYTHON = ".venv/bin/python"
COMPILED_TEMPLATES = "rules-templates"
WRITE_TEMPLATES = """
import sys
from pathlib import Path
from companion.web.offline import kit
folder = Path(sys.argv[1])
folder.mkdir(parents=True)
for name, data in kit.template_members().items():
    if name.startswith(kit.TEMPLATES + "/"):
        (folder / name.removeprefix(kit.TEMPLATES + "/")).write_bytes(data)
"""


class KitError(Exception):
    """The kit cannot be vendored as it stands; the message says which file and why."""


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file, hex."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def read_sums(path: Path) -> dict[str, str]:
    """``sha256sum`` lines (``<hex>  <name>``) as a name -> hex mapping."""
    sums = {}
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split(maxsplit=1)
        if len(parts) != 2 or len(parts[0]) != 64:
            raise KitError(f"{path.name}, line {number}: expected '<sha256>  <file name>'")
        sums[parts[1].lstrip("*").strip()] = parts[0].lower()
    missing = [name for name in FILES if name not in sums]
    if missing:
        raise KitError(f"{path.name} has no sum for {', '.join(missing)}")
    return sums


def locked_version(lock: Path) -> str:
    """The version of ``pyodide`` that package-lock.json pins."""
    packages = json.loads(lock.read_text())["packages"]
    return str(packages["node_modules/pyodide"]["version"])


def installed_version(source: Path) -> str:
    """The version of the npm package in ``source``."""
    return str(json.loads((source / "package.json").read_text())["version"])


def gzip_variant(path: Path) -> Path | None:
    """Write ``<path>.gz`` (level 9, no timestamp: the same input gives the same bytes) if it
    is worth it; answer it, or None (and no file) if the file does not shrink enough."""
    packed = gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)
    if len(packed) > GZIP_WORTH * path.stat().st_size:
        return None
    target = path.with_name(path.name + GZIP_SUFFIX)
    target.write_bytes(packed)
    return target


def compile_stdlib(folder: Path) -> None:
    """Replace ``folder``'s checked python_stdlib.zip by the same with the modules a rules
    worker's start imports compiled by the Pyodide in ``folder`` itself (its CPython's exact
    version and magic number): a start on the phone then unmarshals them instead of compiling
    some 140 modules in WebAssembly, most of what it took."""
    stdlib = folder / STDLIB
    building = stdlib.with_name(STDLIB + ".compiled")
    modules = compiled_modules()
    command = ["node", str(COMPILER), str(folder), str(building), *modules]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise KitError(f"compiling the standard library with Pyodide failed: {error}") from None
    if run.returncode != 0 or not building.is_file():
        raise KitError(f"compiling the standard library with Pyodide failed:\n{run.stderr}")
    building.replace(stdlib)


def compiled_modules() -> list[str]:
    """The standard library modules a kit compiles (with what they import): a kit compiled
    for another list is out of date, so a change of the list rebuilds it."""
    return [*RULES_STDLIB, *UNPACK_STDLIB]


def check_sum(path: Path, expected: str) -> str:
    """The file's SHA-256, if it is ``expected``; else KitError."""
    found = sha256_of(path)
    if found != expected:
        raise KitError(
            f"{path.name}: SHA-256 {found}, but {EXPECTED_SUMS.name} says {expected}. "
            "The copy or the package is not what was reviewed; if pyodide was upgraded on "
            "purpose, write the new sums (python3 scripts/offline_kit.py --sums)."
        )
    return found


def file_entry(path: Path, expected: str) -> dict[str, object]:
    """The manifest's entry for one copied file, after checking its sum."""
    found = check_sum(path, expected)
    entry: dict[str, object] = {"name": path.name, "size": path.stat().st_size, "sha256": found}
    packed = gzip_variant(path)
    if packed is not None:
        entry["gzip"] = {"size": packed.stat().st_size, "sha256": sha256_of(packed)}
    return entry


def vendor(
    source: Path = SOURCE,
    target: Path = TARGET,
    sums: Path = EXPECTED_SUMS,
    lock: Path = LOCK,
    compiler: Callable[[Path], None] = compile_stdlib,
) -> dict[str, object]:
    """Copy, check and gzip the kit's files from ``source`` into ``target`` (replaced whole,
    only once every file checked out), the standard library compiled by ``compiler`` once
    checked; write its manifest, and answer that manifest."""
    expected = read_sums(sums)
    version = locked_version(lock)
    if not source.is_dir():
        raise KitError(f"{source} is missing: npm ci did not install pyodide")
    if installed_version(source) != version:
        raise KitError(
            f"{source} holds pyodide {installed_version(source)}, but package-lock.json "
            f"pins {version}: run npm ci"
        )
    building = target.with_name(target.name + ".new")
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir(parents=True)
    try:
        entries = []
        for name in FILES:
            shutil.copyfile(source / name, building / name)
            if name != STDLIB:
                entries.append(file_entry(building / name, expected[name]))
        # Compiled by the copies once they all checked out, then recorded in its place.
        reviewed = check_sum(building / STDLIB, expected[STDLIB])
        compiler(building)
        entry = file_entry(building / STDLIB, sha256_of(building / STDLIB))
        entry["compiled_from"] = reviewed
        entry["compiled_modules"] = compiled_modules()
        entries.insert(FILES.index(STDLIB), entry)
        manifest: dict[str, object] = {"pyodide": version, "files": entries}
        (building / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    shutil.rmtree(target, ignore_errors=True)
    building.rename(target)
    return manifest


def vendored(target: Path = TARGET, sums: Path = EXPECTED_SUMS, lock: Path = LOCK) -> bool:
    """Whether ``target`` holds the kit of the pinned version, every file (and gzip variant)
    with the bytes its manifest and ``offline-kit.sha256`` name."""
    try:
        manifest = json.loads((target / MANIFEST).read_text())
        expected = read_sums(sums)
        if manifest["pyodide"] != locked_version(lock):
            return False
        names = [entry["name"] for entry in manifest["files"]]
        if names != list(FILES):
            return False
        for entry in manifest["files"]:
            path = target / entry["name"]
            reviewed = entry.get("compiled_from") if entry["name"] == STDLIB else entry["sha256"]
            if sha256_of(path) != entry["sha256"] or reviewed != expected[entry["name"]]:
                return False
            if entry["name"] == STDLIB and entry.get("compiled_modules") != compiled_modules():
                return False
            if "gzip" in entry:
                packed = path.with_name(path.name + GZIP_SUFFIX)
                if sha256_of(packed) != entry["gzip"]["sha256"]:
                    return False
    except (OSError, ValueError, KeyError, TypeError, KitError):
        return False
    return True


def rules_sources(root: Path = ROOT, target: Path | None = None) -> dict[str, Path]:
    """The Python files of the rules archive, by their path inside it; with ``target``, the
    worker's templates compiled to modules there too (:func:`template_sources`)."""
    sources = {
        path.relative_to(root).as_posix(): path
        for folder in RULES_FOLDERS
        for path in sorted((root / folder).glob("*.py"))
    }
    sources.update({name: root / name for name in RULES_DATA})
    worker = root / WORKER_FOLDER.relative_to(ROOT)
    sources["companion/__init__.py"] = worker / "companion_package.py"  # the bare package
    sources["rules_worker.py"] = worker / "rules_worker.py"
    for package in TEMPLATE_PACKAGES:
        for folder in sorted(root.glob(f"{VENV_PACKAGES}/{package}"))[:1]:
            sources.update({f"{package}/{path.name}": path for path in sorted(folder.glob("*.py"))})
    if target is not None:
        sources.update(template_sources(root, target))
    return sources


def template_sources(root: Path, target: Path) -> dict[str, Path]:
    """The templates the worker renders, compiled to Python modules by the app installed in
    ``root``'s virtual environment into ``target``, by their path inside the rules archive;
    none without that environment (the phone then compiles their modules' source)."""
    python = root / VENV_PYTHON
    if not python.exists():
        return {}
    folder = target / COMPILED_TEMPLATES
    shutil.rmtree(folder, ignore_errors=True)
    command = [str(python), "-c", WRITE_TEMPLATES, str(folder)]
    try:
        run = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise KitError(f"compiling the worker's templates failed: {error}") from None
    if run.returncode != 0:
        raise KitError(f"compiling the worker's templates failed:\n{run.stderr}")
    return {f"templates/{path.name}": path for path in sorted(folder.glob("*.py"))}


def rules_index(sources: dict[str, Path], cache_tag: str) -> dict[str, object]:
    """The index of the rules' bytecode: each module's source SHA-256 and bytecode file."""
    modules = {
        name: {"source_sha256": sha256_of(path), "pyc": name + "c"}
        for name, path in sorted(sources.items())
    }
    return {"cache_tag": cache_tag, "modules": modules}


def rules_compiled(target: Path = TARGET, root: Path = ROOT) -> bool:
    """Whether ``target`` holds the bytecode of the rules' sources as they are now."""
    try:
        index: dict[str, object] = json.loads(
            (target / RULES_BYTECODE / BYTECODE_INDEX).read_text()
        )
        return index == rules_index(rules_sources(root, target), str(index["cache_tag"]))
    except (OSError, ValueError, KeyError, TypeError, KitError):
        return False


def compile_rules(target: Path = TARGET, root: Path = ROOT) -> dict[str, object]:
    """Compile the rules archive's modules with the Pyodide vendored in ``target`` into
    ``target/rules-bytecode`` (replaced whole), with its index; answer the index."""
    sources = rules_sources(root, target)
    folder = target / RULES_BYTECODE
    building = folder.with_name(RULES_BYTECODE + ".new")
    shutil.rmtree(building, ignore_errors=True)
    pairs = [f"{name}={path}" for name, path in sources.items()]
    command = ["node", str(RULES_COMPILER), str(target), str(building), *pairs]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise KitError(f"compiling the rules with Pyodide failed: {error}") from None
    if run.returncode != 0:
        shutil.rmtree(building, ignore_errors=True)
        raise KitError(f"compiling the rules with Pyodide failed:\n{run.stderr}")
    index = rules_index(sources, run.stdout.strip().splitlines()[-1])
    (building / BYTECODE_INDEX).write_text(json.dumps(index, indent=1) + "\n")
    shutil.rmtree(folder, ignore_errors=True)
    building.rename(folder)
    return index


def print_sums(source: Path = SOURCE) -> None:
    """The ``offline-kit.sha256`` lines of the files in ``source``."""
    for name in FILES:
        print(f"{sha256_of(source / name)}  {name}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--sums"]:
        print_sums()
    elif not sys.argv[1:]:
        print(json.dumps(vendor(), indent=1))
    else:
        sys.exit("usage: python3 scripts/offline_kit.py [--sums]")
