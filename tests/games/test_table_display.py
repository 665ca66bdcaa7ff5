"""The table display (``/g/<code>/table``, issue 24): a phone propped up in the middle of the
table shows the totals, who deals and who leads (R3, R9), the trick being played and who is
winning it (R7, R8; Hat Trick R19-R21) to anyone with the read-only link; it follows the game
with the scoreboard's ETag, keeps the screen awake, and hides a hazy round's marked colours
(R15). The scoreboard links it.
"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from companion.read_models.messages import signed_number
from companion.rules import PRESETS, round_dealer, round_leader, table_setup
from scripts.page_reader import Element, loads, read_page
from tests.games.test_follow_live import FIRST_TRICK, SECOND_SO_FAR, label, taker
from tests.games.test_live_pages import (
    NAMES,
    ZERO_INDICATORS,
    open_classic,
    other_phone,
    page,
    play_cards,
    start_live,
    tap_and_follow,
)
from tests.rules.helpers import c, cs
from tests.share.helpers import record_round
from tests.table import Table


def display(client: FlaskClient, code: str) -> Element:
    """The table display as a phone without any edit right opens it."""
    return read_page(page(other_phone(client), f"/g/{code}/table"))


def deal(shown: Element) -> dict[str, str]:
    """The large "deals" and "leads" names."""
    return {
        div.find("dt").text: div.find("dd").text
        for div in shown.find("dl", class_="table-deal").find_all("div")
    }


def totals(shown: Element) -> dict[str, str]:
    """Each player's name and total, as the display lists them."""
    return {
        seat.find("span", class_="table-seat__name").own_text.strip(): seat.find(
            "span", class_="table-seat__total"
        ).text
        for seat in shown.find("ol", class_="table-seats").find_all("li")
    }


def played(shown: Element) -> list[tuple[str, str, bool]]:
    """The cards of the trick shown: (player, card, taking it) in play order."""
    return [
        (
            place.find("span", class_="table-cards__player").own_text.strip(),
            str(place.find("span", class_="visually-hidden").text),
            "takes" in place.classes,
        )
        for place in shown.find("ol", class_="table-cards").find_all("li")
    ]


def test_the_display_shows_totals_and_who_deals_and_leads_to_a_read_only_phone(
    client: FlaskClient, table: Table
) -> None:
    names = NAMES[:3]
    game = table.new_game(names, rounds=5, first_leader=1)
    assert record_round(table.client, game).status_code == 201
    code = game["id"]
    shown = display(client, code)
    board = table.state(game)
    assert totals(shown) == {
        name: signed_number(total) for name, total in zip(names, board["totals"], strict=True)
    }
    assert len(set(board["totals"])) > 1  # totals that tell the seats apart
    # Round 2: the deal has passed one seat on (R3).
    assert shown.find("h1").text == "Round 2 of 5"
    assert deal(shown) == {
        "deals": names[round_dealer(2, 1, 3)],
        "opens the round": names[round_leader(2, 1, 3)],  # R3: the first leader
    }
    assert not shown.find_all("ol", class_="table-cards")  # no live round, no trick


def test_the_display_shows_the_live_trick_and_who_is_winning_it(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    play_cards(client, live, f"{FIRST_TRICK}, {SECOND_SO_FAR}")
    shown = display(client, code)
    leader = taker(0, cs(FIRST_TRICK))  # R9: the taker of trick 1 leads trick 2
    so_far = cs(SECOND_SO_FAR)
    winning = taker(leader, so_far)
    players = [NAMES[(leader + offset) % 4] for offset in range(2)]
    assert played(shown) == [
        (player, label(card), NAMES.index(player) == winning)
        for player, card in zip(players, so_far, strict=True)
    ]
    tricks = table_setup(4, PRESETS["classic"]).tricks_per_round
    assert shown.find("div", class_="table-trick").find("h2").text == f"Trick 2 of {tricks}"
    assert shown.find("p", class_="table-winner").text == f"Winning so far: {NAMES[winning]}"
    assert shown.find("p", class_="table-turn").text == (
        f"Next to play: {NAMES[(leader + 2) % 4]}."
    )
    assert deal(shown)["leads this trick"] == NAMES[leader]  # R9: not the round's first leader


def test_an_empty_trick_shows_the_last_one_and_who_took_it(
    client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    play_cards(client, live, FIRST_TRICK)
    shown = display(client, code)
    took = taker(0, cs(FIRST_TRICK))
    assert shown.find("div", class_="table-trick").find("h2").text == "Trick 1 of 14"
    assert [taking for _, _, taking in played(shown)] == [seat == took for seat in range(4)]
    assert shown.find("p", class_="table-winner").text == f"Takes the trick: {NAMES[took]}"


def test_a_hat_trick_display_says_who_takes_each_pile_and_leads_next(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(NAMES, "hat-trick", rounds=5, edit_here=True)
    live = start_live(table.client, game["id"])
    for text in ("red 5", "blue 3"):
        live = tap_and_follow(client, live, c(text))
    shown = display(client, game["id"])
    piles = [p.text for p in shown.find_all("p", class_="table-pile")]
    assert piles == [
        "Ann is taking this pile with red 5.",
        "Ben is taking this pile with blue 3.",
    ]
    assert shown.find("p", class_="table-winner").text.startswith("Would lead next: ")


def test_marked_colours_show_but_a_hazy_rounds_stay_hidden(
    client: FlaskClient, table: Table
) -> None:
    code, _, _ = open_classic(table)
    marks = display(client, code).find_all("span", class_="table-seat__marks")
    assert [m.find("span").get("aria-label") for m in marks] == [
        label(cards[0]) for cards in ZERO_INDICATORS
    ]
    hazy = table.new_game(NAMES, "hazy", rounds=5, edit_here=True)["id"]
    start_live(client, hazy, ZERO_INDICATORS)
    hidden = page(other_phone(client), f"/g/{hazy}/table")
    assert 'data-colour="red"' not in hidden  # R15: not even in the markup
    assert not read_page(hidden).find_all("span", class_="table-seat__marks")


def test_the_display_follows_the_game_with_its_own_etag(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code, _, live = open_classic(table)
    follower = other_phone(client)
    first = follower.get(f"/g/{code}/table")
    tag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    assert tag != follower.get(f"/g/{code}/view").headers["ETag"]  # a page of its own
    again = follower.get(f"/g/{code}/table", headers={"If-None-Match": tag})
    assert again.status_code == 304 and not again.get_data()
    tap_and_follow(client, live, c("red 5"))
    moved = follower.get(f"/g/{code}/table", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    assert played(read_page(moved.get_data(as_text=True))) == [("Ann", "red 5", True)]
    marker = read_page(moved.get_data(as_text=True)).find("div", class_="board-updates")
    assert marker.get("data-poll") == f"/g/{code}/table"
    assert marker.get("data-etag") == moved.headers["ETag"]


def test_the_display_polls_and_keeps_the_screen_awake_and_the_scoreboard_links_it(
    client: FlaskClient, table: Table
) -> None:
    game = table.new_game(NAMES, rounds=5, edit_here=True)
    code = game["id"]
    scripts = [url.rsplit("/", 1)[-1] for url in loads(page(client, f"/g/{code}/table"))]
    assert any(name.startswith("scoreboard") and name.endswith(".js") for name in scripts)
    assert any(name.startswith("follow") for name in scripts)
    for path in (f"/g/{code}", f"/g/{code}/view"):
        links = read_page(page(client, path)).find("p", class_="table-tools").find_all("a")
        assert f"/g/{code}/table" in [link.get("href") for link in links], path


def test_a_game_that_is_not_there_has_no_display(client: FlaskClient) -> None:
    assert client.get("/g/nosuchgame/table").status_code == 404
