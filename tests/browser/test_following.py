"""Two phones at one table, in a real browser: one enters a live round card by card, the other
has the read-only scoreboard open and sees each card, who is winning and who leads appear by
itself (the page polls; no reload), as the rules decide (R7-R9)."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.rules import PRESETS, trick_winner
from tests.browser.scenario import card
from tests.browser.support import Phone, PhoneFactory
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
INDICATORS = ("red 0", "blue 0", "green 0", "yellow 0")
#: A trick from Ann (seat 0): yellow 2 is a trump, but blue 3 is the higher one (R7, R8).
TRICK = ("red 5", "red 9", "blue 3", "yellow 2")
#: Polling runs every few seconds; a card must show within a few polls.
FOLLOW_MS = 40_000  # a bound: on a busy machine a poll can come late


def tap(keeper: Phone, text: str) -> None:
    """Tap a card on the live page and wait until the page shows it in the trick (or the
    trick it completed)."""
    colour, value = text.split()
    count = keeper.page.locator(".live-slot--played").count()
    keeper.page.locator(f'button[name="card"][value="{colour}-{value}"]').click()
    if count + 1 < len(NAMES):
        expect(keeper.page.locator("#live-trick .live-slot--played")).to_have_count(count + 1)
    else:
        expect(keeper.page.locator(".live-last .live-slot--played")).to_have_count(len(NAMES))


def test_a_phone_with_the_view_open_follows_the_trick_card_by_card(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    game = live_table.new_game(NAMES, rounds=5)
    code, key = game["id"], game["edit_key"]
    marked = [[card(text).as_json()] for text in INDICATORS]
    started = live_table.client.post(
        f"/api/v1/games/{code}/rounds/live",
        json={"version": game["version"], "marked": marked},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert started.status_code == 201, started.json
    keeper = new_phone()
    keeper.goto(f"/g/{code}/edit/{key}")
    keeper.goto(f"/g/{code}/rounds/1/live")
    follower = new_phone()
    follower.goto(f"/g/{code}/view")
    follow = follower.page.locator(".follow")
    expect(follow.locator("h3").first).to_have_text("Trick 1 of 14")
    expect(follow.locator(".trick-cards li")).to_have_count(0)

    tap(keeper, TRICK[0])
    cards = follow.locator(".trick-cards li")
    expect(cards).to_have_count(1, timeout=FOLLOW_MS)  # no reload: the page asks by itself
    expect(cards.first.locator(".chip")).to_have_attribute("aria-label", TRICK[0])
    expect(follow.locator(".follow__turn")).to_have_text("Next to play: Ben.")

    tap(keeper, TRICK[1])
    tap(keeper, TRICK[2])
    winning = trick_winner([card(text) for text in TRICK[:3]], PRESETS["classic"].scoring)  # type: ignore[union-attr]
    expect(cards).to_have_count(3, timeout=FOLLOW_MS)
    takes = follow.locator(".trick-cards li.takes")
    expect(takes).to_have_count(1)
    expect(takes).to_contain_text(NAMES[winning.winner])
    expect(follow).to_contain_text(
        f"Winning so far: {NAMES[winning.winner]} with {TRICK[winning.winner]}."
    )

    tap(keeper, TRICK[3])  # the trick is complete: its taker leads the next one (R9)
    took = trick_winner([card(text) for text in TRICK], PRESETS["classic"].scoring).winner  # type: ignore[union-attr]
    expect(follow.locator("h3").first).to_have_text("Trick 2 of 14", timeout=FOLLOW_MS)
    expect(follow).to_contain_text(f"{NAMES[took]} takes the trick with {TRICK[took]}.")
    expect(follower.page.locator(".deal div").nth(1).locator("dd")).to_have_text(NAMES[took])
    expect(follower.page.locator(".seat-list .badge--leads")).to_have_count(1)
    leads = follower.page.locator(".seat-list .seat", has=follower.page.locator(".badge--leads"))
    expect(leads.locator(".seat__name small")).to_have_text("1 trick")
