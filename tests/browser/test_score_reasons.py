"""Every score explains itself, on a phone: tapping a score on the scoreboard shows that
player's line under the table (fetched from the round's page), by touch or by keyboard, and
the page stays free of axe violations with the line open. Without JavaScript the round's
number leads to the round's page.

The line expected is built from ``companion.rules.explain_round`` (R10) in English.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from companion.rules import explain_round
from tests.browser.scenario import FIVE_ROUNDS, THREE_PLAYERS, signed
from tests.browser.support import LiveServer, Phone, PhoneFactory, kit_manifest, record_rounds
from tests.browser.test_offline_play import WORDS, WORKER_START_MS, ready_phone, record_offline
from tests.browser.test_pages import axe_violations, describe_violations
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo"]


def english_line(explained: Any) -> str:
    """The R10 line of a seat in English: other cards, then the marked colour's cards."""
    parts = []
    for term in explained.terms:
        points = signed([term.points])[0]
        if term.kind.value == "other-cards":
            noun = "card of another colour" if term.count == 1 else "cards of other colours"
            parts.append(f"{points} for {term.count} {noun}")
        else:
            cards = [
                f"{c.card.colour.value} {c.card.value}" + (" (indicator)" if c.indicator else "")
                for c in term.cards
            ]
            parts.append(f"{points} for " + ", ".join(cards))
    return "; ".join(parts)


def test_tapping_a_score_shows_why_under_the_table(
    phone: Phone, live_table: Table, axe_source: str
) -> None:
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:2])
    explained = explain_round(THREE_PLAYERS, [s.entry() for s in FIVE_ROUNDS[1]])
    phone.goto(f"/g/{game['id']}/view")
    page = phone.page
    line = page.locator("#why-line")
    expect(line).to_be_hidden()

    cell = page.locator(".score-table tbody tr").nth(1).locator(".why-button").nth(1)  # Ben
    cell.tap()
    expect(cell).to_have_attribute("aria-expanded", "true")
    expect(line.locator(".round-reason__head")).to_have_text(
        f"Ben {signed([explained[1].score])[0]}"
    )
    expect(line.locator("[data-explanation]")).to_have_text(english_line(explained[1]))
    expect(line.get_by_role("link")).to_have_attribute("href", f"/g/{game['id']}/rounds/2/scores")
    problems = describe_violations(axe_violations(phone, axe_source), "the open line")
    assert not problems, "\n".join(problems)

    cell.tap()  # the same score again closes it
    expect(line).to_be_hidden()
    expect(cell).to_have_attribute("aria-expanded", "false")

    first = page.locator(".score-table tbody tr").first.locator(".why-button").first
    first.focus()
    page.keyboard.press("Enter")
    expect(line.locator("[data-explanation]")).to_have_text(
        english_line(explain_round(THREE_PLAYERS, [s.entry() for s in FIVE_ROUNDS[0]])[0])
    )


def test_without_javascript_the_round_number_leads_to_its_page(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    phone = new_phone(java_script_enabled=False)
    phone.goto(f"/g/{game['id']}/view")
    expect(phone.page.locator(".why-button")).to_have_count(0)
    phone.page.locator(".score-table tbody th a").first.click()
    expect(phone.page).to_have_url(f"{phone.base_url}/g/{game['id']}/rounds/1/scores")
    explained = explain_round(THREE_PLAYERS, [s.entry() for s in FIVE_ROUNDS[0]])
    lines = phone.page.locator("[data-explanation]")
    expect(lines).to_have_text([english_line(mine) for mine in explained])


def test_a_round_arriving_by_itself_brings_its_score_buttons(
    phone: Phone, live_table: Table
) -> None:
    game = live_table.new_game(NAMES, rounds=5)
    phone.goto(f"/g/{game['id']}/view")
    buttons = phone.page.locator(".why-button")
    expect(buttons).to_have_count(0)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])  # another phone scores round 1
    expect(buttons).to_have_count(len(NAMES), timeout=40_000)
    buttons.first.tap()
    explained = explain_round(THREE_PLAYERS, [s.entry() for s in FIVE_ROUNDS[0]])
    expect(phone.page.locator("#why-line [data-explanation]")).to_have_text(
        english_line(explained[0])
    )


def test_offline_the_reason_is_drawn_by_the_phone_s_rules_worker(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """With no network, a round's page cannot be fetched: a phone that kept the offline kit
    has its rules worker draw it from the kept game and the rounds queued on the phone
    (pages/round_scores), the same line."""
    kit_manifest(live_server)
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:2])
    phone = ready_phone(new_phone, live_table, game, WORDS["en"])
    page = phone.page
    phone.set_offline(True)
    cell = page.locator(".score-table tbody tr").nth(1).locator(".why-button").nth(2)  # Cleo
    cell.tap()
    explained = explain_round(THREE_PLAYERS, [s.entry() for s in FIVE_ROUNDS[1]])
    line = page.locator("#why-line")
    expect(line.locator("[data-explanation]")).to_have_text(
        english_line(explained[2]), timeout=WORKER_START_MS
    )
    expect(line.locator(".round-reason__head")).to_have_text(
        f"Cleo {signed([explained[2].score])[0]}"
    )

    # A round recorded here, not yet sent: its reasons too, as the server will give them.
    record_offline(phone, 3, FIVE_ROUNDS[2], WORDS["en"])
    row = page.locator(".score-table tbody tr.is-pending")
    expect(row).to_have_count(1, timeout=WORKER_START_MS)
    row.locator(".why-button").nth(1).tap()  # Ben
    third = explain_round(THREE_PLAYERS, [s.entry() for s in FIVE_ROUNDS[2]])
    expect(line.locator("[data-explanation]")).to_have_text(english_line(third[1]))
    expect(line.locator(".round-reason__head")).to_have_text(f"Ben {signed([third[1].score])[0]}")
    assert len(live_table.state(game)["rounds"]) == 2  # still only on this phone
