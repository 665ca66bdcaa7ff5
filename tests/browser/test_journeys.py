"""What a table does with the app, tapped through on a phone: start a game and keep its score
to the end, play a trick live, settle a dispute, switch the language.

Every number, winner and reason expected here is computed through ``companion.rules`` (see
scenario.py), never read from the page it checks.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from playwright.sync_api import expect

import companion
from companion.rules import round_dealer, round_leader, running_totals
from tests.browser.scenario import (
    CORRECTED_ROUND,
    CORRECTION,
    FIVE_ROUNDS,
    QuickSeat,
    round_scores,
    signed,
    totals_of,
    verdict,
    winner_line,
)
from tests.browser.support import Phone, record_rounds
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo"]
CATALOGS = Path(companion.__file__).parent / "translations"


def tap(picker: Any, role: str, name: str) -> None:
    """Tap the chip of a radio or checkbox as a finger would; it is then on. A chip is the
    span after the input in its label, a colour's tab the label for its radio."""
    control = picker.get_by_role(role, name=name, exact=True)
    control_id = control.get_attribute("id")
    if control_id:
        picker.locator(f'label[for="{control_id}"]').tap()
    else:
        inner = picker.page.get_by_role(role, name=name, exact=True)
        picker.locator("label", has=inner).locator("> span").tap()
    expect(control).to_be_checked()


def tap_chip(picker: Any, text: str, role: str) -> None:
    """Tap a card chip (``"red 4"``), first opening its colour's tab if the picker has tabs."""
    colour = text.split()[0]
    if picker.get_by_role("radio", name=colour, exact=True).count():
        tap(picker, "radio", colour)
    tap(picker, role, text)


def enter_quick_seat(phone: Phone, seat: int, entry: QuickSeat) -> None:
    """Tap a seat's indicator, its tricks and its marked-colour captures."""
    part = phone.page.locator(f"#seat-{seat}")
    tap_chip(part.locator(f'[data-field="s{seat}-marked"]'), entry.indicator, "radio")
    tap(part.locator(f'[data-count-field="s{seat}-tricks"]'), "radio", str(entry.tricks))
    captures = part.locator(f'[data-field="s{seat}-marked_captured"]')
    for text in entry.captured:
        tap_chip(captures, text, "checkbox")


def expect_totals(phone: Phone, totals: list[int]) -> None:
    """The scoreboard's totals row, seat by seat."""
    expect(phone.page.locator(".score-table tfoot td")).to_have_text(signed(totals))


def test_start_a_game_record_five_rounds_correct_one_and_see_the_winner(phone: Phone) -> None:
    """New game from home, five rounds through quick entry, round 2 corrected: the totals
    follow the rules' scores after every round, and the winner changes with the correction."""
    page = phone.page
    phone.goto("/")
    page.get_by_role("link", name="Start a new game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New game")
    for seat, name in enumerate(NAMES, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("Rounds", exact=True).fill("5")
    page.get_by_label("Who leads the first round").select_option("0")
    page.get_by_role("button", name="Start the game").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Scoreboard")
    expect(page.locator(".game-summary")).to_contain_text("Classic")
    expect(page.locator(".game-summary")).to_contain_text("0 of 5 rounds scored")
    scores = round_scores(FIVE_ROUNDS)
    for number, played in enumerate(FIVE_ROUNDS, start=1):
        page.get_by_role("link", name=f"Record round {number}").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(f"Record round {number}")
        for seat, entry in enumerate(played):
            enter_quick_seat(phone, seat, entry)
        expect(page.locator(".round-progress")).to_contain_text("all assigned")
        page.get_by_role("button", name="Save round").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Scoreboard")
        # the round's scores (with JavaScript each sits in its cell's "why" button)
        row = page.locator(".score-table tbody tr").nth(number - 1).locator("td b")
        expect(row).to_have_text(signed(scores[number - 1]))
        expect_totals(phone, running_totals(scores)[number - 1])

    totals = totals_of(FIVE_ROUNDS)
    expect(page.locator(".game-summary")).to_contain_text("Finished after 5 rounds")
    expect(page.locator(".winners")).to_contain_text(winner_line(NAMES, totals))
    assert winner_line(NAMES, totals).startswith("Ben")  # the scenario's premise

    page.get_by_role("link", name=f"Correct round {CORRECTED_ROUND}", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Correct round {CORRECTED_ROUND}")
    before = FIVE_ROUNDS[CORRECTED_ROUND - 1]
    for seat, (old, new) in enumerate(zip(before, CORRECTION, strict=True)):
        captures = page.locator(f'#seat-{seat} [data-field="s{seat}-marked_captured"]')
        for text in set(new.captured) - set(old.captured):
            tap_chip(captures, text, "checkbox")
    page.get_by_role("button", name="Save correction").click()

    corrected = [*FIVE_ROUNDS[: CORRECTED_ROUND - 1], CORRECTION, *FIVE_ROUNDS[CORRECTED_ROUND:]]
    row = page.locator(".score-table tbody tr").nth(CORRECTED_ROUND - 1).locator("td b")
    expect(row).to_have_text(signed(round_scores(corrected)[CORRECTED_ROUND - 1]))
    expect_totals(phone, totals_of(corrected))
    expect(page.locator(".winners")).to_contain_text(winner_line(NAMES, totals_of(corrected)))
    assert winner_line(NAMES, totals_of(corrected)).startswith("Ann")
    assert not phone.foreign_requests()


def test_play_again_starts_the_next_game_on_its_mark_page(phone: Phone, live_table: Table) -> None:
    """A finished game's one button starts the next: its mark page opens on this phone, and
    its scoreboard seats the same players, the first lead one seat on (R3)."""
    page = phone.page
    game = live_table.new_game(NAMES, rounds=2, first_leader=1)
    record_rounds(live_table, game, FIVE_ROUNDS[:2])
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    expect(page.locator(".game-summary")).to_contain_text("Finished after 2 rounds")
    page.get_by_role("button", name="Play again").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mark colours, round 1")
    following = page.url.split("/g/")[1].split("/")[0]
    assert following != game["id"]

    phone.goto(f"/g/{following}")
    expect(page.locator(".game-summary")).to_contain_text("0 of 2 rounds scored")
    expect(page.locator(".seat__name")).to_have_text(NAMES)
    leader = round_leader(2, 1, len(NAMES))  # the old game's first leader was seat 1
    dealer = round_dealer(1, leader, len(NAMES))
    expect(page.locator(".deal dd")).to_have_text([NAMES[dealer], NAMES[leader]])
    expect(page.get_by_role("link", name="Mark colours")).to_be_visible()

    phone.goto(f"/g/{game['id']}")  # the old game now leads to the new one, once
    page.get_by_role("link", name="Go to the next game").tap()
    expect(page).to_have_url(re.compile(f"/g/{following}$"))
    assert not phone.foreign_requests()


def new_api_game(table: Table, phone: Phone) -> str:
    """A classic game of Ann, Ben and Cleo started through the API; the phone opens its edit
    link, so it may keep the score. Answers the game's code."""
    game = table.new_game(NAMES, rounds=5)
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    return str(game["id"])


def test_play_a_live_trick(phone: Phone, live_table: Table) -> None:
    """Start round 1 live with the indicators, tap a trick card by card (taking one card
    back): the page names who is winning, who takes the trick and why, and who leads next."""
    page = phone.page
    new_api_game(live_table, phone)
    page.get_by_role("link", name="Play this round live").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Play round 1 live")
    for seat, indicator in enumerate(["red 4", "blue 0", "green 1"]):
        tap_chip(page.locator(f'[data-field="s{seat}-marked"]'), indicator, "radio")
    page.get_by_role("button", name="Start the round live").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1, live")
    turn = page.locator(".live-turn")
    expect(turn).to_have_text("Ann leads: tap the card they play.")
    cards = ["yellow 3", "green 3", "blue 7"]  # Ann leads, then Ben and Cleo
    page.get_by_role("button", name=cards[0], exact=True).click()
    expect(turn).to_have_text("Next to play: Ben.")
    page.get_by_role("button", name=cards[1], exact=True).click()
    so_far = verdict(cards[:2])
    result = page.locator("#live-trick .live-result")
    expect(result.locator(".live-result__main")).to_have_text(
        f"Winning so far: {NAMES[so_far.winner]} with {so_far.card}."
    )
    expect(result.locator(".live-reason")).to_have_text(so_far.reason)

    page.get_by_role("button", name="Undo last card").click()
    expect(page.locator(".live-note")).to_have_text("Taken back: green 3 (Ben).")
    expect(turn).to_have_text("Next to play: Ben.")
    page.get_by_role("button", name=cards[1], exact=True).click()
    expect(turn).to_have_text("Next to play: Cleo.")
    page.get_by_role("button", name=cards[2], exact=True).click()

    taken = verdict(cards)
    winner = NAMES[taken.winner]
    last = page.locator(".live-last")
    expect(last.get_by_role("heading")).to_have_text("Trick 1")
    expect(last.locator(".live-result__main")).to_have_text(
        f"{winner} takes the trick with {taken.card}."
    )
    expect(last.locator(".live-reason")).to_have_text(taken.reason)
    expect(page.locator(".live-head__count")).to_have_text("1 of 14 tricks played")
    expect(turn).to_have_text(f"{winner} leads: tap the card they play.")
    expect(page.get_by_role("button", name=f"{cards[2]} (played)")).to_be_disabled()
    captured = page.locator(".live-seats__table tbody tr").nth(taken.winner).locator("td")
    expect(captured).to_have_text(["1", "3"])  # one trick, three cards
    assert not phone.foreign_requests()


def test_undo_the_card_that_completed_a_live_trick(phone: Phone, live_table: Table) -> None:
    """A mistyped last card costs only that card: undoing it reopens the saved trick with its
    first cards, waiting for the last one, and the trick is saved again when it comes."""
    page = phone.page
    code = new_api_game(live_table, phone)
    page.get_by_role("link", name="Play this round live").click()
    for seat, indicator in enumerate(["red 4", "blue 0", "green 1"]):
        tap_chip(page.locator(f'[data-field="s{seat}-marked"]'), indicator, "radio")
    page.get_by_role("button", name="Start the round live").click()
    cards = ["yellow 3", "green 3", "blue 7"]  # Ann leads, then Ben and Cleo
    for text in cards:
        page.get_by_role("button", name=text, exact=True).click()
    count = page.locator(".live-head__count")
    expect(count).to_have_text("1 of 14 tricks played")

    page.get_by_role("button", name="Undo last card").click()
    expect(page.locator(".live-note")).to_have_text(
        "Taken back: blue 7 (Cleo). Trick 1 is open again: enter its last card."
    )
    expect(count).to_have_text("0 of 14 tricks played")
    places = page.locator("#live-trick .live-slot")
    expect(places).to_have_count(3)
    assert [places.nth(i).get_attribute("data-card") for i in range(3)] == [
        "yellow-3",
        "green-3",
        None,
    ]
    expect(page.locator(".live-turn")).to_have_text("Next to play: Cleo.")
    so_far = verdict(cards[:2])
    expect(page.locator("#live-trick .live-result__main")).to_have_text(
        f"Winning so far: {NAMES[so_far.winner]} with {so_far.card}."
    )
    expect(page.get_by_role("button", name=cards[2], exact=True)).to_be_enabled()
    assert live_table.client.get(f"/api/v1/games/{code}").json["rounds"][0]["tricks_played"] == 0

    page.get_by_role("button", name="blue 8", exact=True).click()
    taken = verdict([*cards[:2], "blue 8"])
    expect(page.locator(".live-last .live-result__main")).to_have_text(
        f"{NAMES[taken.winner]} takes the trick with {taken.card}."
    )
    expect(count).to_have_text("1 of 14 tricks played")
    assert not phone.foreign_requests()


OFFLINE_NOTICE = "This phone is offline, so nothing was sent."


#: Chromium tells a page it is offline a moment after the phone's network goes: until then
#: its ``navigator.onLine`` is still true and a form would be sent.
SEES_NO_NETWORK = "() => navigator.onLine === false"


def test_a_form_sent_offline_is_kept_back_with_its_entries_until_the_network_is_back(
    phone: Phone, live_table: Table
) -> None:
    """Offline, "Start the game" and a tapped card in a live round send nothing: a notice
    says so and what was entered stays on the page; back online, the same taps go through."""
    page = phone.page
    posts: list[str] = []

    def note_post(request: Any) -> None:
        if request.method == "POST":
            posts.append(request.url)

    page.on("request", note_post)
    phone.goto("/games/new")
    for seat, name in enumerate(NAMES, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    notice = page.get_by_role("alert").filter(has_text=OFFLINE_NOTICE)

    phone.set_offline(True)
    page.wait_for_function(SEES_NO_NETWORK)  # the page, loaded online, is told so
    page.get_by_role("button", name="Start the game").click()
    expect(notice).to_be_visible()
    assert posts == [] and page.url.endswith("/games/new")
    expect(page.get_by_label("Seat 3", exact=True)).to_have_value(NAMES[2])

    phone.set_offline(False)
    expect(notice).to_have_count(0)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scoreboard")

    new_api_game(live_table, phone)
    page.get_by_role("link", name="Play this round live").click()
    for seat, indicator in enumerate(["red 4", "blue 0", "green 1"]):
        tap_chip(page.locator(f'[data-field="s{seat}-marked"]'), indicator, "radio")
    page.get_by_role("button", name="Start the round live").click()
    turn = page.locator(".live-turn")
    expect(turn).to_have_text("Ann leads: tap the card they play.")
    sent = len(posts)

    phone.set_offline(True)
    page.wait_for_function(SEES_NO_NETWORK)
    page.get_by_role("button", name="yellow 3", exact=True).click()
    expect(notice).to_be_visible()
    assert len(posts) == sent
    expect(turn).to_have_text("Ann leads: tap the card they play.")

    phone.set_offline(False)
    page.get_by_role("button", name="yellow 3", exact=True).click()
    expect(turn).to_have_text("Next to play: Ben.")
    expect(notice).to_have_count(0)


def test_resolve_a_trick(phone: Phone) -> None:
    """The resolver from home: four players, a trick tapped in play order; the page names
    the card that takes it and the rules' reason."""
    page = phone.page
    phone.goto("/")
    page.get_by_role("link", name="Who won that trick?").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Who takes the trick?")
    page.get_by_label("Players").select_option("4")
    count = page.locator(".trick__count")
    expect(count).to_have_text("0 of 4 cards")
    cards = ["yellow 3", "green 3", "blue 9", "red 0"]
    for played, text in enumerate(cards, start=1):
        page.locator(".picker").get_by_role("button", name=text, exact=True).click()
        expect(count).to_have_text(f"{played} of 4 cards")
    taken = verdict(cards)
    takes = page.locator(".trick-play--takes")
    expect(takes).to_have_count(1)
    expect(takes).to_contain_text(taken.card)
    player = takes.locator(".trick-play__player").inner_text()
    expect(page.locator(".trick-result__main")).to_have_text(
        f"{player} takes the trick with {taken.card}."
    )
    expect(page.locator(".trick-reason")).to_have_text(taken.reason)
    expect(page.locator(".trick-plays > li").nth(taken.winner)).to_have_class(
        re.compile(r"\btrick-play--takes\b")
    )
    assert not phone.foreign_requests()


@cache
def translated(lang: str, text: str) -> str:
    """``text`` as the catalog of ``lang`` translates it (the catalog must have it)."""
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        message = read_po(po, locale=lang).get(text)
    assert message is not None and message.string, f"no {lang} translation of {text!r}"
    return str(message.string)


def in_language(lang: str, text: str) -> str:
    """``text`` as a page in ``lang`` shows it."""
    return text if lang == "en" else translated(lang, text)


def test_switch_language_with_the_footer(phone: Phone) -> None:
    """The footer's switcher changes the language of the page it is on, and the choice
    stays for the next page."""
    page = phone.page
    phone.goto("/setup")
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Table setup")
    for lang, name in [("de", "Deutsch"), ("hu", "Magyar"), ("en", "English"), ("it", "Italiano")]:
        page.get_by_role("navigation", name=in_language(page_lang(phone), "Language")).get_by_role(
            "link", name=name, exact=True
        ).click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page).to_have_url(re.compile(r"/setup$"))
        expect(heading).to_have_text(in_language(lang, "Table setup"))
        current = page.locator(".language-switcher [aria-current='true']")
        expect(current).to_have_text(name)
    page.get_by_role("link", name=in_language("it", "History"), exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(heading).to_have_text(in_language("it", "History"))
    assert not phone.foreign_requests()


def page_lang(phone: Phone) -> str:
    """The language the page says it is in."""
    return str(phone.page.locator("html").get_attribute("lang"))
