"""Circles in a real browser at a phone's size (issue 28): a phone joins a table's circle by
the invite link its QR code holds, and chooses on the new-game page which circle a game
joins. Axe finds nothing, in English and German; screenshots with ``SCREENSHOTS_DIR``."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from companion.data.models import Circle, Game, db
from companion.web.scoreboard_page import qr_svg
from tests.browser.support import LiveServer, Phone, PhoneFactory
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot

WORDS = {
    "en": {
        "locale": "en-GB",
        "start": "Start the game",
        "show": "Show the invite link",
        "joined": "This phone is now in the circle {name}.",
        "new": "A new circle",
        "circle": "Circle",
    },
    "de": {
        "locale": "de-DE",
        "start": "Partie starten",
        "show": "Einladungslink zeigen",
        "joined": "Dieses Handy gehört jetzt zum Kreis {name}.",
        "new": "Ein neuer Kreis",
        "circle": "Kreis",
    },
}


def no_axe_violations(phone: Phone, axe_source: str, where: str) -> None:
    problems = describe_violations(axe_violations(phone, axe_source), where)
    assert problems == [], "\n".join(problems)


def start_game(phone: Phone, names: list[str], start: str) -> str:
    """Fill in the new-game page as a player would and start; answers the game's code."""
    page = phone.page
    for seat, name in enumerate(names):
        page.locator(f"#player_{seat}").fill(name)
    page.get_by_role("button", name=start).click()
    expect(page).to_have_url(f"{phone.base_url}/g/{page.url.split('/g/')[-1]}")
    return page.url.rsplit("/g/", 1)[-1].split("/")[0]


def circle_of(server: LiveServer, code: str) -> tuple[int, str]:
    with server.app.app_context():
        row = db.session.execute(
            sa.select(Circle.id, Circle.name).join(Game).where(Game.code == code)
        ).one()
        return int(row.id), str(row.name)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_phone_joins_a_circle_by_its_invite_qr_and_chooses_the_circle_of_a_new_game(
    new_phone: PhoneFactory, live_server: LiveServer, axe_source: str, language: str
) -> None:
    words = WORDS[language]
    headers = {"Accept-Language": language}
    keeper = new_phone(locale=words["locale"], extra_http_headers=headers)
    keeper.goto("/games/new")
    # a phone in no circle is not asked: its first game makes the circle
    expect(keeper.page.locator("select[name='circle']")).to_have_count(0)
    names = ["Ann", "Ben", f"Cleo {language}"]
    first = start_game(keeper, names, words["start"])
    circle_id, circle_name = circle_of(live_server, first)
    assert circle_name == ", ".join(names)

    # The keeper shows the circle's invite: its QR code holds the link it prints.
    keeper.goto("/circles")
    card = keeper.page.locator(f"#circle-{circle_id}")
    card.get_by_text(words["show"]).click()
    link = card.locator("a[href*='/join/']")
    invite = link.get_attribute("href")
    assert invite is not None and invite.startswith(f"{live_server.url}/circles/{circle_id}/join/")
    drawn = card.locator(".qr path.qrline").get_attribute("d")
    assert drawn and re.search(f' d="{re.escape(drawn)}"', str(qr_svg(invite)))
    no_axe_violations(keeper, axe_source, f"circles page ({language})")
    save_screenshot(keeper, f"circles-invite-{language}")

    # Another phone scans it: it is in the circle, and may pass the invite on.
    guest = new_phone(locale=words["locale"], extra_http_headers=headers)
    guest.page.goto(invite)  # as the camera opens it: the whole link
    expect(guest.page).to_have_url(f"{live_server.url}/circles")
    expect(guest.page.get_by_role("status")).to_contain_text(
        words["joined"].format(name=circle_name)
    )
    expect(guest.page.locator(f"#circle-{circle_id} a[href*='/join/']")).to_have_attribute(
        "href", invite
    )
    no_axe_violations(guest, axe_source, f"circles page after joining ({language})")
    save_screenshot(guest, f"circles-joined-{language}")

    # Its new-game page offers the circle it joined; a game may start a new circle instead.
    guest.goto("/games/new")
    choice = guest.page.get_by_label(words["circle"], exact=True)
    expect(choice).to_have_value(str(circle_id))
    no_axe_violations(guest, axe_source, f"new game with a circle ({language})")
    save_screenshot(guest, f"new-game-circle-{language}")
    choice.select_option(label=words["new"])
    other = start_game(guest, ["Zoe", "Yan", f"Xia {language}"], words["start"])
    other_id, _ = circle_of(live_server, other)
    assert other_id != circle_id

    # Both circles are offered now, the last one used first; the table's goes back to it.
    guest.goto("/games/new")
    expect(choice).to_have_value(str(other_id))
    choice.select_option(str(circle_id))
    third = start_game(guest, ["Ann", "Ben", f"Dora {language}"], words["start"])
    assert circle_of(live_server, third)[0] == circle_id
    guest.goto("/games/new")
    expect(choice).to_have_value(str(circle_id))

    # The keeper's phone, never given the guest's new circle, is offered only its own.
    keeper.goto("/games/new")
    options = keeper.page.locator("select[name='circle'] option")
    expect(options).to_have_count(2)  # its circle and "a new circle"
    expect(options.first).to_have_text(circle_name)
