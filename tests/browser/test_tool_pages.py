"""The table tools on a phone, with JavaScript: the resolver keeps its trick in the address
(Back after a rule link returns to it) and its trick rule fits the screen in every language.

Who takes a trick is computed through ``companion.rules`` (scenario.py), never read from the
page it checks.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.scenario import verdict
from tests.browser.support import Phone

LANGUAGES = ["en", "de", "it", "fr", "hu"]
#: The room a select's own arrow takes beside its text (Chromium draws about 20 px).
SELECT_ARROW_PX = 24


def tap_card(phone: Phone, card: str) -> None:
    """Tap a card of the resolver's deck, by the name its chip says ("blue 9")."""
    phone.page.locator(".picker").get_by_role("button", name=card, exact=True).click()


def test_back_from_a_rule_link_returns_to_the_same_trick(phone: Phone) -> None:
    page = phone.page
    phone.goto("/resolve")
    page.get_by_label("Players").select_option("5")
    count = page.locator(".trick__count")
    expect(count).to_have_text("0 of 5 cards")
    cards = ["yellow 3", "green 3", "blue 9"]
    for played, card in enumerate(cards, start=1):
        tap_card(phone, card)
        expect(count).to_have_text(f"{played} of 5 cards")
    expect(page).to_have_url(re.compile(r"trick=yellow-3\+green-3\+blue-9"))
    taken = verdict(cards)

    page.locator(".trick-reason").get_by_role("link", name="R8").click()
    expect(page).to_have_url(re.compile(r"/rules#r8$"))
    page.go_back()

    expect(count).to_have_text("3 of 5 cards")
    plays = page.locator(".trick-plays .trick-play")
    for index, card in enumerate(cards):
        expect(plays.nth(index).locator(".chip[data-colour]")).to_have_attribute("title", card)
    expect(page.locator(".trick-play--takes")).to_contain_text(taken.card)
    expect(page.locator(".trick-reason")).to_have_text(taken.reason)
    expect(page.get_by_label("Players")).to_have_value("5")
    tap_card(phone, "red 0")  # the trick goes on from where it was
    expect(count).to_have_text("4 of 5 cards")
    assert not phone.foreign_requests()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_trick_rule_fits_its_select_in_every_language(phone: Phone, lang: str) -> None:
    page = phone.page
    phone.goto(f"/lang/{lang}?next=/resolve")
    select = page.locator("select#variant")
    expect(select).to_be_visible()

    widths = select.evaluate(
        """(select) => {
            const style = getComputedStyle(select);
            const context = document.createElement("canvas").getContext("2d");
            context.font = style.font;
            const room = select.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight);
            return Array.from(select.options, (option) => ({
                text: option.text,
                width: context.measureText(option.text).width,
                room: room,
            }));
        }"""
    )

    assert len(widths) == 3
    for option in widths:
        assert option["width"] + SELECT_ARROW_PX <= option["room"], (
            f"{lang}: {option['text']!r} needs {option['width']:.0f} px, "
            f"the select shows {option['room'] - SELECT_ARROW_PX:.0f}"
        )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
