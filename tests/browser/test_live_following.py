"""Two phones keep the score of one live round (issue 24, point 5), in a real browser at
390x844: a card entered on one phone appears on the other's live page by itself (it asks
with its ETag every few seconds; no tap, no reload), and the other phone's next tap is the
next card, not a page that missed one (409). What that phone was doing stays: its scroll
stays where it was, and a third colour's card it then taps is a pass in one tap (R19)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from companion.rules import PRESETS, table_setup
from tests.browser.support import Phone, PhoneFactory
from tests.browser.test_pages import axe_violations, describe_violations, overflow_problems
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
#: Polling runs every few seconds; a card must show within a few polls.
FOLLOW_MS = 40_000  # a bound: on a busy machine a poll can come late


def live_hat_trick(table: Table) -> tuple[str, str]:
    """A Hat Trick game whose round 1 is started live (nothing laid out); code and key."""
    game = table.new_game(NAMES, "hat-trick", rounds=3)
    code, key = game["id"], game["edit_key"]
    started = table.client.post(
        f"/api/v1/games/{code}/rounds/live",
        json={"version": game["version"]},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert started.status_code == 201, started.json
    return code, key


def keeper(new_phone: PhoneFactory, code: str, key: str) -> Phone:
    """A phone with the edit link, on the live page of round 1."""
    phone = new_phone()
    phone.goto(f"/g/{code}/edit/{key}")
    phone.goto(f"/g/{code}/rounds/1/live")
    return phone


def tap(phone: Phone, text: str, played: int) -> None:
    """Tap a card on the live page; wait until its trick shows ``played`` cards."""
    colour, value = text.split()
    phone.page.locator(f'button[name="card"][value="{colour}-{value}"]').click()
    expect(phone.page.locator("#live-trick .live-slot--played")).to_have_count(played)


def card_posts(phone: Phone) -> list[int]:
    """The statuses of the cards this phone sends, as they come."""
    statuses: list[int] = []

    def seen(response: Any) -> None:
        if response.request.method == "POST" and response.url.endswith("/live/card"):
            statuses.append(response.status)

    phone.page.on("response", seen)
    return statuses


def test_a_card_entered_on_one_phone_shows_on_the_other_whose_next_tap_is_the_next_card(
    new_phone: PhoneFactory, live_table: Table, axe_source: str
) -> None:
    code, key = live_hat_trick(live_table)
    first, second = keeper(new_phone, code, key), keeper(new_phone, code, key)
    posted = card_posts(second)
    trick = second.page.locator("#live-trick .live-slot--played")

    tap(first, "red 5", 1)  # Ann leads
    expect(trick).to_have_count(1, timeout=FOLLOW_MS)  # no tap, no reload on this phone
    expect(second.page.locator('button[value="red-5"]')).to_be_disabled()
    expect(second.page.locator(".live-turn")).to_have_text("Next to play: Ben.")
    # (axe before a pass is possible: the chips it fades then are main's, see point 10)
    where = "the live page after following the other phone"
    problems = overflow_problems(second, where)
    problems += describe_violations(axe_violations(second, axe_source), where)
    assert not problems, "\n".join(problems)

    tap(second, "blue 3", 2)  # Ben: two colours in the trick, a pass is possible (R19)
    assert posted == [302]
    expect(first.page.locator("#live-trick .live-slot--played")).to_have_count(2, timeout=FOLLOW_MS)

    # this phone is scrolled down to the cards while the other phone enters Cleo's card:
    # the page follows and the scroll stays
    second.page.locator('button[value="green-4"]').scroll_into_view_if_needed()
    scrolled = second.page.evaluate("window.scrollY")
    assert scrolled > 0
    tap(first, "red 7", 3)
    expect(trick).to_have_count(3, timeout=FOLLOW_MS)
    expect(second.page.locator(".live-turn")).to_have_text("Next to play: Dan.")
    assert second.page.evaluate("window.scrollY") == scrolled

    second.page.locator('button[value="green-4"]').click()  # a third colour: Dan passes
    expect(second.page.locator(".live-last .live-slot--played")).to_have_count(4)
    assert 409 not in posted and posted == [302, 302]
    expect(second.page.locator(".live-last .live-slot--passed")).to_have_count(1)
    tricks = table_setup(len(NAMES), PRESETS["hat-trick"]).tricks_per_round
    expect(first.page.locator(".live-head__count")).to_have_text(
        f"1 of {tricks} tricks played", timeout=FOLLOW_MS
    )
    if shots := os.environ.get("SCREENSHOTS"):
        second.page.screenshot(path=str(Path(shots) / "live-following-390.png"))
    assert not first.foreign_requests() and not second.foreign_requests()
