"""The documentation in docs/ builds with Sphinx without a warning (a broken link, a missing
page or screenshot, a docstring autodoc cannot read), loads nothing from another host, and
documents every public name of the rules package."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import companion.rules
from scripts.page_reader import Element, read_page

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SCREENS = DOCS / "_static" / "screens"
#: An address on another host: a scheme, or the protocol-relative ``//host``.
FOREIGN = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)
#: ``<link rel>`` values that name another page, which the browser does not fetch.
PAGE_LINKS = {"index", "search", "next", "prev", "canonical"}
#: What a stylesheet fetches: ``url(...)`` and ``@import "..."``.
CSS_FETCH = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""")


#: Set by ``python3 manage.py test``: the folder of the build it has just made of docs/, with
#: the same command as below, which its step checked (warnings are errors).
DOCS_HTML = "STICHELN_DOCS_HTML"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML documentation, built as the test command builds it (warnings are errors):
    the test command's own build when it runs the tests (``STICHELN_DOCS_HTML``), else built
    here."""
    made = os.environ.get(DOCS_HTML)
    if made and (Path(made) / "index.html").is_file():
        return Path(made)
    out = tmp_path_factory.mktemp("docs-html")
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
    done = subprocess.run(
        [*command, str(DOCS), str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"sphinx-build failed:\n{done.stderr}"
    return out


def pages(built: Path) -> list[Path]:
    """Every HTML page of the build."""
    found = sorted(built.rglob("*.html"))
    assert found, "the build made no page"
    return found


def fetched(element: Element) -> list[str]:
    """What the browser fetches for ``element`` by itself, without a click: scripts, images,
    frames, media and every ``<link>`` but a plain link to another page."""
    if element.tag == "link":
        rel = set((element.get("rel") or "").split())
        return [] if rel <= PAGE_LINKS else [element.get("href") or ""]
    if element.tag in {"script", "img", "iframe", "source", "audio", "video", "embed"}:
        return [element.get("src") or ""]
    return []


def test_the_docs_build_without_a_warning(built: Path) -> None:
    names = {page.relative_to(built).as_posix() for page in pages(built)}
    wanted = {"index.html", "api.html", "rules.html", "users/index.html", "operators/index.html"}
    assert wanted <= names, f"missing pages: {sorted(wanted - names)}"


def test_the_built_pages_load_nothing_from_another_host(built: Path) -> None:
    """No CDN font, script or stylesheet: the documentation reads offline, like the app."""
    foreign = [
        f"{page.relative_to(built)}: {address}"
        for page in pages(built)
        for element in read_page(page.read_text(encoding="utf-8")).find_all()
        for address in fetched(element)
        if FOREIGN.match(address)
    ]
    stylesheets = sorted(built.rglob("*.css"))
    assert stylesheets, "the build has no stylesheet"
    for sheet in stylesheets:
        for match in CSS_FETCH.finditer(sheet.read_text(encoding="utf-8")):
            address = match.group(1) or match.group(2)
            if FOREIGN.match(address):
                foreign.append(f"{sheet.relative_to(built)}: {address}")
    assert not foreign, "\n".join(foreign)


def test_the_rules_reference_documents_every_public_name(built: Path) -> None:
    """autodoc reads each module named in docs/rules.md: a module left out leaves its names
    undocumented."""
    reference = read_page((built / "rules.html").read_text(encoding="utf-8"))
    documented = {
        element.get("id", "").rsplit(".", 1)[-1]
        for element in reference.find_all("dt")
        if (element.get("id") or "").startswith("companion.rules.")
    }
    public = {
        name
        for name in companion.rules.__all__
        if callable(getattr(companion.rules, name)) and not name.isupper()
    }
    assert public - documented == set(), sorted(public - documented)


def test_every_screenshot_is_shown_in_the_guide(built: Path) -> None:
    """The screenshots the browser tests take (tests/browser/test_docs_screens.py) are all
    in a built page, so none goes stale unseen."""
    shots = {path.name for path in SCREENS.glob("*.png")}
    assert shots, f"no screenshot in {SCREENS}"
    shown = {
        Path(element.get("src") or "").name
        for page in pages(built)
        for element in read_page(page.read_text(encoding="utf-8")).find_all("img")
    }
    assert shots - shown == set(), sorted(shots - shown)
