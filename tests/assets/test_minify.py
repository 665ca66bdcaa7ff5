"""Stylesheets and scripts lose their comments and the blanks that mean nothing on the way to
a phone: every rule, statement, string and pattern stays, and so does a line break that ends
a statement."""

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


def test_a_stylesheet_keeps_its_rules_and_strings_without_comments_or_blanks() -> None:
    css = minify(CSS, ".css")
    assert b"The scoreboard" not in css and b"a note" not in css
    assert b'.seat{color:red;content:"\xe2\x9c\x93"}' in css
    assert b"@media print{.seat{display:none}}" in css
    assert not any(blank in css for blank in (b" {", b": ", b"\n"))


def test_a_script_keeps_every_statement_string_and_pattern_without_comments() -> None:
    script = minify(JS, ".js")
    for comment in (b"Follows the game", b"A block", b"after code", b"one line", b"opens here"):
        assert comment not in script
    for statement in (
        b'"use strict";',
        b'var url="https://example.org/a";',  # the // in a string is no comment
        b"var pattern=/\\{(\\w+)\\}/g;",
        b"var after=1;",
        b"return url+pattern+after;",
    ):
        assert statement in script


def test_a_line_break_stays_where_a_statement_ends_without_a_semicolon() -> None:
    script = minify(b"var seat = 1\nvar next = seat\n++seat\nvar name = 'Ann  Ben'\n", ".js")
    assert script == b"var seat=1\nvar next=seat\n++seat\nvar name='Ann  Ben'"


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
