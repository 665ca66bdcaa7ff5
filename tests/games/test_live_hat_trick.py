"""A Hat Trick round played live through the pages: piles, passes and the next leader
(R17-R22), every play checked as it is entered (R19, C6)."""

from __future__ import annotations

import random
from collections import Counter

from flask import Flask
from flask.testing import FlaskClient

from companion.read_models.messages import render_message
from companion.rules import PRESETS, HatTrickFullEntry, score_round, table_setup
from companion.rules.hat_trick import Play, resolve_hat_trick
from tests.games.round_helpers import database, signed, text_of
from tests.games.test_live_pages import (
    NAMES,
    chips,
    form_ending,
    label,
    play_cards,
    refusal_of,
    score_rows,
    seat_rows,
    section,
    slots,
    start_live,
    state,
    tap,
    tap_and_follow,
)
from tests.rules.helpers import c, expected_next_leader, play_hat_trick_round
from tests.table import Table


def open_hat_trick(table: Table, first_leader: int = 0) -> tuple[str, str]:
    """A Hat Trick game whose round 1 is live; answers its code and the live page."""
    game = table.new_game(NAMES, "hat-trick", rounds=5, first_leader=first_leader, edit_here=True)
    code = game["id"]
    return code, start_live(table.client, code)


def pass_text(app: Flask, plays: list[Play], order: list[str]) -> str:
    """The rules' reason for the piles and next leader of ``plays``, as a page says it: it
    names players by their place in the trick, ``order`` from the leader."""
    with app.test_request_context():
        return render_message(resolve_hat_trick(plays).reason, order)


def test_a_whole_hat_trick_round_with_passes_scores_like_a_full_entry(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    setup = table_setup(4, PRESETS["hat-trick"])
    played = play_hat_trick_round(setup, random.Random(11))
    assert any(play.passed for _, plays in played.tricks for play in plays), "a pass is played"
    game = table.new_game(
        NAMES, "hat-trick", rounds=5, first_leader=played.tricks[0][0], edit_here=True
    )
    code = game["id"]
    live = start_live(client, code)
    for number, (leader, plays) in enumerate(played.tricks, start=1):
        order = [NAMES[(leader + i) % 4] for i in range(4)]
        assert [player for player, _ in slots(live)] == order
        for index, play in enumerate(plays):
            live = tap_and_follow(client, live, play.card, passed=play.passed)
            so_far = list(plays[: index + 1])
            if index < 3:
                leads = order[expected_next_leader(so_far)]
                assert f"So far {leads} would lead the next trick." in text_of(live)
                assert pass_text(app, so_far, order) in text_of(live)
        taken = section(live, "live-last")
        assert taken.startswith(f"Trick {number} ")
        outcome = resolve_hat_trick(plays)
        for pile in outcome.piles:
            taker, top = order[pile.winner], label(plays[pile.winner].card)
            assert f"{taker} takes this pile with {top} (R20)." in taken
        for index in outcome.passes:
            assert f"{order[index]}, showing {label(plays[index].card)}" in taken  # R19
        following = order[expected_next_leader(list(plays))]  # R21, from the oracle
        if number < setup.tricks_per_round:
            assert f"{following} leads the next trick." in taken
            assert played.tricks[number][0] == NAMES.index(following)
            assert f"{following} leads: tap the card they play." in text_of(live)
        else:  # the round is over: nobody leads next
            assert "leads the next trick" not in taken
    words = text_of(live)
    assert "Round 1 is over" in words and "set aside, unscored (R18)" in words
    expected = score_round(
        setup,
        [
            HatTrickFullEntry(tuple(up), tuple(down))
            for up, down in zip(played.face_up, played.face_down, strict=True)
        ],
    ).scores
    assert state(client, code)["rounds"][0]["scores"] == expected
    assert score_rows(live) == {
        name: (signed(score), signed(score)) for name, score in zip(NAMES, expected, strict=True)
    }
    rows = seat_rows(live)
    for seat, name in enumerate(NAMES):
        held = Counter(card.colour.value for card in played.face_up[seat])
        counts = [str(held[colour]) for colour in ("red", "blue", "green")]
        assert rows[name] == [*counts, str(len(played.face_down[seat]))]


def test_the_pass_toggle_appears_once_two_colours_are_in_the_trick(
    client: FlaskClient, table: Table
) -> None:
    _, live = open_hat_trick(table)
    assert 'name="pass_next"' not in live
    live = play_cards(client, live, "red 5, red 9")
    assert 'name="pass_next"' not in live  # one colour: no pass yet (R19)
    live = play_cards(client, live, "blue 3")
    assert 'name="pass_next"' in live
    assert "The next card is a pass (face down)" in text_of(live)
    live = tap_and_follow(client, live, c("green 4"), passed=True)
    assert slots(live, "live-last")[3] == ("Dan", "green-4")
    taken = section(live, "live-last")
    assert "Passed (R19): Dan, showing green 4." in taken
    assert "Ben takes this pile with red 9 (R20)." in taken
    assert "Cleo takes this pile with blue 3 (R20)." in taken
    assert "Ben leads the next trick." in taken  # red 9 beats blue 3 (R21)
    assert seat_rows(live)["Dan"] == ["0", "0", "0", "1"]
    assert seat_rows(live)["Ben"] == ["2", "0", "0", "0"]
    assert chips(live)["green-4"] is True  # shown, so out of every hand (C6)


def test_r21_after_equal_top_cards_the_deciding_cards_player_leads_next(
    client: FlaskClient,
    table: Table,
) -> None:
    """R21: red 15, blue 15, red 3, blue 2 - seat 2 (red 3) leads next. 000: "quello
    che ha giocato la 2° (o 3, o 4, ecc.) carta più elevata comincia la presa seguente"."""
    _, live = open_hat_trick(table)
    live = play_cards(client, live, "red 15, blue 15, red 3, blue 2")
    taken = section(live, "live-last")
    assert "Ann takes this pile with red 15 (R20)." in taken
    assert "Ben takes this pile with blue 15 (R20)." in taken
    assert "Cleo leads the next trick." in taken
    assert "red 3 is the higher card: Cleo played it and leads next" in taken
    assert [player for player, _ in slots(live)] == ["Cleo", "Dan", "Ann", "Ben"]
    assert "Cleo leads: tap the card they play." in text_of(live)


def test_r19_a_third_colour_is_refused_unless_it_is_a_pass(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    _, live = open_hat_trick(table)
    live = play_cards(client, live, "red 5, blue 9")
    before = database(app)
    response = tap(client, live, c("green 4"))
    assert response.status_code == 422
    assert refusal_of(response.get_data(as_text=True)) == (
        "Not added: Green 4 would bring a third colour into a trick of red, blue; "
        "play one of those colours or pass (R19)."
    )
    assert database(app) == before


def test_r19_a_pass_before_two_colours_are_in_the_trick_is_refused(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    _, live = open_hat_trick(table)
    live = play_cards(client, live, "red 5")
    form = form_ending(live, "/live/card")  # no pass offered yet; sent anyway
    before = database(app)
    response = client.post(form.action, data={**form.fields, "card": "green-4", "pass_next": "y"})
    assert response.status_code == 422
    assert refusal_of(response.get_data(as_text=True)) == (
        "Not added: Passing with green 4 is not allowed yet: a player may pass only once two "
        "colours are in the trick (R19)."
    )
    assert database(app) == before


def test_hat_trick_uses_only_red_blue_and_green_1_to_20(client: FlaskClient, table: Table) -> None:
    """R17: with four players the deck is red, blue and green 1-20."""
    _, live = open_hat_trick(table)
    assert set(chips(live)) == {
        f"{colour}-{value}" for colour in ("red", "blue", "green") for value in range(1, 21)
    }


def test_the_last_trick_says_each_last_card_is_set_aside(client: FlaskClient, table: Table) -> None:
    setup = table_setup(4, PRESETS["hat-trick"])
    played = play_hat_trick_round(setup, random.Random(5))
    game = table.new_game(
        NAMES, "hat-trick", rounds=5, first_leader=played.tricks[0][0], edit_here=True
    )
    code = game["id"]
    live = start_live(client, code)
    for _, plays in played.tricks[:-1]:
        for play in plays:
            live = tap_and_follow(client, live, play.card, passed=play.passed)
    assert "This is the last trick: afterwards each player sets their last card aside" in text_of(
        live
    )
    assert "Trick 14 of 14" in text_of(live)
