"""Offline play (issue 26), rounds recorded with no network, in a real browser at a phone's
size: a phone that kept the offline kit records rounds on the record page it kept; the rules
worker checks and scores them; they are kept in IndexedDB (a reload loses nothing), shown on
the scoreboard as not yet sent with their scores and the totals, and sent by themselves, in
order and once each, when the network is back. A round another phone recorded meanwhile is
not overwritten: the phone offers the conflict view, which shows both.

Screenshots (``SCREENSHOTS_DIR``) of the record page and the scoreboard offline, with rounds
waiting, in English and German.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask_babel import force_locale
from playwright.sync_api import expect

from companion.read_models.messages import render_message
from companion.rules import (
    FullEntry,
    HatTrickQuickEntry,
    Refusal,
    implied_hat_trick_count,
    round_dealer,
    round_leader,
    score_checked,
    table_setup,
    variant_named,
)
from companion.rules.deck import HAT_TRICK_COLOURS
from tests.browser.scenario import FIVE_ROUNDS, card, round_scores, seat, signed, totals_of
from tests.browser.support import (
    CHROMIUM,
    PHONE,
    TIMEOUT_MS,
    WORKER_START_MS,
    LiveServer,
    Phone,
    PhoneFactory,
    kit_manifest,
    record_rounds,
)
from tests.browser.test_docs_screens import chip_name
from tests.browser.test_journeys import tap, tap_chip
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo"]
#: How many changes wait in this phone's outbox (IndexedDB), all games together.
OUTBOX_SIZE = """async () => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open("sticheln-offline", 1);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const count = await new Promise((resolve) => {
    const request = db.transaction("changes").objectStore("changes").count();
    request.onsuccess = () => resolve(request.result);
  });
  db.close();
  return count;
}"""
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
#: Round trips to a page while waiting for a DevTools event to arrive.
EVENT_ROUND_TRIPS = 200
WORDS = {
    "en": {
        "lang": "en",
        "locale": "en-GB",
        "keep": "Keep for offline play",
        "kept": "Kept for offline play",
        "record": "Record round {number}",
        "save": "Save round",
        "round_kept": "Round {number} is kept on this phone.",
        "waiting": "{count} changes entered on this phone are waiting to be sent.",
        "waiting_one": "1 change entered on this phone is waiting to be sent.",
        "pending": "On this phone, not yet sent",
        "sent": "Every round entered on this phone is saved.",
        "scoreboard": "Scoreboard",
        "scored": "{rounds} of {planned} rounds scored",
        "deals": "deals",
        "leads": "opens the round",
        "led": "{name} led the first trick.",
        "offline": "This phone is offline. Rounds entered on it are kept on this phone and sent by "
        "themselves when the connection is back.",
    },
    "de": {
        "lang": "de",
        "locale": "de-DE",
        "keep": "Für das Spielen ohne Netz speichern",
        "kept": "Für das Spielen ohne Netz gespeichert",
        "record": "Runde {number} eintragen",
        "save": "Runde speichern",
        "round_kept": "Runde {number} ist auf diesem Handy gespeichert.",
        "waiting": "{count} auf diesem Handy eingegebene Änderungen warten darauf, gesendet zu "
        "werden.",
        "waiting_one": "1 auf diesem Handy eingegebene Änderung wartet darauf, gesendet zu werden.",
        "pending": "Auf diesem Handy, noch nicht gesendet",
        "sent": "Jede auf diesem Handy eingegebene Runde ist gespeichert.",
        "scoreboard": "Spielstand",
        "scored": "{rounds} von {planned} Runden gewertet",
        "deals": "gibt",
        "leads": "eröffnet die Runde",
        "led": "{name} hat den ersten Stich eröffnet.",
        "offline": "Dieses Handy ist offline. Hier eingegebene Runden bleiben auf diesem Handy und "
        "werden von selbst gesendet, sobald die Verbindung wieder da ist.",
    },
}


def ready_phone(new_phone: PhoneFactory, table: Table, game: dict[str, Any], words: Any) -> Phone:
    """A phone that may edit ``game``, kept the offline kit, and opened the scoreboard with
    the network (offline play kept the game and its record page)."""
    phone = new_phone(locale=words["locale"], kit_kept=True)
    return made_ready(phone, game, words)


def made_ready(phone: Phone, game: dict[str, Any], words: Any) -> Phone:
    """``phone``, made ready to play ``game`` offline (see :func:`ready_phone`): the kit kept
    on the share page, unless the phone holds it already (``kit_kept``: then the scoreboard
    the edit link leads to keeps the game, and is not left before it has)."""
    page = phone.page
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    page.wait_for_function(CONTROLLED)
    if not phone.kit_kept:
        phone.goto(f"/g/{game['id']}/share")
        page.get_by_role("button", name=words["keep"]).click()
        expect(page.locator("[data-keep] .keep__status")).to_contain_text(words["kept"])
        phone.goto(f"/g/{game['id']}")
    # Offline play kept the game's state and its record page.
    expect(page.locator("main")).to_have_attribute("data-offline-ready", "")
    return phone


def enter_quick_seat(phone: Phone, lang: str, seat: int, entry: Any) -> None:
    """Tap a seat's indicator, its tricks and its marked-colour captures, in ``lang``."""
    part = phone.page.locator(f"#seat-{seat}")
    marked = part.locator(f'[data-field="s{seat}-marked"]')
    tap_chip(marked, chip_name(lang, entry.indicator), "radio")
    tap(part.locator(f'[data-count-field="s{seat}-tricks"]'), "radio", str(entry.tricks))
    captures = part.locator(f'[data-field="s{seat}-marked_captured"]')
    for text in entry.captured:
        tap_chip(captures, chip_name(lang, text), "checkbox")


def record_offline(
    phone: Phone, number: int, played: Any, words: Any, axe_source: str | None = None
) -> None:
    """From the scoreboard, with no network: record round ``number`` in quick entry (with
    ``axe_source``: the record page is also looked at, and checked by axe)."""
    page = phone.page
    page.get_by_role("link", name=words["record"].format(number=number)).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["record"].format(number=number))
    status = page.locator("#offline-play-status")
    expect(status).to_have_text(words["offline"], timeout=WORKER_START_MS)  # the rules started
    # Who leads this round (R3), first among the seats, though the kept page was of another.
    leader = NAMES[round_leader(number, 0, len(NAMES))]
    expect(page.locator("[data-leader]")).to_have_text(words["led"].format(name=leader))
    expect(page.locator(".round-seat__name").first).to_have_text(leader)
    expect(page.locator(".round-seat__badge")).to_have_count(1)
    for place, entry in enumerate(played):
        enter_quick_seat(phone, words["lang"], place, entry)
    if axe_source is not None:
        save_screenshot(phone, f"offline-record-page-{words['lang']}")
        where = f"offline record page ({words['lang']})"
        problems = describe_violations(axe_violations(phone, axe_source), where)
        assert problems == [], "\n".join(problems)
    page.get_by_role("button", name=words["save"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["scoreboard"])
    status = page.locator("#offline-play-status")
    expect(status).to_contain_text(words["round_kept"].format(number=number))


def pending_table(phone: Phone) -> list[list[str]]:
    """The rounds not yet sent as the scoreboard shows them, in its one rounds table (each
    marked as on this phone): a row per player, its scores in those rounds, then its total."""
    page = phone.page
    pending = page.locator(".score-table tbody tr.is-pending")
    expect(pending.first).to_be_visible(timeout=WORKER_START_MS)  # drawn by the rules worker
    expect(pending.first.locator(".row-pending")).to_be_visible()
    names = page.locator(".score-table thead th").all_inner_texts()[1:]
    totals = page.locator(".score-table tfoot td").all_inner_texts()
    scored = page.locator(".score-table tbody tr.is-pending.is-scored").all()
    scores = [row.locator("td b").all_inner_texts() for row in scored]
    return [
        [name, *[round_[seat] for round_ in scores], totals[seat]]
        for seat, name in enumerate(names)
    ]


def expect_round_to_come(phone: Phone, words: Any, number: int, scored: int) -> None:
    """The scoreboard offline says what the server's will once its rounds are sent: how many
    rounds are scored, who deals and leads round ``number`` (R3), the players' totals in the
    list as in the table; the round's buttons at the top, under one notice."""
    page = phone.page
    summary = page.locator(".game-summary")
    expect(summary).to_contain_text(words["scored"].format(rounds=scored, planned=5))
    dealer = NAMES[round_dealer(number, 0, len(NAMES))]
    leader = NAMES[round_leader(number, 0, len(NAMES))]
    expect(page.locator(".current-round .deal dd")).to_have_text([dealer, leader])
    expect(page.locator(".seat", has_text=dealer).locator(".badge")).to_have_text(words["deals"])
    expect(page.locator(".seat", has_text=leader).locator(".badge")).to_have_text(words["leads"])
    actions = page.locator(".current-round .actions")  # marking first (R4), as online
    expect(actions.get_by_role("link", name=words["record"].format(number=number))).to_be_visible()
    totals = page.locator(".score-table tfoot td").all_inner_texts()
    expect(page.locator(".seat__total")).to_have_text(totals)
    expect(page.locator("main .notice:visible")).to_have_count(1)


def expected_pending(names: list[str], server: list[Any], offline: list[Any]) -> list[list[str]]:
    """Rows of the pending table: each player's scores in the offline rounds, then the totals
    of every round (R10, R11), worked out by the test's own scenario."""
    scores = round_scores(offline)
    totals = totals_of([*server, *offline])
    return [
        [name, *signed([round_[place] for round_ in scores]), signed([totals[place]])[0]]
        for place, name in enumerate(names)
    ]


def first_round_rows(names: list[str], scores: list[int]) -> list[list[str]]:
    """The pending table when round 1 is the only round: each score is also the total."""
    shown = zip(names, scores, strict=True)
    return [[name, *signed([score]), *signed([score])] for name, score in shown]


@pytest.mark.parametrize("language", ["en", "de"])
def test_rounds_recorded_offline_are_kept_shown_and_sent_once_when_back(
    new_phone: PhoneFactory,
    live_server: LiveServer,
    live_table: Table,
    axe_source: str,
    language: str,
) -> None:
    kit_manifest(live_server)
    words = WORDS[language]
    names = NAMES
    game = live_table.new_game(names, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    posts: list[str] = []
    page.on("request", lambda request: request.method == "POST" and posts.append(request.url))

    phone.set_offline(True)
    record_offline(phone, 2, FIVE_ROUNDS[1], words)
    expect(page.locator("#offline-play-status")).to_contain_text(words["waiting_one"])
    assert pending_table(phone) == expected_pending(names, FIVE_ROUNDS[:1], FIVE_ROUNDS[1:2])
    expect_round_to_come(phone, words, 3, scored=2)  # as the server's page once sent

    page.reload()  # still offline: the outbox is on the phone, not in the page
    expect(page.locator(".score-table tbody tr.is-pending")).to_have_count(
        1, timeout=WORKER_START_MS
    )
    record_offline(phone, 3, FIVE_ROUNDS[2], words, axe_source)
    status = page.locator("#offline-play-status")
    expect(status).to_contain_text(words["waiting"].format(count=2))
    assert pending_table(phone) == expected_pending(names, FIVE_ROUNDS[:1], FIVE_ROUNDS[1:3])
    expect_round_to_come(phone, words, 4, scored=3)
    assert posts == []  # nothing left the phone
    assert len(live_table.state(game)["rounds"]) == 1
    save_screenshot(phone, f"offline-scoreboard-waiting-{language}")
    problems = describe_violations(axe_violations(phone, axe_source), f"offline ({language})")
    assert problems == [], "\n".join(problems)

    phone.set_offline(False)  # sent by themselves, then the page as the server has it
    expect(status).to_have_text(words["sent"])
    expect(page.locator(".score-table tbody tr.is-pending")).to_have_count(0)
    state = live_table.state(game)
    assert [round_["scores"] for round_ in state["rounds"]] == round_scores(FIVE_ROUNDS[:3])
    assert state["totals"] == totals_of(FIVE_ROUNDS[:3])
    expect(page.locator(".score-table tfoot td")).to_have_text(signed(totals_of(FIVE_ROUNDS[:3])))
    save_screenshot(phone, f"offline-scoreboard-sent-{language}")


def test_a_round_another_phone_recorded_meanwhile_opens_the_conflict_view(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(["Ann", "Ben", "Cleo"], rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page

    phone.set_offline(True)
    record_offline(phone, 2, FIVE_ROUNDS[1], words)
    record_rounds(live_table, game, FIVE_ROUNDS[3:4])  # another phone's round 2

    phone.set_offline(False, tell_pages=False)  # the page finds the network by its next try
    stopped = page.locator(".offline-stopped")
    not_saved = "Round 2, entered on this phone, was not saved"
    expect(stopped).to_contain_text(not_saved, timeout=WORKER_START_MS)
    state = live_table.state(game)
    assert [round_["scores"] for round_ in state["rounds"]] == round_scores(
        [FIVE_ROUNDS[0], FIVE_ROUNDS[3]]
    )  # theirs stands
    stopped.get_by_role("button", name="Compare and choose").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record round 2")
    clash = page.locator("#clash-title")
    expect(clash).to_be_visible()
    mine = round_scores(FIVE_ROUNDS[1:2])[0]
    assert all(score in page.locator("main").inner_text() for score in signed(mine))


#: The scoreboard's next try to send (``RETRY_MS`` of static/offline_play.js) never comes.
NO_NEXT_TRY = """(() => {
  const later = window.setTimeout;
  window.setTimeout = (callback, ms, ...rest) => (ms === 5000 ? 0 : later(callback, ms, ...rest));
})()"""


def test_a_network_back_while_the_scoreboard_draws_sends_at_once(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """The network comes back while the scoreboard is still drawing the round that waits
    (its rules worker starting): the browser says so then, and the round is sent and the
    page shown as the server has it, without waiting for the page's next try."""
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    phone = ready_phone(new_phone, live_table, game, words)
    phone.context.add_init_script(NO_NEXT_TRY)

    phone.set_offline(True)
    record_offline(phone, 2, FIVE_ROUNDS[1], words)
    phone.set_offline(False)
    status = phone.page.locator("#offline-play-status")
    expect(status).to_have_text(words["sent"], timeout=WORKER_START_MS)  # once drawn
    rounds = live_table.state(game)["rounds"]
    assert [round_["scores"] for round_ in rounds] == round_scores(FIVE_ROUNDS[:2])


def test_a_round_corrected_offline_and_on_another_phone_opens_the_conflict_view(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """The correct page this phone opened works offline too: the correction waits on the
    phone; another phone corrects the same round meanwhile; back online, neither is lost:
    theirs stands on the server, and this phone offers the conflict view with its own."""
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:2])
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    phone.goto(f"/g/{game['id']}/rounds/1")  # opened once with the network: kept
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct round 1")
    phone.goto(f"/g/{game['id']}")
    expect(page.locator("main")).to_have_attribute("data-offline-ready", "")

    phone.set_offline(True)
    page.get_by_role("link", name="Correct round 1").click()
    expect(page.locator("#offline-play-status")).to_have_text(
        words["offline"], timeout=WORKER_START_MS
    )
    # Ann won 5 tricks and Ben 6, not 6 and 5 (C3 still holds: 14 tricks).
    tap(page.locator('[data-count-field="s0-tricks"]'), "radio", "5")
    tap(page.locator('[data-count-field="s1-tricks"]'), "radio", "6")
    page.get_by_role("button", name="Save correction").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["scoreboard"])
    expect(page.locator("#offline-play-status")).to_contain_text("Round 1 is kept on this phone.")
    first = FIVE_ROUNDS[0]
    mine = (seat(first[0].indicator, 5, *first[0].captured), seat(first[1].indicator, 6), first[2])
    assert pending_table(phone) == expected_pending(NAMES, [FIVE_ROUNDS[1]], [mine])

    theirs = FIVE_ROUNDS[3]
    live_table.correct(game, 1, [seat.entry() for seat in theirs])  # another phone's
    phone.set_offline(False)
    stopped = page.locator(".offline-stopped")
    expect(stopped).to_contain_text("Round 1, entered on this phone, was not saved")
    state = live_table.state(game)
    assert state["rounds"][0]["scores"] == round_scores([theirs])[0]  # theirs stands
    stopped.get_by_role("button", name="Compare and choose").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct round 1")
    expect(page.locator("#clash-title")).to_be_visible()
    shown = page.locator("main").inner_text()
    assert all(score in shown for score in signed(round_scores([mine])[0]))


def test_a_round_whose_correct_page_was_never_opened_is_entered_again_offline(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """Offline, the correct page of a round this phone never opened is drawn on the game's
    kept record page: it says the round is to be entered again, whole, for that round and
    its leader (R3); the correction waits on the phone, and is sent as the round's."""
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:2])
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page

    phone.set_offline(True)
    page.get_by_role("link", name="Correct round 2").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Correct round 2", timeout=WORKER_START_MS
    )
    status = page.locator("#offline-play-status")
    expect(status).to_contain_text("did not keep round 2 as it was entered")
    leader = NAMES[round_leader(2, 0, len(NAMES))]
    expect(page.locator("[data-leader]")).to_have_text(words["led"].format(name=leader))
    for place, entry in enumerate(FIVE_ROUNDS[3]):
        enter_quick_seat(phone, "en", place, entry)
    page.get_by_role("button", name="Save correction").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["scoreboard"])
    expect(status).to_contain_text("Round 2 is kept on this phone.")
    assert [r["scores"] for r in live_table.state(game)["rounds"]] == round_scores(FIVE_ROUNDS[:2])

    phone.set_offline(False)
    expect(status).to_have_text(words["sent"], timeout=WORKER_START_MS)
    assert [r["scores"] for r in live_table.state(game)["rounds"]] == round_scores(
        [FIVE_ROUNDS[0], FIVE_ROUNDS[3]]
    )


#: A browser with no way out at all from its start, its service worker included: every
#: request goes to a proxy where nothing listens, loopback too (Chromium's offline
#: emulation starts with the first page, after a sync the browser kept has woken the worker).
NO_NETWORK = ["--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"]


@contextmanager
def browser_on_profile(
    browser: Any, base_url: str, profile: Path, args: tuple[str, ...] = ()
) -> Iterator[Phone]:
    """The browser started on the profile folder ``profile`` (its cookies, IndexedDB,
    service worker and caches), as a phone; closed, the whole browser stops."""
    options = {**PHONE, "service_workers": "allow", "locale": "en-GB", "base_url": base_url}
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), headless=True, args=list(args), **options
    )
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        yield Phone(context, page, base_url)
    finally:
        context.close()


def test_rounds_kept_offline_outlive_closing_the_browser(
    browser: Any, live_server: LiveServer, live_table: Table, tmp_path: Path
) -> None:
    """Recorded offline, the browser closed and started again on the same profile, still
    offline: the round is there, waiting; started again with the network, it is sent, once
    (by the service worker, woken by the browser, or by the page)."""
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    profile = tmp_path / "profile"
    with browser_on_profile(browser, live_server.url, profile) as phone:
        made_ready(phone, game, words)
        phone.set_offline(True)
        record_offline(phone, 2, FIVE_ROUNDS[1], words)
    with browser_on_profile(browser, live_server.url, profile, tuple(NO_NETWORK)) as phone:
        phone.goto(f"/g/{game['id']}")
        expect(phone.page.locator("#offline-play-status")).to_contain_text(words["waiting_one"])
        assert pending_table(phone) == expected_pending(NAMES, FIVE_ROUNDS[:1], FIVE_ROUNDS[1:2])
        assert len(live_table.state(game)["rounds"]) == 1
    with browser_on_profile(browser, live_server.url, profile) as phone:
        phone.goto(f"/g/{game['id']}")
        expect(phone.page.locator(".score-table tbody tr.is-scored")).to_have_count(2)
        expect(phone.page.locator(".score-table tbody tr.is-pending")).to_have_count(0)
        assert phone.page.evaluate(OUTBOX_SIZE) == 0
    rounds = live_table.state(game)["rounds"]
    assert [round_["scores"] for round_ in rounds] == round_scores(FIVE_ROUNDS[:2])


def registration_id(phone: Phone) -> Any:
    """The service worker registration of the app on ``phone`` (through the DevTools
    protocol), and the session that can dispatch its events."""
    session = phone.context.new_cdp_session(phone.page)
    found: list[dict[str, Any]] = []
    session.on(
        "ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"])
    )
    session.send("ServiceWorker.enable")
    phone.page.wait_for_function(CONTROLLED)

    def live() -> list[dict[str, Any]]:
        scope = phone.base_url + "/"
        return [r for r in found if not r["isDeleted"] and r["scopeURL"] == scope]

    # The protocol reports the registration as an event, which may come after the page is
    # controlled: each round trip to the page lets the events that arrived meanwhile in.
    for _ in range(EVENT_ROUND_TRIPS):
        if live():
            break
        phone.page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    assert len(live()) == 1, found
    return session, live()[0]["registrationId"]


def test_with_no_page_of_the_game_open_the_service_worker_sends_what_waits(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """Background Sync: the browser wakes the service worker once the network is back, and
    it sends the rounds kept on the phone, in order, though no page of the game is open.
    (The test asks for the event through the DevTools protocol, as the browser would.)"""
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    phone = ready_phone(new_phone, live_table, game, words)
    watching = new_phone()
    watching.goto(f"/g/{game['id']}/view")
    scored = watching.page.locator(".score-table tbody tr.is-scored")
    expect(scored).to_have_count(1)
    session, registration = registration_id(phone)

    phone.set_offline(True)
    record_offline(phone, 2, FIVE_ROUNDS[1], words)
    record_offline(phone, 3, FIVE_ROUNDS[2], words)
    phone.goto("/rules")  # no page of the game open now (the rules page is kept)
    assert len(live_table.state(game)["rounds"]) == 1
    phone.set_offline(False)
    session.send(
        "ServiceWorker.dispatchSyncEvent",
        {
            "origin": phone.base_url,
            "registrationId": registration,
            "tag": "sticheln-outbox",
            "lastChance": False,
        },
    )

    expect(scored).to_have_count(3, timeout=20_000)  # the other phone sees them arrive
    rounds = live_table.state(game)["rounds"]
    assert [round_["scores"] for round_ in rounds] == round_scores(FIVE_ROUNDS[:3])
    assert phone.page.evaluate(OUTBOX_SIZE) == 0


def hat_trick_counts() -> tuple[list[int], list[HatTrickQuickEntry]]:
    """A 4-player Hat Trick round's counts, seat after seat (red, blue, green, passes), the
    one the others imply filled in (C5), and its entries."""
    setup = table_setup(4, variant_named("hat-trick"))
    seats = [(9, 2, 4, 1), (3, 10, 1, 0), (5, 3, 8, 2), (1, 5, None, 1)]
    flat: list[Any] = [count for counts in seats for count in counts]
    implied = implied_hat_trick_count(flat, setup)
    assert implied is not None
    flat[implied.index] = implied.value
    entries = [
        HatTrickQuickEntry(
            dict(zip(HAT_TRICK_COLOURS, flat[at : at + 3], strict=True)), flat[at + 3]
        )
        for at in range(0, len(flat), 4)
    ]
    return flat, entries


def enter_hat_trick_counts(phone: Phone, flat: list[int]) -> None:
    """Tap each seat's counts on the record page (0 passes are there already)."""
    for place in range(len(flat) // 4):
        for at, name in enumerate(("red", "blue", "green", "passed")):
            count = flat[place * 4 + at]
            if count:
                field = phone.page.locator(f'[data-count-field="s{place}-{name}"]')
                tap(field, "radio", str(count))


def test_a_hat_trick_round_recorded_offline_scores_as_the_server_scores_it(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """Hat Trick counts (R22, C5) entered offline: the phone shows the scores the rules give,
    and the server, once the round is sent, has the same."""
    kit_manifest(live_server)
    words = WORDS["en"]
    names = ["Ann", "Ben", "Cleo", "Dan"]
    game = live_table.new_game(names, "hat-trick", rounds=3)
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    setup = table_setup(len(names), variant_named("hat-trick"))
    flat, entries = hat_trick_counts()
    scores = [place.score for place in score_checked(setup, entries).seats]

    phone.set_offline(True)
    page.get_by_role("link", name="Record round 1").click()
    expect(page.locator("#offline-play-status")).to_have_text(
        words["offline"], timeout=WORKER_START_MS
    )
    enter_hat_trick_counts(phone, flat)
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#offline-play-status")).to_contain_text("Round 1 is kept on this phone.")
    assert pending_table(phone) == first_round_rows(names, scores)

    phone.set_offline(False)
    expect(page.locator("#offline-play-status")).to_have_text(words["sent"])
    assert live_table.state(game)["rounds"][0]["scores"] == scores


def test_a_round_entered_on_the_kept_page_is_saved_in_turn_when_the_network_returns(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """The network comes back while round 3 is being entered on the page kept offline: Save
    sends the waiting round 2 first, then round 3 as the server now numbers it, both once."""
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    phone.set_offline(True)
    record_offline(phone, 2, FIVE_ROUNDS[1], words)
    pending = page.locator(".score-table tbody tr.is-pending")
    expect(pending).to_have_count(1, timeout=WORKER_START_MS)  # the board drawn with round 2
    page.get_by_role("link", name="Record round 3").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record round 3")
    for place, entry in enumerate(FIVE_ROUNDS[2]):
        enter_quick_seat(phone, "en", place, entry)

    phone.set_offline(False)
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["scoreboard"])
    expect(page.locator(".notice--saved").first).to_contain_text("Round 3")
    rounds = live_table.state(game)["rounds"]
    assert [round_["scores"] for round_ in rounds] == round_scores(FIVE_ROUNDS[:3])


def test_colours_marked_offline_then_the_round_recorded_are_sent_in_order(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """The table marks the colours first (R4), offline, on the kept mark page; the record
    page then shows those indicators chosen; back online, the marks and the round are sent,
    in that order, and the server scores the round as the phone did."""
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=2)
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    played = FIVE_ROUNDS[0]

    phone.set_offline(True)
    page.get_by_role("link", name="Mark colours").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mark colours, round 1")
    expect(page.locator("#offline-play-status")).to_have_text(
        words["offline"], timeout=WORKER_START_MS
    )
    for place, entry in enumerate(played):
        tap_chip(page.locator(f'[data-field="s{place}-marked"]'), entry.indicator, "radio")
    page.get_by_role("button", name="Save colours").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["scoreboard"])
    marked = page.locator(".score-table tbody tr.is-pending.is-playing")  # round 1, marked
    expect(marked).to_have_count(1, timeout=WORKER_START_MS)
    expect(page.locator(".current-round .hint")).to_have_text(
        "The colours are marked; the round is being played."
    )

    page.get_by_role("link", name="Record round 1").click()
    expect(page.locator("#offline-play-status")).to_have_text(
        words["offline"], timeout=WORKER_START_MS
    )
    for place, entry in enumerate(played):  # the indicators as marked, chosen already
        token = entry.indicator.replace(" ", "-")
        expect(page.locator(f'input[name="s{place}-marked"][value="{token}"]')).to_be_checked()
        tap(page.locator(f'[data-count-field="s{place}-tricks"]'), "radio", str(entry.tricks))
        captures = page.locator(f'[data-field="s{place}-marked_captured"]')
        for text in entry.captured:
            tap_chip(captures, text, "checkbox")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#offline-play-status")).to_contain_text(words["waiting"].format(count=2))
    assert pending_table(phone) == expected_pending(NAMES, [], [played])
    assert live_table.state(game)["rounds"] == []
    mark = page.get_by_role("link", name="Mark colours")  # the next round's, first (R4)
    expect(mark).to_have_attribute("href", re.compile(rf"/g/{game['id']}/rounds/mark$"))
    expect(mark).to_have_class(re.compile(r"\bbutton--primary\b"))

    phone.set_offline(False)
    expect(page.locator("#offline-play-status")).to_have_text(words["sent"])
    assert [r["scores"] for r in live_table.state(game)["rounds"]] == round_scores([played])


def test_a_round_with_every_card_recorded_offline_scores_as_the_server_scores_it(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """Every card entered (the full form, kept when this phone opened it with the network):
    the phone's scores are the rules' (R10), and the server's once sent."""
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=2)
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    full = f"/g/{game['id']}/rounds/record?mode=full"
    phone.goto(full)  # kept by the service worker, with its query
    setup = table_setup(len(NAMES), variant_named("classic"))
    indicators = [card("red 4"), card("blue 0"), card("green 1")]
    rest = [found for found in setup.deck if found not in indicators]
    captured = [rest[:18], rest[18:33], rest[33:]]  # whole tricks of 3 cards each (C3)
    entries = [
        FullEntry((shown,), tuple(cards)) for shown, cards in zip(indicators, captured, strict=True)
    ]
    scores = [place.score for place in score_checked(setup, entries).seats]

    phone.set_offline(True)
    phone.goto(full)
    expect(page.locator("#offline-play-status")).to_have_text(
        words["offline"], timeout=WORKER_START_MS
    )
    for place, (shown, cards) in enumerate(zip(indicators, captured, strict=True)):
        tap_chip(page.locator(f'[data-field="s{place}-marked"]'), label(shown), "radio")
        for taken in cards:
            tap_chip(page.locator(f'[data-field="s{place}-captured"]'), label(taken), "checkbox")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#offline-play-status")).to_contain_text("Round 1 is kept on this phone.")
    assert pending_table(phone) == first_round_rows(NAMES, scores)
    phone.set_offline(False)
    expect(page.locator("#offline-play-status")).to_have_text(words["sent"])
    assert live_table.state(game)["rounds"][0]["scores"] == scores


def label(found: Any) -> str:
    """A card as its chip is named: ``"red 4"``."""
    return f"{found.colour.value} {found.value}"


def test_a_round_the_rules_refuse_offline_is_refused_in_the_table_s_words_and_not_kept(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """Offline, a round whose trick counts add up to 15 of 14 (C3) is refused on the phone
    word for word as the server's page says it in German, naming the player; nothing is
    kept."""
    kit_manifest(live_server)
    words = WORDS["de"]
    game = live_table.new_game(NAMES, rounds=2)
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    played = FIVE_ROUNDS[0]
    broken = (played[0], played[1], seat(played[2].indicator, 4, *played[2].captured))
    setup = table_setup(len(NAMES), variant_named("classic"))
    with pytest.raises(Refusal) as refused:
        score_checked(setup, [entry.entry() for entry in broken])
    with live_server.app.test_request_context(), force_locale("de"):
        expected = render_message(refused.value.message, NAMES)

    phone.set_offline(True)
    page.get_by_role("link", name=words["record"].format(number=1)).click()
    for place, entry in enumerate(broken):
        enter_quick_seat(phone, "de", place, entry)
    page.get_by_role("button", name=words["save"]).click()
    status = page.locator("#offline-play-status")
    expect(status).to_have_text(expected, timeout=WORKER_START_MS)  # once the rules started
    expect(status).to_have_attribute("role", "alert")
    expect(page.get_by_role("heading", level=1)).to_have_text(words["record"].format(number=1))
    assert page.evaluate(OUTBOX_SIZE) == 0
