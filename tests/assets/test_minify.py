"""Stylesheets and scripts lose their comments and indentation on the way to a phone, and
nothing else: every rule, statement, string and line break stays."""

from __future__ import annotations

import pytest

from companion.web.minify import minify
from tests.assets.helpers import STATIC

CSS = b"""/* The scoreboard */
.seat {
  color: red; /* a note */
  content: "\xe2\x9c\x93";
}

@media print {
    .seat { display: none; }
}
"""

JS = b"""// Follows the game.
(function () {
  "use strict";
  /* A block
     of words. */
  var url = "https://example.org/a"; // kept: after code
  /* one line */
  var pattern = /\\{(\\w+)\\}/g;
  /* opens here
  */ var after = 1;
  return url + pattern + after;
})();
"""


def test_a_stylesheet_keeps_its_rules_without_comments_or_indentation() -> None:
    assert minify(CSS, ".css") == (
        b'.seat {\ncolor: red;\ncontent: "\xe2\x9c\x93";\n}\n'
        b"@media print {\n.seat { display: none; }\n}\n"
    )


def test_a_script_keeps_every_statement_and_the_comments_after_code() -> None:
    assert minify(JS, ".js") == (
        b'(function () {\n"use strict";\n'
        b'var url = "https://example.org/a"; // kept: after code\n'
        b"var pattern = /\\{(\\w+)\\}/g;\n"
        b"var after = 1;\n"
        b"return url + pattern + after;\n})();\n"
    )


def test_other_files_are_served_as_they_are() -> None:
    svg = (STATIC / "icons" / "icon.svg").read_bytes()
    assert minify(svg, ".svg") is svg


@pytest.mark.parametrize(
    "name", sorted(p.name for p in STATIC.glob("*.*s") if p.suffix in (".css", ".js"))
)
def test_every_static_file_shrinks_and_minifying_again_changes_nothing(name: str) -> None:
    source = (STATIC / name).read_bytes()
    once = minify(source, (STATIC / name).suffix)
    assert len(once) < len(source)
    assert minify(once, (STATIC / name).suffix) == once
    assert b"\n\n" not in once and not once.startswith((b" ", b"\t"))
