"""The rules worker says a refusal in the player's language, in the words of the server's
pages (issue 26): the rules archive ships the compiled catalogs, and the worker renders a
rules message with them through the one renderer the pages use too
(companion/rules/wording.py). Run as on the phone: the archive unpacked alone, with nothing
but Python's standard library."""

from __future__ import annotations

import gettext
import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from companion.play_state.offline_game import offline_state
from companion.read_models.messages import render_message
from companion.rules import Message, Refusal
from companion.rules.wording import Reader, say
from companion.web.offline import kit
from tests.offline.refusals import REFUSED, refusal
from tests.offline.requests import random_calls
from tests.offline.worker_run import archive, ask_worker
from tests.table import Table

LANGUAGES = ("en", "de", "it", "fr", "hu")
CATALOG = "companion/translations/{}/LC_MESSAGES/messages.mo"


def page_words(app: Flask, message: Message, language: str, names: Any = None) -> str:
    """What the server's pages say for ``message`` in ``language``."""
    with app.test_request_context(), force_locale(language):
        return render_message(message, names)


@pytest.fixture(scope="module")
def worker_words(unpacked: Path) -> dict[tuple[str, str], Any]:
    """The worker's answer to each refused request in each language, by (kind, language)."""
    asked = [(kind, language) for kind in REFUSED for language in LANGUAGES]
    calls = [(*REFUSED[kind], language) for kind, language in asked]
    return dict(zip(asked, ask_worker(unpacked, calls), strict=True))


def test_the_archive_holds_the_compiled_catalog_of_every_language_of_the_app(
    app: Flask,
) -> None:
    members = {info.filename for info in archive().infolist()}
    installed = Path(kit.companion.rules.__file__).parent.parent.parent
    catalogs = {name for name in members if name.endswith(".mo")}
    expected = {CATALOG.format(code) for code in app.config["LANGUAGES"] if code != "en"}
    assert catalogs == expected and len(expected) == 4
    for name in expected:
        assert archive().read(name) == (installed / name).read_bytes(), name


def test_the_refusals_cover_the_round_checks_a_count_and_tricks() -> None:
    """The cases below are what they say: C1-C5 and R16 each, sentences with a count in the
    plural and in the singular form, and tricks refused."""
    for kind, (call, body) in REFUSED.items():
        assert kind.split("|")[0] in str(refusal(call, body)), kind
    plurals = [refusal(*request).message for request in REFUSED.values()]
    counts = {message.count == 1 for message in plurals if message.plural is not None}
    assert counts == {True, False}
    assert {call for call, _ in REFUSED.values()} == {"rounds/score", "tricks/resolve"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_refusal_is_in_the_words_of_the_server_s_pages(
    app: Flask, client: FlaskClient, worker_words: dict[tuple[str, str], Any], language: str
) -> None:
    for kind, (call, body) in REFUSED.items():
        error = refusal(call, body)
        api = client.post(f"/api/v1/{call}", json=body)
        expected = page_words(app, error.message, language)
        answer = worker_words[kind, language]
        assert answer == {"status": api.status_code, "body": {"error": expected}}, kind
        if language != "en":
            assert expected != page_words(app, error.message, "en"), "translated"


def test_without_a_language_the_worker_says_the_api_s_english(
    unpacked: Path, client: FlaskClient
) -> None:
    answers = ask_worker(unpacked, [(*request, None) for request in REFUSED.values()])
    for (call, body), answer in zip(REFUSED.values(), answers, strict=True):
        api = client.post(f"/api/v1/{call}", json=body)
        assert answer == {"status": api.status_code, "body": api.get_json()}


def test_in_english_the_worker_says_the_api_s_error_but_counts_seats_as_the_table_does(
    client: FlaskClient, worker_words: dict[tuple[str, str], Any]
) -> None:
    """The API names a seat by its index (from 0), the pages as the table counts (from 1);
    a refusal that names no seat is the API's error word for word."""
    seatless = 0
    for kind, (call, body) in REFUSED.items():
        api = client.post(f"/api/v1/{call}", json=body).get_json()["error"]
        mine = worker_words[kind, "en"]["body"]["error"]
        if "player" in refusal(call, body).message.params:
            counted_from_one = re.sub(r"\b([Ss]eat )(\d+)", lambda m: f"{m[1]}{int(m[2]) + 1}", api)
            assert mine == counted_from_one != api, kind
        else:
            assert mine == api, kind
            seatless += 1
    assert seatless >= 3


@pytest.mark.parametrize("language", ["xx", "EN", "../de", ""])
def test_a_language_the_app_lacks_is_said_in_english(
    app: Flask, unpacked: Path, language: str
) -> None:
    call, body = REFUSED["(C4)"]
    (answer,) = ask_worker(unpacked, [(call, body, language)])
    assert answer["body"]["error"] == page_words(app, refusal(call, body).message, "en")


def test_the_language_changes_nothing_but_the_words_of_a_refusal(unpacked: Path) -> None:
    calls = [
        (call.path, call.body) for call in random_calls(seed=2604, rounds=30, broken_share=0.3)
    ]
    english = ask_worker(unpacked, [(*call, None) for call in calls])
    german = ask_worker(unpacked, [(*call, "de") for call in calls])
    refused = 0
    for call, theirs, mine in zip(calls, english, german, strict=True):
        assert mine["status"] == theirs["status"], call
        if "error" in theirs["body"]:
            refused += 1
            assert set(mine["body"]) == {"error"}
        else:
            assert mine == theirs, call
    assert 0 < refused < len(calls)


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_the_pure_renderer_with_the_shipped_catalog_is_the_page_s_renderer(
    app: Flask, language: str
) -> None:
    """With the players' names too (the word before a name changes with its first letter in
    Italian, French and Hungarian): ``say`` through the standard library's gettext on the
    shipped catalog gives the page's words."""
    catalog = gettext.GNUTranslations(io.BytesIO(archive().read(CATALOG.format(language))))
    reader = Reader.of(catalog, language)
    messages = [refusal(*request).message for request in REFUSED.values()]
    rng = random.Random(language)
    for message in messages:
        for names in (["Anna", "Bernd", "Èlia", "Ödön"], ["Ugo", "Zoé", "Ida", "Lea"]):
            rng.shuffle(names)
            assert say(message, reader, names) == page_words(app, message, language, names)


@pytest.mark.parametrize("language", ["de", "hu"])
def test_a_queued_round_refused_offline_is_said_as_the_record_page_says_it(
    app: Flask, table: Table, unpacked: Path, language: str
) -> None:
    """A round kept on the phone that the rules refuse (C1: red 4 at two seats): the worker's
    ``games/offline`` says so in the table's language, naming its players, word for word as
    the server's page would."""
    names = ["Ann", "Ben", "Cleo"]
    game = table.new_game(names, rounds=2)
    red_4 = [{"colour": "red", "value": 4}]
    entry = {"marked": red_4, "tricks": 5, "marked_captured": []}
    queued = [{"action": "record", "body": {"version": 0, "entries": [entry, entry, entry]}}]
    state = table.state(game)
    refusals: list[Refusal] = []

    def kept(error: Refusal, _names: Any) -> str:
        refusals.append(error)
        return str(error)

    offline_state(state, queued, kept)
    assert len(refusals) == 1 and "C1" in str(refusals[0])
    [answer] = ask_worker(
        unpacked, [("games/offline", {"state": state, "queued": queued}, language)]
    )
    assert answer["status"] == 200
    [refused] = answer["body"]["refused"]
    assert refused["error"] == page_words(app, refusals[0].message, language, names)
    assert "Ann" in refused["error"] and refused["error"] != str(refusals[0])
