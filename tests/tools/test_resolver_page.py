"""The trick resolver page (R7, R8, R13, R19-R21, C1), driven by taps as a phone sends them:
each tap posts the form with its CSRF token and the trick so far.

The classic examples are the German rulebook's ("Beispiele"), played by five players
(the deck of 0-14) since their tricks name a blue 9 and five players.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from companion.read_models.chips import card_of_token
from companion.rules import Card, round_leader, seat_order, trick_winner, variant_named
from companion.web.i18n import gettext_with_names
from scripts.page_reader import Element, read_page
from tests.table import Table, auth
from tests.tools.tool_helpers import (
    chip_buttons,
    page_text,
    read_form,
    tap,
    tap_cards,
    text_of,
)

#: R19 in the words of the live page and the resolver alike.
PASS_HINT = (
    "Two colours are in the trick: a card of the third colour is a pass, put face down (R19). "
    "Tap the card the player shows."
)


def open_resolver(client: FlaskClient, query: str = "") -> str:
    """The resolver page as first opened."""
    response = client.get(f"/resolve?{query}" if query else "/resolve")
    assert response.status_code == 200, page_text(response)
    return page_text(response)


def plays(page: str) -> list[Element]:
    """The plays of the trick as listed, in play order."""
    return read_page(page).find("ol", class_="trick-plays").find_all("li", class_="trick-play")


def player_and_card(play: Element) -> tuple[str, str]:
    """A play as it reads: the player, and the card their chip names."""
    card = play.find("span", class_="chip", data_colour=True).get("title")
    assert card
    return play.find("span", class_="trick-play__player").text, card


def trick_players_and_cards(page: str) -> list[tuple[str, str]]:
    """The trick as listed: (player, card) per play, in play order."""
    return [player_and_card(play) for play in plays(page)]


def winning_play(page: str) -> tuple[str, str]:
    """The highlighted play: (player, card)."""
    highlighted = [play for play in plays(page) if "trick-play--takes" in play.classes]
    assert highlighted, "a play is highlighted"
    return player_and_card(highlighted[0])


def refusal(page: str) -> str | None:
    """The refusal shown next to the trick, if any."""
    found = read_page(page).find_all("p", class_="trick-refusal", role="alert")
    return found[0].words() if found else None


# --------------------------------------------------------------------------------------------
# The page and its chips


@pytest.mark.no_database_queries
def test_resolver_offers_a_chip_button_for_every_card_of_the_deck(client: FlaskClient) -> None:
    page = open_resolver(client, "players=4")

    chips = chip_buttons(page)
    assert len(chips) == 60  # R2: five colours, 0-11
    assert chips[:3] == ["green-0", "green-1", "green-2"]
    assert "yellow-11" in chips and "violet-0" not in chips and "red-12" not in chips
    assert "No card yet." in text_of(page)


@pytest.mark.no_database_queries
def test_hat_trick_resolver_offers_red_blue_and_green_from_1(client: FlaskClient) -> None:
    page = open_resolver(client, "variant=hat-trick&players=5")

    chips = chip_buttons(page)
    assert len(chips) == 60  # R17: three colours, 1-20
    assert {chip.split("-")[0] for chip in chips} == {"red", "blue", "green"}
    assert "red-0" not in chips
    assert read_page(page).find_all("input", name="pass_next") == []  # a pass is one tap (R19)


@pytest.mark.no_database_queries
def test_a_tap_without_a_csrf_token_is_not_applied_and_says_why(client: FlaskClient) -> None:
    page = open_resolver(client, "players=5")
    form = read_form(page)
    data = {**form.values, "add": "red-4"}
    del data["csrf_token"]

    response = client.post("/resolve", data=data)

    assert response.status_code == 400
    after = page_text(response)
    assert "your last tap was not applied" in text_of(after)
    assert trick_players_and_cards(after) == []
    assert read_form(after).values["csrf_token"], "the page comes back with a fresh token"


# --------------------------------------------------------------------------------------------
# Classic family (R7, R8)


@pytest.mark.no_database_queries
def test_a_trump_beats_the_lead_colour_german_example(client: FlaskClient) -> None:
    page = open_resolver(client, "players=5")

    response = tap_cards(client, page, "yellow-3", "green-3", "blue-9")

    assert response.status_code == 200
    after = page_text(response)
    assert trick_players_and_cards(after) == [
        ("Player 1", "yellow 3"),
        ("Player 2", "green 3"),
        ("Player 3", "blue 9"),
    ]
    assert winning_play(after) == ("Player 3", "blue 9")
    text = text_of(after)
    assert "Winning so far: Player 3 with blue 9." in text
    assert "Blue 9 is the highest trump" in text and "(R7, R8)" in text
    assert "Next to play: Player 4." in text


@pytest.mark.no_database_queries
def test_the_highest_lead_colour_card_wins_without_trumps_german_example(
    client: FlaskClient,
) -> None:
    page = open_resolver(client, "players=5")

    after_two = page_text(tap_cards(client, page, "red-4", "red-1"))
    assert winning_play(after_two) == ("Player 1", "red 4"), "the trick is still with red 4"

    after = page_text(tap_cards(client, after_two, "red-7"))
    assert winning_play(after) == ("Player 3", "red 7")
    text = text_of(after)
    assert "Winning so far: Player 3 with red 7." in text
    assert "Every card is of the lead colour red, so the highest one wins: red 7 (R8)." in text


@pytest.mark.no_database_queries
def test_an_off_colour_zero_never_trumps_and_the_reason_says_so(client: FlaskClient) -> None:
    page = open_resolver(client, "players=4")

    after = page_text(tap_cards(client, page, "red-5", "blue-0", "green-0", "red-2"))

    assert winning_play(after) == ("Player 1", "red 5")
    text = text_of(after)
    assert "Player 1 takes the trick with red 5." in text
    assert "a 0 is never a trump" in text and "(R7, R8)" in text
    assert "The trick is complete: one card per player." in text


@pytest.mark.no_database_queries
def test_a_complete_trick_is_highlighted_with_takes(client: FlaskClient) -> None:
    page = open_resolver(client, "players=3")

    after = page_text(tap_cards(client, page, "green-2", "brown-5", "red-8"))

    assert "Player 3 takes the trick with red 8." in text_of(after)
    badges = read_page(after).find_all("span", class_="tool-badge--takes")
    assert [badge.text for badge in badges] == ["takes"]


@pytest.mark.no_database_queries
def test_reverse_the_lowest_trump_wins(client: FlaskClient) -> None:
    page = open_resolver(client, "variant=reverse&players=4")

    after = page_text(tap_cards(client, page, "yellow-5", "blue-9", "green-2", "red-0"))

    assert winning_play(after) == ("Player 3", "green 2")
    text = text_of(after)
    assert "Player 3 takes the trick with green 2." in text
    assert "in Reverse the lowest trump wins" in text and "(R7, R13)" in text


@pytest.mark.no_database_queries
def test_the_same_trick_under_the_classic_rule_goes_to_the_highest_trump(
    client: FlaskClient,
) -> None:
    page = open_resolver(client, "variant=reverse&players=4")
    after = page_text(tap_cards(client, page, "yellow-5", "blue-9", "green-2", "red-0"))

    switched = page_text(tap(client, after, ("apply", "1"), variant="classic"))

    assert winning_play(switched) == ("Player 2", "blue 9")


@pytest.mark.no_database_queries
def test_undo_takes_back_the_last_card_and_clear_empties_the_trick(client: FlaskClient) -> None:
    page = open_resolver(client, "players=4")
    after = page_text(tap_cards(client, page, "red-4", "blue-6"))

    undone = page_text(tap(client, after, ("undo", "1")))
    assert trick_players_and_cards(undone) == [("Player 1", "red 4")]
    assert "Winning so far: Player 1 with red 4." in text_of(undone)

    cleared = page_text(tap(client, undone, ("clear", "1")))
    assert trick_players_and_cards(cleared) == []
    assert ("undo", "1", True) in read_form(cleared).buttons, "nothing left to undo"


# --------------------------------------------------------------------------------------------
# Refusals: explained next to the trick, the trick unchanged, never a 500


@pytest.mark.parametrize(
    ("query", "cards", "refused", "message"),
    [
        ("players=4", ["red-4", "blue-6"], "red-4", "Red 4 is in the trick twice."),
        (
            "players=3",
            ["red-4", "blue-6", "green-1"],
            "yellow-2",
            "A trick holds one card per player: at most 3 cards, not 4.",
        ),
        (
            "variant=hat-trick&players=5",
            ["red-9", "pass:green-3"],
            None,
            "Passing with green 3 is not allowed yet: a player may pass only once two colours "
            "are in the trick (R19).",
        ),
        (
            "variant=hat-trick&players=5",
            ["pass:green-3"],
            None,
            "The leader cannot pass with green 3: the first play of a trick is a card (R19).",
        ),
        (
            "variant=hat-trick&players=5",
            ["red-9", "blue-4", "pass:red-3"],
            None,
            "A pass shows a card of the third colour, but red 3 is of a colour already in the "
            "trick (R19).",
        ),
    ],
)
@pytest.mark.no_database_queries
def test_a_refused_card_is_explained_and_changes_nothing(
    client: FlaskClient, query: str, cards: list[str], refused: str | None, message: str
) -> None:
    page = open_resolver(client, query)
    before_cards = cards if refused else cards[:-1]
    before = page_text(tap_cards(client, page, *before_cards)) if before_cards else page
    last = refused or cards[-1]

    response = tap_cards(client, before, last)

    assert response.status_code == 422
    after = page_text(response)
    assert refusal(after) == f"Not added: {message}"
    assert trick_players_and_cards(after) == trick_players_and_cards(before)
    assert read_form(after).values["trick"] == read_form(before).values["trick"]
    refused_chip = read_page(after).find(
        "button", class_="chip", type="submit", name="add", value=last.removeprefix("pass:")
    )
    assert "chip--refused" in refused_chip.classes


@pytest.mark.parametrize(
    "forged",
    ["red-99", "purple-3", "red", "red-x", "red-4 red-4", "pass:red-1", " ".join(["red-1"] * 9)],
)
@pytest.mark.no_database_queries
def test_a_forged_trick_field_is_cleared_with_the_reason(client: FlaskClient, forged: str) -> None:
    page = open_resolver(client, "players=4")
    form = read_form(page)

    response = client.post("/resolve", data={**form.values, "trick": forged, "apply": "1"})

    assert response.status_code == 200
    after = page_text(response)
    assert "The trick was cleared:" in text_of(after)
    assert read_form(after).values["trick"] == ""


@pytest.mark.no_database_queries
@pytest.mark.parametrize("forged", ["red-99", "purple-3", "nonsense", "-1"])
def test_a_forged_chip_is_refused_without_a_500(client: FlaskClient, forged: str) -> None:
    page = open_resolver(client, "players=4")
    form = read_form(page)

    response = client.post("/resolve", data={**form.values, "add": forged})

    assert response.status_code == 422
    assert refusal(page_text(response))


@pytest.mark.no_database_queries
def test_changing_the_player_count_clears_a_trick_that_no_longer_fits(
    client: FlaskClient,
) -> None:
    page = open_resolver(client, "players=5")
    after = page_text(tap_cards(client, page, "red-4", "blue-13"))

    switched = page_text(tap(client, after, ("apply", "1"), players="4"))

    text = text_of(switched)
    assert "The trick was cleared: Blue 13 is not in the deck in use" in text
    assert trick_players_and_cards(switched) == []


@pytest.mark.no_database_queries
def test_hat_trick_with_three_players_is_refused_next_to_the_player_count(
    client: FlaskClient,
) -> None:
    page = open_resolver(client, "players=3")

    response = tap(client, page, ("apply", "1"), variant="hat-trick")

    assert response.status_code == 400
    assert "Hat Trick is played by 4 to 7 players, not 3." in text_of(page_text(response))


# --------------------------------------------------------------------------------------------
# Hat Trick (R19-R21)


@pytest.mark.no_database_queries
def test_a_third_colour_card_is_a_pass_as_on_the_live_page(client: FlaskClient) -> None:
    """R19: once two colours are in the trick, a card of the third colour can only be a pass;
    the resolver takes it as one, as the live page does, and says so in the same words."""
    page = open_resolver(client, "variant=hat-trick&players=5")
    one_colour = page_text(tap_cards(client, page, "red-9"))
    assert read_page(one_colour).find("p", id="pass-hint").get("hidden") is not None

    two_colours = page_text(tap_cards(client, one_colour, "blue-4"))
    hint = read_page(two_colours).find("p", id="pass-hint")
    assert hint.get("hidden") is None
    assert hint.text == PASS_HINT

    response = tap_cards(client, two_colours, "green-7")

    assert response.status_code == 200
    after = page_text(response)
    assert read_form(after).values["trick"] == "red-9 blue-4 pass:green-7"
    assert "Passed (R19): Player 3, showing green 7." in text_of(after)


def test_the_resolver_and_the_live_page_say_r19_in_one_message() -> None:
    """One msgid for the third colour's pass in the resolver (page and offline worker) and
    on the live page (one template, on the server and offline)."""
    templates = Path(__file__).parents[2] / "templates"
    for template in ("tools/resolver_trick.html", "games/live_round.html"):
        assert PASS_HINT in (templates / template).read_text(encoding="utf-8")


@pytest.mark.no_database_queries
def test_hat_trick_trick_with_a_pass_shows_piles_passes_and_the_next_leader(
    client: FlaskClient,
) -> None:
    page = open_resolver(client, "variant=hat-trick&players=5")

    passed = page_text(tap_cards(client, page, "red-9", "blue-12", "red-4", "pass:green-3"))
    assert "pass_next" not in read_form(passed).values, "nothing to tick for a pass"

    response = tap_cards(client, passed, "blue-2")

    assert response.status_code == 200
    after = page_text(response)
    text = text_of(after)
    assert "Player 1 takes this pile with red 9 (R20)." in text
    assert "Player 2 takes this pile with blue 12 (R20)." in text
    assert "Passed (R19): Player 4, showing green 3." in text
    assert "Player 2 leads the next trick." in text
    assert "blue 12 is the higher top card" in text and "(R20, R21)" in text
    assert read_form(after).values["trick"] == "red-9 blue-12 red-4 pass:green-3 blue-2"


@pytest.mark.no_database_queries
def test_hat_trick_equal_top_cards_compare_the_next_cards_down(client: FlaskClient) -> None:
    page = open_resolver(client, "variant=hat-trick&players=4")

    after = page_text(tap_cards(client, page, "green-15", "red-15", "green-10", "red-3"))

    text = text_of(after)
    # R21 (000, 002): the tops are equal, so green 10 decides and its player leads, though
    # Player 1 and Player 2 take the piles.
    assert "Player 1 takes this pile with green 15 (R20)." in text
    assert "Player 2 takes this pile with red 15 (R20)." in text
    assert "Player 3 leads the next trick." in text
    assert "green 10 is the higher card: Player 3 played it and leads next" in text
    assert "(R21)" in text


@pytest.mark.no_database_queries
def test_hat_trick_partial_trick_says_who_would_lead_so_far(client: FlaskClient) -> None:
    page = open_resolver(client, "variant=hat-trick&players=6")

    text = text_of(page_text(tap_cards(client, page, "blue-5")))

    assert "So far Player 1 would lead the next trick." in text
    assert "Next to play: Player 2." in text


# --------------------------------------------------------------------------------------------
# Inside a game: its deck, and its seats in order from the leader


def test_game_resolver_names_the_seats_from_the_current_leader(
    client: FlaskClient, table: Table
) -> None:
    names = ["Ann", "Ben", "Cleo", "Dan"]
    code = table.new_game(names, "classic", rounds=5, first_leader=2)["id"]
    page = page_text(client.get(f"/g/{code}/resolve"))
    assert read_form(page).values["leader"] == "2", "round 1 is led by the seat the table named"
    assert len(chip_buttons(page)) == 60  # the game's deck: four players, 0-11

    after = page_text(tap_cards(client, page, "yellow-3", "green-3", "blue-9", "red-0"))

    assert trick_players_and_cards(after) == [
        ("Cleo", "yellow 3"),
        ("Dan", "green 3"),
        ("Ann", "blue 9"),
        ("Ben", "red 0"),
    ]
    assert "Ann takes the trick with blue 9." in text_of(after)
    assert "Ann, Ben, Cleo, Dan" in text_of(after)


def test_game_resolver_follows_the_leader_chosen(client: FlaskClient, table: Table) -> None:
    code = table.new_game(["Ann", "Ben", "Cleo", "Dan"], "reverse", rounds=5, first_leader=0)["id"]
    page = page_text(client.get(f"/g/{code}/resolve"))
    after = page_text(tap_cards(client, page, "yellow-5", "blue-9", "green-2"))

    moved = page_text(tap(client, after, ("apply", "1"), leader="3"))

    assert [player for player, _card in trick_players_and_cards(moved)] == ["Dan", "Ann", "Ben"]
    assert "Winning so far: Ben with green 2." in text_of(moved)  # R13: lowest trump


def test_game_resolver_of_a_hat_trick_game_names_the_next_leader(
    client: FlaskClient, table: Table
) -> None:
    names = ["Ann", "Ben", "Cleo", "Dan", "Eve"]
    code = table.new_game(names, "hat-trick", rounds=5, first_leader=1)["id"]
    page = page_text(client.get(f"/g/{code}/resolve"))

    after = page_text(
        tap_cards(client, page, "red-9", "blue-12", "red-4", "pass:green-3", "blue-2")
    )

    text = text_of(after)
    assert "Passed (R19): Eve, showing green 3." in text
    assert "Cleo leads the next trick." in text


def test_game_resolver_refuses_a_card_outside_the_games_deck(
    client: FlaskClient, table: Table
) -> None:
    code = table.new_game(["Ann", "Ben", "Cleo"], "classic", rounds=5, first_leader=0)["id"]
    page = page_text(client.get(f"/g/{code}/resolve"))
    form = read_form(page)

    response = client.post(f"/g/{code}/resolve", data={**form.values, "add": "violet-3"})

    assert response.status_code == 422
    assert refusal(page_text(response)) == (
        "Not added: Violet 3 is not in the deck in use (green, brown, red, blue, yellow; "
        "values 0 to 8)."
    )


def test_game_resolver_of_an_unknown_game_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/g/nosuchgame/resolve")

    assert response.status_code == 404
    assert "There is no game at this address." in text_of(page_text(response))


def test_player_names_are_escaped_in_every_sentence(client: FlaskClient, table: Table) -> None:
    names = ["<b>Ann</b>", "Ben", "Cleo"]
    code = table.new_game(names, "classic", rounds=5, first_leader=0)["id"]
    page = page_text(client.get(f"/g/{code}/resolve"))

    after = page_text(tap_cards(client, page, "red-4", "blue-6", "green-2"))

    assert "<b>" not in after
    assert "&lt;b&gt;Ann&lt;/b&gt;" in after
    setup = page_text(client.get(f"/g/{code}/setup"))
    assert "<b>" not in setup


# --------------------------------------------------------------------------------------------
# The trick in the address: Back after a rule link, a reload or a shared link keep it


def address_of(page: str) -> str:
    """The address the page names as the one that opens it as it is now."""
    address = read_page(page).find("form", id="resolver-form").get("data-address")
    assert address, "the resolver names its address"
    return address


@pytest.mark.no_database_queries
def test_the_resolver_names_the_address_that_opens_the_same_trick(client: FlaskClient) -> None:
    page = open_resolver(client, "variant=reverse&players=5")
    after = page_text(tap_cards(client, page, "yellow-5", "blue-9", "green-2"))

    address = address_of(after)
    path, _, query = address.partition("?")
    assert path == "/resolve"
    assert parse_qs(query) == {
        "variant": ["reverse"],
        "players": ["5"],
        "trick": ["yellow-5 blue-9 green-2"],
    }
    reopened = open_resolver(client, query)
    assert trick_players_and_cards(reopened) == trick_players_and_cards(after)
    assert winning_play(reopened) == winning_play(after)
    assert address_of(reopened) == address


@pytest.mark.no_database_queries
def test_an_empty_trick_leaves_the_trick_out_of_the_address(client: FlaskClient) -> None:
    page = open_resolver(client, "players=4")
    after = page_text(tap_cards(client, page, "red-4"))

    cleared = page_text(tap(client, after, ("clear", "1")))

    assert parse_qs(address_of(cleared).partition("?")[2]) == {
        "variant": ["classic"],
        "players": ["4"],
    }


def test_the_game_resolver_names_its_leader_and_trick_in_the_address(
    client: FlaskClient, table: Table
) -> None:
    code = table.new_game(["Ann", "Ben", "Cleo", "Dan"], "classic", rounds=5)["id"]
    page = page_text(client.get(f"/g/{code}/resolve"))
    moved = page_text(tap(client, page, ("apply", "1"), leader="2"))
    after = page_text(tap_cards(client, moved, "yellow-3", "green-3"))

    path, _, query = address_of(after).partition("?")
    assert path == f"/g/{code}/resolve"
    assert parse_qs(query) == {"leader": ["2"], "trick": ["yellow-3 green-3"]}
    reopened = page_text(client.get(address_of(after)))
    assert trick_players_and_cards(reopened) == [("Cleo", "yellow 3"), ("Dan", "green 3")]


# --------------------------------------------------------------------------------------------
# Inside a game the players are named, in every language, from whoever leads now


def start_live_round(client: FlaskClient, game: dict[str, Any], marked: list[str]) -> int:
    """Open round 1 live with one indicator per seat; answers the game's version."""
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={"version": game["version"], "marked": [[card_json(text)] for text in marked]},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    return int(answer.json["version"])


def card_json(token: str) -> dict[str, object]:
    """``red-4`` as the API writes a card."""
    colour, value = token.split("-")
    return {"colour": colour, "value": int(value)}


def in_language(app: Flask, lang: str, text: str, **values: object) -> str:
    """``text`` as the app says it in ``lang`` (a preposition before a name included)."""
    with app.test_request_context(), force_locale(lang):
        return gettext_with_names(text, **values)


@pytest.mark.parametrize("lang", ["it", "de"])
def test_in_a_live_round_the_resolver_starts_from_the_winner_of_the_last_trick(
    app: Flask, client: FlaskClient, table: Table, lang: str
) -> None:
    names = ["Anna-Lena", "Jean-Baptiste", "Gergely"]
    game = table.new_game(names, "classic", rounds=5, first_leader=0)
    version = start_live_round(client, game, ["red-4", "blue-0", "green-1"])
    trick = ["yellow-3", "green-3", "blue-7"]
    answer = client.post(
        f"/api/v1/games/{game['id']}/rounds/1/tricks",
        json={"version": version, "cards": [card_json(token) for token in trick]},
        headers=auth(game),
    )
    assert answer.status_code == 201, answer.json
    settings = variant_named("classic").settings
    assert settings is not None
    taken = trick_winner([card_of(token) for token in trick], settings.scoring)
    leader = seat_order(round_leader(1, 0, len(names)), len(names))[taken.winner]  # R9
    client.set_cookie("lang", lang)

    page = page_text(client.get(f"/g/{game['id']}/resolve"))

    assert read_form(page).values["leader"] == str(leader)
    next_player = in_language(app, lang, "Next to play: %(player)s.", player=names[leader])
    assert next_player in text_of(page)
    after = page_text(tap_cards(client, page, "red-2", "blue-5"))
    order = seat_order(leader, len(names))
    assert [player for player, _card in trick_players_and_cards(after)] == [
        names[order[0]],
        names[order[1]],
    ]
    text = text_of(after)
    assert in_language(app, lang, "Next to play: %(player)s.", player=names[order[2]]) in text
    assert in_language(app, lang, "Player %(number)s", number=1) not in text


def card_of(token: str) -> Card:
    """The card a chip names."""
    card = card_of_token(token)
    assert card is not None
    return card


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "This phone is offline, so the tap was not applied"),
        ("de", "Dieses Handy ist offline"),
    ],
)
@pytest.mark.no_database_queries
def test_the_resolver_carries_what_it_says_when_a_tap_cannot_reach_the_server(
    client: FlaskClient, language: str, words: str
) -> None:
    """Issue 26, point 6: offline (the service worker's kept copy), a tap cannot be sent;
    static/resolver.js says so beside the trick in the page's language, never promising."""
    response = client.get("/resolve", headers={"Accept-Language": language})
    form = read_page(page_text(response)).find("form", id="resolver-form")
    said = form.get("data-offline") or ""
    assert said.startswith(words)
    scripts = [e.get("src") or "" for e in read_page(page_text(response)).find_all("script")]
    assert any("/static/resolver." in src for src in scripts)
