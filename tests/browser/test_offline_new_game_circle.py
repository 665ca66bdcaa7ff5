"""A game started offline joins the circle chosen on the new-game page (issue 28, point 6),
in a real browser at a phone's size, on a server of many circles (the product's default, as
the browser tests' server runs): the outbox sends the choice with the game's start
(static/offline_new_game.js), so back online the game is in the phone's circle, which still
shows it; and "A new circle", chosen offline, makes a new circle the phone is in.
"""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from playwright.sync_api import expect

from companion.data.models import Circle, Game, db
from tests.browser.support import (
    WORKER_START_MS,
    LiveServer,
    Phone,
    PhoneFactory,
    kit_manifest,
    wait_for_async,
)
from tests.browser.test_offline_new_game import SHELL, SHELL_KEPT, fill_table
from tests.browser.test_offline_play import NAMES, OUTBOX_SIZE, WORDS, ready_phone
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot
from tests.table import Table

#: The games of a circle the phone is in, as its own pages ask the API (its session).
CIRCLE_GAMES = """async (circle) => {
  const answer = await fetch("/api/v1/games?circle=" + circle);
  return answer.ok ? (await answer.json()).games.map((game) => game.id) : answer.status;
}"""


def circle_of_game(live_server: LiveServer, code: str) -> int:
    with live_server.app.app_context():
        circle: int = db.session.scalar(sa.select(Game.circle_id).where(Game.code == code))
        db.session.remove()
        return circle


def circle_name(live_server: LiveServer, circle: int) -> str:
    with live_server.app.app_context():
        name: str = db.session.scalar(sa.select(Circle.name).where(Circle.id == circle))
        db.session.remove()
        return name


def circles_named(live_server: LiveServer, name: str) -> list[int]:
    with live_server.app.app_context():
        found = list(db.session.scalars(sa.select(Circle.id).where(Circle.name == name)))
        db.session.remove()
        return found


def start_offline(phone: Phone, live_server: LiveServer, names: list[str], circle: str) -> str:
    """Start a game of ``names`` with no network in ``circle`` (the select's value), send
    it once the network is back; answer its code on the server."""
    page = phone.page
    phone.goto("/games/new")  # kept for offline use, with the phone's circles
    wait_for_async(page, SHELL_KEPT, live_server.url + SHELL, WORKER_START_MS)
    phone.set_offline(True)
    phone.goto("/games/new")
    fill_table(page, names)
    page.select_option("#circle", circle)
    page.get_by_role("button", name="Start the game").click()
    started = re.compile(rf"{re.escape(live_server.url)}/games/new/[0-9a-f-]{{36}}$")
    expect(page).to_have_url(started, timeout=WORKER_START_MS)
    phone.set_offline(False)
    sent = re.compile(rf"{re.escape(live_server.url)}/g/[A-Za-z0-9]+$")
    expect(page).to_have_url(sent, timeout=WORKER_START_MS)
    assert page.evaluate(OUTBOX_SIZE) == 0
    return page.url.rsplit("/", 1)[-1]


def test_a_game_started_offline_joins_the_circle_chosen_on_the_page(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table, axe_source: str
) -> None:
    kit_manifest(live_server)
    opened: dict[str, Any] = live_table.new_game([*NAMES, "Dan"], rounds=1)  # the table's
    circle = circle_of_game(live_server, opened["id"])  # circle, A
    name = circle_name(live_server, circle)
    phone = ready_phone(new_phone, live_table, opened, WORDS["en"])  # in A by its edit link
    page = phone.page
    phone.goto("/games/new")
    choice = page.locator("#circle")
    expect(choice).to_have_value(str(circle))  # the phone's circle, offered first
    expect(choice.locator("option")).to_have_text([name, "A new circle"])
    save_screenshot(phone, "offline-new-game-circle-en")
    problems = describe_violations(axe_violations(phone, axe_source), "new game with a circle")
    assert problems == [], "\n".join(problems)

    code = start_offline(phone, live_server, ["Dora", "ann", "Emil"], str(circle))
    assert code != opened["id"]
    assert circle_of_game(live_server, code) == circle
    assert live_table.state({"id": code})["players"] == ["Dora", "Ann", "Emil"]  # A's Ann
    assert code in page.evaluate(CIRCLE_GAMES, circle)  # the phone still sees it

    other = start_offline(phone, live_server, ["Gus", "Hedy", "Ida"], "new")
    made = circles_named(live_server, "Gus, Hedy, Ida")
    assert made == [circle_of_game(live_server, other)]
    assert made[0] != circle
    assert page.evaluate(CIRCLE_GAMES, made[0]) == [other]  # the phone is in the new one
    phone.goto("/games/new")
    expect(choice.locator("option")).to_have_text([name, "Gus, Hedy, Ida", "A new circle"])
    expect(choice).to_have_value(str(made[0]))  # the circle used last
