"""Words and numbers as players read them: rules messages, colour names, seats and scores.

The rules produce :class:`~companion.rules.Message` templates in English and know nothing of
Flask; this module renders them in the page's language, through Flask-Babel's catalogue and
the one renderer of rules messages (companion/rules/wording.py, which the offline rules
worker uses with the same catalogue), with colours named in that language and seats named by
the players sitting there.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import get_translations, gettext
from flask_babel import lazy_gettext as _l

from companion.pages import scoreboard as pages_scoreboard
from companion.pages.charts import MINUS_SIGN, signed_number
from companion.pages.scoreboard import variant_words
from companion.read_models.names_in_sentences import reader_language
from companion.rules import Colour, Message, Variant
from companion.rules.wording import (
    COLOUR_SYMBOLS,
    Reader,
    colour_words,
    player_words,
    say,
    seat_words,
)

__all__ = ["MINUS_SIGN", "signed_number"]


def as_colour(colour: Colour | str) -> Colour:
    """Accept a :class:`Colour` or its API name ("red"), as stored rows and JSON hold them."""
    return colour if isinstance(colour, Colour) else Colour.named(colour)


def colour_name(colour: Colour | str) -> str:
    """The colour's name in the current language."""
    return colour_words(as_colour(colour), page_reader())


def colour_symbol(colour: Colour | str) -> str:
    """The shape drawn on the colour's chips."""
    return COLOUR_SYMBOLS[as_colour(colour)]


def page_reader() -> Reader:
    """The reader of the page being made: its language and Flask-Babel's catalogue."""
    return Reader(reader_language(), gettext, plural_form)


def seat_label(seat: int) -> str:
    """A seat for people: seats are 0-based in the code and 1-based at the table."""
    return seat_words(seat, page_reader())


def player_label(seat: int, names: Sequence[str] | None = None) -> str:
    """The player at ``seat`` by name when the names are known, else the seat."""
    return player_words(seat, page_reader(), names)


def render_message(message: Message, names: Sequence[str] | None = None) -> str:
    """A rules message in the current language, naming colours and players as the table
    knows them (``names`` in seat order), e.g. for a ``RuleError`` shown on a page."""
    return say(message, page_reader(), names)


def plural_form(singular: str, plural: str, count: int) -> str:
    """The form of a sentence with a count that the current language uses for ``count``
    (gettext's ngettext on the catalogue, before the parameters are filled in: the message
    fills them itself, names and colours included)."""
    return str(get_translations().ngettext(singular, plural, count))


#: The presets by name (RULES.md section 5 and 6), as the table calls them: the page model's
#: names (companion/pages/scoreboard.py), translated when shown.
PRESET_NAMES = {name: _l(message) for name, message in pages_scoreboard.PRESET_NAMES.items()}


def variant_label(variant: Variant) -> str:
    """A variant's name: the preset's, or its three settings when it is no preset."""
    return variant_words(variant, page_reader())
