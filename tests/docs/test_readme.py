"""The README fits on a page and leads into docs/: every page, section and picture it links
to is there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: The most lines the README may have; the rest of what it once held is in docs/.
MOST_LINES = 200
#: Markdown links ``[text](target)`` and HTML images ``<img src="target">``.
LINK = re.compile(r"\]\(([^)\s]+)\)|<img[^>]*\ssrc=\"([^\"]+)\"")
#: A Markdown heading, outside code.
HEADING = re.compile(r"^#{1,6} +(.+?) *$", re.MULTILINE)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


def local_links() -> list[str]:
    """The README's links to files of the repository (not to web addresses)."""
    targets = [a or b for a, b in LINK.findall(README.read_text(encoding="utf-8"))]
    return [target for target in targets if not re.match(r"[a-z]+:", target)]


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as MyST (myst_heading_anchors) and GitHub make
    them: lower case, punctuation dropped, spaces as hyphens."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {
        re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        for heading in HEADING.findall(text)
    }


def test_the_readme_fits_on_a_page() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines < MOST_LINES, f"README.md has {lines} lines; move the detail into docs/"


def test_every_docs_page_the_readme_links_exists() -> None:
    links = local_links()
    assert any(link.startswith("docs/") and link.endswith(".md") for link in links)
    missing = []
    for link in links:
        path, _, anchor = link.partition("#")
        target = ROOT / path
        if not target.is_file() or (anchor and anchor not in anchors(target)):
            missing.append(link)
    assert not missing, missing


def test_the_readme_shows_a_screenshot_the_browser_tests_take() -> None:
    pictures = [link for link in local_links() if link.endswith(".png")]
    assert pictures, "the README shows no screenshot"
    assert all(link.startswith("docs/_static/screens/") for link in pictures), pictures
