"""Translatable text produced by the rules: a message template plus its parameters.

The rules stay free of any web library, so they cannot call gettext themselves. Every
sentence they produce is a template marked with :func:`N_` (so the catalogue extractor finds
it) and rendered by whoever shows it: in English by default, translated by the web layer.
A sentence with a count ("1 card", "2 cards") has two forms, marked together with
:func:`ngettext` so that each language picks its own form for the number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.rules.cards import Colour


def N_(template: str) -> str:
    """Mark a template for translation without translating it (the gettext convention)."""
    return template


@dataclass(frozen=True)
class Plural:
    """A sentence in its singular and plural form, and the number that picks between them
    (as gettext's ``ngettext`` takes them); the parameters are given apart, with the
    refusal or message that says it."""

    singular: str
    plural: str
    count: int


def ngettext(singular: str, plural: str, count: int) -> Plural:
    """Mark a sentence with a count for translation without translating it: the catalogue
    extractor finds both forms (gettext's ``ngettext`` keyword) and the page that shows the
    message picks the form of its language for ``count``."""
    return Plural(singular, plural, count)


def english_plural(singular: str, plural: str, count: int) -> str:
    """The English form for ``count``: the singular for exactly one."""
    return singular if count == 1 else plural


def _default_colour(colour: Colour) -> str:
    return colour.value


def _as_written(template: str, _values: Mapping[str, object]) -> str:
    return template


@dataclass(frozen=True)
class Message:
    """A sentence about the game: ``template % params`` once the params are rendered.

    Parameters may be cards, colours or seats; ``render`` turns them into words through the
    given functions so that a translated page can name colours and players in its language.
    A sentence with a count also has its ``plural`` form, and ``count`` picks the form
    (``template`` is then the singular).
    """

    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None
    count: int = 1

    @classmethod
    def of(cls, template: str | Plural, params: Mapping[str, object]) -> Message:
        """The message of a plain template or of a sentence with a count (:func:`ngettext`)."""
        if isinstance(template, Plural):
            return cls(template.singular, params, template.plural, template.count)
        return cls(template, params)

    def render(
        self,
        translate: Callable[[str], str] = lambda text: text,
        colour_name: Callable[[Colour], str] = _default_colour,
        player_name: Callable[[int], str] = lambda seat: f"seat {seat}",
        translate_plural: Callable[[str, str, int], str] = english_plural,
        place_names: Callable[[str, Mapping[str, object]], str] = _as_written,
    ) -> str:
        """Render the sentence; the default callables give the API's English.
        ``place_names`` writes the words before the names in the template as the reader's
        language does ("d’Anna", "ad Anna"), given the words that fill it in."""
        from companion.rules.cards import Card, Colour

        def word(value: object, key: str) -> object:
            if isinstance(value, Card):
                return f"{colour_name(value.colour)} {value.value}"
            if isinstance(value, Colour):
                return colour_name(value)
            if isinstance(value, tuple):
                return ", ".join(str(word(item, key)) for item in value)
            if key in ("player", "other") and isinstance(value, int):
                return player_name(value)
            return value

        rendered = {key: word(value, key) for key, value in self.params.items()}
        template = (
            translate(self.template)
            if self.plural is None
            else translate_plural(self.template, self.plural, self.count)
        )
        text = place_names(template, rendered) % rendered
        return text[:1].upper() + text[1:]

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True)
class PlainText(Message):
    """A sentence said as it is written: the API's English about the shape of a request
    (the API answers in English only), never translated, capitalised or filled in."""

    def render(self, *_how: object, **_names: object) -> str:
        """The sentence itself, whatever the language of the page or the names at the table."""
        return self.template
