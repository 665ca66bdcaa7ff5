"""A player's name inside a translated sentence: the little word before it, as the reader's
language writes it before that name.

Three languages change a word before a name that opens with a vowel:

- Italian writes "ad" for "a" (the rulebook's "ad ogni", "ad eccezione"): "Tocca ad Anna",
  "Tocca a Bernd";
- French elides "de", "que" (and "lorsque", "puisque", "jusque"), "le" and "la": "les
  parties d’Anna", "les parties de Bernd";
- Hungarian says "az" for the article "a": "az Anna név", "a Bernd név", and the catalogue's
  neutral "a(z)" becomes whichever of the two the name takes.

English and German change nothing. A number, a card or a colour keeps the word as written:
only a value that opens with a letter is a name here, and only a vowel changes the word.

Pure (no web library): the pages (companion/read_models/names_in_sentences.py, Jinja's
gettext) and the offline rules worker write the names of a sentence the same way.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

#: The vowels a name may open with, accents aside ("Èlia", "Ödön", "Ugo").
VOWELS = frozenset("aeiou")


@dataclass(frozen=True)
class WordBeforeName:
    """A word written differently before a name: ``word`` as the catalogue writes it, what
    it becomes before a vowel and before a consonant (each with what then separates it
    from the name: a space, or nothing after an apostrophe)."""

    word: str
    before_vowel: str
    before_consonant: str


def keeps(word: str, before_vowel: str) -> WordBeforeName:
    """A word that changes before a vowel only."""
    return WordBeforeName(word, before_vowel, f"{word} ")


#: Each language's words that change before a name, longest first where one ends another.
WORDS_BEFORE_NAMES: dict[str, tuple[WordBeforeName, ...]] = {
    "it": (keeps("a", "ad "),),
    "fr": (
        keeps("lorsque", "lorsqu’"),
        keeps("puisque", "puisqu’"),
        keeps("jusque", "jusqu’"),
        keeps("que", "qu’"),
        keeps("de", "d’"),
        keeps("le", "l’"),
        keeps("la", "l’"),
    ),
    "hu": (WordBeforeName("a(z)", "az ", "a "), keeps("a", "az ")),
}

#: The languages whose words change before a name.
ELIDING = frozenset(WORDS_BEFORE_NAMES)


def word_pattern(words: tuple[WordBeforeName, ...]) -> re.Pattern[str]:
    """One of ``words``, a whole word (any case), then a space and a ``%(key)s`` slot."""
    choices = "|".join(re.escape(entry.word) for entry in words)
    return re.compile(rf"(?<![\w’'])({choices})[ \u00a0](%\((\w+)\)s)", re.IGNORECASE)


PATTERNS = {language: word_pattern(words) for language, words in WORDS_BEFORE_NAMES.items()}


def first_letter(value: object) -> str | None:
    """The letter ``value`` opens with, lower case and without its accent, if it is text
    that opens with a letter (a name); None for a number, a digit or no text at all."""
    if not isinstance(value, str):
        return None
    text = shown_text(value)
    first = unicodedata.normalize("NFD", text[:1]).lower()[:1]
    return first if first.isalpha() else None


def shown_text(value: str) -> str:
    """What a reader sees of ``value``: a page's markup (markupsafe's ``Markup``, a ``str``
    with ``striptags``) without its tags, plain text without the spaces around it."""
    striptags = getattr(value, "striptags", None)
    return str(striptags()) if callable(striptags) else value.strip()


def opens_with_vowel(word: str) -> bool:
    """Whether ``word`` is heard opening with a vowel (an accent or a capital aside)."""
    return first_letter(word) in VOWELS


def as_cased(found: str, written: str) -> str:
    """``written`` with a capital when the catalogue's word had one ("De" gives "D’")."""
    return written[:1].upper() + written[1:] if found[:1].isupper() else written


def before_names(text: str, variables: Mapping[str, object], language: str) -> str:
    """A translation, before its variables are filled in, with each word before a name
    written as ``language`` writes it before that name; a number keeps its word."""
    pattern = PATTERNS.get(language)
    if pattern is None:
        return text
    words = {entry.word: entry for entry in WORDS_BEFORE_NAMES[language]}

    def rewrite(match: re.Match[str]) -> str:
        letter = first_letter(variables.get(match.group(3)))
        if letter is None:
            return match.group(0)
        entry = words[match.group(1).lower()]
        written = entry.before_vowel if letter in VOWELS else entry.before_consonant
        return as_cased(match.group(1), written) + match.group(2)

    return pattern.sub(rewrite, text)
