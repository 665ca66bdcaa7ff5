"""Every save confirmed, on a phone: after a round is saved, the scoreboard says so and tints
its row, accessibly (axe-core, WCAG 2.1 A and AA) in the light and the dark colour scheme;
a reload shows the scoreboard without it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.scenario import FIVE_ROUNDS
from tests.browser.support import PhoneFactory
from tests.browser.test_journeys import NAMES, enter_quick_seat
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_saved_round_is_confirmed_on_the_scoreboard(
    new_phone: PhoneFactory, axe_source: str, scheme: str
) -> None:
    phone = new_phone(color_scheme=scheme)
    page = phone.page
    phone.goto("/games/new")
    for seat, name in enumerate(NAMES, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("Rounds", exact=True).fill("5")
    page.get_by_label("Who leads the first round").select_option("0")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Record round 1").click()
    for seat, entry in enumerate(FIVE_ROUNDS[0]):
        enter_quick_seat(phone, seat, entry)
    page.get_by_role("button", name="Save round").click()

    expect(page.get_by_role("status").filter(has_text="Round 1 saved.")).to_be_visible()
    expect(page.locator(".score-table tbody tr.is-saved")).to_have_count(1)
    expect(page.locator(".score-table tbody tr").first).to_have_class("is-scored is-saved")
    save_screenshot(phone, f"scoreboard-saved-{scheme}")
    problems = describe_violations(axe_violations(phone, axe_source), f"saved ({scheme})")
    assert not problems, "\n".join(problems)

    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scoreboard")
    expect(page.locator(".notice--saved")).to_have_count(0)
    expect(page.locator(".score-table tbody tr.is-saved")).to_have_count(0)
