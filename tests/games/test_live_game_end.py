"""The live round that ends the game shows the game's result where its last card was entered
(issue 24, point 7): the winners and the final ranking (R11), and "Play again", then the way
to the next game once it is started. Totals and winners are asked of the rules from the
round's stored scores (the JSON API), not copied from the page code.
"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from companion.rules import winners
from scripts.page_reader import csrf_token, read_page
from tests.games.round_helpers import signed
from tests.games.test_live_pages import (
    NAMES,
    open_classic,
    page,
    play_cards,
    state,
    whole_round_played_live,
)
from tests.table import Table


def game_totals(client: FlaskClient, code: str) -> list[int]:
    """Each seat's total, summed from the rounds' scores the API answers."""
    totals = [0] * len(NAMES)
    for round_ in state(client, code)["rounds"]:
        totals = [total + score for total, score in zip(totals, round_["scores"], strict=True)]
    return totals


def test_the_last_trick_of_the_game_shows_its_winners_ranking_and_play_again(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, live, _ = whole_round_played_live(client, table, "game-end")
    assert state(client, code)["status"] == "finished"
    totals = game_totals(client, code)
    best = winners(totals)

    result = read_page(live).find("section", class_="live-end")
    words = result.find("p").text
    if len(best) == 1:
        assert words == f"{NAMES[best[0]]} wins with {signed(totals[best[0]])} points."
    else:
        names = ", ".join(NAMES[seat] for seat in best)
        assert words == f"Shared win: {names}, with {signed(totals[best[0]])} points each."
    ranking = result.find("ol", class_="live-ranking").find_all("li")
    shown = [
        (
            int(str(li.get("value"))),
            li.find("span", class_="live-ranking__name").text,
            li.find("span", class_="live-ranking__total").text,
        )
        for li in ranking
    ]
    order = sorted(range(len(NAMES)), key=lambda seat: (-totals[seat], seat))
    assert shown == [
        (1 + sum(t > totals[seat] for t in totals), NAMES[seat], signed(totals[seat]))
        for seat in order
    ]
    assert [li.find_all(class_="badge--winner") != [] for li in ranking] == [
        seat in best for seat in order
    ]

    (again,) = result.find_all("form", action=f"/g/{code}/again")
    assert again.find("button").text == "Play again"
    answer = client.post(f"/g/{code}/again", data={"csrf_token": csrf_token(live)})
    assert answer.status_code == 302
    following = answer.headers["Location"].split("/")[2]
    assert following != code and state(client, following)["status"] == "in_progress"

    # the live page now leads to the game already started, rather than starting another
    live = page(client, f"/g/{code}/rounds/1/live")
    result = read_page(live).find("section", class_="live-end")
    assert not result.find_all("form", action=f"/g/{code}/again")
    assert result.find("a", data_next_game=True).get("href") == f"/g/{code}/next"
    assert client.get(f"/g/{code}/next").headers["Location"] == f"/g/{following}"


def test_a_round_that_does_not_end_the_game_shows_no_result(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    live = play_cards(client, live, "red 5, red 9, blue 3, yellow 2")
    assert state(client, code)["status"] == "in_progress"
    assert not read_page(live).find_all("section", class_="live-end")
