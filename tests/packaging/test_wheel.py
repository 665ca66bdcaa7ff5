"""The wheel carries everything the app reads at run time: the templates, static files and
migrations inside the package, and the catalogs compiled by the build, never a stale .mo
from the checkout. Built the way ``python -m build`` builds: a source distribution from a
clean copy of the checkout, then the wheel from that. (scripts/wheel_smoke.py installs the
wheel and serves it.)"""

from __future__ import annotations

import gettext
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts.wheel_smoke import ROOT, clean_copy

BUNDLED = ("templates", "static", "migrations")

#: One message of the rules page and its translation in each language.
RULES = {"de": "Regeln", "it": "Regole", "fr": "Règles", "hu": "Szabályok"}

SDIST = """
import sys
from setuptools import build_meta
print(build_meta.build_sdist(sys.argv[1]))
"""


def run(command: list[str], cwd: Path) -> str:
    """Run a build command; its output, or the test fails with it."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def build_sdist(source: Path, dist: Path) -> Path:
    """The source distribution of ``source``, by the build backend."""
    return dist / run([sys.executable, "-c", SDIST, str(dist)], source).strip().splitlines()[-1]


def build_wheel(source: Path, dist: Path) -> Path:
    """The wheel of ``source``, built by pip with the build requirements of pyproject.toml
    in an isolated environment, as ``pip install .`` builds it."""
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), "."], source)
    (wheel,) = dist.glob("*.whl")
    return wheel


def checkout_files(folder: str) -> list[Path]:
    """The files of a top-level folder of the checkout, caches left out."""
    return sorted(
        path.relative_to(ROOT)
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    """The wheel built from the source distribution of a clean copy in which a stale German
    catalog lies beside the .po (compiled from nothing)."""
    work = tmp_path_factory.mktemp("wheel")
    source = clean_copy(work / "checkout")
    stale = source / "companion" / "translations" / "de" / "LC_MESSAGES" / "messages.mo"
    stale.write_bytes(b"stale, not a catalog")
    sdist = build_sdist(source, work)
    with tarfile.open(sdist) as archive:
        archive.extractall(work / "unpacked", filter="data")
    (unpacked,) = (work / "unpacked").iterdir()
    with zipfile.ZipFile(build_wheel(unpacked, work / "dist")) as built:
        yield built


@pytest.mark.parametrize("folder", BUNDLED)
def test_the_wheel_carries_each_top_level_folder_inside_the_package(
    wheel: zipfile.ZipFile, folder: str
) -> None:
    files = checkout_files(folder)
    assert files, f"{folder}/ of the checkout is empty"
    inside = set(wheel.namelist())
    missing = [str(path) for path in files if f"companion/{path.as_posix()}" not in inside]
    assert missing == []
    for path in files:
        assert wheel.read(f"companion/{path.as_posix()}") == (ROOT / path).read_bytes(), path


def test_the_wheel_carries_the_offline_rules_worker(wheel: zipfile.ZipFile) -> None:
    for name in ("rules-worker.js", "rules_worker.py", "companion_package.py"):
        path = ROOT / "companion" / "web" / "offline" / "worker" / name
        assert wheel.read(f"companion/web/offline/worker/{name}") == path.read_bytes()


#: Run with ``sys.argv[1]`` (the unpacked wheel) first on the path: the SHA-256 of each
#: compiled catalog in the rules archive that the installed package's offline kit builds.
ARCHIVED_CATALOGS = """
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from companion.web.offline import kit
assert kit.__file__.startswith(sys.argv[1]), kit.__file__
members = kit.archive_members()
sums = {name: hashlib.sha256(data).hexdigest() for name, data in members.items()}
print(json.dumps({name: sha256 for name, sha256 in sums.items() if name.endswith(".mo")}))
"""


def test_the_offline_kit_of_the_wheel_ships_the_catalogs_the_build_compiled(
    wheel: zipfile.ZipFile, tmp_path: Path
) -> None:
    """The rules worker says refusals in the player's language with the catalogs it ships."""
    wheel.extractall(tmp_path)
    archived = json.loads(run([sys.executable, "-c", ARCHIVED_CATALOGS, str(tmp_path)], tmp_path))
    expected = {f"companion/translations/{code}/LC_MESSAGES/messages.mo" for code in RULES}
    assert set(archived) == expected
    for name in expected:
        assert archived[name] == hashlib.sha256(wheel.read(name)).hexdigest(), name


def test_the_wheel_carries_the_api_document_as_committed(wheel: zipfile.ZipFile) -> None:
    """GET /api/v1/openapi.json reads it from the package at run time."""
    document = "companion/web/api/openapi.yaml"
    assert wheel.read(document) == (ROOT / document).read_bytes()


def test_the_wheel_carries_no_caches(wheel: zipfile.ZipFile) -> None:
    assert [name for name in wheel.namelist() if "__pycache__" in name] == []


@pytest.mark.parametrize("code", sorted(RULES))
def test_the_wheel_carries_each_catalog_compiled_from_its_po(
    wheel: zipfile.ZipFile, code: str
) -> None:
    compiled = wheel.read(f"companion/translations/{code}/LC_MESSAGES/messages.mo")
    catalog = gettext.GNUTranslations(io.BytesIO(compiled))
    assert catalog.gettext("Rules") == RULES[code]
    plural = catalog.ngettext("%(num)s game", "%(num)s games", 2)
    assert plural.startswith("%(num)s ") and plural != "%(num)s games"
