"""The round pages rendered once per change and served as kept (issue 29;
companion/web/round_page_cache.py): opened again, a page costs the one statement of its tag,
and any change to what it shows (a round, a name, a card of the live trick, the language,
the mode) gives the page as it is now. A page is kept for one phone's session (its CSRF
token), and a page with a message to show once is never kept."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scripts.page_reader import csrf_token, read_page
from tests.history.helpers import card
from tests.history.test_statement_count import counted
from tests.perf.test_statement_counts import open_live_round, play_trick, small_round
from tests.table import Table, auth

NAMES = ["Ann", "Ben", "Cleo"]


def editing_phone(app: Flask, game: dict[str, Any]) -> FlaskClient:
    """A phone that opened the game's edit link."""
    phone = app.test_client()
    phone.get(f"/g/{game['id']}/edit/{game['edit_key']}", follow_redirects=True)
    return phone


def opened(app: Flask, phone: FlaskClient, url: str) -> tuple[str, int]:
    """The page at ``url`` and how many statements it cost."""
    with counted(app) as statements:
        answer = phone.get(url)
        page = answer.get_data(as_text=True)
    assert answer.status_code == 200, (url, answer.status_code)
    return page, len(statements)


def heading(page: str) -> str:
    return read_page(page).find("h1").text


def test_a_round_page_opened_again_costs_one_statement_until_the_game_changes(
    app: Flask, table: Table
) -> None:
    game = table.new_game(NAMES, rounds=3)
    phone = editing_phone(app, game)
    for url in (f"/g/{game['id']}/rounds/record", f"/g/{game['id']}/rounds/mark"):
        first, rendered = opened(app, phone, url)
        again, kept = opened(app, phone, url)
        assert again == first
        assert kept == 1 < rendered
    before, _ = opened(app, phone, f"/g/{game['id']}/rounds/record")
    assert "Record round 1" in heading(before)
    table.record(game, small_round())  # another phone records round 1
    after, statements = opened(app, phone, f"/g/{game['id']}/rounds/record")
    assert "Record round 2" in heading(after)
    assert statements > 1
    # the correct page of round 1 is kept too, and a rename shows at once
    corrected, _ = opened(app, phone, f"/g/{game['id']}/rounds/1")
    assert "Ben" in read_page(corrected).find("main").text
    table.client.post(
        "/api/v1/games", json={"players": ["Ben", "Dan", "Eve"], "variant": "classic"}
    )
    with app.app_context():
        from companion.data.models import db
        from companion.data.stats import PlayerRef, find_player
        from companion.services.player_changes import COMMAND, rename_player

        ben = find_player("Ben")
        assert ben is not None
        rename_player(PlayerRef(ben.id, ben.name), "Benedict", COMMAND)
        db.session.commit()
    renamed, _ = opened(app, phone, f"/g/{game['id']}/rounds/1")
    assert "Benedict" in read_page(renamed).find("main").text


def test_the_mode_and_the_language_each_have_their_page(app: Flask, table: Table) -> None:
    game = table.new_game(NAMES, rounds=3)
    phone = editing_phone(app, game)
    quick_page, _ = opened(app, phone, f"/g/{game['id']}/rounds/record")
    full_page, _ = opened(app, phone, f"/g/{game['id']}/rounds/record?mode=full")
    assert quick_page != full_page
    again, kept = opened(app, phone, f"/g/{game['id']}/rounds/record?mode=full")
    assert (again, kept) == (full_page, 1)
    phone.get("/lang/de")
    german, statements = opened(app, phone, f"/g/{game['id']}/rounds/record?mode=full")
    assert read_page(german).find("html").get("lang") == "de"
    assert statements > 1


def test_each_phone_gets_a_page_with_its_own_token_that_it_can_send(
    app: Flask, table: Table
) -> None:
    game = table.new_game(NAMES, rounds=3)
    url = f"/g/{game['id']}/rounds/record"
    first, second = editing_phone(app, game), editing_phone(app, game)
    page_one, _ = opened(app, first, url)
    opened(app, first, url)  # kept for the first phone
    page_two, statements = opened(app, second, url)
    assert csrf_token(page_two) != csrf_token(page_one)
    assert statements > 1  # rendered for the second phone, not the first's page
    form = read_page(page_two).find("form", method="post")
    fields = {
        element.get("name"): element.get("value") or ""
        for element in form.find_all("input")
        if element.get("type") == "hidden" and element.get("name")
    }
    tricks = {f"s{seat}-tricks": str(count) for seat, count in enumerate((4, 4, 6))}
    judged = second.post(url, data={**fields, **tricks, "action": "save"})
    # the token was taken: the round itself was judged (no indicators laid out, C2)
    assert judged.status_code == 422
    assert "(C2)" in read_page(judged.get_data(as_text=True)).find("main").text


def test_a_phone_without_the_edit_key_is_never_served_a_kept_page(app: Flask, table: Table) -> None:
    game = table.new_game(NAMES, rounds=3)
    url = f"/g/{game['id']}/rounds/record"
    opened(app, editing_phone(app, game), url)
    stranger = app.test_client()
    refused = stranger.get(url)
    assert refused.status_code == 403
    assert "This phone may only look at this game" in refused.get_data(as_text=True)


def test_the_live_page_shows_a_card_tapped_on_another_phone_and_its_note_once(
    app: Flask, table: Table
) -> None:
    game = table.new_game(NAMES, rounds=2)
    open_live_round(
        table.client, game, [[card("yellow", 0)], [card("yellow", 1)], [card("yellow", 2)]]
    )
    url = f"/g/{game['id']}/rounds/1/live"
    phone = editing_phone(app, game)
    before, _ = opened(app, phone, url)
    again, kept = opened(app, phone, url)
    assert (again, kept) == (before, 1)
    assert "0 of 14 tricks played" in read_page(before).words()
    play_trick(table.client, game, [card("green", 8), card("green", 0), card("green", 1)])
    after, _ = opened(app, phone, url)
    assert "1 of 14 tricks played" in read_page(after).words()
    # a card tapped here leaves a note for the next page, which is rendered for it
    page = read_page(after)
    tap = page.find("form", action=f"/g/{game['id']}/rounds/1/live/card")
    fields = {element.get("name"): element.get("value") or "" for element in tap.find_all("input")}
    answer = phone.post(tap.get("action"), data={**fields, "card": "red-5"})
    assert answer.status_code in (200, 302, 303)
    shown, _ = opened(app, phone, url)
    assert shown != after
    assert auth(game)  # the game's key stays the table's
