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
from scripts.page_reader import read_page
from tests.games.round_helpers import database, signed, text_of
from tests.games.test_live_pages import (
    NAMES,
    chips,
    form_ending,
    label,
    page,
    play_cards,
    refusal_of,
    score_rows,
    seat_rows,
    section,
    slots,
    start_live,
    state,
    tap_and_follow,
)
from tests.rules.helpers import expected_next_leader, play_hat_trick_round
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


def pass_note(live: str) -> str | None:
    """The note above the chips saying a third colour's card is a pass, if shown."""
    notes = read_page(live).find_all("p", class_="live-pass")
    return notes[0].text if notes else None


def test_once_two_colours_are_in_the_trick_a_third_colour_card_is_a_pass_in_one_tap(
    client: FlaskClient, table: Table
) -> None:
    """R19: a card of the third colour can then only be a pass: one tap passes, no box to
    tick first."""
    _, live = open_hat_trick(table)
    assert pass_note(live) is None and 'name="pass_next"' not in live
    live = play_cards(client, live, "red 5, red 9")
    assert pass_note(live) is None  # one colour: no pass yet (R19)
    live = play_cards(client, live, "blue 3")
    assert pass_note(live) == (
        "Two colours are in the trick: a card of the third colour is a pass, put face down "
        "(R19). Tap the card the player shows."
    )
    assert 'name="pass_next"' not in live  # nothing to tick
    labels = {
        str(chip.get("value")): str(chip.get("aria-label"))
        for chip in read_page(live).find_all("button", name="card")
    }
    assert labels["green-4"] == "green 4 (a pass)"
    assert labels["red-12"] == "red 12"  # the trick's colours stay plays
    form = form_ending(live, "/live/card")
    answer = client.post(form.action, data={**form.fields, "card": "green-4"})  # one tap
    assert answer.status_code == 302
    live = page(client, answer.headers["Location"])
    assert slots(live, "live-last")[3] == ("Dan", "green-4")
    taken = section(live, "live-last")
    assert "Passed (R19): Dan, showing green 4." in taken
    assert "Ben takes this pile with red 9 (R20)." in taken
    assert "Cleo takes this pile with blue 3 (R20)." in taken
    assert "Ben leads the next trick." in taken  # red 9 beats blue 3 (R21)
    assert seat_rows(live)["Dan"] == ["0", "0", "0", "1"]
    assert seat_rows(live)["Ben"] == ["2", "0", "0", "0"]
    assert chips(live)["green-4"] is True  # shown, so out of every hand (C6)


def grey_legend(live: str) -> str:
    """The line under the chips saying what a greyed-out chip means."""
    hints = read_page(live).find_all("p", class_="live-hint")
    (legend,) = [hint.text for hint in hints if hint.text.startswith("Greyed-out")]
    return legend


def test_the_grey_legend_says_what_grey_means_before_and_during_a_trick(
    client: FlaskClient, table: Table
) -> None:
    _, live = open_hat_trick(table)
    assert grey_legend(live) == "Greyed-out cards were played this round."
    live = play_cards(client, live, "red 5")
    assert grey_legend(live) == (
        "Greyed-out cards were played this round; the filled ones are in this trick."
    )
    assert chips(live)["red-5"] is True  # the filled one is greyed: it is in this trick


def test_the_start_page_of_a_hat_trick_round_says_who_leads_next_by_r21(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)
    start = text_of(page(client, f"/g/{game['id']}/rounds/live"))
    assert "moves the lead to the winner" not in start
    assert (
        "who leads the next trick (R21: whoever played the card that decides between the "
        "piles, even without a pile)" in start
    )
    classic = table.new_game(NAMES, rounds=5, edit_here=True)
    assert "moves the lead to the winner" in text_of(
        page(client, f"/g/{classic['id']}/rounds/live")
    )


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


def test_r19_a_card_of_the_tricks_colours_stays_a_play(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """A card of one of the trick's two colours is played onto it, never taken as a pass;
    sent as a pass anyway (an old page's box), it is refused and nothing changes."""
    _, live = open_hat_trick(table)
    live = play_cards(client, live, "red 5, blue 9, red 7")
    assert slots(live)[2] == ("Cleo", "red-7")
    form = form_ending(live, "/live/card")
    before = database(app)
    response = client.post(form.action, data={**form.fields, "card": "blue-4", "pass_next": "y"})
    assert response.status_code == 422
    assert "R19" in refusal_of(response.get_data(as_text=True))
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
