"""The table setup page (R1, R2, R3, R5, R11, R14, R16, R17, R18), alone and inside a game.

Expectations are written out by hand from the rulings, not computed with the code under test.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.table import Table
from tests.tools.tool_helpers import box_rows, field_errors, page_text, setup_numbers, text_of

FIVE = ["green", "brown", "red", "blue", "yellow"]  # the rulebook's order (R2)
SIX = [*FIVE, "violet"]
TOP = {"red": 20, "blue": 20, "green": 20, "yellow": 18, "brown": 18, "violet": 18}  # R1

# R2: players -> (colours, highest value, hand, left out); R5: tricks = hand - 1.
CLASSIC = {
    3: (FIVE, 8, 15, 0, 14),
    4: (FIVE, 11, 15, 0, 14),
    5: (FIVE, 14, 15, 0, 14),
    6: (SIX, 14, 15, 0, 14),
    7: (SIX, 17, 15, 3, 14),
    8: (SIX, 18, 14, 2, 13),
}

# R17, R18: players -> (lowest value, hand, tricks); red, blue, green up to 20, nothing left out.
HAT_TRICK = {4: (1, 15, 14), 5: (1, 12, 11), 6: (1, 10, 9), 7: (0, 9, 8)}


def get_setup(client: FlaskClient, query: str) -> str:
    """The setup page for ``query``, which must answer 200."""
    response = client.get(f"/setup?{query}")
    assert response.status_code == 200, page_text(response)
    return page_text(response)


@pytest.mark.no_database_queries
@pytest.mark.parametrize("players", sorted(CLASSIC))
def test_setup_shows_the_colours_values_hand_left_out_and_tricks_of_r2(
    client: FlaskClient, players: int
) -> None:
    colours, high, hand, left_out, tricks = CLASSIC[players]
    page = get_setup(client, f"players={players}&variant=classic")

    taken = box_rows(page, "taken-title")
    assert [row.colour for row in taken] == colours
    for row in taken:
        assert row.range == f"0–{high}"
        assert row.values == tuple(range(high + 1)), "a chip for every value, in order"
        assert row.count == f"{high + 1} cards"
    numbers = setup_numbers(page)
    assert numbers["Cards per hand"] == str(hand)
    assert numbers["Cards left out"] == str(left_out)
    assert numbers["Tricks per round"] == str(tricks)
    assert numbers["Rounds"] == "5"
    text = text_of(page)
    assert f"{len(colours) * (high + 1)} cards: {len(colours)} colours, values 0 to {high}" in text
    assert f"{hand} − 1 = {tricks} tricks" in text


@pytest.mark.no_database_queries
@pytest.mark.parametrize("players", sorted(CLASSIC))
def test_setup_shows_which_cards_stay_in_the_box(client: FlaskClient, players: int) -> None:
    colours, high, *_rest = CLASSIC[players]
    page = get_setup(client, f"players={players}")

    kept = {row.colour: row for row in box_rows(page, "kept-title")}
    for colour in SIX:
        if colour not in colours:
            assert kept[colour].range == f"0–{TOP[colour]}", "an unused colour stays whole"
            continue
        if high == TOP[colour]:
            assert colour not in kept, f"every {colour} card is used"
            continue
        low = high + 1
        expected_range = str(low) if low == TOP[colour] else f"{low}–{TOP[colour]}"
        assert kept[colour].range == expected_range
        assert kept[colour].values == tuple(range(low, TOP[colour] + 1))
    # Everything is accounted for: the deck in use plus what stays in the box is the box (R1).
    taken_cards = sum(len(row.values) for row in box_rows(page, "taken-title"))
    kept_cards = sum(len(row.values) for row in kept.values())
    assert taken_cards + kept_cards == 120


@pytest.mark.no_database_queries
@pytest.mark.parametrize(("players", "left_out"), [(7, 3), (8, 2)])
def test_cards_left_out_are_shown_to_everyone_then_set_aside(
    client: FlaskClient, players: int, left_out: int
) -> None:
    text = text_of(get_setup(client, f"players={players}"))

    assert (
        f"{left_out} cards are left over after dealing: show them to everyone, then set them "
        "aside for the round (R2)." in text
    )


@pytest.mark.no_database_queries
def test_with_six_players_or_fewer_no_card_is_left_out(client: FlaskClient) -> None:
    text = text_of(get_setup(client, "players=6"))

    assert "No card is left over: the deck is dealt out completely (R2)." in text


@pytest.mark.no_database_queries
@pytest.mark.parametrize("players", sorted(HAT_TRICK))
def test_hat_trick_setup_uses_red_blue_and_green_only(client: FlaskClient, players: int) -> None:
    low, hand, tricks = HAT_TRICK[players]
    page = get_setup(client, f"players={players}&variant=hat-trick")

    taken = box_rows(page, "taken-title")
    assert [row.colour for row in taken] == ["red", "blue", "green"]
    for row in taken:
        assert row.range == f"{low}–20"
        assert row.values == tuple(range(low, 21))
    kept = {row.colour: row for row in box_rows(page, "kept-title")}
    assert {"yellow", "brown", "violet"} <= set(kept)
    if low == 1:
        assert [kept[colour].range for colour in ("red", "blue", "green")] == ["0", "0", "0"]
    else:
        assert not {"red", "blue", "green"} & set(kept), "with 7 players every 0 is used"
    numbers = setup_numbers(page)
    assert numbers["Cards per hand"] == str(hand)
    assert numbers["Tricks per round"] == str(tricks)
    assert numbers["Cards left out"] == "0"
    text = text_of(page)
    assert f"{hand} − 1 = {tricks} tricks: every card but the last is played" in text
    assert "(R18)" in text


@pytest.mark.parametrize(
    ("query", "tricks", "sentence"),
    [
        ("players=5&variant=aggravated", 13, "15 − 2 = 13 tricks"),
        ("players=8&variant=aggravated", 12, "14 − 2 = 12 tricks"),
        ("players=5&variant=delayed", 15, "15 tricks: nothing is laid out"),
        ("players=8&variant=delayed", 14, "14 tricks: nothing is laid out"),
        ("players=4&variant=mild", 14, "15 − 1 = 14 tricks"),
    ],
)
@pytest.mark.no_database_queries
def test_tricks_per_round_follow_the_cards_laid_out(
    client: FlaskClient, query: str, tricks: int, sentence: str
) -> None:
    page = get_setup(client, query)

    assert setup_numbers(page)["Tricks per round"] == str(tricks)
    assert sentence in text_of(page)


@pytest.mark.no_database_queries
def test_custom_settings_are_read_from_the_query(client: FlaskClient) -> None:
    page = get_setup(client, "players=6&variant=custom&scoring=mild&colours=2&reveal=open")

    assert setup_numbers(page)["Tricks per round"] == "13"  # R14: two indicators each
    assert "Custom: mild scoring, 2 colours shown at once" in text_of(page)


@pytest.mark.no_database_queries
def test_settings_without_a_preset_mean_custom_as_in_the_api(client: FlaskClient) -> None:
    page = get_setup(client, "players=4&colours=2")

    assert setup_numbers(page)["Tricks per round"] == "13"


@pytest.mark.no_database_queries
def test_setup_without_a_query_shows_four_players_classic(client: FlaskClient) -> None:
    page = get_setup(client, "")

    assert [row.colour for row in box_rows(page, "taken-title")] == FIVE
    assert "4 players · Classic" in text_of(page)


@pytest.mark.no_database_queries
def test_every_chip_shows_colour_value_and_the_colours_shape(client: FlaskClient) -> None:
    page = get_setup(client, "players=4")

    chip = (
        '<span class="chip chip--small" data-colour="red" title="red 7"><span class="chip__value" '
        'aria-hidden="true">7</span><span class="chip__symbol" aria-hidden="true">♥</span>'
        '<span class="visually-hidden">red 7</span></span>'
    )
    assert chip in page


@pytest.mark.no_database_queries
def test_setup_links_to_the_resolver_with_the_same_trick_rule(client: FlaskClient) -> None:
    page = get_setup(client, "players=5&variant=reverse")

    assert 'href="/resolve?variant=reverse&amp;players=5"' in page


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("players=3&variant=hat-trick", "players", "Hat Trick is played by 4 to 7 players, not 3."),
        ("players=8&variant=hat-trick", "players", "Hat Trick is played by 4 to 7 players, not 8."),
        ("players=9", "players", "Not a valid choice."),
        ("players=many", "players", "Invalid Choice: could not coerce."),
        ("variant=poker", "variant", "Not a valid choice."),
        ("variant=custom&reveal=never", "reveal", "Not a valid choice."),
    ],
)
@pytest.mark.no_database_queries
def test_a_setup_that_cannot_be_played_is_explained_next_to_its_field(
    client: FlaskClient, query: str, field: str, message: str
) -> None:
    response = client.get(f"/setup?{query}")

    assert response.status_code == 400
    page = page_text(response)
    assert field_errors(page, field) == [message]
    assert 'aria-labelledby="taken-title"' not in page


# --------------------------------------------------------------------------------------------
# Inside a game


#: A quick round of a 3-player classic game: seat 0 takes all 14 tricks.
SEAT_0_TAKES_ALL = [
    {"marked": [{"colour": "red", "value": 0}], "tricks": 14, "marked_captured": []},
    {"marked": [{"colour": "blue", "value": 0}], "tricks": 0, "marked_captured": []},
    {"marked": [{"colour": "green", "value": 0}], "tricks": 0, "marked_captured": []},
]


def test_game_setup_shows_the_names_and_who_deals_and_leads_round_one(
    client: FlaskClient,
    table: Table,
) -> None:
    names = ["Ann", "Ben", "Cleo", "Dan", "Eve"]
    code = table.new_game(names, "classic", rounds=5, first_leader=2)["id"]

    response = client.get(f"/g/{code}/setup")

    assert response.status_code == 200
    page = page_text(response)
    text = text_of(page)
    assert "Ann, Ben, Cleo, Dan, Eve" in text
    assert "Round 1 of 5" in text
    # R3: the table named Cleo (seat 2) to lead; the dealer sits just before her.
    assert "Ben deals; Cleo leads the first trick (R3)." in text
    assert [row.colour for row in box_rows(page, "taken-title")] == FIVE
    assert setup_numbers(page)["Cards per hand"] == "15"
    assert f'href="/g/{code}/resolve"' in page


def test_game_setup_moves_the_deal_one_seat_clockwise_each_round(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], "classic", rounds=4)
    code = game["id"]
    assert "Cleo deals; Ann leads the first trick (R3)." in text_of(
        page_text(client.get(f"/g/{code}/setup"))
    )

    table.record(game, SEAT_0_TAKES_ALL)
    text = text_of(page_text(client.get(f"/g/{code}/setup")))

    assert "Round 2 of 4" in text
    assert "Ann deals; Ben leads the first trick (R3)." in text
    assert "This game has 4 rounds (R11)." in text


def test_game_setup_of_a_hat_trick_game_uses_its_deck(client: FlaskClient, table: Table) -> None:
    names = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus"]
    code = table.new_game(names, "hat-trick", rounds=5, first_leader=6)["id"]

    page = page_text(client.get(f"/g/{code}/setup"))

    rows = box_rows(page, "taken-title")
    assert [(row.colour, row.range) for row in rows] == [
        ("red", "0–20"),
        ("blue", "0–20"),
        ("green", "0–20"),
    ]
    assert setup_numbers(page)["Cards per hand"] == "9"
    assert "Finn deals; Gus leads the first trick (R3)." in text_of(page)


def test_a_finished_game_has_no_round_left_to_deal(client: FlaskClient, table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], "classic", rounds=1)
    code = game["id"]
    table.record(game, SEAT_0_TAKES_ALL)

    text = text_of(page_text(client.get(f"/g/{code}/setup")))

    assert "No round left to deal" in text
    assert "deals;" not in text


def test_setup_of_an_unknown_game_is_a_404_page_that_says_so(client: FlaskClient) -> None:
    response = client.get("/g/nosuchgame/setup")

    assert response.status_code == 404
    assert "There is no game at this address." in text_of(page_text(response))
