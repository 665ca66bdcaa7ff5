"""A scoreboard this phone opened opens with no network, in a real browser at a phone's size:
the service worker shows the copy it kept, with its notice that this is the scoreboard as the
phone last saw it (hidden online), and a page of the game it never kept shows the offline page.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.scenario import FIVE_ROUNDS
from tests.browser.support import PhoneFactory, record_rounds
from tests.table import Table

CONTROLLED = "() => navigator.serviceWorker.controller !== null"
NOTICE = "This phone is offline: this is the scoreboard as it last saw it."


def test_offline_a_scoreboard_this_phone_opened_shows_as_last_seen_and_says_so(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    game = live_table.new_game(["Ann", "Ben", "Cleo"], rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:2])
    phone = new_phone(service_workers="allow")
    page = phone.page
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")  # the scoreboard, editing
    page.wait_for_function(CONTROLLED)
    phone.goto(f"/g/{game['id']}")  # now through the worker, which keeps it
    notice = page.locator("[data-offline-copy]")
    expect(notice).to_be_hidden()
    totals = page.locator("tfoot").inner_text()
    assert "+14" in totals and "+17" in totals and "+10" in totals  # rounds 1 and 2 (R10)

    record_rounds(live_table, game, FIVE_ROUNDS[2:3])  # another phone records round 3
    phone.set_offline(True)
    phone.goto(f"/g/{game['id']}")
    expect(page.locator("h1")).to_have_text("Scoreboard")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(NOTICE)
    assert page.locator("tfoot").inner_text() == totals  # as last seen: round 3 not there

    phone.goto(f"/g/{game['id']}/share")  # a page of the game the worker never kept
    expect(page.locator("h1")).to_have_text("This phone seems to be offline")

    phone.set_offline(False)
    phone.goto(f"/g/{game['id']}")
    expect(notice).to_be_hidden()
    assert page.locator("tfoot").inner_text() != totals  # online: the game as it is now
