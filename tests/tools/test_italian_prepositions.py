"""Italian writes "ad" for "a" before a word opening with a vowel (the rulebook's "ad ogni",
"ad eccezione"): the resolver and the live round say "Tocca ad Anna" but "Tocca a Bernd",
and every message with "a" before a name does the same."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from markupsafe import Markup

from companion.rules.names_in_sentences import before_names
from companion.web.i18n import gettext_with_names
from scripts.page_reader import read_page
from tests.games.test_live_pages import play_cards
from tests.table import Table
from tests.tools.test_resolver_page import start_live_round
from tests.tools.tool_helpers import page_text, tap_cards

NAMES = ["Anna", "Bernd", "Eva", "Dario"]


def next_to_play(page: str) -> str:
    """The resolver's line saying who plays next."""
    return read_page(page).find("p", class_="trick-next").words()


def italian_game(client: FlaskClient, table: Table, first_leader: int) -> str:
    """A classic game of the four, its pages asked in Italian."""
    client.set_cookie("lang", "it")
    code: str = table.new_game(NAMES, "classic", rounds=5, first_leader=first_leader)["id"]
    return code


def test_the_italian_resolver_says_ad_before_anna_and_a_before_bernd(
    client: FlaskClient, table: Table
) -> None:
    code = italian_game(client, table, first_leader=0)
    page = page_text(client.get(f"/g/{code}/resolve"))
    assert next_to_play(page) == "Tocca ad Anna."
    after = page_text(tap_cards(client, page, "yellow-3"))
    assert next_to_play(after) == "Tocca a Bernd."
    after = page_text(tap_cards(client, after, "green-3"))
    assert next_to_play(after) == "Tocca ad Eva."


def test_the_other_languages_keep_their_words(client: FlaskClient, table: Table) -> None:
    code = italian_game(client, table, first_leader=0)
    client.set_cookie("lang", "en")
    page = page_text(client.get(f"/g/{code}/resolve"))
    assert next_to_play(page) == "Next to play: Anna."


def test_the_italian_live_round_says_ad_before_a_vowel(client: FlaskClient, table: Table) -> None:
    """Dario leads; once his card is in, Anna plays next, then Bernd."""
    client.set_cookie("lang", "it")
    game = table.new_game(NAMES, "classic", rounds=5, first_leader=3, edit_here=True)
    start_live_round(client, game, ["red-4", "blue-0", "green-1", "yellow-2"])
    live = page_text(client.get(f"/g/{game['id']}/rounds/1/live"))
    live = play_cards(client, live, "red 5")
    assert read_page(live).find(class_="live-turn").words() == "Tocca ad Anna."
    live = play_cards(client, live, "red 6")
    assert read_page(live).find(class_="live-turn").words() == "Tocca a Bernd."


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Anna", "Tocca ad Anna."),
        ("anna", "Tocca ad anna."),
        ("Èlia", "Tocca ad Èlia."),
        ("Ugo", "Tocca ad Ugo."),
        ("Olga", "Tocca ad Olga."),
        ("Ines", "Tocca ad Ines."),
        ("Bernd", "Tocca a Bernd."),
        ("Hanna", "Tocca a Hanna."),
        ("Giocatore 1", "Tocca a Giocatore 1."),
        (Markup("<b>Anna</b>"), "Tocca ad <b>Anna</b>."),
    ],
)
@pytest.mark.no_database_queries
def test_the_preposition_follows_the_names_first_letter(
    app: Flask, name: str, expected: str
) -> None:
    with app.test_request_context(), force_locale("it"):
        assert gettext_with_names("Next to play: %(player)s.", player=name) == expected


@pytest.mark.no_database_queries
def test_a_number_keeps_its_a(app: Flask) -> None:
    with app.test_request_context(), force_locale("it"):
        assert gettext_with_names("Enter a number from 0 to %(most)s.", most=8) == (
            "Inserisci un numero da 0 a 8."
        )
    assert before_names("da 0 a %(most)s", {"most": "8"}, "it") == "da 0 a %(most)s"


def test_only_italian_changes_its_preposition() -> None:
    assert before_names("a %(name)s", {"name": "Anna"}, "it") == "ad %(name)s"
    assert before_names("A %(name)s", {"name": "Anna"}, "it") == "Ad %(name)s"
    for language in ("en", "de", "fr"):
        assert before_names("a %(name)s", {"name": "Anna"}, language) == "a %(name)s"
    assert before_names("casa %(name)s", {"name": "Anna"}, "it") == "casa %(name)s"


def test_french_and_hungarian_change_their_own_words() -> None:
    """French elides "de" (tests/test_names_in_messages.py checks every message); Hungarian's
    article "a" is "az" before a vowel."""
    assert before_names("de %(name)s", {"name": "Anna"}, "fr") == "d’%(name)s"
    assert before_names("De %(name)s", {"name": "Anna"}, "fr") == "D’%(name)s"
    assert before_names("de %(name)s", {"name": "Bernd"}, "fr") == "de %(name)s"
    assert before_names("a %(name)s", {"name": "Anna"}, "hu") == "az %(name)s"
    assert before_names("a(z) %(name)s", {"name": "Bernd"}, "hu") == "a %(name)s"
    assert before_names("A(z) %(id)s.", {"id": 5}, "hu") == "A(z) %(id)s."


@pytest.mark.parametrize(
    ("msgid", "target", "expected"),
    [
        ("Merge %(name)s into %(target)s?", "Anna", "Unire Bernd ad Anna?"),
        ("Merge %(name)s into %(target)s?", "Dario", "Unire Bernd a Dario?"),
        ("Back to %(name)s", None, "Torna ad Anna"),
    ],
)
@pytest.mark.no_database_queries
def test_every_italian_a_before_a_name_elides(
    app: Flask, msgid: str, target: str | None, expected: str
) -> None:
    """The catalog's other "a %(name)s" messages follow the same rule."""
    values = {"name": "Bernd", "target": target} if target else {"name": "Anna"}
    with app.test_request_context(), force_locale("it"):
        assert gettext_with_names(msgid, **values) == expected
