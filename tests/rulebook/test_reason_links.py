"""Pages that explain a trick link each ruling they cite to the rules page: the trick
resolver and the live round (R7, R8, R19-R21), and the tool pages link the rules page."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.games.test_live_pages import open_classic, play_cards
from tests.table import Table
from tests.tools.tool_helpers import page_text, tap_cards


@pytest.mark.no_database_queries
def test_the_resolvers_reason_links_each_ruling_it_cites(client: FlaskClient) -> None:
    page = page_text(client.get("/resolve?players=5"))

    after = page_text(tap_cards(client, page, "yellow-3", "green-3", "blue-9"))

    reason = after[after.index('<p class="trick-reason">') :]
    reason = reason[: reason.index("</p>")]
    assert '(<a href="/rules#r7">R7</a>, <a href="/rules#r8">R8</a>)' in reason


@pytest.mark.no_database_queries
def test_a_hat_trick_reason_links_its_rulings_too(client: FlaskClient) -> None:
    page = page_text(client.get("/resolve?variant=hat-trick&players=4"))

    after = page_text(tap_cards(client, page, "red-9", "blue-12"))

    assert '<a href="/rules#r21">R21</a>' in after


def test_the_live_round_links_the_rulings_of_its_reason(client: FlaskClient, table: Table) -> None:
    _code, _key, live = open_classic(table)

    after = play_cards(client, live, "red 5, blue 6")

    reason = after[after.index('<p class="live-reason">') :]
    assert '<a href="/rules#r8">R8</a>' in reason[: reason.index("</p>")]


@pytest.mark.no_database_queries
def test_the_resolver_and_the_setup_page_link_the_rules_page(client: FlaskClient) -> None:
    resolver = page_text(client.get("/resolve"))
    classic_setup = page_text(client.get("/setup?players=4"))
    hat_trick_setup = page_text(client.get("/setup?players=5&variant=hat-trick"))

    assert 'href="/rules#tricks">How tricks are won</a>' in resolver
    assert 'href="/rules#deck">Rules</a>' in classic_setup
    assert 'href="/rules#hat-trick">Rules</a>' in hat_trick_setup
