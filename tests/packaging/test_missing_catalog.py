"""A page never claims a language it does not show: a language whose compiled catalog is
missing is left out at start-up, and pages asked in it are English with ``lang="en"``."""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path

import pytest
from flask import Flask

from companion import create_app
from scripts.page_reader import addresses, page_language

TRANSLATIONS = Path(__file__).resolve().parents[2] / "companion" / "translations"


def catalogs_without(folder: Path, *left_out: str) -> Path:
    """A copy of the compiled catalogs, each language of ``left_out`` without its .mo."""
    shutil.copytree(TRANSLATIONS, folder, ignore=shutil.ignore_patterns("*.po", "*.pot"))
    for code in left_out:
        (folder / code / "LC_MESSAGES" / "messages.mo").unlink()
    return folder


def app_with_catalogs(folder: Path, instance: Path) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'test.sqlite3'}",
            "BABEL_TRANSLATION_DIRECTORIES": str(folder),
        },
        instance_path=str(instance),
    )


def html_lang(page: str) -> str:
    language = page_language(page)
    assert language is not None, page[:200]
    return language


@pytest.fixture
def app_without_german(tmp_path: Path) -> Flask:
    return app_with_catalogs(catalogs_without(tmp_path / "translations", "de"), tmp_path)


def test_the_compiled_catalogs_of_the_checkout_are_all_there() -> None:
    """The copies below start from the real catalogs: without them the tests prove nothing."""
    for code in ("de", "it", "fr", "hu"):
        assert (TRANSLATIONS / code / "LC_MESSAGES" / "messages.mo").is_file(), code


def test_a_page_asked_in_german_without_its_catalog_is_english_and_says_so(
    app_without_german: Flask,
) -> None:
    client = app_without_german.test_client()
    page = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert html_lang(page) == "en"
    assert "<h1>Welcome to the Sticheln companion</h1>" in page


def test_the_german_cookie_without_the_catalog_gives_english_too(app_without_german: Flask) -> None:
    client = app_without_german.test_client()
    client.set_cookie("lang", "de")
    page = client.get("/rules").get_data(as_text=True)
    assert html_lang(page) == "en"
    assert "<h1>Rules</h1>" in page


def test_the_switcher_no_longer_offers_the_missing_language(app_without_german: Flask) -> None:
    client = app_without_german.test_client()
    page = client.get("/").get_data(as_text=True)
    switches = [re.match(r"/lang/(\w+)\?", address) for address in addresses(page)]
    offered = [switch.group(1) for switch in switches if switch]
    assert offered == ["en", "it", "fr", "hu"]
    assert client.get("/lang/de").status_code == 404


def test_the_languages_that_have_their_catalog_still_speak(app_without_german: Flask) -> None:
    client = app_without_german.test_client()
    page = client.get("/", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert html_lang(page) == "it"
    assert '<h2 id="home-table">Al tavolo</h2>' in page


def test_the_start_up_log_names_the_missing_catalogs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = catalogs_without(tmp_path / "translations", "de", "hu")
    with caplog.at_level(logging.WARNING):
        app = app_with_catalogs(folder, tmp_path)
    assert app.config["LANGUAGES"] == ["en", "it", "fr"]
    warnings = [record.getMessage() for record in caplog.records]
    assert any("de, hu" in message and "English" in message for message in warnings), warnings


def test_with_every_catalog_every_language_is_kept(tmp_path: Path) -> None:
    app = app_with_catalogs(catalogs_without(tmp_path / "translations"), tmp_path)
    assert app.config["LANGUAGES"] == ["en", "de", "it", "fr", "hu"]
