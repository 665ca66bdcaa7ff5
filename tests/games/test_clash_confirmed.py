"""Every way out of the conflict view is confirmed (issue 17, point 6).

Two phones hold the game's edit rights and the other phone saved the round first. Whichever
way this phone leaves the conflict view (use mine, keep theirs, continue live), the next
page says what became of the round: the scoreboard confirms it once and tints its row, as it
does after any save, or the live round opens where the other phone started it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scripts.page_reader import read_page
from tests.games.round_helpers import (
    NAMES,
    assert_redirects_to_scoreboard,
    database,
    game_state,
    page_of,
    quick_round,
    send,
    text_of,
)
from tests.games.test_round_clashes import (
    MINE,
    MY_MARKS,
    THEIR_MARKS,
    THEIRS,
    keep_link,
    mark_fields,
    second_phone,
    send_mine,
    start_page_fields,
    use_mine_form,
)
from tests.games.test_round_saved import notices, saved_rows
from tests.table import Table

#: How a test meets the conflict view: the page it shows (from ``app``, ``client``, ``code``).
Clash = Callable[[Flask, FlaskClient, str], str]


def new_game(table: Table, variant: str = "classic") -> str:
    """A game of four, editable from the test client."""
    code: str = table.new_game(NAMES, variant, rounds=5, edit_here=True)["id"]
    return code


def conflict_of(response: TestResponse) -> str:
    """The conflict view a stale save answers with: nothing was saved (409)."""
    assert response.status_code == 409, response.get_data(as_text=True)[:1000]
    return response.get_data(as_text=True)


def keep_theirs(client: FlaskClient, conflict: str, code: str) -> None:
    """Tap "keep theirs": it goes on to the scoreboard."""
    href, words = keep_link(conflict)
    assert words == "Keep theirs"
    assert_redirects_to_scoreboard(client.get(href), code)


def scoreboard(client: FlaskClient, code: str) -> str:
    """The scoreboard as this phone opens it after the redirect."""
    response = client.get(f"/g/{code}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def confirmation(client: FlaskClient, code: str) -> tuple[list[str], list[str]]:
    """What the scoreboard says on this phone once (the notices), and the rows it tints."""
    page = scoreboard(client, code)
    return notices(page), saved_rows(page)


def recorded_clash(app: Flask, client: FlaskClient, code: str) -> str:
    """This phone fills in round 1, the other phone records it first, this phone saves."""
    url = f"/g/{code}/rounds/record"
    page = page_of(client, url)
    assert_redirects_to_scoreboard(quick_round(second_phone(app, client), url, THEIRS), code)
    scoreboard(second_phone(app, client), code)
    return conflict_of(quick_round(client, url, MINE, page=page))


def corrected_clash(app: Flask, client: FlaskClient, code: str) -> str:
    """Round 1 recorded; this phone opens its correction, the other phone corrects it first."""
    assert_redirects_to_scoreboard(quick_round(client, f"/g/{code}/rounds/record", THEIRS), code)
    scoreboard(client, code)  # the save's confirmation, taken
    url = f"/g/{code}/rounds/1"
    page = page_of(client, url)
    theirs = [dict(THEIRS[0], tricks=3), dict(THEIRS[1], tricks=5), *THEIRS[2:]]
    assert_redirects_to_scoreboard(quick_round(second_phone(app, client), url, theirs), code)
    return conflict_of(quick_round(client, url, MINE, page=page))


def marked_clash(app: Flask, client: FlaskClient, code: str) -> str:
    """This phone opens "mark colours", the other phone marks round 1 first."""
    url = f"/g/{code}/rounds/mark"
    page = page_of(client, url)
    phone_a = second_phone(app, client)
    marked = send(phone_a, url, page_of(phone_a, url), mark_fields(THEIR_MARKS))
    assert_redirects_to_scoreboard(marked, code)
    return conflict_of(send(client, url, page, mark_fields(MY_MARKS)))


# --------------------------------------------------------------------------------------------
# Recording a round


@pytest.mark.parametrize("clash", [recorded_clash, corrected_clash])
def test_using_mine_after_a_round_saved_elsewhere_confirms_the_correction(
    app: Flask, client: FlaskClient, table: Table, clash: Clash
) -> None:
    """Mine replaces what the other phone saved (recorded or corrected): the round is
    corrected, and said so."""
    code = new_game(table)
    conflict = clash(app, client, code)
    assert_redirects_to_scoreboard(send_mine(client, conflict), code)
    assert confirmation(client, code) == (["Round 1 corrected."], ["1"])


def test_keeping_theirs_after_a_round_recorded_elsewhere_confirms_it_is_kept(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    conflict = recorded_clash(app, client, code)
    before = database(app)
    keep_theirs(client, conflict, code)
    assert database(app) == before  # keeping theirs writes nothing
    assert confirmation(client, code) == (["Round 1 kept as saved on the other phone."], ["1"])
    assert confirmation(client, code) == ([], [])  # said once


# --------------------------------------------------------------------------------------------
# Correcting a round


def test_keeping_theirs_after_a_correction_made_elsewhere_confirms_it_is_kept(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    conflict = corrected_clash(app, client, code)
    theirs = game_state(client, code)["rounds"][0]["scores"]
    keep_theirs(client, conflict, code)
    assert confirmation(client, code) == (["Round 1 kept as saved on the other phone."], ["1"])
    assert game_state(client, code)["rounds"][0]["scores"] == theirs


# --------------------------------------------------------------------------------------------
# Marking colours


def test_marking_colours_is_confirmed_and_the_round_tinted(
    client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    url = f"/g/{code}/rounds/mark"
    assert_redirects_to_scoreboard(
        send(client, url, page_of(client, url), mark_fields(MY_MARKS)), code
    )
    assert confirmation(client, code) == (["Colours of round 1 marked."], ["1"])


def test_using_my_marks_after_colours_marked_elsewhere_confirms_them(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    conflict = marked_clash(app, client, code)
    assert_redirects_to_scoreboard(send_mine(client, conflict), code)
    assert confirmation(client, code) == (["Colours of round 1 marked."], ["1"])
    marked = game_state(client, code)["rounds"][0]["marked"]
    assert [[card["value"] for card in seat] for seat in marked] == [[9], [3], [7], [2]]


def test_keeping_their_marks_confirms_they_are_kept(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    conflict = marked_clash(app, client, code)
    before = database(app)
    keep_theirs(client, conflict, code)
    assert database(app) == before
    assert confirmation(client, code) == (
        ["Colours of round 1 kept as marked on the other phone."],
        ["1"],
    )


def test_keeping_theirs_when_my_marks_met_a_recorded_round_confirms_the_round(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    url = f"/g/{code}/rounds/mark"
    page = page_of(client, url)
    record = f"/g/{code}/rounds/record"
    assert_redirects_to_scoreboard(quick_round(second_phone(app, client), record, THEIRS), code)
    conflict = conflict_of(send(client, url, page, mark_fields(MY_MARKS)))
    assert use_mine_form(conflict) is None
    keep_theirs(client, conflict, code)
    assert notices(scoreboard(client, code)) == ["Round 1 kept as saved on the other phone."]


# --------------------------------------------------------------------------------------------
# Starting a live round


def test_continuing_a_round_started_live_elsewhere_opens_that_live_round(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """The live round itself is the confirmation: its page opens, nothing else is said."""
    code = new_game(table)
    url = f"/g/{code}/rounds/live"
    page = page_of(client, url)
    phone_a = second_phone(app, client)
    send(phone_a, url, page_of(phone_a, url), mark_fields(THEIR_MARKS), action="")
    conflict = conflict_of(send(client, url, page, mark_fields(MY_MARKS), action=""))
    href, words = keep_link(conflict)
    assert words == "Continue live round"
    live = client.get(href)
    assert live.status_code == 200
    heading = read_page(live.get_data(as_text=True)).find("h1")
    assert heading is not None and "1" in heading.words()
    assert notices(scoreboard(client, code)) == []


def test_using_my_marks_when_a_live_start_met_colours_marked_elsewhere_confirms_them(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    url = f"/g/{code}/rounds/live"
    page = page_of(client, url)
    phone_a = second_phone(app, client)
    mark = f"/g/{code}/rounds/mark"
    assert_redirects_to_scoreboard(
        send(phone_a, mark, page_of(phone_a, mark), mark_fields(THEIR_MARKS)), code
    )
    conflict = conflict_of(send(client, url, page, mark_fields(MY_MARKS), action=""))
    assert "The colours of round 1 were marked on another phone." in text_of(conflict)
    assert_redirects_to_scoreboard(send_mine(client, conflict), code)
    assert notices(scoreboard(client, code)) == ["Colours of round 1 marked."]


def test_keeping_theirs_when_a_live_start_met_colours_marked_elsewhere_offers_to_start_them(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """Keeping their marks leads on to starting the round live with them: that start page
    shows their round, ready to play."""
    code = new_game(table)
    url = f"/g/{code}/rounds/live"
    page = page_of(client, url)
    phone_a = second_phone(app, client)
    mark = f"/g/{code}/rounds/mark"
    send(phone_a, mark, page_of(phone_a, mark), mark_fields(THEIR_MARKS))
    conflict = conflict_of(send(client, url, page, mark_fields(MY_MARKS), action=""))
    href, words = keep_link(conflict)
    assert (href, words) == (url, "Keep theirs")
    start = page_of(client, href)
    assert start_page_fields(start)["number"] == ["1"]
    assert not any(name.endswith("-marked") for name in start_page_fields(start))


def test_keeping_theirs_when_a_live_start_met_a_recorded_round_confirms_the_round(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    url = f"/g/{code}/rounds/live"
    page = page_of(client, url)
    record = f"/g/{code}/rounds/record"
    assert_redirects_to_scoreboard(quick_round(second_phone(app, client), record, THEIRS), code)
    conflict = conflict_of(send(client, url, page, mark_fields(MY_MARKS), action=""))
    assert "Round 1 was recorded on another phone." in text_of(conflict)
    assert use_mine_form(conflict) is None
    keep_theirs(client, conflict, code)
    assert confirmation(client, code) == (["Round 1 kept as saved on the other phone."], ["1"])


# --------------------------------------------------------------------------------------------
# The way out itself


def test_keeping_a_round_that_does_not_exist_confirms_nothing(
    client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    assert_redirects_to_scoreboard(quick_round(client, f"/g/{code}/rounds/record", THEIRS), code)
    scoreboard(client, code)  # the save's confirmation, taken
    assert_redirects_to_scoreboard(client.get(f"/g/{code}/rounds/3/keep-theirs"), code)
    assert confirmation(client, code) == ([], [])


def test_a_phone_without_the_edit_link_cannot_keep_a_round(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = new_game(table)
    assert_redirects_to_scoreboard(quick_round(client, f"/g/{code}/rounds/record", THEIRS), code)
    viewer = app.test_client()
    assert viewer.get(f"/g/{code}/rounds/1/keep-theirs").status_code == 403
    assert notices(viewer.get(f"/g/{code}").get_data(as_text=True)) == []
