"""The other phones follow a live round on the scoreboard, card by card (R7-R9, R13, R15,
R19-R21): the trick number, the cards so far and who is winning, the last trick once the new
one is empty, who leads and who plays next, and each seat's tricks; the ETag moves with every
card, and a page without JavaScript reloads sooner meanwhile.

One phone enters the cards on the live page (tests/games/test_live_pages.py's helpers); the
others read the read-only view (or the editing scoreboard). Who wins is asked of the rules.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data import queries
from companion.data.models import Game, db
from companion.rules import PRESETS, Card, Play, resolve_hat_trick, table_setup, trick_winner
from scripts.page_reader import Element, read_page
from tests.games.test_live_pages import (
    NAMES,
    open_classic,
    other_phone,
    page,
    play_cards,
    press,
    start_live,
    state,
    tap_and_follow,
)
from tests.rules.helpers import c, cs
from tests.table import Table

#: Trick 1 from Ann (seat 0), then two cards of trick 2 from whoever took trick 1.
FIRST_TRICK = "red 5, red 9, blue 3, yellow 2"
SECOND_SO_FAR = "green 4, green 8"


def label(card: Card) -> str:
    """A card as the English pages name it."""
    return f"{card.colour.value} {card.value}"


def follow_block(board: str) -> Element:
    """The scoreboard's block following the live round."""
    return read_page(board).find("div", class_="follow")


def trick_cards(block: Element, index: int = 0) -> list[tuple[str, str, bool]]:
    """The cards of the ``index``-th trick shown: (player, card, taking it), in play order."""
    places = block.find_all("ol", class_="trick-cards")[index].find_all("li")
    return [
        (
            place.own_text.strip(),
            str(place.find("span", class_="chip").get("aria-label")),
            "takes" in place.classes,
        )
        for place in places
    ]


def taker(leader: int, cards: Sequence[Card], scoring: str = "classic") -> int:
    """The seat taking (or winning so far) a classic trick led by ``leader`` (R8, R13)."""
    winner = trick_winner(cards, PRESETS[scoring].scoring)  # type: ignore[union-attr]
    return (leader + winner.winner) % len(NAMES)


def seat_tallies(board: str) -> dict[str, str]:
    """The players' list: name → what they have taken this round."""
    seats = read_page(board).find("ol", class_="seat-list").find_all("li", class_="seat")
    return {
        seat.find("span", class_="seat__name").own_text.strip(): seat.find("small").text
        for seat in seats
    }


def leads_now(board: str) -> tuple[str, list[str]]:
    """Who the scoreboard says leads: the large name and the seats with the "leads" badge."""
    deal = read_page(board).find("dl", class_="deal").find_all("div")
    big = next(div.find("dd").text for div in deal if div.find("dt").text == "leads this trick")
    seats = read_page(board).find("ol", class_="seat-list").find_all("li", class_="seat")
    badged = [
        seat.find("span", class_="seat__name").own_text.strip()
        for seat in seats
        if seat.find_all("span", class_="badge--leads")
    ]
    return big, badged


def test_the_view_shows_the_trick_so_far_who_is_winning_and_who_plays_next(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    play_cards(client, live, f"{FIRST_TRICK}, {SECOND_SO_FAR}")
    board = page(other_phone(client), f"/g/{code}/view")
    block = follow_block(board)
    tricks = table_setup(4, PRESETS["classic"]).tricks_per_round
    assert block.find("h3").text == f"Trick 2 of {tricks}"
    leader = taker(0, cs(FIRST_TRICK))  # R9: the taker of trick 1 leads trick 2
    so_far = cs(SECOND_SO_FAR)
    winning = taker(leader, so_far)
    players = [NAMES[(leader + offset) % 4] for offset in range(2)]
    assert trick_cards(block) == [
        (player, label(card), NAMES.index(player) == winning)
        for player, card in zip(players, so_far, strict=True)
    ]
    words = block.words()
    best = so_far[(winning - leader) % 4]
    assert f"Winning so far: {NAMES[winning]} with {label(best)}." in words
    assert f"Next to play: {NAMES[(leader + 2) % 4]}." in words
    assert leads_now(board) == (NAMES[leader], [NAMES[leader]])
    assert seat_tallies(board) == {
        name: "1 trick" if seat == leader else "0 tricks" for seat, name in enumerate(NAMES)
    }


def test_an_empty_trick_shows_the_last_trick_and_who_took_it(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    play_cards(client, live, FIRST_TRICK)
    block = follow_block(page(other_phone(client), f"/g/{code}/view"))
    took = taker(0, cs(FIRST_TRICK))
    assert [heading.text for heading in block.find_all("h3")] == ["Trick 2 of 14", "Trick 1"]
    assert trick_cards(block) == [
        (NAMES[seat], label(card), seat == took) for seat, card in enumerate(cs(FIRST_TRICK))
    ]
    words = block.words()
    assert f"{NAMES[took]} takes the trick with {label(cs(FIRST_TRICK)[took])}." in words
    assert f"Next to play: {NAMES[took]}." in words


def test_before_the_first_card_the_round_leader_leads_and_no_trick_is_shown(
    client: FlaskClient, table: Table
) -> None:
    code, _, _ = open_classic(table)
    board = page(other_phone(client), f"/g/{code}/view")
    block = follow_block(board)
    assert block.find("h3").text == "Trick 1 of 14" and not block.find_all("ol")
    assert "Next to play: Ann." in block.words()
    assert leads_now(board) == ("Ann", ["Ann"])
    assert set(seat_tallies(board).values()) == {"0 tricks"}


def test_each_card_and_each_undo_changes_the_etag_and_the_page_shows_it(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    follower = other_phone(client)
    first = follower.get(f"/g/{code}/view")
    tag = first.headers["ETag"]
    assert follower.get(f"/g/{code}/view", headers={"If-None-Match": tag}).status_code == 304
    version = state(client, code)["version"]
    live = tap_and_follow(client, live, c("red 5"))
    assert state(client, code)["version"] == version  # no trick saved, no version moved
    answer = follower.get(f"/g/{code}/view", headers={"If-None-Match": tag})
    assert answer.status_code == 200 and answer.headers["ETag"] != tag
    assert trick_cards(follow_block(answer.get_data(as_text=True))) == [("Ann", "red 5", True)]
    tag = answer.headers["ETag"]
    live = tap_and_follow(client, live, c("blue 7"))
    answer = follower.get(f"/g/{code}/view", headers={"If-None-Match": tag})
    assert answer.status_code == 200
    assert [card for _, card, _ in trick_cards(follow_block(answer.get_data(as_text=True)))] == [
        "red 5",
        "blue 7",
    ]
    tag = answer.headers["ETag"]
    undo = press(client, live, "/live/undo-card")
    assert undo.status_code == 302
    answer = follower.get(f"/g/{code}/view", headers={"If-None-Match": tag})
    assert answer.status_code == 200
    assert trick_cards(follow_block(answer.get_data(as_text=True))) == [("Ann", "red 5", True)]


def test_the_editing_scoreboard_of_another_phone_follows_the_round_too(
    client: FlaskClient, table: Table
) -> None:
    code, key, live = open_classic(table)
    keeper = other_phone(client, code, key)
    keeper.get(f"/g/{code}")  # says once, never kept, that this phone keeps the score now
    tag = keeper.get(f"/g/{code}").headers["ETag"]
    play_cards(client, live, "red 5, red 9")
    answer = keeper.get(f"/g/{code}", headers={"If-None-Match": tag})
    assert answer.status_code == 200
    board = answer.get_data(as_text=True)
    assert [card for _, card, _ in trick_cards(follow_block(board))] == ["red 5", "red 9"]
    assert read_page(board).find("a", href=f"/g/{code}/rounds/1/live").text == (
        "Continue live round"
    )


def test_a_trick_saved_clears_the_unfinished_one_from_the_view(
    client: FlaskClient, table: Table
) -> None:
    code, key, live = open_classic(table)
    play_cards(client, live, "red 5, red 9")
    # Another phone with the edit link finishes the trick (C6).
    there = other_phone(client, code, key)
    play_cards(there, page(there, f"/g/{code}/rounds/1/live"), "red 7, red 2")
    block = follow_block(page(other_phone(client), f"/g/{code}/view"))
    took = taker(0, cs("red 5, red 9, red 7, red 2"))
    assert [heading.text for heading in block.find_all("h3")] == ["Trick 2 of 14", "Trick 1"]
    assert [card for _, card, _ in trick_cards(block)] == ["red 5", "red 9", "red 7", "red 2"]
    assert f"Next to play: {NAMES[took]}." in block.words()


def test_a_hazy_round_shows_the_trick_but_never_the_indicators(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table, "hazy")
    play_cards(client, live, "red 5, red 9")
    board = page(other_phone(client), f"/g/{code}/view")
    assert [card for _, card, _ in trick_cards(follow_block(board))] == ["red 5", "red 9"]
    labels = {str(chip.get("aria-label")) for chip in read_page(board).find_all("span")}
    assert not labels & {"red 0", "blue 0", "green 0", "yellow 0"}  # R15
    assert read_page(board).find_all("span", class_="chip--hidden")


def test_a_hat_trick_round_shows_passes_piles_and_who_would_lead(
    client: FlaskClient, table: Table
) -> None:
    code = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)["id"]
    live = start_live(client, code)
    live = play_cards(client, live, "red 5, blue 7")
    live = tap_and_follow(client, live, c("green 3"), passed=True)
    board = page(other_phone(client), f"/g/{code}/view")
    block = follow_block(board)
    plays = [Play(c("red 5")), Play(c("blue 7")), Play(c("green 3"), passed=True)]
    outcome = resolve_hat_trick(plays)
    takers = {pile.winner for pile in outcome.piles}
    assert trick_cards(block) == [
        (NAMES[seat], label(play.card), seat in takers) for seat, play in enumerate(plays)
    ]
    places = block.find("ol", class_="trick-cards").find_all("li")
    assert [place.find_all("small") != [] for place in places] == [False, False, True]
    assert places[2].find("small").text == "pass"
    words = block.words()
    assert f"So far {NAMES[outcome.next_leader]} would lead the next trick." in words
    for pile in outcome.piles:
        card = label(plays[pile.winner].card)
        assert f"{NAMES[pile.winner]} is taking this pile with {card}." in words
    assert set(seat_tallies(board).values()) == {"0 cards"}  # nothing taken yet


@pytest.mark.parametrize("live", [True, False])
def test_a_page_without_javascript_reloads_every_10_seconds_while_a_round_is_live(
    client: FlaskClient, table: Table, live: bool
) -> None:
    game = table.new_game(NAMES, "classic", rounds=5, edit_here=True)
    if live:
        start_live(
            client, game["id"], [[c("red 0")], [c("blue 0")], [c("green 0")], [c("yellow 0")]]
        )
    board = page(other_phone(client), f"/g/{game['id']}/view")
    refresh = read_page(board).find("noscript").find("meta", http_equiv="refresh")
    assert refresh.get("content") == ("10" if live else "30")
    hint = read_page(board).find("p", class_="reload-hint").words()
    assert ("every 10 seconds" in hint) == live and ("every 30 seconds" in hint) != live


def test_an_export_in_the_middle_of_a_trick_keeps_only_saved_tricks(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    play_cards(client, live, f"{FIRST_TRICK}, {SECOND_SO_FAR}")
    exported = client.get(f"/g/{code}/export.json").get_json()
    ((round_,),) = [game["rounds"] for game in exported["games"]]
    assert len(round_["tricks"]) == 1
    assert round_["entries"] == [
        {"marked": [card.as_json()]} for card in cs("red 0, blue 0, green 0, yellow 0")
    ]


def test_cards_published_for_a_trick_saved_since_are_no_cards_of_the_next_one(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    play_cards(client, live, "red 5, red 9")
    with app.app_context():
        game = db.session.scalar(sa.select(Game).where(Game.code == code))
        assert game is not None
        round_ = game.rounds[0]
        published = [dict(entry) for entry in round_.entries]
        assert queries.unfinished_plays(round_, queries.live_round_of(game, round_)) == (
            Play(c("red 5")),
            Play(c("red 9")),
        )
        # A phone that read the round before another phone saved trick 1 publishes late: its
        # cards carry trick 1's number, and trick 2 is the one being played (C6, R9).
        saved = cs("green 9, green 4, green 2, green 1")  # Ann takes it and leads (R8, R9)
        round_.tricks = [{"leader": 0, "plays": [card.as_json() for card in saved]}]
        assert queries.live_round_of(game, round_).seat_order()[:2] == [0, 1]
        round_.entries = published
        assert queries.unfinished_plays(round_, queries.live_round_of(game, round_)) == ()
        db.session.rollback()
