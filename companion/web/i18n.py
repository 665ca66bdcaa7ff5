"""Interface language: choosing the locale per request and switching it with a cookie."""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Any

import flask_babel
from flask import Blueprint, Flask, abort, current_app, has_request_context, redirect, request
from flask.typing import ResponseReturnValue
from flask_babel import Babel, format_decimal, get_locale, get_translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response

from companion.pages import render as pages_render
from companion.read_models.names_in_sentences import (
    names_in_place,
    reader_language,
)
from companion.web.security import cookie_path

LANGUAGE_COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 60 * 60

LANGUAGE_NAMES = {
    "en": "English",
    "de": "Deutsch",
    "it": "Italiano",
    "fr": "Français",
    "hu": "Magyar",
}
"""Each language by its own name, as the switcher shows it (never translated)."""

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """Pick the locale: the ``lang`` cookie if supported, else Accept-Language, else English."""
    languages: list[str] = current_app.config["LANGUAGES"]
    if not has_request_context():  # a command-line command speaks the default language
        return str(current_app.config.get("BABEL_DEFAULT_LOCALE", "en"))
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in languages:
        return chosen
    return best_language(request.headers.get("Accept-Language", ""), tuple(languages))


@lru_cache(maxsize=512)
def best_language(header: str, languages: tuple[str, ...]) -> str:
    """The language of ``languages`` an ``Accept-Language`` header asks for first, else
    English; read once per header (every polled page's ETag asks, and phones send few)."""
    return parse_accept_header(header, LanguageAccept).best_match(languages) or "en"


def safe_next_path(target: str | None) -> str:
    """Return ``target`` if it is a path on this site, else ``/``.

    Only a path starting with a single slash is accepted: ``//host`` and ``/\\host`` are
    read by browsers as other sites, and control characters have no place in a path.
    """
    if (
        not target
        or not target.startswith("/")
        or target.startswith(("//", "/\\"))
        or any(ord(char) < 32 or ord(char) == 127 for char in target)
    ):
        return "/"
    return target


@bp.route("/lang/<language>")
def set_language(language: str) -> ResponseReturnValue:
    """Remember the chosen language for a year, for this app's pages only, and go back to
    the page it was chosen on."""
    if language not in current_app.config["LANGUAGES"]:
        abort(404)
    response = redirect(safe_next_path(request.args.get("next")))
    response.set_cookie(
        LANGUAGE_COOKIE,
        language,
        max_age=COOKIE_MAX_AGE,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure,
        path=cookie_path(current_app),
    )
    return response


#: Answers that are the same in every language: static files and the offline kit (13 MB a
#: phone must not fetch again because a cookie changed).
LANGUAGE_FREE_ENDPOINTS = frozenset({"static", "offline.kit_file", "offline.manifest"})


def add_vary_headers(response: Response) -> Response:
    """Tell caches that a page's language depends on the cookie and Accept-Language; static
    files and the offline kit are the same in every language, and stay cacheable whatever
    the cookies."""
    if request.endpoint in LANGUAGE_FREE_ENDPOINTS:
        return response
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


def template_globals() -> dict[str, Any]:
    """Give templates the current locale and the language switcher's entries: the languages
    the app speaks, each by its own name."""
    return {
        "current_locale": str(get_locale()),
        "get_locale": get_locale,
        "language_names": {
            code: LANGUAGE_NAMES.get(code, code) for code in current_app.config["LANGUAGES"]
        },
    }


def keep_languages_with_catalogs(app: Flask) -> None:
    """Leave out every language whose compiled catalog cannot be found, saying so in the log.

    Without its catalog a language's pages would carry its ``lang`` and the switcher would
    offer it, while every word stayed English. Left out, pages asked in it are English and
    say ``lang="en"``; the other languages go on. The default language needs no catalog:
    its words are the messages themselves.
    """
    with app.app_context():
        found = {str(locale) for locale in babel.list_translations()}
    configured: list[str] = app.config["LANGUAGES"]
    missing = [code for code in configured if code not in found]
    if not missing:
        return
    app.config["LANGUAGES"] = [code for code in configured if code in found]
    app.logger.warning(
        "No compiled message catalog for %s: pages asked in %s are served in English. "
        "Compile the catalogs (python3 manage.py setup) or install the app from its wheel, "
        "which carries them.",
        ", ".join(missing),
        "it" if len(missing) == 1 else "them",
    )


def counts_written_locally(ngettext: Any) -> Any:
    """The templates' ``ngettext`` with its count written as the reader writes numbers and
    the word before a name as the reader's language writes it (companion/pages/render.py)."""
    return pages_render.counts_written_locally(
        ngettext,
        reader_language,
        lambda singular, plural, count: get_translations().ungettext(singular, plural, count),
        format_decimal,
    )


# --------------------------------------------------------------------------------------------
# The word before a name, as the reader's language writes it (names_in_sentences): every
# way a sentence is translated here, Python's gettext and ngettext and the templates' own,
# fills in its names that way.


class NamesDomain(flask_babel.Domain):
    """Flask-Babel's domain, whose ``gettext`` and ``ngettext`` write the word before each
    name as the reader's language does ("d’Anna", "ad Anna")."""

    def gettext(self, string: str, **variables: Any) -> str:
        """The translation of ``string``, its variables filled in."""
        text: str = self.get_translations().ugettext(string)
        return names_in_place(text, variables) % variables if variables else text

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        """The form of the sentence for ``num``, its variables filled in."""
        variables.setdefault("num", num)
        text: str = self.get_translations().ungettext(singular, plural, num)
        return names_in_place(text, variables) % variables


class NamesBabel(Babel):
    """Flask-Babel, translating through :class:`NamesDomain`."""

    @cached_property
    def domain_instance(self) -> flask_babel.Domain:
        """The app's one message domain."""
        return NamesDomain(domain=self.domain)


def gettext_with_names(string: str, /, **variables: Any) -> str:
    """``gettext`` for a message naming a player ("Tocca ad Anna"): the app's gettext does
    it for every message; this name says so where it matters."""
    return flask_babel.gettext(string, **variables)


def names_written_locally(gettext: Any) -> Any:
    """The templates' ``gettext`` with the word before a name written as the reader's
    language writes it (companion/pages/render.py)."""
    return pages_render.names_written_locally(
        gettext, reader_language, lambda string: get_translations().ugettext(string)
    )


babel = NamesBabel()


def init_app(app: Flask) -> None:
    """Set up Flask-Babel and the template globals (``create_app`` registers ``bp``, the
    language switch route, with the other blueprints)."""
    babel.init_app(app, locale_selector=select_locale)
    keep_languages_with_catalogs(app)
    globals_ = app.jinja_env.globals
    globals_["ngettext"] = counts_written_locally(globals_["ngettext"])
    globals_["gettext"] = names_written_locally(globals_["gettext"])
    app.after_request(add_vary_headers)
    app.context_processor(template_globals)
