"""Ready before the network goes, in a real browser at a phone's size: the first screen of an
editing scoreboard offers "Ready this phone for offline play" with the kit's size as the
server's manifest gives it; once kept, "Ready offline" stays there beside "Forget this
phone's copies", which empties the games and pages this phone kept but never a change still
waiting to be sent (nor the game it waits for), which is then sent as if nothing happened. A
phone with no kit, offline, says so beside the round buttons, which lead nowhere (never to
the generic offline page).

Screenshots (``SCREENSHOTS_DIR``) of the control offered and kept, and of the scoreboard
offline after a queued round, in English and Hungarian.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.scenario import FIVE_ROUNDS, round_scores
from tests.browser.support import WORKER_START_MS, LiveServer, Phone, PhoneFactory, kit_manifest
from tests.browser.test_docs_screens import enter_quick_seat
from tests.browser.test_journeys import in_language
from tests.browser.test_offline_play import CONTROLLED, NAMES, OUTBOX_SIZE
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot
from tests.table import Table

LOCALES = {"en": "en-GB", "hu": "hu-HU"}

#: The games this phone keeps (their codes, in the outbox's store) and the games whose pages
#: the service worker keeps ("/g/<code>" and below).
KEPT = """async () => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open("sticheln-offline", 1);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const games = await new Promise((resolve) => {
    const request = db.transaction("games").objectStore("games").getAllKeys();
    request.onsuccess = () => resolve(request.result);
  });
  db.close();
  const cache = await caches.open("sticheln-games");
  const pages = (await cache.keys())
    .map((request) => new URL(request.url).pathname.match(/\\/g\\/([^/]+)/))
    .filter(Boolean)
    .map((found) => found[1]);
  return { games: games.sort(), pages: [...new Set(pages)].sort() };
}"""


def megabytes(size: int, language: str) -> str:
    """A size as the control writes it: one decimal, the language's decimal sign."""
    number = f"{size / 1e6:.1f}"
    return (number.replace(".", ",") if language == "hu" else number) + "\u00a0MB"


def said(language: str, text: str, **values: object) -> str:
    return in_language(language, text) % values if values else in_language(language, text)


def no_axe_violations(phone: Phone, axe_source: str, where: str) -> None:
    problems = describe_violations(axe_violations(phone, axe_source), where)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", ["en", "hu"])
def test_ready_then_forget_keeps_what_waits_to_be_sent(
    new_phone: PhoneFactory,
    live_server: LiveServer,
    live_table: Table,
    axe_source: str,
    language: str,
) -> None:
    manifest = kit_manifest(live_server)
    phone = new_phone(locale=LOCALES[language], service_workers="allow")
    page = phone.page
    other = live_table.new_game(["Dora", "Emil", "Finn"], rounds=2)  # opened here before
    phone.goto(f"/g/{other['id']}/edit/{other['edit_key']}")
    page.wait_for_function(CONTROLLED)
    game = live_table.new_game(NAMES, rounds=3)
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")

    control = page.locator("[data-ready]")
    offer = control.locator(".keep__button")
    size = megabytes(manifest["download_size"], language)
    wanted = said(language, "Ready this phone for offline play, %(size)s", size=size)
    expect(offer).to_have_text(wanted, timeout=WORKER_START_MS)
    box = control.bounding_box()
    record = page.locator('.current-round a[href$="/rounds/record"]')
    assert box is not None and box["y"] + box["height"] < 844, "on the first screen"
    expect(record).to_be_in_viewport()  # the round buttons stay on it too
    save_screenshot(phone, f"offline-ready-offer-{language}")
    no_axe_violations(phone, axe_source, f"readiness offered ({language})")

    offer.click()
    status = control.locator(".keep__status")
    expect(status).to_have_text(
        "\u2713 " + said(language, "Ready offline"), timeout=WORKER_START_MS
    )
    forget = control.get_by_role("button", name=said(language, "Forget this phone’s copies"))
    expect(forget).to_be_visible()
    expect(offer).to_be_hidden()
    save_screenshot(phone, f"offline-ready-kept-{language}")
    no_axe_violations(phone, axe_source, f"readiness kept ({language})")

    for opened in (other, game):  # opened with the kit: each kept, state and pages
        phone.goto(f"/g/{opened['id']}")
        expect(page.locator("main")).to_have_attribute("data-offline-ready", "")
    kept = page.evaluate(KEPT)
    assert {other["id"], game["id"]} <= set(kept["games"]) & set(kept["pages"])

    phone.set_offline(True)
    phone.goto(f"/g/{game['id']}")
    expect(status).to_have_text(
        "\u2713 " + said(language, "Ready offline"), timeout=WORKER_START_MS
    )
    record.click()
    save = page.locator('button[name="action"][value="save"]').first
    expect(save).to_be_visible()
    expect(page.locator("#offline-play-status")).to_be_visible(timeout=WORKER_START_MS)
    for seat, entry in enumerate(FIVE_ROUNDS[0]):
        enter_quick_seat(phone, language, seat, entry)
    save.click()
    pending = page.locator(".score-table tbody tr.is-pending.is-scored")
    expect(pending).to_have_count(1, timeout=WORKER_START_MS)
    summary = page.locator(".game-summary")
    expect(summary).to_contain_text(
        said(language, "%(rounds)s of %(planned)s rounds scored", rounds=1, planned=3)
    )
    expect(page.locator("main .notice:visible")).to_have_count(1)
    expect(record).to_be_in_viewport()  # the round to come, at the top, under one notice
    save_screenshot(phone, f"offline-scoreboard-queued-{language}")
    no_axe_violations(phone, axe_source, f"scoreboard with a queued round ({language})")
    assert page.evaluate(OUTBOX_SIZE) == 1

    forget.click()  # offline too: nothing it does needs the network
    forgotten = "This phone forgot its copies of games. Changes still waiting are kept until "
    expect(status).to_have_text(said(language, forgotten + "they are sent."))
    expect(forget).to_be_hidden()
    kept = page.evaluate(KEPT)
    assert kept == {"games": [game["id"]], "pages": [game["id"]]}, "only what a change waits for"
    assert page.evaluate(OUTBOX_SIZE) == 1

    phone.set_offline(False)  # the round waiting is sent, as if nothing was forgotten
    sent = page.locator(".score-table tbody tr.is-scored:not(.is-pending)")
    expect(sent).to_have_count(1, timeout=WORKER_START_MS)
    state = live_table.state(game)
    assert [round_["scores"] for round_ in state["rounds"]] == round_scores(FIVE_ROUNDS[:1])
    assert page.evaluate(OUTBOX_SIZE) == 0


def test_with_no_kit_the_round_buttons_offline_say_so_and_lead_nowhere(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    kit_manifest(live_server)
    phone = new_phone(locale="en-GB", service_workers="allow")
    page = phone.page
    game = live_table.new_game(NAMES, rounds=3)
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    page.wait_for_function(CONTROLLED)
    phone.goto(f"/g/{game['id']}")  # kept by the service worker, with the words it says
    control = page.locator("[data-ready]")
    expect(control.get_by_role("button").first).to_be_visible(timeout=WORKER_START_MS)
    unready = page.locator("#offline-unready")
    expect(unready).to_have_count(0)  # online: the buttons work

    phone.set_offline(True)
    phone.goto(f"/g/{game['id']}")  # the copy this phone kept
    expect(page.locator("[data-offline-copy]")).to_be_visible()
    text = (
        "This phone is not ready for offline play: rounds can be entered once the connection "
        "is back."
    )
    expect(unready).to_have_text(text, timeout=WORKER_START_MS)
    expect(control).to_be_hidden()  # nothing to offer with no network
    actions = page.locator(".current-round .actions")
    expect(actions.locator("+ #offline-unready")).to_have_count(1)  # beside the buttons
    address = page.url
    page.get_by_role("link", name="Record round 1").click()
    expect(unready).to_be_visible()
    assert page.url == address, "never the generic offline page"
    save_screenshot(phone, "offline-unready-en")
