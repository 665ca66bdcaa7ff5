"""Switching between quick entry and every card with no network (issue 26, point 2), in a
real browser at a phone's size: the phone keeps both modes' record pages with the game's
state; offline, the switch opens the other mode's kept page with the indicators and the
marked-colour cards already entered carried over, as the server's switch carries them; the
round entered there waits, and is sent in that mode."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from companion.rules import PRESETS, table_setup
from tests.browser.support import WORKER_START_MS, LiveServer, PhoneFactory, kit_manifest
from tests.browser.test_journeys import tap_chip
from tests.browser.test_offline_play import NAMES, WORDS, label, ready_phone
from tests.browser.test_offline_table import deal_led_by, full_entries, scores_of
from tests.table import Table


def test_quick_entry_switched_to_every_card_offline_keeps_what_was_entered(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=2)
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    setup = table_setup(len(NAMES), PRESETS["classic"])
    played = deal_led_by(0, random.Random(2612), setup)

    phone.set_offline(True)
    page.get_by_role("link", name=words["record"].format(number=1)).click()
    status = page.locator("#offline-play-status")
    expect(status).to_have_text(words["offline"], timeout=WORKER_START_MS)
    carried = []
    for seat, (shown, taken) in enumerate(zip(played.indicators, played.captured, strict=True)):
        tap_chip(page.locator(f'[data-field="s{seat}-marked"]'), label(shown[0]), "radio")
        marked = [card for card in taken if card.colour == shown[0].colour]
        for card in marked:
            tap_chip(
                page.locator(f'[data-field="s{seat}-marked_captured"]'), label(card), "checkbox"
            )
        carried.append(marked)
    page.get_by_role("button", name="Every card").click()
    expect(page).to_have_url(f"{live_server.url}/g/{game['id']}/rounds/record?mode=full")
    expect(status).to_have_text(words["offline"], timeout=WORKER_START_MS)
    for seat, (shown, taken) in enumerate(zip(played.indicators, played.captured, strict=True)):
        token = f"{shown[0].colour.value}-{shown[0].value}"
        expect(page.locator(f'input[name="s{seat}-marked"][value="{token}"]')).to_be_checked()
        for card in carried[seat]:
            chip = page.locator(
                f'input[name="s{seat}-captured"][value="{card.colour.value}-{card.value}"]'
            )
            expect(chip).to_be_checked()
        for card in taken:
            if card not in carried[seat]:
                tap_chip(page.locator(f'[data-field="s{seat}-captured"]'), label(card), "checkbox")
    page.get_by_role("button", name=words["save"]).click()
    expect(status).to_contain_text(words["round_kept"].format(number=1), timeout=WORKER_START_MS)
    assert live_table.state(game)["rounds"] == []

    phone.set_offline(False)
    expect(status).to_have_text(words["sent"], timeout=WORKER_START_MS)
    rounds = live_table.state(game)["rounds"]
    assert [(r["mode"], r["scores"]) for r in rounds] == [
        ("full", scores_of(setup, full_entries(played)))
    ]
