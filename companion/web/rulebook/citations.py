"""Ruling numbers in a sentence, turned into links to their place on the rules page."""

from __future__ import annotations

from flask import url_for
from markupsafe import Markup

from companion.pages.trick import RULING_COUNTS, linked_rulings

__all__ = ["RULING_COUNTS", "link_rulings"]


def link_rulings(text: object) -> Markup:
    """``text`` HTML-escaped, with each citation of a ruling or check ("R7", "C3") made a
    link to its anchor on the rules page (``linked_rulings``, as the phone's pages link
    them too)."""
    return linked_rulings(text, url_for("rulebook.rules"))
