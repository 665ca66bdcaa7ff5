"""A rules message in a reader's words: the one renderer of a :class:`Message` into a
language, for the server's pages and for the offline rules worker alike.

The pages pass Flask-Babel's catalogue (companion/read_models/messages.py), the rules worker
the standard library's ``gettext.GNUTranslations`` of the same compiled catalogue
(companion/web/offline/worker/rules_worker.py); both then name colours, cards and players
here, with the same templates, so the phone offline says what the server's page says.
Nothing here imports gettext: a :class:`Reader` is given the two lookups it needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.rules.cards import Colour
from companion.rules.names_in_sentences import before_names
from companion.rules.text import N_, Message, english_plural

#: Each colour's name as a page says it (a card is its colour's name and its value).
COLOUR_WORDS = {
    Colour.RED: N_("red"),
    Colour.BLUE: N_("blue"),
    Colour.GREEN: N_("green"),
    Colour.YELLOW: N_("yellow"),
    Colour.BROWN: N_("brown"),
    Colour.VIOLET: N_("violet"),
}

#: A shape per colour, drawn on every colour chip so colour-blind players can tell the
#: colours apart in any language (a letter would clash: German "grün" and "gelb").
COLOUR_SYMBOLS = {
    Colour.RED: "♥",
    Colour.BLUE: "◆",
    Colour.GREEN: "♣",
    Colour.YELLOW: "★",
    Colour.BROWN: "■",
    Colour.VIOLET: "▲",
}

#: A seat for people, where the players' names are not known: counted from 1 at the table
#: (the code and the API count seats from 0).
SEAT_WORDS = N_("seat %(number)s")


class Catalogue(Protocol):
    """What a compiled catalogue answers: ``gettext.GNUTranslations`` and Babel's
    ``Translations`` both do."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


@dataclass(frozen=True)
class Reader:
    """Who reads a sentence: their language's code ("de") and its catalogue's two lookups,
    a template's translation and the form of a sentence with a count for that count
    (both before any parameter is filled in)."""

    language: str = "en"
    gettext: Callable[[str], str] = lambda text: text
    ngettext: Callable[[str, str, int], str] = english_plural

    @classmethod
    def of(cls, catalogue: Catalogue, language: str) -> Reader:
        """The reader of ``language`` through its compiled catalogue."""
        return cls(language, catalogue.gettext, catalogue.ngettext)


def colour_words(colour: Colour, reader: Reader) -> str:
    """The colour's name in the reader's language."""
    return reader.gettext(COLOUR_WORDS[colour])


def seat_words(seat: int, reader: Reader) -> str:
    """A seat (0-based) as the table counts it, in the reader's language: "seat 1"."""
    return reader.gettext(SEAT_WORDS) % {"number": seat + 1}


def player_words(seat: int, reader: Reader, names: Sequence[str] | None = None) -> str:
    """The player at ``seat`` by name when the names are known, else the seat."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return seat_words(seat, reader)


def say(message: Message, reader: Reader, names: Sequence[str] | None = None) -> str:
    """``message`` in the reader's language, naming colours and cards in it and players as
    the table knows them (``names`` in seat order, else by seat), with the words before the
    names written as the language writes them."""
    return message.render(
        translate=reader.gettext,
        colour_name=lambda colour: colour_words(colour, reader),
        player_name=lambda seat: player_words(seat, reader, names),
        translate_plural=reader.ngettext,
        place_names=lambda text, values: before_names(text, values, reader.language),
    )
