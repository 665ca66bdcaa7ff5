"""The live round pages: a round entered card by card at the table (C6, R9, R15, R4).

Every test goes through the pages as a phone would: games are created through the JSON API,
the phone gets its edit rights from the edit link, and every form is sent with the CSRF
token and the version the page showed. Winners, reasons and scores are compared with the
rules engine (and its oracles in tests/rules/helpers.py), not copied from the code.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.read_models.messages import render_message
from companion.rules import (
    PRESETS,
    Card,
    DelayedEntry,
    Entry,
    QuickEntry,
    score_round,
    table_setup,
)
from companion.rules.checks import check_indicators
from companion.rules.tricks import trick_winner
from scripts.page_reader import read_page
from tests.assets.helpers import static_url
from tests.games.round_helpers import (
    database,
    refusal,
    seat_errors,
    seats_with_errors,
    signed,
    text_of,
)
from tests.rules.helpers import ClassicRound, c, expected_winner, play_classic_round
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
CONFLICT = "This game changed on another phone"

# --------------------------------------------------------------------------------------------
# A phone at the table


@dataclass
class Form:
    """One form of a page, as a browser would send it."""

    action: str
    fields: dict[str, str] = field(default_factory=dict)
    buttons: list[tuple[str, str, bool]] = field(default_factory=list)  # name, value, disabled
    checkboxes: list[str] = field(default_factory=list)


class FormReader(HTMLParser):
    """The forms of a page: hidden fields, submit buttons (with their disabled state)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.current: Form | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.current = Form(attributes.get("action", ""))
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag == "input" and attributes.get("type") == "hidden":
            self.current.fields[attributes["name"]] = attributes.get("value", "")
        elif tag == "input" and attributes.get("type") == "checkbox":
            self.current.checkboxes.append(attributes["name"])
        elif tag == "button" and attributes.get("name"):
            self.current.buttons.append(
                (attributes["name"], attributes.get("value", ""), "disabled" in attributes)
            )

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None


def forms_of(page: str) -> list[Form]:
    """Every form of ``page``."""
    reader = FormReader()
    reader.feed(page)
    return reader.forms


def form_ending(page: str, suffix: str) -> Form:
    """The form of ``page`` that posts to a URL ending with ``suffix``."""
    found = [form for form in forms_of(page) if form.action.endswith(suffix)]
    assert found, f"no form posting to …{suffix}"
    return found[0]


def has_form(page: str, suffix: str) -> bool:
    """Whether ``page`` offers a form posting to …``suffix``."""
    return any(form.action.endswith(suffix) for form in forms_of(page))


def token(card: Card) -> str:
    """A chip's value."""
    return f"{card.colour.value}-{card.value}"


def chips(page: str) -> dict[str, bool]:
    """The card chips of the live page: value → disabled."""
    return {
        value: disabled
        for name, value, disabled in form_ending(page, "/live/card").buttons
        if name == "card"
    }


def other_phone(client: FlaskClient, code: str | None = None, key: str | None = None) -> Any:
    """Another phone at the table; with ``key`` it has opened the game's edit link."""
    phone = client.application.test_client()
    if code and key:
        assert phone.get(f"/g/{code}/edit/{key}").status_code == 302
    return phone


def page(client: FlaskClient, url: str, status: int = 200) -> str:
    """A page the phone opens."""
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:800]
    return response.get_data(as_text=True)


def start_live(
    client: FlaskClient, code: str, indicators: Sequence[Sequence[Card]] | None = None
) -> str:
    """Start the next round live from its page; answers the live page."""
    start = page(client, f"/g/{code}/rounds/live")
    data: dict[str, Any] = dict(forms_of(start)[-1].fields)
    for seat, cards in enumerate(indicators or ()):
        data[f"s{seat}-marked"] = [token(card) for card in cards]
    response = client.post(f"/g/{code}/rounds/live", data=data)
    assert response.status_code == 302, text_of(response.get_data(as_text=True))[:800]
    location = response.headers["Location"]
    assert re.fullmatch(rf"/g/{code}/rounds/\d+/live", location), location
    return page(client, location)


def tap(client: FlaskClient, live: str, card: Card | str, passed: bool = False) -> TestResponse:
    """Tap a chip of the live page ``live`` (a token may be any text a chip could send)."""
    form = form_ending(live, "/live/card")
    data = {**form.fields, "card": card if isinstance(card, str) else token(card)}
    if passed:  # R19: the page says the chip is a pass, and a tap on it passes
        chip = read_page(live).find("button", value=data["card"])
        assert str(chip.get("aria-label")).endswith("(a pass)"), "the page offers no pass"
    return client.post(form.action, data=data)


def tap_and_follow(client: FlaskClient, live: str, card: Card | str, passed: bool = False) -> str:
    """Tap a chip; the card is taken (post/redirect/get) and the live page shown again."""
    response = tap(client, live, card, passed)
    assert response.status_code == 302, text_of(response.get_data(as_text=True))[:800]
    action = form_ending(live, "/live/card").action
    assert response.headers["Location"] == action.removesuffix("/card")
    return page(client, response.headers["Location"])


def press(client: FlaskClient, live: str, suffix: str) -> TestResponse:
    """Press the button of the live page's form posting to …``suffix``."""
    form = form_ending(live, suffix)
    return client.post(form.action, data=form.fields)


def section(live: str, name: str) -> str:
    """The visible words of the page's ``<section class="name">`` ('' if absent)."""
    found = read_page(live).find_all("section", class_=name)
    return found[0].words(joined=["a"]) if found else ""  # a link is no word break


def refusal_of(live: str) -> str:
    """The refusal the live page shows above the trick."""
    trick = read_page(live).find("section", class_="live-trick")
    return trick.find("p", class_="live-refusal", role="alert").words()


def slots(live: str, name: str = "live-trick") -> list[tuple[str, str | None]]:
    """The places of the trick in a section: (player, card token or None), in play order."""
    places = read_page(live).find("section", class_=name).find_all("li", class_="live-slot")
    return [
        (place.find("span", class_="live-slot__name").text, place.get("data-card"))
        for place in places
    ]


def score_rows(live: str) -> dict[str, tuple[str, str]]:
    """The scores table of a finished live round: name → (round score, total)."""
    rows = read_page(live).find("table", class_="live-scores").find("tbody").find_all("tr")
    return {
        row.find("th", scope="row").own_text: (
            row.find("td", class_="live-scores__score").text,
            row.find("td", class_="live-scores__total").text,
        )
        for row in rows
    }


def seat_rows(live: str) -> dict[str, list[str]]:
    """The captures table: player → the numbers of their row (tricks and cards; Hat Trick:
    face-up cards per colour and passes)."""
    rows = read_page(live).find("table", class_="live-seats__table").find("tbody").children
    return {
        row.find("span", class_="live-seats__name").text: [td.text for td in row.find_all("td")]
        for row in rows
    }


def board_totals(board: str) -> dict[str, str]:
    """The scoreboard's totals: player → signed total (the words after its hidden label)."""
    seats = read_page(board).find("ol", class_="seat-list").find_all("li", class_="seat")
    return {
        seat.find("span", class_="seat__name").text: seat.find(
            "span", class_="seat__total"
        ).own_text
        for seat in seats
    }


def state(client: FlaskClient, code: str) -> dict[str, Any]:
    """The game as the JSON API shows it."""
    answer: dict[str, Any] = client.get(f"/api/v1/games/{code}").get_json()
    return answer


def reason_of(app: Flask, cards: Sequence[Card], scoring: str = "classic") -> str:
    """The rules' reason sentence for who takes ``cards`` (so far), as a page renders it."""
    variant = PRESETS[scoring]
    with app.test_request_context():
        return render_message(trick_winner(cards, variant.scoring).reason, NAMES)  # type: ignore[union-attr]


def label(card: Card) -> str:
    """A card as the English pages name it."""
    return f"{card.colour.value} {card.value}"


#: Round 1 of a classic game led by Ann (seat 0): indicators of four colours, all 0s.
ZERO_INDICATORS = [[c("red 0")], [c("blue 0")], [c("green 0")], [c("yellow 0")]]


def open_classic(table: Table, variant: str = "classic") -> tuple[str, str, str]:
    """A classic game whose round 1 is live (indicators of ZERO_INDICATORS); answers the
    code, the edit key and the live page."""
    game = table.new_game(NAMES, variant, rounds=5, edit_here=True)
    return game["id"], game["edit_key"], start_live(table.client, game["id"], ZERO_INDICATORS)


def play_cards(client: FlaskClient, live: str, cards: str) -> str:
    """Tap the cards ``"red 5, red 6"`` in order; answers the live page after the last."""
    for text in cards.split(","):
        live = tap_and_follow(client, live, c(text.strip()))
    return live


# --------------------------------------------------------------------------------------------
# The way in: the scoreboard and the start page


def test_the_scoreboard_offers_to_play_the_round_live_then_to_continue_it(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    board = page(client, f"/g/{code}")
    assert f'href="/g/{code}/rounds/live"' in board and "Play this round live" in board
    assert "Continue live round" not in board
    start_live(client, code, ZERO_INDICATORS)
    board = page(client, f"/g/{code}")
    assert f'href="/g/{code}/rounds/1/live"' in board and "Continue live round" in board
    assert "This round is being played live, trick by trick." in text_of(board)
    assert "Play this round live" not in board and "Record round 1" not in board
    # Visiting the start page again continues the round instead of opening another.
    again = client.get(f"/g/{code}/rounds/live")
    assert again.status_code == 302 and again.headers["Location"] == f"/g/{code}/rounds/1/live"


def test_the_start_page_asks_for_each_seats_indicator_with_the_mark_chips(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "aggravated", rounds=5, edit_here=True)["id"]
    start = page(client, f"/g/{code}/rounds/live")
    words = text_of(start)
    assert "Play round 1 live" in words and "Ann leads the first trick." in words
    assert "Indicator cards" in words  # two per seat (R14)
    for seat in range(4):
        assert f'name="s{seat}-marked" value="red-7"' in start
    assert "Start the round live" in words


def test_a_wrong_indicator_is_refused_next_to_its_seat_and_nothing_is_saved(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "aggravated", rounds=5, edit_here=True)["id"]
    before = database(app)
    start = page(client, f"/g/{code}/rounds/live")
    data: dict[str, Any] = dict(forms_of(start)[-1].fields)
    pairs = [["red-1", "blue-1"], ["red-2", "red-3"], ["green-1", "yellow-1"], ["red-4", "brown-4"]]
    for seat, cards in enumerate(pairs):
        data[f"s{seat}-marked"] = cards
    response = client.post(f"/g/{code}/rounds/live", data=data)
    assert response.status_code == 422
    refused = response.get_data(as_text=True)
    assert seats_with_errors(refused) == [1]
    assert seat_errors(refused, 1) == [
        refusal(app, lambda: check_indicators(1, (c("red 2"), c("red 3")), 2))
    ]
    assert "Nothing was saved" in text_of(refused)
    assert database(app) == before


def test_hazy_says_the_indicators_stay_hidden_and_the_scoreboard_hides_them(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "hazy", rounds=5, edit_here=True)["id"]
    start = text_of(page(client, f"/g/{code}/rounds/live"))
    assert "the indicators stay hidden" in start
    assert "until this round is scored" in start
    live = start_live(client, code, ZERO_INDICATORS)
    assert "Hazy: the indicators stay hidden until the round is scored." in text_of(live)
    board = page(client, f"/g/{code}")
    assert "chip--hidden" in board and 'data-colour="red"' not in board  # R15
    assert state(client, code)["rounds"][0]["marked"] is None


def test_colours_marked_on_the_mark_page_start_live_without_being_given_again(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    mark = page(client, f"/g/{code}/rounds/mark")
    data: dict[str, Any] = {
        name: value
        for name, value in form_ending(mark, "").fields.items()
        if name in ("csrf_token", "version")
    }
    for seat, cards in enumerate(ZERO_INDICATORS):
        data[f"s{seat}-marked"] = [token(card) for card in cards]
    assert client.post(f"/g/{code}/rounds/mark", data=data).status_code == 302
    start = page(client, f"/g/{code}/rounds/live")
    words = text_of(start)
    assert "were laid out on the mark page; the live round starts with them" in words
    assert "s0-marked" not in start  # no chips to pick again
    live = start_live(client, code)
    assert chips(live)["red-0"] is True and chips(live)["blue-0"] is True  # laid out (C6)
    assert state(client, code)["rounds"][0]["mode"] == "live"


@pytest.mark.parametrize("variant", ["delayed", "hat-trick"])
def test_variants_that_lay_out_nothing_start_with_one_button(
    client: FlaskClient, variant: str, table: Table
) -> None:
    code = table.new_game(NAMES, variant, rounds=5, first_leader=2, edit_here=True)["id"]
    start = page(client, f"/g/{code}/rounds/live")
    assert "marked" not in "".join(forms_of(start)[-1].fields)
    live = start_live(client, code)
    assert "Cleo leads: tap the card they play." in text_of(live)
    assert not any(chips(live).values())


# --------------------------------------------------------------------------------------------
# A whole round, card by card


@pytest.mark.parametrize("preset", ["classic", "reverse", "aggravated", "hazy", "delayed"])
def test_a_whole_round_entered_card_by_card_scores_like_a_quick_entry_of_its_captures(
    app: Flask, client: FlaskClient, preset: str, table: Table
) -> None:
    setup = table_setup(4, PRESETS[preset])
    played = play_classic_round(setup, random.Random(f"live-{preset}"))
    game = table.new_game(
        NAMES, preset, rounds=5, first_leader=played.trick_log[0][0], edit_here=True
    )
    code = game["id"]
    live = start_live(client, code, played.indicators if setup.cards_laid_out else None)
    reverse = preset == "reverse"
    for number, (leader, cards, winner) in enumerate(played.trick_log, start=1):
        assert f"Trick {number} of {setup.tricks_per_round}" in text_of(live)
        order = [NAMES[(leader + i) % 4] for i in range(4)]
        assert [player for player, _ in slots(live)] == order  # from the leader (R9)
        for index, card in enumerate(cards):
            assert chips(live)[token(card)] is False, f"{card} is still in a hand"
            live = tap_and_follow(client, live, card)
            if index < 3:
                so_far = cards[: index + 1]
                best = expected_winner(so_far, reverse)
                words = text_of(live)
                assert f"Winning so far: {order[best]} with {label(so_far[best])}." in words
                assert reason_of(app, so_far, preset) in words
                assert f"Next to play: {order[index + 1]}." in words
                assert chips(live)[token(card)] is True  # in the trick now (C6)
        taken = section(live, "live-last")
        assert taken.startswith(f"Trick {number} ")
        assert expected_winner(cards, reverse) == (winner - leader) % 4  # the oracle agrees
        best = cards[(winner - leader) % 4]
        assert f"{NAMES[winner]} takes the trick with {label(best)}." in taken
        assert reason_of(app, cards, preset) in taken
        if number < setup.tricks_per_round:
            assert all(chips(live)[token(card)] for card in cards)  # played (C6)
    assert "Round 1 is over" in text_of(live)
    if setup.cards_laid_out:  # the same captures entered in short (C4)
        entries: list[Entry] = [
            QuickEntry(ind, tricks, tuple(x for x in cap if x.colour in {i.colour for i in ind}))
            for ind, tricks, cap in zip(
                played.indicators, played.tricks, played.captured, strict=True
            )
        ]
    else:  # delayed rounds are entered in full; the best colours are chosen (R16)
        entries = [DelayedEntry(tuple(cap)) for cap in played.captured]
    expected = score_round(setup, entries).scores
    game = state(client, code)
    assert game["rounds"][0]["status"] == "scored" and game["rounds"][0]["mode"] == "live"
    assert game["rounds"][0]["scores"] == expected
    assert score_rows(live) == {
        name: (signed(score), signed(score)) for name, score in zip(NAMES, expected, strict=True)
    }
    board = page(client, f"/g/{code}")
    assert "1 of 5 rounds scored" in text_of(board)
    assert board_totals(board) == {
        name: signed(score) for name, score in zip(NAMES, expected, strict=True)
    }
    assert f'href="/g/{code}"' in live and "Back to the scoreboard" in live


def test_the_live_page_shows_captures_and_tricks_per_seat(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    # Ann leads: red 5, Ben red 6, Cleo blue 7 (the only trump, R7), Dan green 1.
    live = play_cards(client, live, "red 5, red 6, blue 7, green 1")
    assert seat_rows(live) == {
        "Ann": ["0", "0"],
        "Ben": ["0", "0"],
        "Cleo": ["1", "4"],
        "Dan": ["0", "0"],
    }
    assert "Cleo leads" in section(live, "live-seats")
    assert "Cleo leads: tap the card they play." in text_of(live)
    assert "1 of 14 tricks played" in text_of(live)
    # Open indicators are shown next to their players; the chips stay out of play (C6).
    assert 'title="red 0"' in live and chips(live)["red-0"] is True


def test_a_card_entered_stays_through_a_reload_until_the_trick_is_complete(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    before = database(app)
    version = state(client, code)["version"]
    live = play_cards(client, live, "red 5, red 6")
    again = page(client, f"/g/{code}/rounds/1/live")
    assert slots(again)[:2] == [("Ann", "red-5"), ("Ben", "red-6")]
    assert "Next to play: Cleo." in text_of(again)
    # No trick is saved before it is complete, and the game's version stays; only the round's
    # row shows the unfinished trick to the phones following it.
    after = database(app)
    moved = ("rounds", "change_counter")  # (the counter moves on with any write, on purpose)
    assert {name: rows for name, rows in after.items() if name not in moved} == {
        name: rows for name, rows in before.items() if name not in moved
    }
    assert state(client, code)["version"] == version
    assert state(client, code)["rounds"][0]["tricks_played"] == 0


def test_another_phone_with_the_edit_link_carries_on_from_the_cards_entered_so_far(
    client: FlaskClient,
    table: Table,
) -> None:
    code, key, live = open_classic(table)
    live = play_cards(client, live, "red 5, red 6, blue 7, green 1, green 5")
    phone = other_phone(client, code, key)
    there = page(phone, f"/g/{code}/rounds/1/live")
    words = text_of(there)
    assert "1 of 14 tricks played" in words and "Next to play: Dan." in words
    assert "another phone with the edit link carries on from the cards entered so far" in words
    # One trick for the table: Cleo's green 5, entered on the first phone, is in it here.
    assert slots(there)[:2] == [("Cleo", "green-5"), ("Dan", None)]
    assert chips(there)["blue-7"] is True and chips(there)["green-5"] is True
    there = play_cards(phone, there, "green 2")
    # ... and the card Dan plays here is in it on the first phone.
    assert slots(page(client, f"/g/{code}/rounds/1/live"))[:2] == [
        ("Cleo", "green-5"),
        ("Dan", "green-2"),
    ]


def test_a_tap_from_a_page_that_missed_a_card_of_another_phone_changes_nothing(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """The trick's cards do not move the game's version: the form says how many cards its
    page showed, so a tap never lands in the wrong place of the trick."""
    code, key, live = open_classic(table)
    live = play_cards(client, live, "red 5")
    phone = other_phone(client, code, key)
    play_cards(phone, page(phone, f"/g/{code}/rounds/1/live"), "red 6")  # Ben's, over there
    before = database(app)
    for response in (
        tap(client, live, c("red 7")),  # meant for Ben, from a page without his card
        press(client, live, "/live/undo-card"),  # would take back Ben's card, unseen here
    ):
        assert response.status_code == 409
        shown = response.get_data(as_text=True)
        assert "Another phone changed this trick meanwhile" in refusal_of(shown)
        assert slots(shown)[:3] == [("Ann", "red-5"), ("Ben", "red-6"), ("Cleo", None)]
        assert database(app) == before
    # From the page as it is now, the next tap is Cleo's.
    live = tap_and_follow(client, shown, c("red 7"))
    assert slots(live)[:3] == [("Ann", "red-5"), ("Ben", "red-6"), ("Cleo", "red-7")]


# --------------------------------------------------------------------------------------------
# Refusals (C6 and the deck in use): said clearly, nothing saved


def test_c6_a_card_played_in_an_earlier_trick_is_refused_naming_the_player(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    live = play_cards(client, live, "red 5, red 6, blue 7, green 1, green 2, red 7")
    before = database(app)
    assert chips(live)["red-5"] is True  # disabled: already played
    response = tap(client, live, c("red 5"))  # Ann, third to play, sent anyway
    assert response.status_code == 422
    refused = response.get_data(as_text=True)
    assert refusal_of(refused) == (
        "Not added: Ann cannot play red 5: it was already played or laid out this round (C6)."
    )
    assert "chip--refused" in read_page(refused).find("button", value="red-5").classes
    assert slots(refused)[:2] == [("Cleo", "green-2"), ("Dan", "red-7")]  # the trick is kept
    assert database(app) == before
    again = page(client, f"/g/{code}/rounds/1/live")
    assert slots(again)[2] == ("Ann", None)


def test_c6_an_indicator_is_refused_and_its_chip_is_disabled(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    _, _, live = open_classic(table)
    assert chips(live)["green-0"] is True
    before = database(app)
    response = tap(client, live, c("green 0"))
    assert response.status_code == 422
    assert refusal_of(response.get_data(as_text=True)) == (
        "Not added: Ann cannot play green 0: it was already played or laid out this round (C6)."
    )
    assert database(app) == before


def test_r15_hazy_indicators_are_not_greyed_out_but_still_refused(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hazy", rounds=5, edit_here=True)["id"]
    live = start_live(client, code, ZERO_INDICATORS)
    assert chips(live)["green-0"] is False  # a greyed chip would show the indicator
    assert 'title="green 0"' not in live
    before = database(app)
    response = tap(client, live, c("green 0"))
    assert response.status_code == 422
    assert "Ann cannot play green 0" in refusal_of(response.get_data(as_text=True))
    assert database(app) == before


def test_a_card_twice_in_a_trick_is_refused(app: Flask, client: FlaskClient, table: Table) -> None:
    _, _, live = open_classic(table)
    live = play_cards(client, live, "red 5")
    before = database(app)
    response = tap(client, live, c("red 5"))
    assert response.status_code == 422
    assert refusal_of(response.get_data(as_text=True)) == "Not added: Red 5 is in the trick twice."
    assert database(app) == before


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        ("violet-3", "Ann names violet 3, which is not in the deck in use"),
        ("red-12", "Ann names red 12, which is not in the deck in use"),
        ("joker", "“joker” is not a card."),
    ],
)
def test_a_card_outside_the_deck_is_refused_naming_the_player(
    app: Flask, client: FlaskClient, sent: str, expected: str, table: Table
) -> None:
    _, _, live = open_classic(table)
    before = database(app)
    response = tap(client, live, sent)
    assert response.status_code == 422
    assert expected in refusal_of(response.get_data(as_text=True))
    assert database(app) == before


# --------------------------------------------------------------------------------------------
# Undo


def test_undo_last_card_takes_back_only_the_card_not_yet_saved(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    assert not has_form(live, "/live/undo-card")  # nothing to take back yet
    live = play_cards(client, live, "red 5, red 6")
    response = press(client, live, "/live/undo-card")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/g/{code}/rounds/1/live"
    live = page(client, response.headers["Location"])
    assert "Taken back: red 6 (Ben)." in text_of(live)
    assert slots(live)[:2] == [("Ann", "red-5"), ("Ben", None)]
    assert chips(live)["red-6"] is False
    assert "Winning so far: Ann with red 5." in text_of(live)
    live = page(client, press(client, live, "/live/undo-card").headers["Location"])
    assert [card for _, card in slots(live)] == [None] * 4
    assert "Ann leads: tap the card they play." in text_of(live)


def test_undo_last_card_on_an_empty_trick_says_there_is_none(
    client: FlaskClient, table: Table
) -> None:
    _, _, live = open_classic(table)
    live = play_cards(client, live, "red 5")
    form = form_ending(live, "/live/undo-card")
    assert client.post(form.action, data=form.fields).status_code == 302
    # A page that showed the trick empty (the button is not offered there) takes nothing back.
    response = client.post(form.action, data={**form.fields, "cards": "0"})
    assert response.status_code == 422
    assert "there is no card to take back" in refusal_of(response.get_data(as_text=True))


def test_undo_last_trick_gives_back_its_cards_and_the_lead(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    live = play_cards(client, live, "red 5, red 6, blue 7, green 1")
    assert "Cleo leads" in text_of(live)
    response = press(client, live, "/live/undo-trick")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/g/{code}/rounds/1/live"
    live = page(client, response.headers["Location"])
    words = text_of(live)
    assert "Trick 1 taken back: enter its cards again." in words
    assert "0 of 14 tricks played" in words and "Ann leads: tap the card they play." in words
    assert not any(chips(live)[t] for t in ("red-5", "red-6", "blue-7", "green-1"))
    assert not has_form(live, "/live/undo-trick")
    game = state(client, code)
    assert game["rounds"][0]["tricks_played"] == 0 and game["rounds"][0]["next_leader"] == 0


def whole_round_played_live(
    client: FlaskClient, table: Table, seed: str
) -> tuple[str, str, ClassicRound]:
    """A one-round classic game whose round was dealt by ``seed`` and played live to its
    end here: the game's code, the live page after the last card, and the round as dealt."""
    setup = table_setup(4, PRESETS["classic"])
    played = play_classic_round(setup, random.Random(seed))
    game = table.new_game(
        NAMES, "classic", rounds=1, first_leader=played.trick_log[0][0], edit_here=True
    )
    code = str(game["id"])
    live = start_live(client, code, played.indicators)
    for _, cards, _ in played.trick_log:
        for card in cards:
            live = tap_and_follow(client, live, card)
    return code, live, played


def test_undo_last_trick_reopens_a_round_it_had_finished(client: FlaskClient, table: Table) -> None:
    code, live, played = whole_round_played_live(client, table, "undo-last")
    assert "Round 1 is over" in text_of(live) and "See the result on the scoreboard" in live
    assert state(client, code)["status"] == "finished"
    live = page(client, press(client, live, "/live/undo-trick").headers["Location"])
    words = text_of(live)
    assert "13 of 14 tricks played" in words and "Trick 14 of 14" in words
    game = state(client, code)
    assert game["status"] == "in_progress" and game["rounds"][0]["scores"] is None
    leader, cards, _ = played.trick_log[-1]
    assert slots(live)[0] == (NAMES[leader], None)
    for card in cards:
        live = tap_and_follow(client, live, card)
    assert state(client, code)["status"] == "finished"


def test_undo_last_card_reopens_the_trick_it_completed_with_its_other_cards(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    live = play_cards(client, live, "red 5, red 6, blue 7, green 1")
    assert state(client, code)["rounds"][0]["tricks_played"] == 1
    assert has_form(live, "/live/undo-card")  # the card that completed the trick
    response = press(client, live, "/live/undo-card")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/g/{code}/rounds/1/live"
    live = page(client, response.headers["Location"])
    words = text_of(live)
    assert "Taken back: green 1 (Dan). Trick 1 is open again: enter its last card." in words
    assert slots(live) == [("Ann", "red-5"), ("Ben", "red-6"), ("Cleo", "blue-7"), ("Dan", None)]
    assert "0 of 14 tricks played" in words and "Next to play: Dan." in words
    best = expected_winner([c("red 5"), c("red 6"), c("blue 7")])
    assert f"Winning so far: {NAMES[best]} with blue 7." in words
    assert chips(live)["green-1"] is False and chips(live)["blue-7"] is True
    assert state(client, code)["rounds"][0]["tricks_played"] == 0  # saved at once
    live = tap_and_follow(client, live, c("green 2"))
    assert slots(live, "live-last")[3] == ("Dan", "green-2")
    assert state(client, code)["rounds"][0]["tricks_played"] == 1


def test_undo_last_card_reopens_the_last_trick_of_a_scored_round_while_it_is_the_last_round(
    client: FlaskClient, table: Table
) -> None:
    code, live, played = whole_round_played_live(client, table, "undo-card")
    assert "Round 1 is over" in text_of(live)
    scores = state(client, code)["rounds"][0]["scores"]
    live = page(client, press(client, live, "/live/undo-card").headers["Location"])
    leader, cards, _ = played.trick_log[-1]
    words = text_of(live)
    assert f"Taken back: {label(cards[-1])} ({NAMES[(leader + 3) % 4]})." in words
    assert "The round’s scores are withdrawn until its last trick is complete." in words
    assert "13 of 14 tricks played" in words and "Trick 14 of 14" in words
    assert slots(live) == [
        *((NAMES[(leader + i) % 4], token(card)) for i, card in enumerate(cards[:3])),
        (NAMES[(leader + 3) % 4], None),
    ]
    after = state(client, code)
    assert after["status"] == "in_progress" and after["rounds"][0]["scores"] is None
    live = tap_and_follow(client, live, cards[-1])
    assert "Round 1 is over" in text_of(live)
    assert state(client, code)["rounds"][0]["scores"] == scores


def test_undo_last_card_from_a_stale_page_changes_nothing(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, key, live = open_classic(table)
    live = play_cards(client, live, "red 5, red 6, blue 7, green 1")
    phone = other_phone(client, code, key)
    play_cards(phone, page(phone, f"/g/{code}/rounds/1/live"), "green 5, green 6, green 7, red 8")
    before = database(app)
    response = press(client, live, "/live/undo-card")
    assert response.status_code == 409
    assert CONFLICT in text_of(response.get_data(as_text=True))
    assert database(app) == before
    assert state(client, code)["rounds"][0]["tricks_played"] == 2


def test_undo_last_card_of_a_hat_trick_trick_keeps_its_plays_and_passes(
    client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    live = start_live(client, code)
    live = play_cards(client, live, "red 5, blue 9")
    live = tap_and_follow(client, live, c("green 4"), passed=True)  # Cleo passes (R19)
    assert state(client, code)["rounds"][0]["tricks_played"] == 0
    live = play_cards(client, live, "blue 3")
    assert state(client, code)["rounds"][0]["tricks_played"] == 1
    live = page(client, press(client, live, "/live/undo-card").headers["Location"])
    assert "Taken back: blue 3 (Dan). Trick 1 is open again" in text_of(live)
    assert [card for _, card in slots(live)] == ["red-5", "blue-9", "green-4", None]
    assert "Passed (R19): Cleo, showing green 4." in section(live, "live-trick")
    assert state(client, code)["rounds"][0]["tricks_played"] == 0


# --------------------------------------------------------------------------------------------
# Edit rights, stale versions, expired forms


def test_a_phone_without_the_edit_link_may_not_play_live(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    phone = other_phone(client)
    phone.get(f"/g/{code}/view")
    before = database(app)
    for url in (f"/g/{code}/rounds/live", f"/g/{code}/rounds/1/live"):
        response = phone.get(url)
        assert response.status_code == 403
        assert "This phone may only look at this game" in text_of(response.get_data(as_text=True))
    fields = form_ending(live, "/live/card").fields
    for suffix in ("/card", "/undo-card", "/undo-trick"):
        response = phone.post(f"/g/{code}/rounds/1/live{suffix}", data={**fields, "card": "red-5"})
        assert response.status_code == 403
        assert "open the game's edit link" in text_of(response.get_data(as_text=True)).lower()
    assert database(app) == before
    assert "Play this round live" not in page(phone, f"/g/{code}")


def test_a_stale_page_changes_nothing_and_shows_the_round_as_it_is_now(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, key, live = open_classic(table)
    live = play_cards(client, live, "red 5, red 6")  # the unfinished trick, shown here
    phone = other_phone(client, code, key)
    there = page(phone, f"/g/{code}/rounds/1/live")
    assert slots(there)[:2] == [("Ann", "red-5"), ("Ben", "red-6")]
    there = play_cards(phone, there, "red 8, red 9")  # the trick saved there: version moves
    before = database(app)
    response = tap(client, live, c("blue 7"))  # Cleo's card, from the old page
    assert response.status_code == 409
    refused = response.get_data(as_text=True)
    words = text_of(refused)
    assert CONFLICT in words and "Nothing was saved from this phone." in words
    assert "1 of 14 tricks played" in words and "Dan leads: tap the card they play." in words
    assert "Dan takes the trick with red 9." in section(refused, "live-last")
    assert database(app) == before
    # The round as it is now: the next tap works on the current version.
    live = tap_and_follow(client, refused, c("yellow 3"))
    assert slots(live)[0] == ("Dan", "yellow-3")


def test_a_form_without_a_valid_csrf_token_saves_nothing_and_says_so(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    before = database(app)
    fields = {**form_ending(live, "/live/card").fields, "csrf_token": "forged", "card": "red-5"}
    response = client.post(f"/g/{code}/rounds/1/live/card", data=fields)
    assert response.status_code == 400
    words = text_of(response.get_data(as_text=True))
    assert "nothing was saved. Tap the card again." in words
    assert database(app) == before
    assert slots(page(client, f"/g/{code}/rounds/1/live"))[0] == ("Ann", None)


def test_a_round_not_played_live_has_no_live_page(client: FlaskClient, table: Table) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    mark = page(client, f"/g/{code}/rounds/mark")
    data: dict[str, Any] = dict(form_ending(mark, "").fields)
    for seat, cards in enumerate(ZERO_INDICATORS):
        data[f"s{seat}-marked"] = [token(card) for card in cards]
    client.post(f"/g/{code}/rounds/mark", data=data)
    response = client.get(f"/g/{code}/rounds/1/live")
    assert response.status_code == 409
    assert "Round 1 is not played trick by trick." in text_of(response.get_data(as_text=True))
    assert client.get(f"/g/{code}/rounds/7/live").status_code == 404


# --------------------------------------------------------------------------------------------
# The page itself


def test_the_live_page_keeps_the_screen_awake_with_its_own_static_scripts(
    client: FlaskClient,
    table: Table,
) -> None:
    _, _, live = open_classic(table)
    scripts = read_page(live).find_all("script")
    assert scripts and all(script.text == "" and "src" in script.attrs for script in scripts)
    sources = [str(script.get("src")) for script in scripts]
    assert static_url("follow.js") in sources and static_url("live.js") in sources
    assert all(source.startswith("/static/") for source in sources)  # nothing from other hosts
    wake = client.get("/static/follow.js")
    assert wake.status_code == 200 and b"navigator.wakeLock" in wake.data
    wake.close()


def test_every_live_form_carries_the_csrf_token_and_the_version(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    live = play_cards(client, live, "red 5, red 6, blue 7, green 1, green 2")
    version = str(state(client, code)["version"])
    posting = [form for form in forms_of(live) if form.action.startswith(f"/g/{code}/")]
    assert {form.action.rsplit("/", 1)[1] for form in posting} == {
        "card",
        "undo-card",
    }
    for form in posting:
        assert form.fields["csrf_token"] and form.fields["version"] == version


def test_an_undo_trick_button_appears_once_the_trick_in_progress_is_empty(
    client: FlaskClient,
    table: Table,
) -> None:
    _, _, live = open_classic(table)
    live = play_cards(client, live, "red 5, red 6, blue 7, green 1")
    assert "Undo last trick (trick 1)" in live
    live = play_cards(client, live, "green 2")
    assert not has_form(live, "/live/undo-trick") and has_form(live, "/live/undo-card")


def test_the_play_order_is_the_winners_next(client: FlaskClient, table: Table) -> None:
    """R9: the winner of a trick leads the next, and the others follow clockwise."""
    _, _, live = open_classic(table)
    live = play_cards(client, live, "red 5, red 6, blue 7, green 1")
    assert [player for player, _ in slots(live)] == ["Cleo", "Dan", "Ann", "Ben"]
    assert [player for player, card in slots(live, "live-last")] == NAMES


def test_play_accepts_a_hat_trick_pass_only_in_hat_trick(client: FlaskClient, table: Table) -> None:
    """R6: classic tricks have no passes; the pass field is ignored there."""
    code, _, live = open_classic(table)
    live = play_cards(client, live, "red 5, blue 6")
    assert 'name="pass_next"' not in live
    form = form_ending(live, "/live/card")
    response = client.post(form.action, data={**form.fields, "card": "green-6", "pass_next": "y"})
    assert response.status_code == 302
    assert slots(page(client, f"/g/{code}/rounds/1/live"))[2] == ("Cleo", "green-6")


def test_an_abandoned_game_takes_no_more_cards(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    confirm = page(client, f"/g/{code}/abandon")
    assert (
        client.post(f"/g/{code}/abandon", data=form_ending(confirm, "").fields).status_code == 302
    )
    before = database(app)
    response = tap(client, live, c("red 5"))
    assert response.status_code == 409
    assert "This game was abandoned, so it takes no more rounds." in text_of(
        response.get_data(as_text=True)
    )
    assert database(app) == before
    assert "Continue live round" not in page(client, f"/g/{code}")


def test_the_address_left_by_a_refused_tap_leads_back_to_the_live_page(
    client: FlaskClient,
    table: Table,
) -> None:
    code, _, _ = open_classic(table)
    for action in ("card", "undo-card", "undo-trick"):
        response = client.get(f"/g/{code}/rounds/1/live/{action}")
        assert response.status_code == 302
        assert response.headers["Location"] == f"/g/{code}/rounds/1/live"
