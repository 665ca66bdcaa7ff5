"""A whole classic game of four through the round pages, in quick entry (R10, R11, R3).

Every score below is computed by hand with R10: each card held scores +1, except the cards
of the player's cursed colour (indicator included), which score minus their value. In quick
entry a player holds tricks x 4 captured cards; only the cursed ones are named.
"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.games.round_helpers import (
    NAMES,
    assert_redirects_to_scoreboard,
    form_fields,
    game_state,
    page_of,
    quick_round,
    seat_fields,
    send,
    text_of,
)
from tests.table import Table

#: Per round: leader (R3), whether colours are marked first, each seat's entry, the scores.
ROUNDS = [
    # Ann: 4 tricks = 16 cards, red 2 and red 5 cursed: 14 - (4 + 2 + 5) = 3 (R10 example).
    # Ben: 16 cards, blue 0, 2, 8 cursed: 13 - (1 + 0 + 2 + 8) = 2 (R10's second example).
    # Cleo: 12 cards, none cursed: 12 - 7 = 5.  Dan: 12 cards, yellow 11: 11 - 11 - 0 = 0.
    (
        True,
        [
            {"marked": ["red-4"], "tricks": 4, "marked_captured": ["red-2", "red-5"]},
            {"marked": ["blue-1"], "tricks": 4, "marked_captured": ["blue-0", "blue-2", "blue-8"]},
            {"marked": ["green-7"], "tricks": 3, "marked_captured": []},
            {"marked": ["yellow-0"], "tricks": 3, "marked_captured": ["yellow-11"]},
        ],
        [3, 2, 5, 0],
    ),
    # Ann 19 - 13 = 6; Ben 6 - 20 = -14; Cleo 15 - 3 = 12; Dan 12 - 5 = 7.
    (
        False,
        [
            {"marked": ["brown-3"], "tricks": 5, "marked_captured": ["brown-10"]},
            {"marked": ["red-0"], "tricks": 2, "marked_captured": ["red-11", "red-9"]},
            {"marked": ["red-1"], "tricks": 4, "marked_captured": ["red-2"]},
            {"marked": ["green-5"], "tricks": 3, "marked_captured": []},
        ],
        [6, -14, 12, 7],
    ),
    # Ann 0 - 6 = -6; Ben 22 - 9 = 13; Cleo 14 - 21 = -7; Dan 15 - 9 = 6.
    (
        True,
        [
            {"marked": ["blue-6"], "tricks": 0, "marked_captured": []},
            {"marked": ["yellow-2"], "tricks": 6, "marked_captured": ["yellow-3", "yellow-4"]},
            {"marked": ["green-0"], "tricks": 4, "marked_captured": ["green-11", "green-10"]},
            {"marked": ["brown-8"], "tricks": 4, "marked_captured": ["brown-1"]},
        ],
        [-6, 13, -7, 6],
    ),
    # Ann 12 - 2 = 10; Ben 11 - 10 = 1; Cleo 14 - 21 = -7; Dan 16 - 11 = 5.
    (
        False,
        [
            {"marked": ["green-2"], "tricks": 3, "marked_captured": []},
            {"marked": ["green-9"], "tricks": 3, "marked_captured": ["green-1"]},
            {"marked": ["red-6"], "tricks": 4, "marked_captured": ["red-7", "red-8"]},
            {"marked": ["blue-11"], "tricks": 4, "marked_captured": []},
        ],
        [10, 1, -7, 5],
    ),
    # Ann 16 - 5 = 11; Ben 15 - 5 = 10; Cleo 11 - 19 = -8; Dan 11 - 13 = -2.
    (
        True,
        [
            {"marked": ["yellow-5"], "tricks": 4, "marked_captured": []},
            {"marked": ["brown-0"], "tricks": 4, "marked_captured": ["brown-5"]},
            {"marked": ["blue-9"], "tricks": 3, "marked_captured": ["blue-10"]},
            {"marked": ["red-10"], "tricks": 3, "marked_captured": ["red-3"]},
        ],
        [11, 10, -8, -2],
    ),
]

TOTALS_AFTER = [[3, 2, 5, 0], [9, -12, 17, 7], [3, 1, 10, 13], [13, 2, 3, 18], [24, 12, -5, 16]]


def mark_colours(client: FlaskClient, code: str, seats: list[dict[str, object]]) -> None:
    """The mark-colours page at the start of a round: each seat's indicator."""
    url = f"/g/{code}/rounds/mark"
    page = page_of(client, url)
    changes = [seat_fields(seat, marked=entry["marked"]) for seat, entry in enumerate(seats)]
    assert_redirects_to_scoreboard(send(client, url, page, changes, action=""), code)


def play_round(client: FlaskClient, code: str, marked_first: bool, seats: list[dict]) -> None:
    """One round as the table enters it: colours marked first (then pre-filled on the record
    page) or everything on the record page at the end."""
    url = f"/g/{code}/rounds/record"
    if marked_first:
        mark_colours(client, code, seats)
        page = page_of(client, url)
        for seat, entry in enumerate(seats):
            assert form_fields(page)[f"s{seat}-marked"] == entry["marked"]
        entries = [{key: v for key, v in entry.items() if key != "marked"} for entry in seats]
        response = quick_round(client, url, entries, page=page)
    else:
        response = quick_round(client, url, seats)
    assert_redirects_to_scoreboard(response, code)


def test_a_whole_classic_game_in_quick_entry_scores_every_round_by_r10(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    for number, (marked_first, seats, scores) in enumerate(ROUNDS, start=1):
        record_page = text_of(page_of(client, f"/g/{code}/rounds/record"))
        leader = ["Ann", "Ben", "Cleo", "Dan", "Ann"][number - 1]
        assert f"Record round {number}" in record_page
        assert f"{leader} led the first trick." in record_page  # R3: the lead moves clockwise
        play_round(client, code, marked_first, seats)
        state = game_state(client, code)
        assert state["rounds"][number - 1]["scores"] == scores
        assert state["rounds"][number - 1]["leader"] == (number - 1) % 4
        assert state["totals"] == TOTALS_AFTER[number - 1]
    state = game_state(client, code)
    assert state["status"] == "finished"
    assert state["winners"] == [0]  # Ann, 24 (R11)
    assert state["rounds"][0]["marked"][0] == [{"colour": "red", "value": 4}]


def test_the_record_page_of_a_finished_game_says_every_round_is_in(
    client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=1, edit_here=True)["id"]
    play_round(client, code, True, ROUNDS[0][1])
    response = client.get(f"/g/{code}/rounds/record")
    assert response.status_code == 409
    assert "All 1 rounds of this game are recorded" in text_of(response.get_data(as_text=True))
    assert client.get(f"/g/{code}/rounds/mark").status_code == 409


def test_correcting_round_two_recomputes_its_scores_the_totals_and_the_winners(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "classic", rounds=5, edit_here=True)["id"]
    for marked_first, seats, _scores in ROUNDS:
        play_round(client, code, marked_first, seats)
    url = f"/g/{code}/rounds/2"
    page = page_of(client, url)
    assert "Correct round 2" in text_of(page)
    shown = form_fields(page)
    assert shown["s1-marked"] == ["red-0"]
    assert shown["s1-tricks"] == ["2"]
    assert sorted(shown["s1-marked_captured"]) == ["red-11", "red-9"]
    assert shown["s2-marked_captured"] == ["red-2"]

    # Red 11 was in Cleo's tricks, not Ben's: Ben 7 - (0 + 9) = -2; Cleo 14 - (1 + 2 + 11) = 0.
    changes = [
        seat_fields(1, marked_captured=["red-9"]),
        seat_fields(2, marked_captured=["red-2", "red-11"]),
    ]
    assert_redirects_to_scoreboard(send(client, url, page, changes), code)
    state = game_state(client, code)
    assert state["rounds"][1]["scores"] == [6, -2, 0, 7]
    assert [r["scores"] for r in state["rounds"][2:]] == [scores for _, _, scores in ROUNDS[2:]]
    assert state["totals"] == [24, 24, -17, 16]
    assert state["winners"] == [0, 1]  # Ann and Ben share the win (R11)
    assert len(state["rounds"]) == 5

    corrected = form_fields(page_of(client, url))
    assert corrected["s1-marked_captured"] == ["red-9"]
    assert sorted(corrected["s2-marked_captured"]) == ["red-11", "red-2"]
