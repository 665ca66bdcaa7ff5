"""A live round played on with no network, in a real browser at a phone's size: the network
drops in the middle of a trick on the live page; the phone goes on, tap by tap, each tap a
change in the outbox and the page drawn by the rules worker with the server's page model and
template (static/offline_live.js swaps it in); a card is taken back; the page is reloaded
offline (the service worker shows a kept page of the game, on which the round is drawn). The
page then shows, word for word, what the server's live page shows after the same taps, on a
second phone without JavaScript. Back online, every change is sent by itself, once, the
cards of the unfinished trick too: the server has the round as the phone showed it. Cards of
an unfinished trick entered offline are sent from the scoreboard too, without the live page
being opened again, and only then does the phone say everything is saved.

Screenshots (``SCREENSHOTS_DIR``) of the live page offline mid-trick, in English, German and
Hungarian.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.support import (
    WORKER_START_MS,
    LiveServer,
    Phone,
    PhoneFactory,
    kit_manifest,
    wait_for_async,
)
from tests.browser.test_journeys import tap_chip
from tests.browser.test_offline_play import OUTBOX_SIZE, WORDS, made_ready, ready_phone
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot
from tests.offline.test_offline_live import NAMES, played_round
from tests.table import Table, auth

#: The live page's words in the languages of the test.
LIVE_WORDS = {
    "en": {"undo": "Undo last card", "title": "Round 1, live"},
    "de": {"undo": "Letzte Karte zurücknehmen", "title": "Runde 1 live"},
    "hu": {"undo": "Utolsó lap visszavonása", "title": "1. forduló élőben"},
}


def trick_cards(tricks: list[list[dict[str, Any]]]) -> list[str]:
    """The deal's cards in play order, as chips send them."""
    return [f"{card['colour']}-{card['value']}" for trick in tricks for card in trick]


def started_live(table: Table, leader: int, marked: Any) -> dict[str, Any]:
    """A game of four whose first round was started live (with its indicators)."""
    game = table.new_game(NAMES, "classic", 2, leader)
    answer = table.client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"], "marked": marked},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    game["version"] = answer.json["version"]
    return game


def tap_card(phone: Phone, token: str) -> None:
    """Tap a card's chip on the live page; it is taken once the trick shows it (the first
    tap offline starts the rules worker)."""
    phone.page.locator(f'#live button[name="card"][value="{token}"]').click()
    taken = phone.page.locator(f'#live .live-slot[data-card="{token}"]')
    expect(taken).to_have_count(1, timeout=WORKER_START_MS)


def undo_card(phone: Phone, words: dict[str, str]) -> None:
    phone.page.locator("#live-trick").get_by_role("button", name=words["undo"]).click()


def live_text(phone: Phone) -> str:
    """What the live round says on the page, as the phone's reader sees it."""
    return " ".join(phone.page.locator("#live").inner_text().split())


def chip_names(phone: Phone) -> list[tuple[str | None, str | None, bool]]:
    """Each chip of the deck: its card, its name, whether it can be tapped."""
    chips = phone.page.locator('#live button[name="card"]')
    return [
        (chip.get_attribute("value"), chip.get_attribute("aria-label"), chip.is_enabled())
        for chip in chips.all()
    ]


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_live_round_goes_on_offline_and_is_sent_when_the_network_is_back(
    new_phone: PhoneFactory,
    live_server: LiveServer,
    live_table: Table,
    axe_source: str,
    language: str,
) -> None:
    kit_manifest(live_server)
    words, live_words = WORDS[language], LIVE_WORDS[language]
    leader, marked, tricks = played_round("classic", random.Random(f"offline live {language}"))
    cards = trick_cards(tricks)
    game = started_live(live_table, leader, marked)
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    phone.goto(f"/g/{game['id']}/rounds/1/live")
    for token in cards[:6]:  # the first trick, and two cards of the second, online
        tap_card(phone, token)

    phone.set_offline(True)
    for token in cards[6:11]:  # the second trick completed offline, three of the third
        tap_card(phone, token)
    undo_card(phone, live_words)  # the third card of the third trick taken back
    expect(page.locator(f'#live-trick [data-card="{cards[10]}"]')).to_have_count(0)
    status = page.locator("#offline-play-status")
    # Each tap is a change: a card of trick 2, the trick, three cards of trick 3, the undo.
    expect(status).to_contain_text(words["waiting"].format(count=6))
    page.reload()  # still offline: a kept page of the game, the round drawn on it
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(live_words["title"], timeout=WORKER_START_MS)
    expect(page.locator(f'#live-trick [data-card="{cards[9]}"]')).to_have_count(1)
    assert live_table.state(game)["rounds"][0]["tricks_played"] == 1  # nothing was sent

    # The same taps, online, on a phone without JavaScript: the same page.
    other = started_live(live_table, leader, marked)
    online = new_phone(locale=words["locale"], java_script_enabled=False)
    online.goto(f"/g/{other['id']}/edit/{other['edit_key']}")
    online.goto(f"/g/{other['id']}/rounds/1/live")
    for token in cards[:10]:
        online.page.locator(f'#live button[name="card"][value="{token}"]').click()
    assert live_text(phone) == live_text(online)
    # Nothing of the kept page it was drawn on is left: the notice, then the round.
    expect(page.locator("main > *")).to_have_count(2)
    expect(page.locator("main > #live")).to_have_count(1)
    assert chip_names(phone) == chip_names(online)
    save_screenshot(phone, f"offline-live-{language}")
    problems = describe_violations(axe_violations(phone, axe_source), f"live offline ({language})")
    assert problems == [], "\n".join(problems)

    phone.set_offline(False)  # the trick sent, and the unfinished trick
    entered = page.locator(f'#live[data-poll] #live-trick [data-card="{cards[9]}"]')
    expect(entered).to_have_count(1, timeout=WORKER_START_MS)
    # Nothing waits any more: the only notice of offline play left, if any, says that every
    # round entered on this phone is saved.
    expect(status.filter(has_not_text=words["sent"])).to_have_count(0)
    assert page.evaluate(OUTBOX_SIZE) == 0
    state = live_table.state(game)["rounds"][0]
    assert state["tricks"] == live_table.state(other)["rounds"][0]["tricks"]
    assert state["trick_so_far"] == live_table.state(other)["rounds"][0]["trick_so_far"]
    assert phone.foreign_requests() == []


def test_a_round_started_live_offline_is_played_there_and_sent_when_back(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """With no network from the start: the round started live on the kept start page (its
    indicators tapped, C1, C2), its first trick played, the scoreboard left and the round
    taken up again from it; back online, the start and the trick are sent, in order."""
    kit_manifest(live_server)
    words = WORDS["en"]
    leader, marked, tricks = played_round("classic", random.Random("started offline"))
    game = live_table.new_game(NAMES, "classic", 2, leader)
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page

    phone.set_offline(True)
    page.get_by_role("link", name="Play this round live").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Play round 1 live")
    for seat, cards in enumerate(marked):
        for card in cards:
            name = f"{card['colour']} {card['value']}"
            tap_chip(page.locator(f'[data-field="s{seat}-marked"]'), name, "radio")
    page.get_by_role("button", name="Start the round live").click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Round 1, live", timeout=WORKER_START_MS)
    for token in trick_cards(tricks)[:4]:
        tap_card(phone, token)
    expect(page.locator(".live-head__count")).to_have_text("1 of 14 tricks played")
    # The start, three cards of the trick and the trick: five changes.
    expect(page.locator("#offline-play-status")).to_contain_text(words["waiting"].format(count=5))

    page.get_by_role("link", name="Scoreboard").click()
    pending = page.locator(".score-table tbody tr.is-pending.is-playing")  # in the one table
    expect(pending).to_have_count(1, timeout=WORKER_START_MS)
    expect(page.locator(".current-round")).to_contain_text(
        "This round is being played live, trick by trick."
    )
    page.get_by_role("link", name="Continue live round").click()
    expect(page.locator("#live-trick-title")).to_have_text("Trick 2 of 14", timeout=WORKER_START_MS)
    assert live_table.state(game)["rounds"] == []

    phone.set_offline(False)
    counted = page.locator("#live[data-poll] .live-head__count")
    expect(counted).to_have_text("1 of 14 tricks played", timeout=WORKER_START_MS)
    round_ = live_table.state(game)["rounds"][0]
    assert round_["mode"] == "live" and round_["marked"] == marked
    assert [trick["cards"] for trick in round_["tricks"]] == tricks[:1]


#: What offline play says in Hungarian, as far as the test below reads it.
HUNGARIAN = {
    "locale": "hu-HU",
    "keep": "Mentés offline játékhoz",
    "kept": "Offline játékhoz elmentve",
    "sent": "Minden ezen a telefonon beírt forduló el van mentve.",
    "next": "Következik: {player}.",
    "waiting": "{count} ezen a telefonon beírt változás elküldésre vár.",
}
#: Whether the phone's outbox is empty: everything entered on it reached the server.
EMPTIED = f"async () => (await ({OUTBOX_SIZE})()) === 0"


def test_cards_of_an_unfinished_trick_are_sent_from_the_scoreboard(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """Two cards of a trick played offline on the live page, then the scoreboard opened and
    the network back there: the cards reach the server (another phone shows whose turn it
    is now) without the live page being opened again, and only then is "saved" said."""
    kit_manifest(live_server)
    leader, marked, tricks = played_round("classic", random.Random("sent from anywhere"))
    cards = trick_cards(tricks)
    game = started_live(live_table, leader, marked)
    phone = made_ready(new_phone(locale=HUNGARIAN["locale"], kit_kept=True), game, HUNGARIAN)
    page = phone.page
    phone.goto(f"/g/{game['id']}/rounds/1/live")
    phone.set_offline(True)
    for token in cards[:2]:
        tap_card(phone, token)
    status = page.locator("#offline-play-status")
    expect(status).to_have_text(HUNGARIAN["waiting"].format(count=2))  # not "saved"
    third = NAMES[(leader + 2) % len(NAMES)]
    expect(page.locator(".live-turn")).to_have_text(HUNGARIAN["next"].format(player=third))
    save_screenshot(phone, "offline-live-mid-trick-hu")

    page.locator("#live .live-head__back").click()
    assert live_table.state(game)["rounds"][0]["trick_so_far"] == []  # nothing sent yet
    phone.set_offline(False)
    for _ in range(3):  # the page is loaded again once it sent what waited
        try:
            wait_for_async(page, EMPTIED, timeout=WORKER_START_MS)
            break
        except PlaywrightError as error:
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
    expect(page.locator("#offline-play-status")).not_to_contain_text(HUNGARIAN["waiting"][3:])
    assert page.url.endswith(f"/g/{game['id']}")  # still the scoreboard
    sent = live_table.state(game)["rounds"][0]["trick_so_far"]
    assert [f"{card['colour']}-{card['value']}" for card in sent] == cards[:2]
    other = new_phone(locale=HUNGARIAN["locale"], java_script_enabled=False)
    other.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    other.goto(f"/g/{game['id']}/rounds/1/live")
    expect(other.page.locator(".live-turn")).to_have_text(HUNGARIAN["next"].format(player=third))
