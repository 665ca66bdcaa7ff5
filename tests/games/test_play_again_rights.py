"""Play again keeps the table's rights (issue 24, point 6): every phone holding a key that
still opens the old game gets the next game's edit rights, whichever phone pressed "Play
again", by the old game's "Go to the next game" (``/g/<code>/next``). A phone without them
is told to ask for the edit link, beside the way to look at the game; a key taken back by a
new edit link, of either game, gives nothing (docs/operators/security.md)."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import services
from companion.data.models import db
from companion.services.keys import key_opens, new_edit_key
from companion.web.edit_rights import SESSION_KEYS
from scripts.page_reader import read_page
from tests.games.test_game_pages import load, page_of
from tests.games.test_play_again import finished_game, next_code, press
from tests.table import Table

ASK = "ask the phone that keeps the score for the edit link"


def held(phone: FlaskClient, code: str) -> str | None:
    """The edit key the phone's session holds for ``code``."""
    with phone.session_transaction() as session:
        key = session.get(SESSION_KEYS, {}).get(code)
        return key if isinstance(key, str) else None


def can_record(phone: FlaskClient, code: str) -> bool:
    """Whether the phone's scoreboard of ``code`` offers to record a round (edit rights)."""
    board = read_page(page_of(phone, f"/g/{code}"))
    return bool(board.find_all("a", href=f"/g/{code}/rounds/record"))


def opens(app: Flask, code: str, key: str | None) -> bool:
    with app.app_context():
        return key_opens(load(code), key)


def rotate(app: Flask, code: str) -> None:
    """A new edit link for ``code``: every key held so far stops opening it."""
    with app.app_context():
        game = services.lock_game(load(code))
        services.rotate_edit_key(game, game.version)
        db.session.commit()


@pytest.mark.parametrize("presser", ["creator", "second"])
def test_every_phone_holding_the_old_games_key_gets_the_next_games_whoever_pressed(
    app: Flask, client: FlaskClient, table: Table, presser: str
) -> None:
    code = finished_game(app, table)
    second = table.phone({"id": code, "edit_key": held(client, code)})
    pressing, following_phone = (client, second) if presser == "creator" else (second, client)
    press(pressing, code)
    following = next_code(app, code)
    assert can_record(pressing, following)
    assert not can_record(following_phone, following)  # not yet: it has not come over

    board = read_page(page_of(following_phone, f"/g/{code}"))
    link = board.find("div", class_="play-again").find("a")
    assert link.get("href") == f"/g/{code}/next" and link.text == "Go to the next game"
    answer = following_phone.get(f"/g/{code}/next")
    assert answer.status_code == 302 and answer.headers["Location"] == f"/g/{following}"
    assert can_record(following_phone, following)
    # both phones hold the same key of the next game: the one derived from the old game's
    assert held(following_phone, following) == held(pressing, following)
    assert opens(app, following, held(following_phone, following))


def test_a_phone_without_the_old_games_rights_is_told_to_ask_for_the_edit_link(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = finished_game(app, table)
    press(client, code)
    following = next_code(app, code)
    looker = table.phone()
    answer = looker.get(f"/g/{code}/next")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    page = read_page(answer.get_data(as_text=True))
    assert ASK in page.find(class_="notice").text
    assert page.find("a", href=f"/g/{following}/view").text == "Look at the next game"
    assert held(looker, following) is None and not can_record(looker, following)


def test_a_key_taken_back_from_the_old_game_gives_no_rights_to_the_next(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = finished_game(app, table)
    stale = table.phone({"id": code, "edit_key": held(client, code)})
    press(client, code)
    following = next_code(app, code)
    rotate(app, code)  # the old game's edit link is made anew: the stale phone's key is out
    answer = stale.get(f"/g/{code}/next")
    assert answer.status_code == 200
    notice = read_page(answer.get_data(as_text=True)).find(class_="notice").text
    assert ASK in notice and "a new edit link was made" in notice
    assert held(stale, following) is None and not can_record(stale, following)


def test_a_new_edit_link_of_the_next_game_ends_the_rights_handed_on(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = finished_game(app, table)
    second = table.phone({"id": code, "edit_key": held(client, code)})
    press(client, code)
    following = next_code(app, code)
    rotate(app, following)  # the next game's scorer takes its rights back
    answer = second.get(f"/g/{code}/next")
    assert answer.status_code == 200 and ASK in answer.get_data(as_text=True)
    assert not can_record(second, following) and not can_record(client, following)


def test_the_next_games_key_needs_the_servers_secret_the_old_key_and_the_new_code() -> None:
    from companion.services.keys import next_game_key  # noqa: PLC0415 (new in issue 24)

    key = new_edit_key()
    derived = next_game_key("secret", key, "abcdefghij")
    assert derived == next_game_key(b"secret", key, "abcdefghij")
    assert len(derived) == len(key)
    others = {
        next_game_key("another secret", key, "abcdefghij"),
        next_game_key("secret", new_edit_key(), "abcdefghij"),
        next_game_key("secret", key, "abcdefghik"),
    }
    assert derived not in others and len(others) == 3
