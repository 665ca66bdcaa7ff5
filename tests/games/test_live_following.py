"""A live page follows the other phone (issue 24, point 5): it carries its ETag, the
scoreboard's (the game's version and the live round's unfinished trick), and answers ``304``
while nothing changed; once a card is entered on another phone, the page as it is now, from
which the next card is taken, not refused as a tap from a page that missed a card.
live.js asks every few seconds and swaps the page in (tests/browser/test_live_following.py).
"""

from __future__ import annotations

from flask.testing import FlaskClient

from scripts.page_reader import read_page
from tests.games.test_live_pages import (
    open_classic,
    other_phone,
    page,
    slots,
    tap,
    tap_and_follow,
)
from tests.rules.helpers import c
from tests.table import Table


def poll(phone: FlaskClient, live: str) -> tuple[int, str, str]:
    """Ask for the live page as live.js does, with the ETag the page carries: the status,
    the new ETag and the page."""
    marker = read_page(live).find("section", data_live=True)
    url, tag = marker.get("data-poll"), marker.get("data-etag")
    assert url and tag, "the live page says neither where nor with what to ask"
    answer = phone.get(url, headers={"If-None-Match": tag})
    return answer.status_code, answer.headers.get("ETag", ""), answer.get_data(as_text=True)


def test_the_live_page_answers_304_until_another_phone_enters_a_card_then_shows_it(
    client: FlaskClient, table: Table
) -> None:
    code, key, live = open_classic(table)
    response = client.get(f"/g/{code}/rounds/1/live")
    carried = read_page(live).find("section", data_live=True).get("data-etag")
    assert response.headers["ETag"] == carried
    assert response.headers["Cache-Control"] == "no-store"
    assert read_page(live).find("section", data_live=True).get("data-poll") == (
        f"/g/{code}/rounds/1/live"
    )
    status, tag, body = poll(client, live)
    assert (status, tag, body) == (304, carried, "")

    other = other_phone(client, code, key)
    tap_and_follow(other, page(other, f"/g/{code}/rounds/1/live"), c("red 5"))

    status, tag, fresh = poll(client, live)
    assert status == 200 and tag != carried
    assert slots(fresh)[0] == ("Ann", "red-5")
    assert read_page(fresh).find("section", data_live=True).get("data-etag") == tag
    assert poll(client, fresh)[0] == 304

    # the page swapped in takes the next card: the old one would have missed red 5
    assert tap(client, live, c("red 9")).status_code == 409
    assert tap(client, fresh, c("red 9")).status_code == 302
    assert slots(page(client, f"/g/{code}/rounds/1/live"))[:2] == [
        ("Ann", "red-5"),
        ("Ben", "red-9"),
    ]


def test_a_saved_trick_and_a_new_edit_link_change_the_live_pages_etag(
    client: FlaskClient, table: Table
) -> None:
    code, key, live = open_classic(table)
    other = other_phone(client, code, key)
    shown = page(other, f"/g/{code}/rounds/1/live")
    for card in ("red 5", "red 9", "blue 3"):
        shown = tap_and_follow(other, shown, c(card))
    before = poll(client, page(client, f"/g/{code}/rounds/1/live"))
    assert before[0] == 304
    tap_and_follow(other, shown, c("yellow 2"))  # the trick is saved: the version moves on
    status, _, fresh = poll(client, live)
    assert status == 200 and "1 of 14 tricks played" in read_page(fresh).text

    # the same state on another phone, or in another language, is another page
    other_tag = other.get(f"/g/{code}/rounds/1/live").headers["ETag"]
    mine = client.get(f"/g/{code}/rounds/1/live").headers["ETag"]
    assert other_tag != mine
    german = client.get(
        f"/g/{code}/rounds/1/live", headers={"If-None-Match": mine, "Accept-Language": "de"}
    )
    assert german.status_code == 200 and german.headers["ETag"] != mine
    assert "Stich" in read_page(german.get_data(as_text=True)).text
