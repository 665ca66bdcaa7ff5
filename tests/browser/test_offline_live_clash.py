"""A round played live offline that clashes with another phone's (issue 26, point 5), in a
real browser at a phone's size: while this phone plays round 1 live with no network, another
phone records round 1. Back online, nothing is overwritten and nothing is lost: the
scoreboard says the round was not saved, shows it as played here, and lets the table choose
which round stands, for the whole round at once. Kept, this phone's round replaces the other
phone's, in full, with the scores the phone showed."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from companion.rules import PRESETS, table_setup
from tests.browser.scenario import FIVE_ROUNDS, round_scores, signed
from tests.browser.support import (
    WORKER_START_MS,
    LiveServer,
    PhoneFactory,
    kit_manifest,
    record_rounds,
)
from tests.browser.test_offline_play import NAMES, OUTBOX_SIZE, WORDS, ready_phone
from tests.browser.test_offline_table import deal_led_by, live_round, quick_entries, scores_of
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot
from tests.table import Table


@pytest.mark.parametrize("kept", ["this phone's", "the other phone's"])
def test_a_live_round_that_clashed_stands_as_the_table_chooses(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table, axe_source: str, kept: str
) -> None:
    kit_manifest(live_server)
    words = WORDS["en"]
    game = live_table.new_game(NAMES, rounds=2)
    phone = ready_phone(new_phone, live_table, game, words)
    page = phone.page
    setup = table_setup(len(NAMES), PRESETS["classic"])
    played = deal_led_by(0, random.Random(2611), setup)
    mine = scores_of(setup, quick_entries(played))

    phone.set_offline(True)
    live_round(phone, played, number=1)
    page.get_by_role("link", name=words["scoreboard"]).last.click()
    record_rounds(live_table, game, FIVE_ROUNDS[:1])  # meanwhile, on another phone
    theirs = round_scores(FIVE_ROUNDS[:1])
    assert theirs != [mine]

    phone.set_offline(False)
    clash = page.locator(".offline-stopped")
    expect(clash).to_contain_text(
        "Round 1, played live on this phone, was not saved", timeout=WORKER_START_MS
    )
    shown = " · ".join(
        f"{name} {signed([score])[0]}" for name, score in zip(NAMES, mine, strict=True)
    )
    expect(clash).to_contain_text(f"As played on this phone: {shown}", timeout=WORKER_START_MS)
    assert [r["scores"] for r in live_table.state(game)["rounds"]] == theirs, "nothing overwritten"
    # The scoreboard as the server has it now (the other phone's round 1), not the phone's copy.
    expect(page.locator("[data-offline-copy]")).to_be_hidden()
    expect(page.locator(".score-table tbody tr.is-scored")).to_have_count(1)
    if kept == "the other phone's":
        page.get_by_role("link", name="Keep the other phone's").click()
        expect(clash).to_have_count(0, timeout=WORKER_START_MS)
        assert [r["scores"] for r in live_table.state(game)["rounds"]] == theirs
        expect(page.locator(".score-table tbody tr.is-scored")).to_have_count(1)
        assert page.evaluate(OUTBOX_SIZE) == 0
        return
    save_screenshot(phone, "offline-live-clash-en")
    problems = describe_violations(axe_violations(phone, axe_source), "live clash")
    assert problems == [], "\n".join(problems)

    page.get_by_role("button", name="Keep this phone's round").click()
    expect(page.locator("#offline-play-status")).to_have_text(
        words["sent"], timeout=WORKER_START_MS
    )
    state = live_table.state(game)
    assert [(r["mode"], r["scores"]) for r in state["rounds"]] == [("full", mine)]
    assert page.evaluate(OUTBOX_SIZE) == 0
