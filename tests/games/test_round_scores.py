"""A scored round's page: every player's score and the line that explains it (R10, R12-R16,
R22), read by any phone with the game's link; the scoreboard links each scored round to it.

The expected lines are written here in English from the rules' terms (``explain_round``), so
the page must say what the rules give, term by term, in the words the table reads.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import services
from companion.data.models import db
from companion.rules import (
    DelayedEntry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
    SeatExplanation,
    TermKind,
    explain_round,
    score_round,
    table_setup,
    variant_from_settings,
    variant_named,
)
from companion.rules.errors import HatTrickError
from scripts.page_reader import read_page
from tests.rules.helpers import (
    BLUE,
    GREEN,
    RED,
    complete_round,
    cs,
    play_classic_round,
    play_hat_trick_round,
)
from tests.table import Table, auth

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
MINUS = "\u2212"


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else f"{MINUS}{-number}" if number < 0 else "0"


def card_words(counted) -> str:
    words = f"{counted.card.colour.value} {counted.card.value}"
    return f"{words} (indicator)" if counted.indicator else words


def english_term(term) -> str:
    points = signed(term.points)
    if term.kind is TermKind.OTHER_CARDS:
        if term.count == 1:
            return f"{points} for 1 card of another colour"
        return f"{points} for {term.count} cards of other colours"
    if term.kind is TermKind.MARKED_CARDS:
        return f"{points} for " + ", ".join(card_words(counted) for counted in term.cards)
    if term.kind is TermKind.NOTHING_CAPTURED:
        return f"{points}: captured nothing"
    if term.kind is TermKind.PASS_CARDS:
        return f"{points} for {term.count} pass card" + ("s" if term.count != 1 else "")
    return f"{points} {term.colour.value}"


def english_line(explained: SeatExplanation) -> str:
    line = "; ".join(english_term(term) for term in explained.terms)
    choice = explained.choice
    if choice is None:
        return line
    colours = " + ".join(colour.value for colour in choice.colours)
    if choice.by_table:
        proposed = " + ".join(colour.value for colour in choice.proposed.colours)
        why = (
            f"Chosen by the table: {colours}, over the proposal {proposed}, "
            f"which would have scored {signed(choice.proposed.score)}."
        )
    elif choice.next_best is None:
        why = f"Chosen: {colours}, the only choice."
    elif choice.next_best.score == choice.proposed.score:
        tied = [colours, *(" + ".join(c.value for c in o.colours) for o in choice.equally_good)]
        choices = " or ".join(tied) if len(tied) == 2 else ", ".join(tied[:-1]) + f", or {tied[-1]}"
        why = f"Chosen: {colours} ({choices}, equally good: {signed(choice.proposed.score)})."
    else:
        other = " + ".join(colour.value for colour in choice.next_best.colours)
        why = (
            f"Chosen: {colours}, the best choice "
            f"(next best: {other}, {signed(choice.next_best.score)})."
        )
    return f"{line}. {why}"


def page_lines(client: FlaskClient, code: str, number: int) -> list[tuple[str, str, str]]:
    """(name, score, line) per player, as the round page shows them."""
    answer = client.get(f"/g/{code}/rounds/{number}/scores")
    assert answer.status_code == 200
    page = read_page(answer.get_data(as_text=True))
    rows = []
    for item in page.find_all("li", class_="round-reason"):
        line = item.find(data_explanation=item.get("data-seat"))
        rows.append(
            (
                item.find(class_="round-reason__name").text,
                item.find(class_="round-reason__score").text,
                line.text,
            )
        )
    return rows


def assert_page_explains(
    client: FlaskClient, game: dict[str, Any], setup, entries, number: int = 1
) -> list[SeatExplanation]:
    explained = list(explain_round(setup, entries))
    expected = [
        (name, signed(mine.score), english_line(mine))
        for name, mine in zip(game["players"], explained, strict=True)
    ]
    assert page_lines(client, game["id"], number) == expected
    return explained


def test_a_classic_round_explains_the_r10_example(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, "classic")
    setup = table_setup(4, variant_named("classic"))
    entries = complete_round(setup, {0: QuickEntry(cs("red 4"), 4, cs("red 2, red 5"))})
    table.record(game, entries)
    explained = assert_page_explains(client, game, setup, entries)
    assert explained[0].score == 3  # R10: 14 - (4 + 2 + 5)
    assert page_lines(client, game["id"], 1)[0][2] == (
        f"+14 for 14 cards of other colours; {MINUS}11 for red 4 (indicator), red 2, red 5"
    )


def test_a_mild_round_played_in_full_explains_every_seat(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, "mild")
    setup = table_setup(4, variant_named("mild"))
    played = play_classic_round(setup, random.Random(7))
    entries = [
        FullEntry(marked, tuple(cards))
        for marked, cards in zip(played.indicators, played.captured, strict=True)
    ]
    table.record(game, entries)
    assert_page_explains(client, game, setup, entries)


def test_a_reverse_aggravated_round_explains_two_lucky_colours(
    client: FlaskClient, table: Table
) -> None:
    variant = {"scoring": "reverse", "colours": 2, "reveal": "open"}
    game = table.new_game(NAMES, variant)
    setup = table_setup(4, variant_from_settings("reverse", 2, "open"))
    seat = QuickEntry(cs("red 4, blue 2"), 3, cs("blue 9, red 1"))
    entries = complete_round(setup, {0: seat})
    table.record(game, entries)
    explained = assert_page_explains(client, game, setup, entries)
    assert [term.kind for term in explained[0].terms] == [
        TermKind.OTHER_CARDS,
        TermKind.MARKED_CARDS,
        TermKind.MARKED_CARDS,
    ]


def test_a_delayed_round_says_which_colour_was_chosen_and_why(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(NAMES, "delayed")
    setup = table_setup(4, variant_named("delayed"))
    captured = cs("red 9, red 8, blue 1, green 0")
    entries = complete_round(setup, {0: DelayedEntry(captured), 1: DelayedEntry(())})
    table.record(game, entries)
    explained = assert_page_explains(client, game, setup, entries)
    assert explained[0].choice is not None and explained[0].choice.colours == (GREEN,)
    assert explained[1].terms[0].kind is TermKind.NOTHING_CAPTURED
    # The table overrides the proposal: the line says what the proposal would have scored.
    entries[0] = DelayedEntry(captured, (BLUE,))
    table.correct(game, 1, entries)
    explained = assert_page_explains(client, game, setup, entries)
    assert explained[0].choice.by_table


def test_a_delayed_choice_that_ties_says_the_choices_are_equally_good(
    client: FlaskClient, table: Table
) -> None:
    """R16: red and blue both score 0; the line names no "next best" of the same score."""
    game = table.new_game(NAMES, "delayed")
    setup = table_setup(4, variant_named("delayed"))
    captured = cs("red 3, blue 3, green 9, yellow 8")
    entries = complete_round(setup, {0: DelayedEntry(captured)})
    table.record(game, entries)
    assert_page_explains(client, game, setup, entries)
    line = page_lines(client, game["id"], 1)[0][2]
    assert line.endswith("Chosen: red (red or blue, equally good: 0).")
    assert "next best" not in line


@pytest.mark.parametrize("quick", [True, False], ids=["quick", "full"])
def test_a_hat_trick_round_explains_colours_and_passes(
    client: FlaskClient, table: Table, quick: bool
) -> None:
    game = table.new_game(NAMES, "hat-trick")
    setup = table_setup(4, variant_named("hat-trick"))
    played = play_hat_trick_round(setup, random.Random(11))
    pairs = list(zip(played.face_up, played.face_down, strict=True))
    if quick:
        entries = [
            HatTrickQuickEntry(dict(Counter(card.colour for card in up)), len(down))
            for up, down in pairs
        ]
    else:
        entries = [HatTrickFullEntry(tuple(up), tuple(down)) for up, down in pairs]
    table.record(game, entries)
    assert_page_explains(client, game, setup, entries)


def test_the_rulebook_hat_trick_example_reads_9_minus_2_minus_4_minus_2(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(NAMES, "hat-trick")
    entries = [
        HatTrickQuickEntry({RED: 9, BLUE: 2, GREEN: 4}, 1),
        HatTrickQuickEntry({RED: 11, BLUE: 3}, 0),
        HatTrickQuickEntry({BLUE: 15}, 0),
        HatTrickQuickEntry({GREEN: 10}, 1),
    ]
    table.record(game, entries)
    first = page_lines(client, game["id"], 1)[0]
    assert first == (
        "Ann",
        "+1",
        f"+9 red; {MINUS}2 blue; {MINUS}4 green; {MINUS}2 for 1 pass card",
    )


def test_a_phone_without_edit_rights_reads_the_page_in_its_language(
    table: Table,
) -> None:
    game = table.new_game(NAMES, "classic")
    setup = table_setup(4, variant_named("classic"))
    table.record(game, complete_round(setup, {0: QuickEntry(cs("red 4"), 4, cs("red 2"))}))
    phone = table.phone()
    english = page_lines(phone, game["id"], 1)
    phone.get("/lang/de")
    german = page_lines(phone, game["id"], 1)
    assert [row[:2] for row in german] == [row[:2] for row in english]
    assert german[0][2] != english[0][2]
    assert "Rot 4" in german[0][2] and "red" not in german[0][2]


def test_only_scored_rounds_have_a_page(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, "classic", rounds=2)
    assert client.get(f"/g/{game['id']}/rounds/1/scores").status_code == 404
    setup = table_setup(4, variant_named("classic"))
    table.record(game, complete_round(setup, {}))
    assert client.get(f"/g/{game['id']}/rounds/1/scores").status_code == 200
    live = client.post(
        f"/api/v1/games/{game['id']}/rounds/live",
        json={
            "version": game["version"],
            "marked": [[c.as_json()] for c in cs("red 1, blue 1, green 1, yellow 1")],
        },
        headers=auth(game),
    )
    assert live.status_code == 201, live.json
    assert table.state(game)["rounds"][1]["status"] == "playing"
    assert client.get(f"/g/{game['id']}/rounds/2/scores").status_code == 404  # being played
    assert client.get(f"/g/{game['id']}/rounds/3/scores").status_code == 404
    assert client.get("/g/nosuchgame/rounds/1/scores").status_code == 404


def test_the_page_steps_to_the_other_scored_rounds(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, "classic", rounds=3)
    setup = table_setup(4, variant_named("classic"))
    for _ in range(3):
        table.record(game, complete_round(setup, {}))
    page = read_page(client.get(f"/g/{game['id']}/rounds/2/scores").get_data(as_text=True))
    steps = page.find("nav", class_="round-steps")
    assert steps.find("a", rel="prev").get("href") == f"/g/{game['id']}/rounds/1/scores"
    assert steps.find("a", rel="next").get("href") == f"/g/{game['id']}/rounds/3/scores"
    first = read_page(client.get(f"/g/{game['id']}/rounds/1/scores").get_data(as_text=True))
    assert first.find("nav", class_="round-steps").find_all("a", rel="prev") == []


def test_a_stored_hat_trick_round_that_breaks_c5_reads_back_and_says_so(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """A round saved before C5's limits from R19 and R20 were checked (30 passes where 14
    tricks of 4 allow 28) still reads back as scored; its page says what it breaks."""
    game = table.new_game(NAMES, "hat-trick")
    setup = table_setup(4, variant_named("hat-trick"))
    played = play_hat_trick_round(setup, random.Random(11))
    table.record(
        game,
        [
            HatTrickFullEntry(tuple(up), tuple(down))
            for up, down in zip(played.face_up, played.face_down, strict=True)
        ],
    )
    first = client.get(f"/g/{game['id']}/rounds/1/scores").get_data(as_text=True)
    assert read_page(first).find_all(data_round_breaks=True) == []
    broken = [HatTrickQuickEntry({}, 10)] * 3 + [HatTrickQuickEntry({RED: 13, BLUE: 13}, 0)]
    with pytest.raises(HatTrickError):
        score_round(setup, broken)
    scored = score_round(setup, broken, stored=True)
    with app.app_context():
        round_ = services.round_of(services.get_game(game["id"]), 1)
        round_.entries = [entry.as_json() for entry in broken]
        for result, seat in zip(round_.results, scored.seats, strict=True):
            result.score = seat.score
        db.session.commit()
    answer = client.get(f"/g/{game['id']}/rounds/1/scores")
    assert answer.status_code == 200
    note = read_page(answer.get_data(as_text=True)).find(data_round_breaks=True)
    words = note.text
    assert "C5" in words and "Ann, Ben, Cleo pass 30 times" in words and "Dan" not in words
    assert [row[1] for row in page_lines(client, game["id"], 1)] == [
        signed(score) for score in scored.scores
    ]
    state = client.get(f"/api/v1/games/{game['id']}").json
    assert state["rounds"][0]["scores"] == scored.scores
    assert state["rounds"][0]["explanations"] is not None
