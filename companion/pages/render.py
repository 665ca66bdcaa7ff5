"""The templates' words, as the server's pages and the phone's rules worker both say them.

Jinja's i18n extension gives templates ``_``, ``gettext`` and ``ngettext`` (new style: the
variables are filled in, and escaped, by Jinja). The app writes two things on top, here once
for both sides: the word before a player's name as the reader's language writes it ("ad
Anna", companion/rules/names_in_sentences.py), and a count as the reader writes numbers.
The server wraps Flask-Babel's callables (companion/web/i18n.py); the worker wraps Python's
``gettext`` over the compiled catalogs (:func:`page_environment`).
"""

from __future__ import annotations

import gettext as python_gettext
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, Environment, FileSystemLoader, ModuleLoader, pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from companion.rules.names_in_sentences import ELIDING, before_names


def names_written_locally(
    gettext: Any, language: Callable[[], str], translate: Callable[[str], str]
) -> Any:
    """The templates' ``gettext`` with the word before a name written as the reader's
    ``language`` writes it (``before_names``); escaping stays as Jinja's own gettext does it."""

    @pass_context
    def localized(context: Context, string: str, /, **variables: Any) -> str:
        reader = language()
        if not variables or reader not in ELIDING:
            text: str = gettext(context, string, **variables)
            return text
        found = before_names(translate(string), variables, reader)
        shown = Markup(found) if context.eval_ctx.autoescape else found
        return shown % variables

    return localized


def counts_written_locally(
    ngettext: Any,
    language: Callable[[], str],
    translate: Callable[[str, str, int], str],
    number: Callable[[int], str],
) -> Any:
    """The templates' ``ngettext`` with its count written as the reader writes numbers
    (``number``): "10,000 games", "10.000 Partien", "10 000 parties". The count still picks
    the plural form; only ``%(num)s`` in the text changes (a caller's own ``num=`` is kept)."""

    @pass_context
    def localized(
        context: Context, singular: str, plural: str, count: int, /, **variables: Any
    ) -> str:
        variables.setdefault("num", number(count))
        reader = language()
        if reader not in ELIDING:
            text: str = ngettext(context, singular, plural, count, **variables)
            return text
        form = translate(singular, plural, count)
        found = before_names(form, variables, reader)
        shown = Markup(found) if context.eval_ctx.autoescape else found
        return shown % variables

    return localized


def plain_number(count: int) -> str:
    """A count as the worker writes it: the pages it renders count rounds, cards and tricks,
    which stay below a thousand, where every language writes the digits alone."""
    return str(count)


def templates_environment(loader: BaseLoader) -> Environment:
    """The templates as the server renders them: HTML escaped, Jinja's i18n extension (the
    compiled templates of :func:`compiled_templates` hold these settings)."""
    return Environment(
        loader=loader, autoescape=True, extensions=["jinja2.ext.i18n"], auto_reload=False
    )


def compiled_templates(templates: Path, names: Sequence[str]) -> dict[str, str]:
    """The templates ``names`` (under ``templates``) compiled to Python modules, each by the
    file name Jinja's ``ModuleLoader`` looks for: done once when the kit is built, so that
    the phone imports a page's template instead of compiling it at its first render."""
    environment = templates_environment(FileSystemLoader(str(templates)))
    compiled = {}
    for name in names:
        source = Path(templates, name).read_text(encoding="utf-8")
        code = environment.compile(source, name, None, raw=True, defer_init=True)
        compiled[ModuleLoader.get_module_filename(name)] = code
    return compiled


def page_environment(
    templates: Path, translations: python_gettext.NullTranslations, language: str
) -> Environment:
    """The templates in ``templates`` as the server renders them, in ``language`` through
    ``translations``, the words of the i18n extension written as the server's pages write
    them. ``templates`` holds the templates, or the modules :func:`compiled_templates`
    made of them."""
    compiled = any(templates.glob("tmpl_*.py"))
    loader = ModuleLoader(str(templates)) if compiled else FileSystemLoader(str(templates))
    env = templates_environment(loader)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        translations.gettext, translations.ngettext, newstyle=True
    )
    env.globals["gettext"] = names_written_locally(
        env.globals["gettext"], lambda: language, translations.gettext
    )
    env.globals["ngettext"] = counts_written_locally(
        env.globals["ngettext"], lambda: language, translations.ngettext, plain_number
    )
    return env


#: How many rulings and checks RULES.md numbers: R1-R23 and C1-C6.
RULING_COUNTS = {"R": 23, "C": 6}
#: A citation such as "R7" or "C3": a whole word, no leading zero.
CITATION = re.compile(r"\b([RC])([1-9][0-9]?)\b")


def link_citations(text: object, rules_url: str) -> Markup:
    """``text`` HTML-escaped, with each citation of a ruling or check ("R7", "C3") made a
    link to its anchor on the rules page at ``rules_url``: "(R7, R8)" becomes
    "(<a href="/rules#r7">R7</a>, <a href="/rules#r8">R8</a>)". Numbers that name no ruling
    ("R99") stay plain text.

    Markup (a translated template string, say) is trusted as it is; anything else is
    escaped first, so a player's name can never inject HTML."""
    if text is None:
        return Markup("")

    def link(match: re.Match[str]) -> str:
        letter, number = match.group(1), int(match.group(2))
        if number > RULING_COUNTS[letter]:
            return match.group(0)
        citation = f"{letter}{number}"
        return f'<a href="{escape(rules_url)}#{citation.lower()}">{citation}</a>'

    return Markup(CITATION.sub(link, str(escape(text))))
