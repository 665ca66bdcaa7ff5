"""The read-only link's promise, in a real browser: a phone holding only that link sees a
new round appear by itself, and can change nothing."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from tests.browser.scenario import FIVE_ROUNDS, signed, totals_of
from tests.browser.support import Phone, PhoneFactory, record_rounds
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

    expect(scored).to_have_count(2, timeout=40_000)  # no reload: the page asks by itself
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


#: A share sheet of our own (Web Share API): it keeps what it was asked to share.
SHARE_SHEET = """
window.sharedWith = [];
navigator.share = (data) => { window.sharedWith.push(data); return Promise.resolve(); };
"""


def test_the_share_page_opens_the_phones_share_sheet_with_the_read_only_link(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    game = live_table.new_game(NAMES, rounds=5)
    code = game["id"]
    phone = new_phone()
    phone.context.add_init_script(SHARE_SHEET)
    phone.goto(f"/g/{code}/share")
    view_url = phone.page.locator("#view-url").get_attribute("href")
    assert view_url is not None and view_url.endswith(f"/g/{code}/view")
    phone.page.get_by_role("button", name="Share…").tap()
    shared = phone.page.evaluate("window.sharedWith")
    assert [entry["url"] for entry in shared] == [view_url]


def test_without_a_share_sheet_the_share_page_offers_none(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    game = live_table.new_game(NAMES, rounds=5)
    phone = new_phone()
    phone.context.add_init_script("delete Navigator.prototype.share")
    phone.goto(f"/g/{game['id']}/share")
    assert phone.page.evaluate("typeof navigator.share") == "undefined"
    expect(phone.page.get_by_role("button", name="Copy")).to_have_count(1)  # the script ran
    expect(phone.page.get_by_role("button", name="Share…")).to_have_count(0)


def test_the_resolver_shares_the_trick_as_it_is_now(new_phone: PhoneFactory) -> None:
    phone = new_phone()
    phone.context.add_init_script(SHARE_SHEET)
    phone.goto("/resolve?variant=classic&players=4")
    share = phone.page.get_by_role("button", name="Share this trick…")
    expect(share).to_be_visible()
    phone.page.locator(".picker").get_by_role("button", name="yellow 3", exact=True).tap()
    expect(phone.page.locator(".trick-plays .trick-play")).to_have_count(1)
    share.tap()
    shared = phone.page.evaluate("window.sharedWith")
    assert len(shared) == 1
    url = urlsplit(shared[0]["url"])
    assert url.path == "/resolve"
    assert parse_qs(url.query)["trick"] == ["yellow-3"]
    # The shared address opens the same trick on another phone.
    other = new_phone()
    other.goto(f"{url.path}?{url.query}")
    expect(other.page.locator(".trick-plays .trick-play")).to_have_count(1)
