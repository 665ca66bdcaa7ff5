"""A new game started with no network (issue 26, point 4), in a real browser at a phone's
size: on a phone that kept the offline kit and opened a game before, the new-game page starts
a game with other players, and as many as it likes, on the phone, checked as the server
checks it (a variant this phone has no pages for, or a name entered twice, is refused beside
the players, and nothing is started). Its pages are drawn on the blank pages of its shape
the service worker kept (companion/web/games/blank_pages.py), with its own players in their
seats: its colours are marked, the record page switched to every card and back, and a
round recorded there waits, and the next one is played live there. Back online, the game
and its rounds are sent, once each, the phone is on the game's own scoreboard with the right
to go on, and the game the phone opened before is untouched.
"""

from __future__ import annotations

import random
import re

from playwright.sync_api import expect

from companion.rules import PRESETS, round_leader, table_setup
from tests.browser.scenario import FIVE_ROUNDS, round_scores
from tests.browser.support import (
    WORKER_START_MS,
    LiveServer,
    PhoneFactory,
    kit_manifest,
    wait_for_async,
)
from tests.browser.test_journeys import tap, tap_chip
from tests.browser.test_offline_play import (
    NAMES,
    OUTBOX_SIZE,
    WORDS,
    expected_pending,
    pending_table,
    ready_phone,
)
from tests.browser.test_offline_table import deal_led_by, live_round, quick_entries, scores_of
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot
from tests.table import Table

#: The new table: one player the server knows, typed in lower case, and two new ones.
TYPED = ["Dora", "ann", "Emil"]
PLAYERS = ["Dora", "Ann", "Emil"]
#: Who leads the first round: the third seat.
FIRST_LEADER = 2


def fill_table(page: object, names: list[str]) -> None:
    for row in range(8):
        page.fill(f"#player_{row}", names[row] if row < len(names) else "")  # type: ignore[attr-defined]


#: The blank pages of a 3-player classic game, which the service worker keeps for a phone
#: that kept the kit (whatever games it opened).
FRAME = "/games/frame/3/classic-1-open"
#: Whether the service worker kept the blank pages at the address given (in any cache).
FRAME_KEPT = """async (address) => {
  const pages = ["", "/rounds/record", "/rounds/mark", "/rounds/record?mode=full"];
  const kept = await Promise.all(pages.map((page) => caches.match(address + page)));
  return kept.every(Boolean);
}"""


def test_a_game_started_offline_is_played_on_the_phone_and_sent_when_back(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table, axe_source: str
) -> None:
    kit_manifest(live_server)
    words = WORDS["en"]
    opened = live_table.new_game([*NAMES, "Dan"], rounds=1)  # 4 players: another shape
    phone = ready_phone(new_phone, live_table, opened, words)
    page = phone.page
    phone.goto("/games/new")  # kept for offline use, with the names the server knows
    wait_for_async(page, FRAME_KEPT, live_server.url + FRAME, WORKER_START_MS)

    phone.set_offline(True)
    phone.goto("/games/new")
    status = page.locator("#offline-play-status")
    errors = page.locator("#offline-new-game-errors")
    fill_table(page, TYPED)
    page.locator('input[name="variant"][value="mild"]').check()  # no game of it kept here
    page.get_by_role("button", name="Start the game").click()
    expect(errors).to_contain_text("none for 3 players", timeout=WORKER_START_MS)
    page.locator('input[name="variant"][value="classic"]').check()
    players = page.locator("#players")
    expect(players).to_have_attribute("aria-describedby", "offline-new-game-errors")
    fill_table(page, ["Dora", "Ann", "dora"])  # the server's own refusal, in its words
    page.get_by_role("button", name="Start the game").click()
    expect(errors).to_have_text(  # the rules worker's answer
        "Dora is entered twice: each player takes one seat.", timeout=WORKER_START_MS
    )
    save_screenshot(phone, "offline-new-game-refused-en")
    problems = describe_violations(axe_violations(phone, axe_source), "new game refused offline")
    assert problems == [], "\n".join(problems)

    fill_table(page, TYPED)
    page.fill("#rounds", "3")
    page.select_option("#first_leader", str(FIRST_LEADER))
    page.get_by_role("button", name="Start the game").click()
    started = re.compile(rf"{re.escape(live_server.url)}/games/new/[0-9a-f-]{{36}}$")
    expect(page).to_have_url(started, timeout=WORKER_START_MS)
    address = page.url
    expect(page.get_by_role("heading", level=1)).to_have_text(words["scoreboard"])
    seats = page.locator(".seat-list .seat__name")  # drawn by the rules worker, as online
    expect(seats).to_have_text(PLAYERS, timeout=WORKER_START_MS)  # Ann as the server has her
    expect(page.locator(".share, .manage")).to_have_count(0)  # of the page it was drawn on

    page.get_by_role("link", name="Mark colours").click()  # first (R4), as online
    expect(page).to_have_url(address + "/rounds/mark")
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Mark colours, round 1", timeout=WORKER_START_MS)
    leading = page.locator("[data-leading]")  # told once the rules worker answered
    expect(leading).to_have_text("Emil leads the first trick.", timeout=WORKER_START_MS)
    names = page.locator(".round-seat__name")
    expect(names).to_have_text(["Emil", "Dora", "Ann"])  # from the first leader on (R3)
    for seat, entry in enumerate(FIVE_ROUNDS[0]):
        tap_chip(page.locator(f'[data-field="s{seat}-marked"]'), entry.indicator, "radio")
    page.get_by_role("button", name="Save colours").click()
    expect(heading).to_have_text(words["scoreboard"], timeout=WORKER_START_MS)
    marked = page.locator(".score-table tbody tr.is-pending.is-playing")  # in the one table
    expect(marked).to_have_count(1, timeout=WORKER_START_MS)
    expect(page.get_by_role("link", name="Mark colours")).to_be_hidden()  # marked already

    page.get_by_role("link", name=words["record"].format(number=1)).click()
    expect(page).to_have_url(address + "/rounds/record")
    expect(heading).to_have_text(words["record"].format(number=1), timeout=WORKER_START_MS)
    expect(page.locator("[data-leader]")).to_have_text(words["led"].format(name="Emil"))
    expect(names).to_have_text(["Emil", "Dora", "Ann"])
    page.get_by_role("button", name="Every card").click()  # the other entry mode, offline
    expect(page).to_have_url(address + "/rounds/record?mode=full")
    expect(heading).to_have_text(words["record"].format(number=1), timeout=WORKER_START_MS)
    expect(names).to_have_text(["Emil", "Dora", "Ann"])
    page.get_by_role("button", name="Quick entry").click()
    expect(page).to_have_url(
        re.compile(re.escape(address + "/rounds/record") + r"(\?mode=quick)?$")
    )
    expect(heading).to_have_text(words["record"].format(number=1), timeout=WORKER_START_MS)
    for seat, entry in enumerate(FIVE_ROUNDS[0]):  # the indicators as marked, chosen already
        token = entry.indicator.replace(" ", "-")
        expect(page.locator(f'input[name="s{seat}-marked"][value="{token}"]')).to_be_checked()
        part = page.locator(f"#seat-{seat}")  # (its indicator folded, as the server shows it)
        tap(part.locator(f'[data-count-field="s{seat}-tricks"]'), "radio", str(entry.tricks))
        captures = part.locator(f'[data-field="s{seat}-marked_captured"]')
        for text in entry.captured:
            tap_chip(captures, text, "checkbox")
    save_screenshot(phone, "offline-new-game-record-en")
    page.get_by_role("button", name=words["save"]).click()
    expect(heading).to_have_text(words["scoreboard"], timeout=WORKER_START_MS)
    expect(status).to_contain_text(words["round_kept"].format(number=1))
    assert pending_table(phone) == expected_pending(PLAYERS, [], FIVE_ROUNDS[:1])
    save_screenshot(phone, "offline-new-game-en")
    problems = describe_violations(axe_violations(phone, axe_source), "new game offline")
    assert problems == [], "\n".join(problems)
    setup = table_setup(len(PLAYERS), PRESETS["classic"])  # round 2 live, on the blank pages
    played = deal_led_by(round_leader(2, FIRST_LEADER, len(PLAYERS)), random.Random(26), setup)
    live_round(phone, played, number=2)
    expect(page).to_have_url(address + "/rounds/2/live")
    page.get_by_role("link", name=words["scoreboard"]).last.click()
    expect(page).to_have_url(address)

    phone.set_offline(False)  # the start, then the rounds, then the game's own scoreboard
    own = re.compile(rf"{re.escape(live_server.url)}/g/(?!{opened['id']}$)[A-Za-z0-9]+$")
    expect(page).to_have_url(own, timeout=WORKER_START_MS)
    scored = page.locator(".score-table tbody tr.is-scored")
    expect(scored).to_have_count(2, timeout=WORKER_START_MS)
    expect(status).to_have_text(words["sent"])
    game = live_table.state({"id": page.url.rsplit("/", 1)[-1]})
    assert game["players"] == PLAYERS and game["first_leader"] == FIRST_LEADER
    assert game["rounds_planned"] == 3
    assert [(round_["mode"], round_["scores"]) for round_ in game["rounds"]] == [
        ("quick", round_scores(FIVE_ROUNDS[:1])[0]),
        ("live", scores_of(setup, quick_entries(played))),
    ]
    marked = [
        [card["colour"] + " " + str(card["value"]) for card in seat]
        for seat in game["rounds"][0]["marked"]
    ]
    assert marked == [[entry.indicator] for entry in FIVE_ROUNDS[0]], "the colours marked first"
    expect(page.get_by_role("link", name=words["record"].format(number=3))).to_be_visible()
    assert live_table.state(opened)["rounds"] == [], "the game opened before"
    assert page.evaluate(OUTBOX_SIZE) == 0
    page.goto(address)  # the address the phone gave it leads to the game
    expect(page).to_have_url(own)


#: The language of the kept page at the address given (its <html lang>), or null.
FRAME_LANGUAGE = """async (address) => {
  const page = await caches.match(address);
  const found = page && (await page.text()).match(/<html[^>]*\\slang="([^"]*)"/);
  return found ? found[1] : null;
}"""


def test_the_blank_pages_are_kept_again_in_the_phone_s_new_language(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """A new game started offline is drawn on blank pages in the phone's language: when the
    table switches the language, the service worker keeps them again in the new one."""
    kit_manifest(live_server)
    opened = live_table.new_game(NAMES, rounds=1)
    phone = ready_phone(new_phone, live_table, opened, WORDS["en"])
    page = phone.page
    wait_for_async(page, FRAME_KEPT, live_server.url + FRAME, WORKER_START_MS)
    record = live_server.url + FRAME + "/rounds/record"
    assert page.evaluate(FRAME_LANGUAGE, record) == "en"
    page.get_by_role("link", name="Deutsch").click()  # back on the scoreboard, in German
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("main")).to_have_attribute("data-offline-ready", "")
    german = f"async (address) => (await ({FRAME_LANGUAGE})(address)) === 'de'"
    wait_for_async(page, german, record, WORKER_START_MS)
    assert page.evaluate(FRAME_LANGUAGE, live_server.url + FRAME) == "de"
