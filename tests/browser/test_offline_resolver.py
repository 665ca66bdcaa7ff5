"""The trick resolver offline (issue 26, point 3), in a real browser at a phone's size: a phone
that kept the offline kit settles "who takes that trick?" with no network, outside a game and
inside one, in every trick rule, through its rules worker (companion/rules under Pyodide).
Every tap is made again on a second phone, online and without JavaScript (the server's own
page, posted as a form), and the two pages are held against each other: the same trick,
players, badges, verdict, reason, piles, passes, refusal, bar and chips, word for word. A
reload offline shows the trick its address names.

Screenshots (``SCREENSHOTS_DIR``) of the resolver offline, in English and Hungarian.
"""

from __future__ import annotations

import difflib
import gettext
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

import companion
from companion.rules.names_in_sentences import before_names
from tests.browser.support import LiveServer, Phone, PhoneFactory, kit_manifest
from tests.browser.test_offline_play import WORDS, made_ready
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot
from tests.table import Table

#: R19 on the resolver, in the live page's words.
PASS_HINT = (
    "Two colours are in the trick: a card of the third colour is a pass, put face down (R19). "
    "Tap the card the player shows."
)

#: What a page shows of its trick: the panel, the chips to tap and the bar, as read on screen,
#: with the form's state and the chips' names for a screen reader.
SHOWN = """() => {
  const form = document.getElementById("resolver-form");
  const text = (selector) => {
    const found = form.querySelector(selector);
    return found ? found.innerText : null;
  };
  const hint = form.querySelector(".pass-hint");
  return {
    panel: text("#trick-panel"),
    picker: text(".picker"),
    bar: text(".trick-bar"),
    trick: form.elements.namedItem("trick").value,
    pass_hint: hint && !hint.hidden ? hint.innerText : null,
    names: Array.from(form.querySelectorAll(".picker .chip")).map(
      (chip) => chip.getAttribute("aria-label") + "|" + chip.className
    ),
    undo: Array.from(form.querySelectorAll('button[name="undo"]')).map((b) => b.disabled),
    links: Array.from(form.querySelectorAll("#trick-panel a")).map((a) => a.pathname + a.hash),
  };
}"""


def shown(phone: Phone) -> dict[str, Any]:
    return dict(phone.page.evaluate(SHOWN))


def address(phone: Phone) -> str:
    found = phone.page.locator("#resolver-form").get_attribute("data-address")
    assert found
    return found


def drawn(phone: Phone, trick: str, setting: str = "", before: str | None = None) -> None:
    """Wait until the offline page shows ``trick`` with ``setting`` ("leader=1"): the rules
    worker answered, and its answer was drawn (the form counts its drawings, and names the
    address it drew) after the drawing ``before``."""
    form = phone.page.locator("#resolver-form")
    if before is not None:
        expect(form).not_to_have_attribute("data-offline-drawn", before)
    expect(form).to_have_attribute("data-offline-drawn", re.compile(".*" + re.escape(setting)))
    expect(phone.page.locator('input[name="trick"]')).to_have_value(trick)


def as_the_server_draws_it(offline: Phone, online: Phone) -> dict[str, Any]:
    """The offline page, held against the server's page for the same address."""
    online.goto(address(offline))
    return alike(offline, online)


def alike(offline: Phone, online: Phone) -> dict[str, Any]:
    """The offline page, held against the page the server answered on the other phone."""
    server = shown(online)
    mine = shown(offline)
    assert mine == server, differences(mine, server)
    return server


def differences(mine: dict[str, Any], server: dict[str, Any]) -> str:
    """Where the offline page differs from the server's, line by line."""
    lines = []
    for key in server:
        if mine[key] != server[key]:
            theirs = server[key] if isinstance(server[key], list) else str(server[key]).split("\n")
            ours = mine[key] if isinstance(mine[key], list) else str(mine[key]).split("\n")
            lines += [
                f"{key}:",
                *difflib.unified_diff(theirs, ours, "server", "offline", lineterm=""),
            ]
    return "\n".join(lines)


def tap_card(phone: Phone, token: str) -> None:
    phone.page.locator(f'.picker button[name="add"][value="{token}"]').click()


#: A tap on a phone; ``scripted``: the phone runs the page's script (the offline one).
Tap = Callable[[Phone, bool], None]


def tapped_alike(offline: Phone, online: Phone, tapped: Tap, trick: str, setting: str = "") -> Any:
    """Make the same tap on both phones, from the same trick: ``tapped`` offline (the rules
    worker answers), then as a plain form post online (the server answers)."""
    online.goto(address(offline))
    before = offline.page.locator("#resolver-form").get_attribute("data-offline-drawn") or ""
    tapped(offline, True)
    drawn(offline, trick, setting, before)
    tapped(online, False)
    expect(online.page.locator('input[name="trick"]')).to_have_value(trick)
    return alike(offline, online)


def card(token: str) -> Tap:
    """Tap the chip of ``token`` (a card of the third colour is a pass, R19)."""

    def tapped(phone: Phone, _scripted: bool) -> None:
        phone.page.locator(f'.picker button[name="add"][value="{token}"]').click()

    return tapped


def chosen(label: str, value: str) -> Tap:
    """Change a setting: the page applies it by itself where it runs its script."""

    def tapped(phone: Phone, scripted: bool) -> None:
        phone.page.get_by_label(label).select_option(value)
        if not scripted:
            phone.page.locator('button[name="apply"]').click()

    return tapped


def button(name: str) -> Tap:
    def tapped(phone: Phone, _scripted: bool) -> None:
        phone.page.locator(f'#trick-panel button[name="{name}"]').click()

    return tapped


def offline_resolver(
    new_phone: PhoneFactory,
    live_server: LiveServer,
    live_table: Table,
    words: dict[str, str],
    opened: str,
) -> tuple[Phone, Phone]:
    """A phone that kept the kit, offline on the resolver it opened online at ``opened``; and
    a phone online without JavaScript, in the same language (``words``)."""
    kit_manifest(live_server)
    game = live_table.new_game(["Ann", "Ben", "Cleo"], rounds=5)
    phone = made_ready(new_phone(locale=words["locale"], kit_kept=True), game, words)
    online = new_phone(locale=words["locale"], java_script_enabled=False)
    phone.goto(opened)
    phone.set_offline(True)
    return phone, online


def test_outside_a_game_the_resolver_answers_offline_as_the_server_does(
    new_phone: PhoneFactory,
    live_server: LiveServer,
    live_table: Table,
    axe_source: str,
) -> None:
    phone, online = offline_resolver(
        new_phone, live_server, live_table, WORDS["en"], "/resolve?variant=classic&players=5"
    )
    page = phone.page
    posts: list[str] = []
    # Each tap tries the server first; none reaches it.
    page.on("requestfinished", lambda sent: sent.method == "POST" and posts.append(sent.url))

    trick = ""
    for token in ("yellow-3", "green-3", "blue-9"):
        trick = f"{trick} {token}".strip()
        tapped_alike(phone, online, card(token), trick)
    shown_now = tapped_alike(phone, online, card("green-3"), trick)  # twice: refused (C1)
    assert "Not added: Green 3 is in the trick twice." in shown_now["panel"]
    for token in ("red-0", "blue-12"):
        trick = f"{trick} {token}"
        server = tapped_alike(phone, online, card(token), trick)
    assert "Player 5 takes the trick with blue 12." in server["panel"]  # R8
    save_screenshot(phone, "offline-resolver-en")
    problems = describe_violations(axe_violations(phone, axe_source), "offline resolver (en)")
    assert problems == [], "\n".join(problems)
    tapped_alike(phone, online, button("undo"), trick.rsplit(" ", 1)[0])

    # Hat Trick: another deck, the pass in one tap, piles and passes (R19-R21). The trick no
    # longer fits, so it is cleared, saying why.
    tapped_alike(phone, online, chosen("Trick rule", "hat-trick"), "", "variant=hat-trick")
    trick = ""
    for token, passing in (
        ("red-9", False),
        ("blue-12", False),
        ("red-4", False),
        ("green-3", True),
    ):
        trick = f"{trick} {'pass:' if passing else ''}{token}".strip()
        server = tapped_alike(phone, online, card(token), trick)
        if token == "blue-12":  # two colours in the trick: the same words as the live page
            assert server["pass_hint"] == PASS_HINT
    assert "Passed (R19): Player 4, showing green 3." in server["panel"]
    assert server["pass_hint"] == PASS_HINT

    page.reload()  # offline still: the kept page, drawn as its address says
    drawn(phone, trick)
    as_the_server_draws_it(phone, online)
    tapped_alike(phone, online, button("clear"), "")
    assert posts == []  # every tap was answered on the phone


def hungarian() -> tuple[dict[str, str], Callable[[str], str]]:
    """The readiness words in Hungarian, and the catalog's translation, as the pages say it."""
    catalog = gettext.translation(
        "messages", str(Path(companion.__file__).parent / "translations"), ["hu"]
    )
    words = {
        **WORDS["en"],
        "lang": "hu",
        "locale": "hu-HU",
        "keep": catalog.gettext("Keep for offline play"),
        # What the mark says before its size.
        "kept": catalog.gettext("Kept for offline play (%(size)s on this phone).").split(" (")[0],
    }
    return words, catalog.gettext


def test_inside_a_game_the_resolver_names_the_seats_offline_in_hungarian(
    new_phone: PhoneFactory,
    live_server: LiveServer,
    live_table: Table,
    axe_source: str,
) -> None:
    words, said = hungarian()
    game = live_table.new_game(["Anna", "Ben", "Cleo", "Dora"], "reverse", rounds=5)
    resolver = f"/g/{game['id']}/resolve"
    phone, online = offline_resolver(
        new_phone, live_server, live_table, words, resolver
    )  # kept by the phone
    phone.goto(f"{resolver}?leader=2")  # opened offline: the kept page, drawn as asked
    drawn(phone, "", "leader=2")
    as_the_server_draws_it(phone, online)

    tapped_alike(phone, online, chosen(said("Who leads this trick"), "1"), "", "leader=1")
    trick = ""
    for token in ("yellow-5", "blue-9", "green-2", "red-0"):
        trick = f"{trick} {token}".strip()
        server = tapped_alike(phone, online, card(token), trick)
    values = {"player": "Dora", "card": f"{said('green')} 2"}
    taken = before_names(said("%(player)s takes the trick with %(card)s."), values, "hu") % values
    assert taken in server["panel"]  # R13: the lowest trump
    save_screenshot(phone, "offline-resolver-hu")
    problems = describe_violations(axe_violations(phone, axe_source), "offline resolver (hu)")
    assert problems == [], "\n".join(problems)


def test_a_phone_without_the_kit_says_the_tap_was_not_sent_and_keeps_the_trick(
    new_phone: PhoneFactory,
) -> None:
    phone = new_phone(locale="en-GB")
    phone.goto("/resolve?variant=classic&players=4&trick=red-7")
    phone.set_offline(True)
    card("blue-9")(phone, True)
    expect(phone.page.locator(".offline-notice")).to_contain_text("nothing was sent")
    expect(phone.page.locator('input[name="trick"]')).to_have_value("red-7")
    expect(phone.page.locator(".trick-play")).to_have_count(1)
