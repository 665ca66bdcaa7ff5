"""How long a page change takes offline, after the first page, on a phone's CPU: a benchmark,
not a test (no budget asserted; the figures go to docs/development.md). Run it alone, by its
path, as pytest collects only test_*.py by itself:

    .venv/bin/pytest -s tests/browser/bench_offline_page_change.py

A phone that kept the offline kit opens a game's record page with no network (the rules
worker starts, once), then goes scoreboard -> record page -> back, several times, with
Chromium's CPU throttled 4x (CDP ``Emulation.setCPUThrottlingRate``). Each change is timed
in the page, from the tap (its click event) to the page drawn by the worker (its heading, and
the notice that says the page is the phone's), looked at every animation frame and counted
once that frame is painted (a task after it); and, as the test sees it, from the call that
taps to the last check passed (which adds Playwright's own waits and polling). The document
must stay the same one (no new start of the worker).
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from flask_babel import force_locale, gettext
from playwright.sync_api import expect

from tests.browser.scenario import FIVE_ROUNDS
from tests.browser.support import (
    WORKER_START_MS,
    LiveServer,
    PhoneFactory,
    kit_manifest,
    record_rounds,
)
from tests.browser.test_offline_play import NAMES, WORDS, ready_phone
from tests.browser.test_pages import save_screenshot
from tests.table import Table

CHANGES = 5  # there and back, each
BACK, ON = "scoreboard <- record", "scoreboard -> record"
#: The time of each tap, in the page (performance.now(), at its click event).
TAPS = "document.addEventListener('click', () => { window.tapped = performance.now(); }, true);"
#: Whether the page drawn is in: once it is, the time after the next paint (``window.drawn``).
DRAWN = """([heading, link, status]) => {
  const title = document.querySelector("h1");
  const notice = document.getElementById("offline-play-status");
  const shown =
    title !== null && title.textContent.trim() === heading &&
    (link === null ||
      [...document.querySelectorAll("a")].some((a) => a.textContent.trim() === link)) &&
    (status === null || (notice !== null && notice.textContent.trim() === status &&
      document.querySelectorAll("#round-form[data-offline-entry]").length === 1));
  if (shown && !window.seen) {
    window.seen = true;
    setTimeout(() => { window.drawn = performance.now(); });
  }
  return window.drawn !== undefined;
}"""
#: The start of what the share page says once the kit is kept.
KEPT = {"en": "Kept for offline play", "hu": "Offline játékhoz elmentve"}


def test_page_change_offline_after_the_first_page(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    kit_manifest(live_server)
    words: Any = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    phone.context.add_init_script(TAPS)
    cdp = phone.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    phone.set_offline(True)
    started = time.perf_counter()
    phone.goto(f"/g/{game['id']}/rounds/record")
    status = page.locator("#offline-play-status")
    expect(status).to_have_text(words["offline"], timeout=WORKER_START_MS)
    first = time.perf_counter() - started
    page.evaluate("() => { window.sameDocument = true; }")
    record = words["record"].format(number=2)
    times: dict[str, tuple[list[float], list[float]]] = {
        BACK: ([], []),
        ON: ([], []),
    }

    def change(link: str, drawn: list[str | None], name: str) -> None:
        page.evaluate("() => { delete window.seen; delete window.drawn; }")
        started = time.perf_counter()
        page.get_by_role("link", name=link).click()
        page.wait_for_function(DRAWN, arg=drawn, polling="raf")
        expect(page.get_by_role("heading", level=1)).to_have_text(drawn[0] or "")
        if drawn[2] is None:
            expect(page.get_by_role("link", name=record)).to_be_visible()
        else:
            expect(status).to_have_text(words["offline"])
            expect(page.locator("#round-form[data-offline-entry]")).to_have_count(1)
        times[name][1].append(time.perf_counter() - started)
        times[name][0].append(page.evaluate("() => (window.drawn - window.tapped) / 1000"))

    for _ in range(CHANGES):
        change("Back to the scoreboard", [words["scoreboard"], record, None], BACK)
        change(record, [record, None, words["offline"]], ON)
    page.go_back()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["scoreboard"])
    assert page.evaluate("() => window.sameDocument === true"), "a new document was loaded"
    load = os.getloadavg()
    print(f"\nfirst page offline (worker start): {first:.2f} s; load average {load[0]:.2f}")
    for name, (in_page, seen) in times.items():
        print(
            f"{name}: in the page, median {statistics.median(in_page):.3f} s, max "
            f"{max(in_page):.3f} s ({', '.join(f'{t:.3f}' for t in in_page)}); as the test "
            f"sees it, median {statistics.median(seen):.3f} s "
            f"({', '.join(f'{t:.3f}' for t in seen)})"
        )


def test_screenshots_of_the_offline_record_page(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """The record page drawn offline by the worker, in English and Hungarian, kept at
    390x844 where SCREENSHOTS_DIR says (to be looked at)."""
    kit_manifest(live_server)
    game = live_table.new_game(NAMES, rounds=5)
    record_rounds(live_table, game, FIVE_ROUNDS[:1])
    for language, locale in (("en", "en-GB"), ("hu", "hu-HU")):
        with live_server.app.test_request_context(), force_locale(language):
            words = {
                **WORDS["en"],
                "locale": locale,
                "keep": gettext("Keep for offline play"),
                "kept": KEPT[language],
            }
        phone = ready_phone(new_phone, live_table, game, words)
        phone.set_offline(True)
        phone.goto(f"/g/{game['id']}/rounds/record")
        said = live_server.app.test_client().get(f"/offline/words.json?lang={language}")
        status = phone.page.locator("#offline-play-status")  # the page drawn by the worker
        expect(status).to_have_text(said.json["offline"], timeout=WORKER_START_MS)
        expect(phone.page.locator("html")).to_have_attribute("lang", language)
        expect(phone.page.locator(".round-seat")).to_have_count(len(NAMES))
        save_screenshot(phone, f"offline-record-page-worker-{language}")
