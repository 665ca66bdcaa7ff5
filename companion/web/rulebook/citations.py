"""Ruling numbers in a sentence, turned into links to their place on the rules page."""

from __future__ import annotations

import re

from flask import url_for
from markupsafe import Markup, escape

#: How many rulings and checks RULES.md numbers: R1-R23 and C1-C6.
RULING_COUNTS = {"R": 23, "C": 6}

#: A citation such as "R7" or "C3": a whole word, no leading zero.
CITATION = re.compile(r"\b([RC])([1-9][0-9]?)\b")


def link_rulings(text: object) -> Markup:
    """``text`` HTML-escaped, with each citation of a ruling or check ("R7", "C3") made a
    link to its anchor on the rules page: "(R7, R8)" becomes "(<a href="/rules#r7">R7</a>,
    <a href="/rules#r8">R8</a>)". Numbers that name no ruling ("R99") stay plain text.

    Markup (a translated template string, say) is trusted as it is; anything else is
    escaped first, so a player's name can never inject HTML."""
    if text is None:
        return Markup("")

    def link(match: re.Match[str]) -> str:
        letter, number = match.group(1), int(match.group(2))
        if number > RULING_COUNTS[letter]:
            return match.group(0)
        citation = f"{letter}{number}"
        href = url_for("rulebook.rules", _anchor=citation.lower())
        return f'<a href="{escape(href)}">{citation}</a>'

    return Markup(CITATION.sub(link, str(escape(text))))
