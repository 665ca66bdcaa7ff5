"""Choosing the interface language, switching it, and the completeness of the catalogs."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from companion.web.i18n import safe_next_path
from scripts.page_reader import page_language

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "companion" / "translations"

WELCOME = {
    "en": ("Welcome to the Sticheln companion", "At your table", "Language"),
    "de": ("Willkommen beim Sticheln-Begleiter", "Am Tisch", "Sprache"),
    "it": ("Benvenuti nell’assistente per Sticheln", "Al tavolo", "Lingua"),
    "fr": ("Bienvenue dans le compagnon de Sticheln", "À votre table", "Langue"),
    "hu": ("Üdvözöl a Sticheln-segéd", "Az asztalnál", "Nyelv"),
}


def html_lang(page: str) -> str:
    """Return the ``lang`` attribute of the page's ``<html>`` element."""
    language = page_language(page)
    assert language is not None, page[:200]
    return language


def assert_home_page_in(page: str, code: str) -> None:
    """Check that the home page speaks the language ``code`` throughout."""
    heading, tools, language = WELCOME[code]
    assert html_lang(page) == code
    assert f"<h1>{heading}</h1>" in page
    assert f'<h2 id="home-table">{tools}</h2>' in page
    assert f'<nav aria-label="{language}">' in page
    assert "<code>/api/v1</code>" in page


@pytest.mark.no_database_queries
@pytest.mark.parametrize("code", WELCOME)
def test_home_page_follows_accept_language(client: FlaskClient, code: str) -> None:
    page = client.get("/", headers={"Accept-Language": f"{code};q=0.9, ja;q=0.5"})
    assert_home_page_in(page.get_data(as_text=True), code)


@pytest.mark.no_database_queries
@pytest.mark.parametrize("code", WELCOME)
def test_home_page_follows_the_language_cookie_over_accept_language(
    client: FlaskClient, code: str
) -> None:
    client.set_cookie("lang", code)
    page = client.get("/", headers={"Accept-Language": "hu" if code != "hu" else "de"})
    assert_home_page_in(page.get_data(as_text=True), code)


@pytest.mark.no_database_queries
def test_regional_accept_language_picks_the_language(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.8"})
    assert_home_page_in(page.get_data(as_text=True), "fr")


@pytest.mark.no_database_queries
def test_unsupported_languages_fall_back_to_english(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "ja, zh;q=0.8"})
    assert_home_page_in(page.get_data(as_text=True), "en")


@pytest.mark.no_database_queries
def test_unknown_cookie_falls_back_to_accept_language(client: FlaskClient) -> None:
    client.set_cookie("lang", "xx")
    page = client.get("/", headers={"Accept-Language": "it"})
    assert_home_page_in(page.get_data(as_text=True), "it")


@pytest.mark.no_database_queries
def test_pages_say_they_vary_by_language(client: FlaskClient) -> None:
    response = client.get("/")
    assert {"Accept-Language", "Cookie"} <= set(response.vary)


@pytest.mark.no_database_queries
def test_switching_language_sets_a_year_long_lax_http_only_cookie(client: FlaskClient) -> None:
    response = client.get("/lang/de?next=/games?page=2")
    assert response.status_code == 302
    assert response.headers["Location"] == "/games?page=2"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=de;")
    assert "Max-Age=31536000" in cookie
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Path=/" in cookie


@pytest.mark.no_database_queries
def test_switching_language_then_shows_pages_in_it(client: FlaskClient) -> None:
    page = client.get(
        "/lang/hu?next=/", headers={"Accept-Language": "en"}, follow_redirects=True
    ).get_data(as_text=True)
    assert_home_page_in(page, "hu")
    assert '<a href="/lang/hu?next=/" lang="hu" hreflang="hu" aria-current="true">' in page


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "http:/evil.example",
        "javascript:alert(1)",
        "evil.example",
        "/ok\r\nSet-Cookie: x=1",
        "",
    ],
)
@pytest.mark.no_database_queries
def test_switching_language_refuses_to_leave_the_site(client: FlaskClient, target: str) -> None:
    response = client.get("/lang/fr", query_string={"next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert response.headers["Set-Cookie"].startswith("lang=fr;")


@pytest.mark.no_database_queries
def test_switching_language_without_next_goes_home(client: FlaskClient) -> None:
    assert client.get("/lang/it").headers["Location"] == "/"


@pytest.mark.no_database_queries
def test_switching_to_an_unknown_language_is_not_found(client: FlaskClient) -> None:
    response = client.get("/lang/xx?next=/")
    assert response.status_code == 404
    assert "Set-Cookie" not in response.headers


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/", "/"),
        ("/games/12?tab=rounds", "/games/12?tab=rounds"),
        ("//evil.example", "/"),
        ("/\\evil.example", "/"),
        ("https://evil.example", "/"),
        ("games", "/"),
        (None, "/"),
    ],
)
def test_safe_next_path_keeps_only_paths_on_this_site(target: str | None, expected: str) -> None:
    assert safe_next_path(target) == expected


def project_messages() -> set[tuple[str, str | None]]:
    """Every translatable string that ``pybabel extract`` finds with babel.cfg and the
    keywords docs/development.md gives it (a plural by its singular), with its context
    (pgettext)."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    keywords = {**DEFAULT_KEYWORDS, "_l": None, "N_": None}
    found = extract_from_dir(str(ROOT), method_map, options_map, keywords=keywords)
    return {
        (message if isinstance(message, str) else message[0], context)
        for _, _, message, _, context in found
    }


@pytest.mark.parametrize("code", ["de", "it", "fr", "hu"])
def test_every_string_of_the_code_and_the_templates_is_translated(code: str) -> None:
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as file:
        catalog = read_po(file, locale=code)
    in_context = project_messages()
    messages = {message for message, _context in in_context}
    assert {"Welcome to the Sticheln companion", "Games exported: %(count)s."} <= messages
    assert "%(num)d colour" in messages  # a plural, by its singular
    assert ("Round", "CSV column") in in_context  # a string with its context
    for message, context in in_context:
        entry = catalog.get(message, context=context)
        assert entry is not None, f"{code}: {message!r} is missing"
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert all(strings), f"{code}: {message!r} is not translated"
        assert "fuzzy" not in entry.flags, f"{code}: {message!r} is fuzzy"


@pytest.mark.parametrize(
    "catalog",
    ["messages.pot", *(f"{code}/LC_MESSAGES/messages.po" for code in ("de", "it", "fr", "hu"))],
)
def test_every_catalog_is_well_formed(catalog: str) -> None:
    """Each entry whole (a msgid with its msgstr): a catalog edited by hand or joined by a
    merge is read strictly, as ``msgfmt -c`` would."""
    with (TRANSLATIONS / catalog).open("rb") as file:
        read_po(file, abort_invalid=True)
