"""The offline kit as the app serves it: Pyodide's files, the rules archive and the rules worker,
each under a fingerprint (a hash of its content) in its URL.

- Pyodide's five files were vendored by ``manage.py setup`` (scripts/offline_kit.py) into the
  folder ``OFFLINE_PYODIDE_FOLDER`` names (by default ``pyodide/`` beside this module, git-
  ignored), with ``kit.json`` recording each file's size and SHA-256 and its gzip variant's.
  Pyodide loads its runtime, standard library and lock from one folder URL (``indexURL``),
  so the five share one fingerprint: the hash of their sums.
- The rules archive is a zip of ``companion/rules`` and the pure packages beside it
  (``SHIPPED_PACKAGES``: the play state and the page models, whole; ``SHIPPED_MODULES``: a
  new table's checks), read from the installed package when the kit is first asked for, so
  the phone's rules are always the server's; plus the worker's Python side
  (worker/rules_worker.py) and the compiled catalogs (the pages' words for its refusals);
  the templates of the pages the worker draws, Jinja2 and MarkupSafe as installed, and the
  app's route map (endpoint -> URL rule, ``routes.json``) from which the worker builds the
  pages' links;
  and, beside each module whose source is still the one ``manage.py setup`` compiled, its
  bytecode for Pyodide's CPython (``rules-bytecode/`` beside Pyodide), so that the phone does
  not compile the rules at each start.
  The zip is the same bytes on every server of one release (sorted names, fixed dates), so
  every worker process names it by the same fingerprint.
- The rules worker (worker/rules-worker.js) is served with the places of the other two filled
  in, relative to its own URL; its fingerprint covers them, so a phone holding one worker URL
  holds a consistent kit.

Nothing here hashes Pyodide's 13 MB at run time; the sizes of ``kit.json`` are checked against
the files, and a kit that is missing or does not match is served as missing (503), never as a
500, while the rest of the app works on.
"""

from __future__ import annotations

import hashlib
import io
import json
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import jinja2
import markupsafe
from flask import Flask, current_app

import companion.data
import companion.pages
import companion.play_state
import companion.rules
from companion.pages.render import compiled_templates
from companion.resources import folder as resource_folder
from companion.web import compression

HERE = Path(__file__).resolve().parent
#: Where ``manage.py setup`` vendors Pyodide unless ``OFFLINE_PYODIDE_FOLDER`` says otherwise.
PYODIDE_FOLDER = HERE / "pyodide"
WORKER_FOLDER = HERE / "worker"
WORKER_SCRIPT = "rules-worker.js"
WORKER_MODULE = "rules_worker.py"
KIT_MANIFEST = "kit.json"
#: The rules' bytecode for Pyodide's CPython, compiled at kit-build time beside its files
#: (scripts/offline_kit.py), with an index of the sources it was compiled from.
RULES_BYTECODE = "rules-bytecode"
BYTECODE_INDEX = "index.json"
RULES_ARCHIVE = "rules.zip"
#: The files Pyodide needs, in the order the worker fetches them.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: The packages the worker runs whole besides ``companion.rules``: every module in them, each
#: pure (standard library, the rules and each other only; the import contract of pyproject.toml
#: that names them keeps them so): the play state and the page models.
SHIPPED_PACKAGES = ("companion.play_state", "companion.pages")
#: And the modules it runs of a package the server alone uses otherwise (with that package's
#: ``__init__.py``, a docstring): a new table's checks.
SHIPPED_MODULES = ("companion.data.names", "companion.data.seating")
#: The templates of the pages the worker renders (under ``templates/`` in the archive), and
#: the pure-Python packages that render them, from the installed packages as the rules are.
SHIPPED_TEMPLATES = (
    "games/scoreboard_board.html",
    "games/game_macros.html",
    "macros.html",
    "tools/resolver_trick.html",
    "tools/macros.html",
    "games/round_scores_list.html",
    "games/live_round.html",
    "games/live_macros.html",
    "games/round_record_page.html",
    "games/round_mark_page.html",
    "games/round_macros.html",
    "games/live_start_page.html",
    "games/scoreboard_unsent.html",
    "games/round_stopped.html",
    "games/round_clash_view.html",
)
TEMPLATES = "templates"
TEMPLATE_PACKAGES = (jinja2, markupsafe)
#: The route map the worker builds the pages' links from: endpoint -> URL rule.
ROUTES = "routes.json"
#: Where the archive holds the compiled catalogs, and the catalogs the app has (inside
#: ``companion/translations``, each compiled beside itself by setup and by the wheel's build).
CATALOGS = "companion/translations"
CATALOG_SOURCES = "*/LC_MESSAGES/messages.po"
#: ``companion/__init__.py`` builds the Flask app; the phone gets this bare package instead (a
#: file, so that scripts/offline_kit.py compiles it with the rest).
PACKAGE_STUB = "companion_package.py"
#: The marker in worker/rules-worker.js that is replaced by the places of the kit.
KIT_MARKER = "__KIT__"
FINGERPRINT_LENGTH = 16
ETAG_LENGTH = 32
#: Media types by file name ending: WebAssembly must be ``application/wasm`` for the browser
#: to compile it while it streams in.
MEDIA_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}
#: A zip entry's date: fixed, so the archive's bytes depend on the files' contents only.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
EXTENSION = "companion.web.offline"
MISSING = (
    "The offline kit is not installed on this server: python3 manage.py setup vendors it "
    "(it needs npm). Everything else works without it."
)


@dataclass(frozen=True)
class Variant:
    """One encoding of a kit file's bytes: held in memory, or a file on disk."""

    size: int
    sha256: str
    data: bytes | None = None
    path: Path | None = None


@dataclass(frozen=True)
class KitFile:
    """A file of the kit: its name, its fingerprint (the folder of its URL), its media type,
    its bytes and, where gzip shrinks it, their gzip variant."""

    name: str
    fingerprint: str
    mimetype: str
    plain: Variant
    gzipped: Variant | None = None

    @property
    def etag(self) -> str:
        return self.plain.sha256[:ETAG_LENGTH]

    @property
    def download_size(self) -> int:
        """The bytes a browser that accepts gzip receives."""
        return (self.gzipped or self.plain).size


@dataclass(frozen=True)
class Kit:
    """The kit of this server: its files by (fingerprint, name), the worker among them."""

    pyodide: str  #: Pyodide's version
    python: str  #: the version of Python it runs
    files: dict[tuple[str, str], KitFile]
    worker: KitFile

    @property
    def fingerprint(self) -> str:
        """One hash of the whole kit: the worker's, whose content names every other part."""
        return self.worker.fingerprint


class KitMissing(Exception):
    """The vendored Pyodide is not there, or not as its manifest says; the message says why."""


def media_type(name: str) -> str:
    return MEDIA_TYPES.get(PurePosixPath(name).suffix, "application/octet-stream")


def fingerprint_of(*parts: str | bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()[:FINGERPRINT_LENGTH]


def in_memory(data: bytes) -> Variant:
    return Variant(len(data), hashlib.sha256(data).hexdigest(), data=data)


def gzip_variant(data: bytes) -> Variant | None:
    """``data`` gzipped, if that is smaller by a tenth at least (as the vendored files)."""
    if len(data) < compression.MIN_SIZE:
        return None
    packed = compression.gzip_bytes(data, compression.STATIC_LEVEL)
    return in_memory(packed) if len(packed) <= 0.9 * len(data) else None


# --------------------------------------------------------------------------------------------
# Pyodide, as vendored


def pyodide_files(folder: Path) -> tuple[str, str, list[KitFile]]:
    """Pyodide's version, its Python's version and its files, from ``kit.json``; the
    sizes are checked against the files on disk (a cheap guard against a half-copied kit)."""
    try:
        manifest = json.loads((folder / KIT_MANIFEST).read_text())
        entries = {entry["name"]: entry for entry in manifest["files"]}
        version = str(manifest["pyodide"])
        lock = json.loads((folder / "pyodide-lock.json").read_text())
        python = str(lock["info"]["python"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise KitMissing(f"{MISSING} ({folder}: {error})") from None
    missing = [name for name in PYODIDE_FILES if name not in entries]
    if missing:
        raise KitMissing(f"{MISSING} ({KIT_MANIFEST} lacks {', '.join(missing)})")
    fingerprint = fingerprint_of(*(f"{name} {entries[name]['sha256']}" for name in PYODIDE_FILES))
    files = [pyodide_file(folder, entries[name], fingerprint) for name in PYODIDE_FILES]
    return version, python, files


def on_disk(path: Path, size: int, sha256: str) -> Variant:
    try:
        found = path.stat().st_size
    except OSError:
        raise KitMissing(f"{MISSING} ({path.name} is missing)") from None
    if found != size:
        raise KitMissing(f"{MISSING} ({path.name} holds {found} bytes, not {size})")
    return Variant(size, sha256, path=path)


def pyodide_file(folder: Path, entry: dict[str, object], fingerprint: str) -> KitFile:
    name = str(entry["name"])
    plain = on_disk(folder / name, int(str(entry["size"])), str(entry["sha256"]))
    gzipped = None
    packed = entry.get("gzip")
    if isinstance(packed, dict):
        gzipped = on_disk(folder / f"{name}.gz", int(packed["size"]), str(packed["sha256"]))
    return KitFile(name, fingerprint, media_type(name), plain, gzipped)


# --------------------------------------------------------------------------------------------
# The rules archive and the worker


def module_file(name: str) -> Path:
    """The installed source file of a module named in ``SHIPPED_MODULES``."""
    package, _, module = name.rpartition(".")
    return package_folder(package) / f"{module}.py"


def package_folder(package: str) -> Path:
    """Where the installed package ``package`` (one of ``SHIPPED_PACKAGES``, or the package of
    one of ``SHIPPED_MODULES``) is."""
    folders = {
        "companion.play_state": companion.play_state.__file__,
        "companion.pages": companion.pages.__file__,
        "companion.data": companion.data.__file__,
    }
    return Path(folders[package]).parent


def archive_members(routes: dict[str, str] | None = None) -> dict[str, bytes]:
    """What the rules archive holds, by path inside it: the rules package's modules, the
    shipped packages' (the play state and the page models), the shipped modules with their
    package's ``__init__.py``, a bare ``companion`` package and the worker's Python side;
    Jinja2 and MarkupSafe, the templates the worker renders and the app's ``routes``
    (:func:`route_map`)."""
    rules = Path(companion.rules.__file__).parent
    members = {"companion/__init__.py": (WORKER_FOLDER / PACKAGE_STUB).read_bytes()}
    for path in sorted(rules.glob("*.py")):
        members[f"companion/rules/{path.name}"] = path.read_bytes()
    for package in SHIPPED_PACKAGES:
        folder = package.replace(".", "/")
        for path in sorted(package_folder(package).glob("*.py")):
            members[f"{folder}/{path.name}"] = path.read_bytes()
    for name in SHIPPED_MODULES:
        package = name.rpartition(".")[0]
        init = package_folder(package) / "__init__.py"
        members[package.replace(".", "/") + "/__init__.py"] = init.read_bytes()
        members[name.replace(".", "/") + ".py"] = module_file(name).read_bytes()
    members[WORKER_MODULE] = (WORKER_FOLDER / WORKER_MODULE).read_bytes()
    members.update(catalog_members())
    members.update(template_members())
    members[ROUTES] = json.dumps(routes or {}, sort_keys=True, indent=0).encode()
    return members


def template_members() -> dict[str, bytes]:
    """Jinja2's and MarkupSafe's Python modules (MarkupSafe's C speed-ups are optional and
    left out) and the templates of the pages the worker renders, compiled here to Python
    modules (``companion.pages.render.compiled_templates``): the phone imports them instead
    of compiling each template at its first render."""
    members = {}
    for package in TEMPLATE_PACKAGES:
        folder = Path(str(package.__file__)).parent
        for path in sorted(folder.glob("*.py")):
            members[f"{folder.name}/{path.name}"] = path.read_bytes()
    compiled = compiled_templates(resource_folder("templates"), SHIPPED_TEMPLATES)
    for module, code in compiled.items():
        members[f"{TEMPLATES}/{module}"] = code.encode()
    return members


def route_map(app: Flask) -> dict[str, str]:
    """Each endpoint's URL rule (its first, as ``url_for`` tries them), without the
    ``URL_PREFIX`` (the worker puts the page's own root before each)."""
    routes: dict[str, str] = {}
    for rule in app.url_map.iter_rules():
        routes.setdefault(rule.endpoint, rule.rule)
    return routes


def catalog_members() -> dict[str, bytes]:
    """The compiled catalog (.mo) of every language the app has a catalog (.po) for, from
    the installed package, at the same path in the archive: the worker says refusals in the
    player's language with the very words of the server's pages."""
    translations = Path(companion.rules.__file__).parent.parent / "translations"
    catalogs = sorted(path.with_suffix(".mo") for path in translations.glob(CATALOG_SOURCES))
    return {
        f"{CATALOGS}/{mo.relative_to(translations).as_posix()}": mo.read_bytes() for mo in catalogs
    }


def bytecode_members(folder: Path, members: dict[str, bytes]) -> dict[str, bytes]:
    """The bytecode compiled at kit-build time for the modules among ``members`` whose
    source is still the bytes it was compiled from, each where CPython looks for it beside
    its source (``__pycache__/<module>.<cache tag>.pyc``): the phone then unmarshals the
    rules instead of compiling them at each start. None for a module that changed since (or
    without the index): the phone compiles its source, as it always could."""
    bytecode = folder / RULES_BYTECODE
    try:
        index = json.loads((bytecode / BYTECODE_INDEX).read_text())
        tag, modules = str(index["cache_tag"]), dict(index["modules"])
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    found = {}
    for name, source in members.items():
        entry = modules.get(name)
        if not name.endswith(".py") or not isinstance(entry, dict):
            continue
        if entry.get("source_sha256") != hashlib.sha256(source).hexdigest():
            continue
        place = PurePosixPath(name)
        try:
            data = (bytecode / str(entry["pyc"])).read_bytes()
        except (OSError, KeyError):
            continue
        found[str(place.parent / "__pycache__" / f"{place.stem}.{tag}.pyc")] = data
    return found


def rules_archive(members: dict[str, bytes]) -> bytes:
    """A zip of ``members``, the same bytes for the same members."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, members[name])
    return buffer.getvalue()


def kit_file(name: str, data: bytes) -> KitFile:
    """A kit file held in memory, fingerprinted by its content's SHA-256."""
    plain = in_memory(data)
    fingerprint = plain.sha256[:FINGERPRINT_LENGTH]
    return KitFile(name, fingerprint, media_type(name), plain, gzip_variant(data))


def worker_script(pyodide: str, rules: KitFile) -> bytes:
    """The rules worker with the places of Pyodide and the rules archive, relative to the
    worker's own URL (``/offline-kit/<fingerprint>/rules-worker.js``) so that they hold under
    any ``URL_PREFIX``."""
    places = {
        "pyodide": f"../{pyodide}/",
        "rules": f"../{rules.fingerprint}/{rules.name}",
    }
    source = (WORKER_FOLDER / WORKER_SCRIPT).read_text()
    assert source.count(KIT_MARKER) == 1, f"{WORKER_SCRIPT} names {KIT_MARKER} once"
    return source.replace(KIT_MARKER, json.dumps(places)).encode()


def build_kit(folder: Path, routes: dict[str, str] | None = None) -> Kit:
    """The kit served from Pyodide in ``folder`` and the installed rules, its pages linking
    by ``routes``."""
    version, python, files = pyodide_files(folder)
    try:
        members = archive_members(routes)
        members.update(bytecode_members(folder, members))
        rules = kit_file(RULES_ARCHIVE, rules_archive(members))
        worker = kit_file(WORKER_SCRIPT, worker_script(files[0].fingerprint, rules))
    except OSError as error:  # an installed package built without the worker's files
        raise KitMissing(f"{MISSING} ({error})") from None
    every = [*files, rules, worker]
    return Kit(version, python, {(f.fingerprint, f.name): f for f in every}, worker)


# --------------------------------------------------------------------------------------------
# The app's kit, built when first asked for


class KitHolder:
    """The app's kit once built, or why there is none; built at most once at a time."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.lock = threading.Lock()
        self.kit: Kit | None = None

    def get(self) -> Kit:
        """The kit; ``KitMissing`` if Pyodide is not vendored (asked again next time, so a
        setup run while the server runs is noticed)."""
        if self.kit is not None:
            return self.kit
        with self.lock:
            if self.kit is None:
                self.kit = build_kit(self.folder, route_map(current_app))
            return self.kit


def current_kit() -> Kit:
    """The kit of the current app (``KitMissing`` if it has none)."""
    holder: KitHolder = current_app.extensions[EXTENSION]
    return holder.get()


def init_app(app: Flask) -> None:
    """Serve the kit from ``OFFLINE_PYODIDE_FOLDER`` (default: beside this module)."""
    folder = Path(app.config.get("OFFLINE_PYODIDE_FOLDER") or PYODIDE_FOLDER)
    app.extensions[EXTENSION] = KitHolder(folder)
