"""The read-only link's promise, in a real browser: a phone holding only that link sees a
new round appear by itself, and can change nothing."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.browser.scenario import FIVE_ROUNDS, signed, totals_of
from tests.browser.support import Phone, record_rounds
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo"]


def test_the_read_only_scoreboard_shows_a_new_round_by_itself(
    phone: Phone, live_table: Table
) -> None:
    game = live_table.new_game(NAMES, rounds=5)
    code = game["id"]
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    phone.goto(f"/g/{code}/view")
    scored = phone.page.locator(".score-table tbody tr.is-scored")
    expect(scored).to_have_count(1)

    record_rounds(live_table, game, FIVE_ROUNDS[1:2])  # another phone scores

    expect(scored).to_have_count(2, timeout=20_000)  # no reload: the page asks by itself
    totals = phone.page.locator(".score-table tfoot td")
    expect(totals).to_have_text(signed(totals_of(FIVE_ROUNDS[:2])))
    expect(phone.page.locator("[role='status'][aria-live='polite']")).to_have_text("Scores updated")


def test_the_read_only_link_offers_no_control_and_every_change_is_refused(
    phone: Phone, live_table: Table
) -> None:
    game = live_table.new_game(NAMES, rounds=5)
    code, key = game["id"], game["edit_key"]
    phone.goto(f"/g/{code}/view")
    page = phone.page
    expect(page.locator("main form")).to_have_count(0)
    assert key not in page.content()
    for path in ("/rounds/record", "/rounds/mark", "/rounds/live", "/abandon", "/delete"):
        expect(page.locator(f"main a[href$='{path}']")).to_have_count(0)
        answer = page.request.get(f"/g/{code}{path}")
        assert answer.status == 403, path
        assert "This phone may only look at this game" in answer.text(), path
    refused = page.request.post(
        f"/api/v1/games/{code}/rounds",
        data=json.dumps({"version": 1, "entries": []}),
        headers={"Content-Type": "application/json"},
    )
    assert refused.status == 401
    assert "error" in refused.json()
