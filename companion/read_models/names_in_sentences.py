"""A player's name inside a translated sentence, on a page: the word before it as the page's
language writes it (the rules of companion/rules/names_in_sentences.py, which the offline
rules worker follows too), for the language of the request."""

from __future__ import annotations

from collections.abc import Mapping

from flask_babel import get_locale

from companion.rules.names_in_sentences import ELIDING, before_names

__all__ = ["ELIDING", "before_names", "names_in_place", "reader_language"]


def reader_language() -> str:
    """The language of the page being made (English outside a request)."""
    locale = get_locale()
    return locale.language if locale is not None else "en"


def names_in_place(text: str, variables: Mapping[str, object]) -> str:
    """``text`` with the words before its names as the reader's language writes them."""
    return before_names(text, variables, reader_language())
