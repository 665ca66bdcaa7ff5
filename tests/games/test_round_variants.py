"""One round of each variant through the round pages, scores computed by hand:
mild (R12), reverse (R13), aggravated (R14), hazy (R15), delayed (R16), Hat Trick (R22),
and the classic game entered card by card."""

from __future__ import annotations

from flask.testing import FlaskClient

from scripts.page_reader import read_page
from tests.games.round_helpers import (
    MINUS,
    NAMES,
    assert_redirects_to_scoreboard,
    form_fields,
    game_state,
    page_of,
    quick_round,
    seat_fields,
    seat_text,
    send,
    text_of,
    top_errors,
)
from tests.table import Table


def record(client: FlaskClient, code: str, seats: list[dict], mode: str = "") -> list[int]:
    """Record one round on the record page and answer the stored scores."""
    url = f"/g/{code}/rounds/record" + (f"?mode={mode}" if mode else "")
    assert_redirects_to_scoreboard(quick_round(client, url, seats), code)
    scores: list[int] = game_state(client, code)["rounds"][-1]["scores"]
    return scores


def test_mild_scores_five_off_per_cursed_card_and_one_per_other_card(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "mild", rounds=5, edit_here=True)["id"]
    seats = [
        # 3 cursed cards (indicator, red 2, red 5): -15; 14 others: -1.
        {"marked": ["red-4"], "tricks": 4, "marked_captured": ["red-2", "red-5"]},
        {"marked": ["blue-1"], "tricks": 4, "marked_captured": []},  # -5 + 16 = 11
        {"marked": ["green-0"], "tricks": 3, "marked_captured": ["green-5"]},  # -10 + 11 = 1
        {"marked": ["yellow-7"], "tricks": 3, "marked_captured": []},  # -5 + 12 = 7
    ]
    assert record(client, code, seats) == [-1, 11, 1, 7]  # R12: a 0 costs 5 too


def test_reverse_scores_the_lucky_values_and_minus_one_per_other_card(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "reverse", rounds=5, edit_here=True)["id"]
    seats = [
        {"marked": ["red-4"], "tricks": 4, "marked_captured": ["red-2", "red-5"]},  # 11 - 14
        {"marked": ["blue-10"], "tricks": 5, "marked_captured": ["blue-11", "blue-9"]},  # 30 - 18
        {"marked": ["green-3"], "tricks": 2, "marked_captured": []},  # 3 - 8
        {"marked": ["yellow-8"], "tricks": 3, "marked_captured": ["yellow-6"]},  # 14 - 11
    ]
    page = text_of(page_of(client, f"/g/{code}/rounds/record"))
    assert "14 tricks in this round." in page
    assert record(client, code, seats) == [-3, 12, -5, 3]  # R13


def test_aggravated_marks_two_colours_with_two_indicators_over_thirteen_tricks(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "aggravated", rounds=5, edit_here=True)["id"]
    mark_url = f"/g/{code}/rounds/mark"
    mark_page = page_of(client, mark_url)
    assert "two indicator cards of two different colours" in text_of(mark_page)
    chip = read_page(mark_page).find("input", name="s0-marked", value="red-4")
    assert chip.get("type") == "checkbox"  # two chips may be tapped
    indicators = [["red-4", "blue-2"], ["green-0", "yellow-3"], ["brown-6", "red-7"]]
    indicators.append(["blue-11", "green-1"])
    changes = [seat_fields(seat, marked=cards) for seat, cards in enumerate(indicators)]
    assert_redirects_to_scoreboard(send(client, mark_url, mark_page, changes, ""), code)

    record_url = f"/g/{code}/rounds/record"
    page = page_of(client, record_url)
    assert "13 tricks in this round." in text_of(page)  # R14: one trick fewer
    assert form_fields(page)["s0-marked"] == ["red-4", "blue-2"]
    seats = [
        {"tricks": 4, "marked_captured": ["red-1", "blue-5"]},  # 14 - (4 + 2 + 1 + 5) = 2
        {"tricks": 3, "marked_captured": ["yellow-9"]},  # 11 - (0 + 3 + 9) = -1
        {"tricks": 3, "marked_captured": []},  # 12 - (6 + 7) = -1
        {"tricks": 3, "marked_captured": ["green-2", "blue-0"]},  # 10 - (11 + 1 + 2 + 0) = -4
    ]
    assert_redirects_to_scoreboard(quick_round(client, record_url, seats, page=page), code)
    state = game_state(client, code)
    assert state["rounds"][0]["scores"] == [2, -1, -1, -4]
    assert state["rounds"][0]["marked"][0] == [
        {"colour": "red", "value": 4},
        {"colour": "blue", "value": 2},
    ]


def test_hazy_marks_stay_off_the_scoreboard_until_the_round_is_scored(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "hazy", rounds=5, edit_here=True)["id"]
    mark_url = f"/g/{code}/rounds/mark"
    mark_page = page_of(client, mark_url)
    assert "The scoreboard shows nobody’s marked colour until this round is scored" in text_of(
        mark_page
    )
    indicators = ["red-4", "blue-1", "green-7", "yellow-0"]
    changes = [seat_fields(seat, marked=[card]) for seat, card in enumerate(indicators)]
    assert_redirects_to_scoreboard(send(client, mark_url, mark_page, changes, ""), code)

    assert game_state(client, code)["rounds"][0]["marked"] is None  # R15
    for url in (f"/g/{code}", f"/g/{code}/view"):
        board = page_of(client, url)  # neither shown nor said (a chip's label is an attribute)
        assert "red 4" not in board and "blue 1" not in board

    record_url = f"/g/{code}/rounds/record"
    gate = page_of(client, record_url)
    assert "the indicators are still face down" in text_of(gate)
    assert 'name="s0-marked"' not in gate and "red-4" not in gate
    page = page_of(client, f"{record_url}?reveal=1")
    assert form_fields(page)["s0-marked"] == ["red-4"]
    seats = [
        {"tricks": 4, "marked_captured": ["red-2", "red-5"]},
        {"tricks": 4, "marked_captured": ["blue-0", "blue-2", "blue-8"]},
        {"tricks": 3, "marked_captured": []},
        {"tricks": 3, "marked_captured": ["yellow-11"]},
    ]
    url = f"{record_url}?reveal=1"
    assert_redirects_to_scoreboard(quick_round(client, url, seats, page=page), code)

    state = game_state(client, code)
    assert state["rounds"][0]["scores"] == [3, 2, 5, 0]  # scoring unchanged (R15)
    assert state["rounds"][0]["marked"][0] == [{"colour": "red", "value": 4}]
    assert 'aria-label="red 4"' in page_of(client, f"/g/{code}")


#: A delayed round of four: the whole deck of 60 cards over 15 tricks (R16).
DELAYED_CAPTURES = [
    # red 0-5 (15) and blue 0-9 (45): red scores 10 - 15 = -5, blue 6 - 45 = -39.
    [f"red-{v}" for v in range(6)] + [f"blue-{v}" for v in range(10)],
    # red 6-11 (51) and green 0-9 (45): green is best, 6 - 45 = -39.
    [f"red-{v}" for v in range(6, 12)] + [f"green-{v}" for v in range(10)],
    # blue 10, 11 and green 10, 11 (21 each), yellow 0-7 (28): blue, first of the best, -11.
    ["blue-10", "blue-11", "green-10", "green-11"] + [f"yellow-{v}" for v in range(8)],
    # brown 0-11 (66), yellow 8-11 (38): yellow, 12 - 38 = -26.
    [f"brown-{v}" for v in range(12)] + [f"yellow-{v}" for v in range(8, 12)],
]


def test_delayed_proposes_the_best_colour_after_a_check_and_applies_an_override(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(NAMES, "delayed", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/record"
    assert client.get(f"/g/{code}/rounds/mark").headers["Location"] == url  # nothing laid out
    page = page_of(client, url)
    assert "15 tricks in this round." in text_of(page)  # R16
    assert "Proposed" not in text_of(page)
    seats = [{"captured": cards} for cards in DELAYED_CAPTURES]
    checked = quick_round(client, url, seats, action="check", page=page)
    assert checked.status_code == 200
    checked_page = checked.get_data(as_text=True)
    assert "Proposed: red, scoring −5" in seat_text(checked_page, 0)
    assert "Proposed: green, scoring −39" in seat_text(checked_page, 1)
    assert "Proposed: blue, scoring −11" in seat_text(checked_page, 2)
    assert "Proposed: yellow, scoring −26" in seat_text(checked_page, 3)
    assert '<option value="blue">blue (−39)</option>' in checked_page
    assert not top_errors(checked_page)
    assert game_state(client, code)["rounds"] == []  # a check saves nothing

    override = [seat_fields(0, choose="blue")]
    assert_redirects_to_scoreboard(send(client, url, checked_page, override), code)
    state = game_state(client, code)
    assert state["rounds"][0]["scores"] == [-39, -39, -11, -26]
    corrected = form_fields(page_of(client, f"/g/{code}/rounds/1"))
    assert corrected["s0-choose"] == ["blue"]
    assert corrected["s1-choose"] == [""]


def test_hat_trick_quick_entry_counts_colours_and_passes(client: FlaskClient, table: Table) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    url = f"/g/{code}/rounds/record"
    assert client.get(f"/g/{code}/rounds/mark").headers["Location"] == url
    page = page_of(client, url)
    assert "Cards accounted for: 0 of 56" in text_of(page)  # C5: 14 tricks of 4 plays
    seats = [
        {"red": 9, "blue": 2, "green": 4, "passed": 1},  # 9 - 2 - 4 - 2 = 1 (R22 example)
        {"red": 3, "blue": 10, "green": 1, "passed": 0},  # 10 - 3 - 1 = 6
        {"red": 5, "blue": 3, "green": 8, "passed": 2},  # 8 - 5 - 3 - 4 = -4
        {"red": 2, "blue": 4, "green": 0, "passed": 2},  # 4 - 2 - 4 = -2
    ]
    checked = quick_round(client, url, seats, action="check", page=page).get_data(as_text=True)
    assert "Cards accounted for: 56 of 56 · all accounted for" in text_of(checked)
    assert "Ann +1" in seat_text(checked, 0).replace(" opens the round", "")
    assert f"Cleo {MINUS}4" in seat_text(checked, 2)
    assert record(client, code, seats) == [1, 6, -4, -2]


def test_hat_trick_a_seat_that_captured_nothing_has_no_scoring_colour(
    client: FlaskClient, table: Table
) -> None:
    """R22: a seat with only pass cards has no face-up card, so no colour scores: the API's
    ``colours`` is empty and the scoreboard shows no colour symbol in its cell."""
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    seats = [
        {"red": 9, "blue": 2, "green": 4, "passed": 1},  # 9 - 2 - 4 - 2 = 1
        {"red": 3, "blue": 10, "green": 7, "passed": 0},  # 10 - 3 - 7 = 0
        {"red": 5, "blue": 3, "green": 8, "passed": 2},  # 8 - 5 - 3 - 4 = -4
        {"red": 0, "blue": 0, "green": 0, "passed": 2},  # nothing face up: -4
    ]
    assert record(client, code, seats) == [1, 0, -4, -4]
    answer = client.post(
        "/api/v1/rounds/score",
        json={
            "variant": "hat-trick",
            "players": 4,
            "entries": [
                {"counts": {c: seat[c] for c in ("red", "blue", "green")}, "passed": seat["passed"]}
                for seat in seats
            ],
        },
    )
    assert [entry["colours"] for entry in answer.json["entries"]] == [
        ["red"],
        ["blue"],
        ["green"],
        [],
    ]
    board = read_page(page_of(client, f"/g/{code}"))
    row = board.find("tbody").find("tr")
    chips = [len(cell.find_all(class_="chip--mark")) for cell in row.find_all("td")]
    assert chips == [1, 1, 1, 0]


def test_hat_trick_full_entry_scores_face_up_cards_and_pass_cards(
    client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]

    def run(colour: str, low: int, high: int) -> list[str]:
        return [f"{colour}-{value}" for value in range(low, high + 1)]

    seats = [
        {
            "captured": run("red", 1, 9) + run("blue", 1, 2) + run("green", 1, 4),
            "passed": ["green-20"],
        },
        {"captured": run("red", 10, 12) + run("blue", 3, 12) + ["green-5"], "passed": []},
        {
            "captured": run("red", 13, 17) + run("blue", 13, 15) + run("green", 6, 13),
            "passed": ["blue-20", "green-19"],
        },
        {"captured": run("red", 18, 19) + run("blue", 16, 19), "passed": ["red-20", "green-18"]},
    ]
    page = page_of(client, f"/g/{code}/rounds/record?mode=full")
    assert 'name="s0-passed"' in page and "Pass cards (face down)" in text_of(page)
    assert record(client, code, seats, mode="full") == [1, 6, -4, -2]
    stored = form_fields(page_of(client, f"/g/{code}/rounds/1"))
    assert stored["s3-passed"] == ["red-20", "green-18"]


def test_the_classic_game_entered_card_by_card_scores_like_quick_entry(
    client: FlaskClient,
    table: Table,
) -> None:
    code = table.new_game(["Ann", "Ben", "Cleo"], "classic", rounds=5, edit_here=True)["id"]
    # Three players: 0-8 in five colours (45 cards), 14 tricks of 3 cards = 42 captured.
    deck = [f"{c}-{v}" for c in ("green", "brown", "red", "blue", "yellow") for v in range(9)]
    indicators = ["red-4", "blue-1", "green-7"]
    rest = [card for card in deck if card not in indicators]
    ann = ["red-2", "red-5", "brown-8"] + [f"yellow-{value}" for value in range(9)]
    ben = [f"brown-{value}" for value in range(8)] + ["blue-0", "blue-2", "blue-3", "blue-4"]
    cleo = [card for card in rest if card not in ann and card not in ben]
    assert (len(ann), len(ben), len(cleo)) == (12, 12, 18)
    seats = [
        {"marked": ["red-4"], "captured": ann},  # 4 tricks: 10 - (4 + 2 + 5) = -1
        {"marked": ["blue-1"], "captured": ben},  # blue 0, 2, 3, 4 cursed: 8 - 9 - 1 = -2
        {"marked": ["green-7"], "captured": cleo},  # green 0-6, 8 cursed: 10 - 29 - 7 = -26
    ]
    page = page_of(client, f"/g/{code}/rounds/record?mode=full")
    assert "Every card" in text_of(page) and 'name="s0-captured"' in page
    assert record(client, code, seats, mode="full") == [-1, -2, -26]
    assert game_state(client, code)["rounds"][0]["mode"] == "full"
