"""The history of a phone in two circles, with its switch, and of a phone in none (issue 28):
axe finds nothing, nothing scrolls sideways, and the switch works by plain links."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.support import Phone, PhoneFactory
from tests.browser.test_pages import (
    axe_violations,
    describe_violations,
    overflow_problems,
    save_screenshot,
)
from tests.table import Table


def checked(phone: Phone, axe_source: str, where: str) -> list[str]:
    """The page's axe violations and sideways overflow, in the light and the dark scheme."""
    problems = []
    for scheme in ("light", "dark"):
        phone.page.emulate_media(color_scheme=scheme)
        save_screenshot(phone, f"{where}-{scheme}")
        problems += describe_violations(axe_violations(phone, axe_source), f"{where} ({scheme})")
        problems += overflow_problems(phone, f"{where} ({scheme})")
    return problems


def test_a_phone_in_two_circles_switches_its_history(
    new_phone: PhoneFactory, live_table: Table, axe_source: str
) -> None:
    game = live_table.new_game(["Ann", "Ben", "Cleo"])  # the server's first circle
    phone = new_phone()
    page = phone.page
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    phone.goto("/games/new")  # and a game of a new circle, started on this phone
    for seat, name in enumerate(["Dora", "Emil", "Fanni"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.locator("select[name=circle]").select_option("new")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scoreboard")
    dora_game = page.url.rsplit("/g/", 1)[-1]

    phone.goto("/history")
    switch = page.get_by_role("navigation", name="This phone's circles")
    expect(switch.get_by_role("link")).to_have_count(2)
    shown = switch.locator("[aria-current=page]")
    expect(shown).to_have_text("Dora, Emil, Fanni")
    expect(page.locator(".history-seat__name").first).to_have_text("Dora")
    problems = checked(phone, axe_source, "history-circles")

    other = switch.locator("a:not([aria-current])")
    other.click()
    expect(switch.locator("[aria-current=page]")).not_to_have_text("Dora, Emil, Fanni")
    # the other circle's games (the server's first, shared by the session's tables), not hers
    expect(page.locator(f"a[href*='/g/{game['id']}']").first).to_be_visible()
    expect(page.locator(f"a[href*='/g/{dora_game}']")).to_have_count(0)
    expect(page.locator(".history-seat__name", has_text="Ann").first).to_be_visible()
    assert not problems, "\n".join(problems)


def test_a_phone_in_no_circle_is_told_how_to_get_into_one(
    new_phone: PhoneFactory, axe_source: str
) -> None:
    phone = new_phone()
    phone.goto("/history")
    page = phone.page
    expect(page.locator("[data-circle=none]")).to_contain_text("in no circle yet")
    expect(page.get_by_role("link", name="Start a game")).to_have_attribute("href", "/games/new")
    problems = checked(phone, axe_source, "history-no-circle")
    assert not problems, "\n".join(problems)
