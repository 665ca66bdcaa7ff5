"""The words of offline play (``/offline/words.json``): what static/offline_play.js says with
no network, in the language it asks for, kept by the service worker for that use."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

#: Its tests' bodies run no statement on the app's database (tests/conftest.py checks).
pytestmark = pytest.mark.no_database_queries

LANGUAGES = ["en", "de", "it", "fr", "hu"]


def words(client: FlaskClient, query: str = "", **headers: str) -> dict[str, Any]:
    answer = client.get(f"/offline/words.json{query}", headers=headers)
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-cache"  # the worker keeps its own copy
    body: dict[str, Any] = answer.get_json()
    return body


def flat(found: dict[str, Any]) -> dict[str, str]:
    """Every sentence, plural forms under ``waiting.one`` / ``waiting.other``."""
    out = {key: value for key, value in found.items() if isinstance(value, str)}
    out.update({f"waiting.{form}": text for form, text in found["waiting"].items()})
    return out


#: What the words hold besides sentences: their language, and the rules page's address.
NOT_WORDS = ("lang", "rules_url")


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_sentence_is_said_in_the_language_asked_for(
    client: FlaskClient, language: str
) -> None:
    english = flat(words(client, "?lang=en"))
    found = flat(words(client, f"?lang={language}"))
    assert found.keys() == english.keys()
    assert found["lang"] == language
    untranslated = [key for key in found if key not in NOT_WORDS and found[key] == english[key]]
    assert untranslated == []
    assert found["rules_url"] == english["rules_url"] == "/rules"
    # The placeholders the script fills in survive translation, each where English has it.
    for key, text in english.items():
        for name in ("{count}", "{number}", "{error}", "{name}", "{planned}"):
            assert (name in found[key]) == (name in text), (key, name)


def test_the_waiting_count_has_the_language_s_plural_forms(client: FlaskClient) -> None:
    english = words(client, "?lang=en")["waiting"]
    assert english["one"].startswith("{count} change ") and " is " in english["one"]
    assert english["other"].startswith("{count} changes ") and " are " in english["other"]


def test_a_language_the_app_lacks_is_the_visitor_s(app: Flask, client: FlaskClient) -> None:
    assert "de" in app.config["LANGUAGES"]
    german = words(client, "?lang=de")
    assert words(client, "?lang=xx", **{"Accept-Language": "de-DE,de"}) == german
    assert words(client, **{"Accept-Language": "de"}) == german
