"""The other writes that phones can send at the same moment: confirming the same change on a
game's page, and starting games whose new players share a name. Whatever the timing, no
phone gets a server error, and each change happens once."""

from __future__ import annotations

from functools import partial

import pytest

from scripts import server_harness
from scripts.page_reader import csrf_token, read_page
from scripts.server_harness import Client, Reply, Table

PHONES = 8


def confirm_page_phones(http: Client, table: Table, action: str) -> list[Reply]:
    """``PHONES`` phones holding the edit key send the confirmation of ``action`` at once,
    each based on the version the page showed."""
    granted = http.get(f"/g/{table.code}/edit/{table.key}")
    page = http.get(f"/g/{table.code}/{action}", server_harness.session_header(granted.session))
    assert page.status == 200, page.text[:300]
    session = page.session or granted.session
    version = read_page(page.text).find("input", name="version").get("value")
    assert version and version.isdigit() and int(version) == table.version
    form = {"csrf_token": csrf_token(page.text), "version": version}
    send = partial(
        http.request,
        "POST",
        f"/g/{table.code}/{action}",
        None,
        server_harness.session_header(session),
    )
    return server_harness.at_once([partial(send, form=form) for _ in range(PHONES)])


def new_table(http: Client, label: str) -> Table:
    """A game of four started through the API."""
    reply, table = server_harness.create_game(
        http, server_harness.table_names(label, 4), "classic", 5
    )
    assert table is not None, reply.text
    return table


def test_of_phones_abandoning_a_game_at_once_it_is_abandoned_once_and_none_gets_an_error(
    http: Client,
) -> None:
    table = new_table(http, "abandon race")
    statuses = sorted(reply.status for reply in confirm_page_phones(http, table, "abandon"))
    assert set(statuses) <= {302, 409}, statuses
    state = http.get(f"/api/v1/games/{table.code}").json()
    assert (state["status"], state["version"]) == ("abandoned", table.version + 1)


def test_of_phones_deleting_a_game_at_once_one_deletes_it_and_none_gets_an_error(
    http: Client,
) -> None:
    table = new_table(http, "delete race")
    replies = confirm_page_phones(http, table, "delete")
    statuses = sorted(reply.status for reply in replies)
    assert statuses[0] == 302 and set(statuses[1:]) <= {404, 409}, statuses
    assert http.get(f"/api/v1/games/{table.code}").status == 404


def test_of_phones_making_a_new_edit_link_at_once_one_is_made_and_none_gets_an_error(
    http: Client,
) -> None:
    table = new_table(http, "share race")
    statuses = sorted(reply.status for reply in confirm_page_phones(http, table, "share"))
    assert statuses[0] == 302 and set(statuses[1:]) <= {403, 409}, statuses
    assert http.get(f"/api/v1/games/{table.code}").json()["version"] == table.version + 1


@pytest.mark.parametrize("through", ["api", "page"])
def test_of_tables_starting_games_with_the_same_new_player_at_once_every_game_starts(
    http: Client, through: str
) -> None:
    newcomer = f"Newcomer {through}"
    others = [
        server_harness.table_names(f"same name {through} {index}", 3) for index in range(PHONES)
    ]
    if through == "api":
        calls = [
            partial(
                http.request,
                "POST",
                "/api/v1/games",
                {"players": [newcomer, *seats], "variant": "classic"},
            )
            for seats in others
        ]
        expected = 201
    else:
        page = http.get("/games/new")
        cookie = server_harness.session_header(page.session)
        token = csrf_token(page.text)
        calls = [
            partial(
                http.request,
                "POST",
                "/games/new",
                None,
                cookie,
                {
                    "csrf_token": token,
                    "variant": "classic",
                    "rounds": "5",
                    "first_leader": "0",
                    **{f"player_{seat}": name for seat, name in enumerate([newcomer, *seats])},
                },
            )
            for seats in others
        ]
        expected = 302
    replies = server_harness.at_once(calls)
    assert [reply.status for reply in replies] == [expected] * PHONES, [
        reply.text[:200] for reply in replies if reply.status != expected
    ]
    player = http.get(f"/api/v1/players/{newcomer.replace(' ', '%20')}").json()
    assert player["games"] == PHONES


def test_of_phones_tapping_the_first_card_of_a_trick_at_once_one_card_is_in_it(
    http: Client,
) -> None:
    """A trick's cards do not move the game's version, so the round's row is changed only as
    it was read: of phones that all saw the trick empty, one card goes in, every other phone
    is told the trick changed (409), and no card is lost or put in another's place."""
    table = new_table(http, "card race")
    marked = [[{"colour": colour, "value": 0}] for colour in ("red", "blue", "green", "yellow")]
    opened = http.request(
        "POST",
        f"/api/v1/games/{table.code}/rounds/live",
        {"version": table.version, "marked": marked},
        server_harness.bearer(table.key),
    )
    assert opened.status == 201, opened.text[:300]
    granted = http.get(f"/g/{table.code}/edit/{table.key}")
    session = granted.session
    live = http.get(f"/g/{table.code}/rounds/1/live", server_harness.session_header(session))
    assert live.status == 200, live.text[:300]
    session = live.session or session
    fields = read_page(live.text).find("form", class_="live-picker")
    form = {
        name: str(fields.find("input", name=name).get("value"))
        for name in ("csrf_token", "version", "cards")
    }
    assert form["cards"] == "0"
    cards = [f"red-{value}" for value in range(1, PHONES + 1)]
    send = partial(
        http.request,
        "POST",
        f"/g/{table.code}/rounds/1/live/card",
        None,
        server_harness.session_header(session),
    )
    replies = server_harness.at_once([partial(send, form={**form, "card": card}) for card in cards])
    statuses = [reply.status for reply in replies]
    assert sorted(statuses) == [302] + [409] * (PHONES - 1), statuses
    kept = cards[statuses.index(302)]
    now = http.get(f"/g/{table.code}/rounds/1/live", server_harness.session_header(session))
    played = [
        place.get("data-card")
        for place in read_page(now.text).find("section", class_="live-trick").find_all("li")
        if place.get("data-card")
    ]
    assert played == [kept]
