"""Two phones at the end of a game, in a real browser at 390x844 (issue 24, points 6 and 7).

Point 7: the live round that ends the game shows the result where its last card was
entered: the winners and the final ranking (R11, asked of the rules), and "Play again".
Point 6: whichever phone presses "Play again", the other phone of the table (it holds the
old game's edit key) gets the next game's edit rights by "Go to the next game"; a phone
without them is told to ask for the edit link instead of landing on a bare read-only page.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.rules import PRESETS, table_setup, winners
from tests.browser.scenario import FIVE_ROUNDS, round_scores
from tests.browser.support import Phone, PhoneFactory
from tests.browser.test_journeys import in_language
from tests.browser.test_pages import (
    axe_violations,
    describe_violations,
    overflow_problems,
    spilled_text_problems,
)
from tests.rules.helpers import play_classic_round
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
THREE = ["Ann", "Ben", "Cleo"]
#: The old scoreboard polls every few seconds; the next game's link must show within a few.
FOLLOW_MS = 40_000  # a bound: on a busy machine a poll can come late


def check_page(phone: Phone, axe_source: str, where: str) -> None:
    """Fits the phone, no text spills out, and axe finds nothing."""
    problems = overflow_problems(phone, where) + spilled_text_problems(phone, where)
    problems += describe_violations(axe_violations(phone, axe_source), where)
    assert not problems, "\n".join(problems)


def signed(number: int) -> str:
    """A total as the pages write it (a true minus sign)."""
    return f"+{number}" if number > 0 else str(number).replace("-", "\u2212")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_last_card_of_the_game_shows_the_winners_the_ranking_and_play_again(
    new_phone: PhoneFactory, live_table: Table, axe_source: str, lang: str
) -> None:
    setup = table_setup(len(NAMES), PRESETS["classic"])
    played = play_classic_round(setup, random.Random(f"game end {lang}"))
    game = live_table.new_game(NAMES, rounds=1, first_leader=played.trick_log[0][0])
    code, key = game["id"], game["edit_key"]
    auth = {"Authorization": f"Bearer {key}"}
    marked = [[card.as_json() for card in cards] for cards in played.indicators]
    answer = live_table.client.post(
        f"/api/v1/games/{code}/rounds/live",
        json={"version": game["version"], "marked": marked},
        headers=auth,
    )
    assert answer.status_code == 201, answer.json
    version = answer.json["version"]
    for _, cards, _ in played.trick_log[:-1]:  # every trick but the last, entered elsewhere
        answer = live_table.client.post(
            f"/api/v1/games/{code}/rounds/1/tricks",
            json={"version": version, "cards": [card.as_json() for card in cards]},
            headers=auth,
        )
        assert answer.status_code == 201, answer.json
        version = answer.json["version"]

    phone = new_phone()
    phone.goto(f"/g/{code}/edit/{key}")
    phone.goto(f"/lang/{lang}")
    phone.goto(f"/g/{code}/rounds/1/live")
    page = phone.page
    for card in played.trick_log[-1][1]:  # the last trick, tapped here
        page.locator(f'button[name="card"][value="{card.colour.value}-{card.value}"]').click()
    result = page.locator(".live-end")
    expect(result).to_be_visible()

    state = live_table.client.get(f"/api/v1/games/{code}").json
    totals = state["rounds"][0]["scores"]
    best = winners(totals)
    assert state["status"] == "finished"
    if len(best) == 1:
        said = in_language(lang, "%(name)s wins with %(total)s points.") % {
            "name": NAMES[best[0]],
            "total": signed(totals[best[0]]),
        }
    else:
        said = in_language(lang, "Shared win: %(names)s, with %(total)s points each.") % {
            "names": ", ".join(NAMES[seat] for seat in best),
            "total": signed(totals[best[0]]),
        }
    expect(result.locator("p").first).to_have_text(said)
    order = sorted(range(len(NAMES)), key=lambda seat: (-totals[seat], seat))
    expect(result.locator(".live-ranking__name")).to_have_text([NAMES[s] for s in order])
    expect(result.locator(".live-ranking__total")).to_have_text([signed(totals[s]) for s in order])
    expect(result.locator(".badge--winner")).to_have_count(len(best))
    check_page(phone, axe_source, f"the live page ending the game in {lang}")
    if shots := os.environ.get("SCREENSHOTS"):
        result.scroll_into_view_if_needed()
        page.screenshot(path=str(Path(shots) / f"live-game-end-390-{lang}.png"))
        page.screenshot(
            path=str(Path(shots) / f"live-game-end-390-{lang}-full.png"), full_page=True
        )

    page.get_by_role("button", name=in_language(lang, "Play again")).click()
    mark = in_language(lang, "Mark colours, round %(number)s") % {"number": 1}
    expect(page.get_by_role("heading", level=1)).to_have_text(mark)
    assert not re.search(f"/g/{code}/", page.url)
    assert not phone.foreign_requests()


def finished_three(live_table: Table) -> tuple[str, str]:
    """A game of three, its only round recorded: finished (R11). Its code and key."""
    game = live_table.new_game(THREE, rounds=1)
    live_table.record(game, [seat.entry() for seat in FIVE_ROUNDS[0]])
    assert round_scores([FIVE_ROUNDS[0]])  # scored by the rules
    return game["id"], game["edit_key"]


@pytest.mark.parametrize("presser", ["first", "second"])
def test_whichever_phone_plays_again_the_other_phone_of_the_table_keeps_the_score_too(
    new_phone: PhoneFactory, live_table: Table, axe_source: str, presser: str
) -> None:
    code, key = finished_three(live_table)
    first, second = new_phone(), new_phone()
    for phone in (first, second):
        phone.goto(f"/g/{code}/edit/{key}")
        expect(phone.page.get_by_role("button", name="Play again")).to_be_visible()
    pressing, other = (first, second) if presser == "first" else (second, first)

    pressing.page.get_by_role("button", name="Play again").click()
    expect(pressing.page.get_by_role("heading", level=1)).to_have_text("Mark colours, round 1")
    following = pressing.page.url.split("/g/")[1].split("/")[0]

    # the other phone's old scoreboard follows: "Play again" becomes the way to the next game
    link = other.page.get_by_role("link", name="Go to the next game")
    expect(link).to_be_visible(timeout=FOLLOW_MS)
    link.click()
    expect(other.page.get_by_role("heading", level=1)).to_have_text("Scoreboard")
    assert other.page.url.endswith(f"/g/{following}")
    expect(other.page.locator(f'a[href$="/g/{following}/rounds/mark"]').first).to_be_visible()
    check_page(other, axe_source, "the next game's scoreboard on the other phone")
    assert not first.foreign_requests() and not second.foreign_requests()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_phone_without_the_old_games_rights_is_told_to_ask_for_the_edit_link(
    new_phone: PhoneFactory, live_table: Table, axe_source: str, lang: str
) -> None:
    code, key = finished_three(live_table)
    keeper = new_phone()
    keeper.goto(f"/g/{code}/edit/{key}")
    keeper.page.get_by_role("button", name="Play again").click()
    expect(keeper.page.get_by_role("heading", level=1)).to_have_text("Mark colours, round 1")

    looker = new_phone()
    looker.goto(f"/lang/{lang}")
    looker.goto(f"/g/{code}")
    looker.page.get_by_role("link", name=in_language(lang, "Go to the next game")).click()
    page = looker.page
    expect(page.get_by_role("heading", level=1)).to_have_text(in_language(lang, "The next game"))
    ask = in_language(
        lang,
        "To keep the score here too, ask the phone that keeps the score for the edit link: its "
        "share page shows it as a link and a QR code.",
    )
    expect(page.locator(".notice")).to_contain_text(ask)
    check_page(looker, axe_source, f"the next game's notice in {lang}")
    if shots := os.environ.get("SCREENSHOTS"):
        page.screenshot(path=str(Path(shots) / f"next-game-notice-390-{lang}.png"), full_page=True)
    page.get_by_role("link", name=in_language(lang, "Look at the next game")).click()
    expect(page.locator("h1")).to_have_text(in_language(lang, "Scoreboard"))
    assert page.url.endswith("/view")
