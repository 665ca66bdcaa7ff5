"""Every message that holds a player's name, in every language, said with a name opening with
a vowel and one opening with a consonant: the word before the name is the language's own
("d’Anna" but "de Bernd" in French, "ad Anna" but "a Bernd" in Italian, "az Anna" but "a Bernd"
in Hungarian), the name is intact, and nothing doubles a space.

Each message is said the three ways the app says one, which must agree: Python's gettext (and
ngettext), a template's ``_()`` (and ``ngettext``), and a rules message rendered for a page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import flask_babel
import pytest
from babel.messages.pofile import read_po
from flask import Flask, render_template_string
from flask_babel import force_locale

from companion.read_models.messages import render_message
from companion.rules import Message

CATALOG = Path(__file__).resolve().parents[1] / "companion" / "translations" / "messages.pot"

#: The slots a message fills with a player's name, or with several names ("Ann, Ben").
NAME_SLOTS = ("player", "name", "names", "target", "other", "leader", "dealer", "new", "old")
#: ``players`` is a name list in some messages and a count in others: a name here.
LIST_SLOTS = ("players",)
SLOT = re.compile(r"%\((\w+)\)([sd])")

VOWEL, CONSONANT = "Anna", "Bernd"


@dataclass(frozen=True)
class Sentence:
    """A catalogue message: its English text, and its plural when it has one."""

    singular: str
    plural: str | None

    def name_slots(self) -> set[str]:
        """The slots of this message that a name fills (``%(key)s`` only)."""
        texts = [self.singular, self.plural or ""]
        return {
            key
            for text in texts
            for key, kind in SLOT.findall(text)
            if kind == "s" and key in NAME_SLOTS + LIST_SLOTS
        }


def sentences_with_names() -> list[Sentence]:
    """Every message of the catalogue with at least one name slot."""
    with CATALOG.open("rb") as catalog:
        messages = [message for message in read_po(catalog) if message.id]
    found = []
    for message in messages:
        if isinstance(message.id, tuple):
            sentence = Sentence(str(message.id[0]), str(message.id[1]))
        else:
            sentence = Sentence(str(message.id), None)
        if sentence.name_slots():
            found.append(sentence)
    return found


SENTENCES = sentences_with_names()


def values_for(sentence: Sentence, name: str) -> dict[str, object]:
    """The sentence's slots filled in: every name slot with ``name``, every other one with
    a small number (which no language's word before it changes for)."""
    texts = sentence.singular + (sentence.plural or "")
    names = sentence.name_slots()
    return {key: name if key in names else 2 for key, _kind in SLOT.findall(texts)}


def capitalised(text: str) -> str:
    """As a rules message shows a sentence: with a capital first letter."""
    return text[:1].upper() + text[1:]


def said_three_ways(app: Flask, sentence: Sentence, name: str, language: str) -> str:
    """The sentence with ``name`` in ``language``, as Python, a template and a rules message
    say it; they must say it alike."""
    values = values_for(sentence, name)
    with app.test_request_context(), force_locale(language):
        if sentence.plural is None:
            python = flask_babel.gettext(sentence.singular, **values)
            template = render_template_string("{{ _(text, **values) }}", text=sentence.singular,
                                              values=values)  # fmt: skip
            rules = render_message(Message(sentence.singular, values))
        else:
            values.pop("num", None)  # the count is ngettext's own third argument
            python = flask_babel.ngettext(sentence.singular, sentence.plural, 2, **values)
            values["num"] = 2
            template = render_template_string(
                "{{ ngettext(one, many, 2, **values) }}",
                one=sentence.singular,
                many=sentence.plural,
                values=values,
            )
            rules = render_message(Message(sentence.singular, values, sentence.plural, 2))
    said = {capitalised(python), capitalised(html.unescape(template)), rules}
    assert len(said) == 1, f"{language}: {sentence.singular!r} is said three ways: {said}"
    return said.pop()


def translated(app: Flask, sentence: Sentence, language: str) -> str:
    """The catalogue's translation of the sentence (its plural form for 2), slots unfilled."""
    with app.test_request_context(), force_locale(language):
        translations = flask_babel.get_translations()
        if sentence.plural is None:
            return str(translations.ugettext(sentence.singular))
        return str(translations.ungettext(sentence.singular, sentence.plural, 2))


#: A rule of a language: given the translation with only its name slots left unfilled, the
#: name and what was said, it fails where the language would not say it so.
Rule = Callable[[str, str, str], None]


def names_only(written: str, slots: set[str]) -> str:
    """The translation with its other slots written as a number ("%(count)s" as "2")."""
    return SLOT.sub(lambda slot: slot.group(0) if slot.group(1) in slots else "2", written)


def check_every_sentence(app: Flask, language: str, rule: Rule) -> None:
    """Say every sentence with a name in ``language`` with each of the two names; the name
    comes out whole as often as the translation names it, no space is doubled, and ``rule``
    (given the translation, the name and what was said) holds."""
    assert len(SENTENCES) > 60  # the catalogue's messages with a name, not a handful
    for sentence in SENTENCES:
        written = names_only(translated(app, sentence, language), sentence.name_slots())
        slots = len(SLOT.findall(written))
        for name in (VOWEL, CONSONANT):
            said = said_three_ways(app, sentence, name, language)
            assert said.count(name) >= slots, (language, sentence.singular, said)
            assert "  " not in said, (language, sentence.singular, said)
            rule(written, name, said)


def no_change(written: str, name: str, said: str) -> None:
    """English and German: the name follows whatever word the translation puts before it."""
    for before in re.findall(r"(\S+)[ \u00a0]%\(\w+\)s", written):
        if before[-1].isalpha():
            assert f"{before} {name}" in said or before not in said, (written, said)


def test_english_names_stand_as_written(app: Flask) -> None:
    check_every_sentence(app, "en", no_change)


def test_german_names_stand_as_written(app: Flask) -> None:
    check_every_sentence(app, "de", no_change)


def italian_a(written: str, name: str, said: str) -> None:
    """Italian: "ad" before a vowel, "a" before a consonant (the rulebook's "ad ogni")."""
    if name == VOWEL:
        assert not re.search(rf"(?<![\w’'])[Aa] {name}", said), said
    else:
        assert not re.search(rf"(?<![\w’'])[Aa]d {name}", said), said


def test_italian_says_ad_before_a_vowel(app: Flask) -> None:
    check_every_sentence(app, "it", italian_a)


#: French words that elide before a vowel, and what they become.
FRENCH_ELISIONS = {"de": "d’", "que": "qu’", "le": "l’", "la": "l’"}


def french_elision(written: str, name: str, said: str) -> None:
    """French: "d’Anna", "qu’Anna", "l’Anna" before a vowel; "de Bernd" before a consonant."""
    words = "|".join(FRENCH_ELISIONS)
    if name == VOWEL:
        assert not re.search(rf"(?<![\w’'])(?:{words}) {name}", said, re.IGNORECASE), said
        for word in re.findall(rf"(?<![\w’'])({words}) %\(\w+\)s", written, re.IGNORECASE):
            elided = FRENCH_ELISIONS[word.lower()]
            assert f"{elided}{name}".lower() in said.lower(), (written, said)
    else:
        assert not re.search(rf"(?:d|qu|l)’{name}", said, re.IGNORECASE), said


def test_french_elides_before_a_vowel(app: Flask) -> None:
    check_every_sentence(app, "fr", french_elision)


def hungarian_article(written: str, name: str, said: str) -> None:
    """The article is "az" before a vowel and "a" before a consonant; "a(z)" is for a text
    that does not know the word after it, never before a name."""
    assert f"a(z) {name}" not in said.lower(), said
    if name == VOWEL:
        assert not re.search(rf"(?<![\w’'])[Aa] {name}", said), said
    else:
        assert not re.search(rf"(?<![\w’'])[Aa]z {name}", said), said


def test_hungarian_says_az_before_a_vowel(app: Flask) -> None:
    check_every_sentence(app, "hu", hungarian_article)


@pytest.mark.parametrize(
    ("language", "name", "expected"),
    [
        ("fr", "Anna", "Victoires d’Anna"),
        ("fr", "Éloïse", "Victoires d’Éloïse"),
        ("fr", "Ugo", "Victoires d’Ugo"),
        ("fr", "Bernd", "Victoires de Bernd"),
        ("fr", "Hélène", "Victoires de Hélène"),  # vowels only: no guess at a mute h
        ("fr", "8", "Victoires de 8"),
        ("hu", "Anna", "Anna győzelmei"),
    ],
)
def test_the_word_before_a_name_follows_its_first_letter(
    app: Flask, language: str, name: str, expected: str
) -> None:
    with app.test_request_context(), force_locale(language):
        assert flask_babel.gettext("Wins of %(name)s", name=name) == expected
