"""Ruling numbers in a sentence, turned into links to their place on the rules page."""

from __future__ import annotations

from flask import url_for
from markupsafe import Markup

from companion.pages.render import link_citations


def link_rulings(text: object) -> Markup:
    """``text`` HTML-escaped, with each citation of a ruling or check ("R7", "C3") made a
    link to its anchor on the rules page: "(R7, R8)" becomes "(<a href="/rules#r7">R7</a>,
    <a href="/rules#r8">R8</a>)". Numbers that name no ruling ("R99") stay plain text."""
    return link_citations(text, url_for("rulebook.rules"))
