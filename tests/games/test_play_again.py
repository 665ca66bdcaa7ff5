"""Play again (issue 16): a finished or abandoned game starts the table's next game, once.

The next game seats the same players (the same identities) in the same seats, with the same
variant and rounds, and the first leader one seat on (R3: rules.round_leader of the old
game's second round, however many rounds were dealt); it opens on its mark page, or its
scoreboard when the variant lays out no indicator, on the phone that pressed, which keeps its
score. Every later press opens it.
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion import services
from companion.data.models import Game, db
from companion.rules import (
    Card,
    Colour,
    QuickEntry,
    round_dealer,
    round_leader,
    variant_from_settings,
    variant_named,
    winners,
)
from companion.services.errors import ServiceError
from companion.services.rounds import record_round
from companion.web.edit_rights import SESSION_KEYS
from scripts.page_reader import csrf_token, read_page
from tests.games.test_game_pages import (
    ROUND_ONE,
    ROUND_TWO,
    blue,
    green,
    load,
    page_of,
    record,
    red,
    text_of,
)
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo"]


def finished_game(app: Flask, table: Table, first_leader: int = 1) -> str:
    """A game of two rounds, both recorded: finished (R11). Its phone is ``table.client``."""
    game = table.new_game(NAMES, rounds=2, first_leader=first_leader, edit_here=True)
    code = str(game["id"])
    record(app, code, *ROUND_ONE)
    record(app, code, *ROUND_TWO)
    with app.app_context():
        assert load(code).status == "finished"
    return code


def abandoned_game(app: Flask, table: Table, variant: Any, names: list[str]) -> str:
    """A game of ``variant`` abandoned before any round, by ``table.client``."""
    game = table.new_game(names, variant, rounds=3, first_leader=2, edit_here=True)
    code = str(game["id"])
    with app.app_context():
        services.abandon_game(load(code), load(code).version)
        db.session.commit()
    return code


def press(phone: FlaskClient, code: str) -> str:
    """Press "Play again" on the game's scoreboard as this phone shows it; answer where the
    phone is sent."""
    board = page_of(phone, f"/g/{code}")
    assert read_page(board).find_all("form", action=f"/g/{code}/again"), "no Play again button"
    answer = phone.post(f"/g/{code}/again", data={"csrf_token": csrf_token(board)})
    assert answer.status_code == 302, answer.status_code
    return answer.headers["Location"]


def next_code(app: Flask, code: str) -> str:
    with app.app_context():
        game = load(code)
        assert game.next_game_id is not None
        following = db.session.get(Game, game.next_game_id)
        assert following is not None
        return following.code


def seating(app: Flask, code: str) -> list[tuple[int, int]]:
    """Each seat's position and player identity."""
    with app.app_context():
        return [(seat.position, seat.player_id) for seat in load(code).seats]


# --------------------------------------------------------------------------------------------
# The service


def test_the_next_game_keeps_players_seats_variant_and_rounds_and_moves_the_first_lead_on(
    app: Flask, table: Table
) -> None:
    code = finished_game(app, table, first_leader=1)
    with app.app_context():
        game = services.lock_game(load(code))
        following, key = services.play_again(game)
        db.session.commit()
        assert key is not None and services.key_opens(following, key)
        assert [(s.position, s.player_id) for s in following.seats] == [
            (s.position, s.player_id) for s in game.seats
        ]
        assert following.variant == game.variant
        assert following.rounds_planned == game.rounds_planned == 2
        # the old game's first leader was seat 1: the next game's is one seat on (R3)
        assert following.first_leader == round_leader(2, 1, 3) == 2
        assert following.status == "in_progress" and following.rounds == []
        assert game.next_game_id == following.id


def test_a_second_press_opens_the_game_already_started(app: Flask, table: Table) -> None:
    code = finished_game(app, table)
    with app.app_context():
        first, key = services.play_again(services.lock_game(load(code)))
        db.session.commit()
        again, no_key = services.play_again(services.lock_game(load(code)))
        db.session.commit()
        assert key is not None and no_key is None and again.id == first.id
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 2


def test_a_game_in_progress_is_not_played_again(app: Flask, table: Table) -> None:
    game = table.new_game(NAMES, rounds=2, edit_here=True)
    with app.app_context():
        with pytest.raises(ServiceError):
            services.play_again(load(str(game["id"])))
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 1


def test_deleting_the_next_game_offers_play_again_once_more(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = finished_game(app, table)
    first = press(client, code).split("/")[2]
    with app.app_context():
        services.delete_game(load(first), load(first).version)
        db.session.commit()
        assert load(code).next_game_id is None
    second = press(client, code).split("/")[2]
    assert second != first and next_code(app, code) == second


# --------------------------------------------------------------------------------------------
# The pages


def test_play_again_opens_the_mark_page_of_the_next_game_with_its_edit_rights(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = finished_game(app, table, first_leader=1)
    where = press(client, code)
    following = next_code(app, code)
    assert where == f"/g/{following}/rounds/mark"
    with client.session_transaction() as session:
        assert following in session[SESSION_KEYS]
    assert seating(app, following) == seating(app, code)
    words = text_of(page_of(client, where))
    assert "Ann" in words  # the mark page of the phone that keeps the score opens
    board = read_page(page_of(client, f"/g/{following}"))
    # the editing scoreboard: its round box has the controls, the first leader is seat 2
    assert board.find_all("a", href=f"/g/{following}/rounds/record")
    leads = board.find("dl", class_="deal").find_all("dd")[1].own_text
    assert leads == NAMES[round_leader(2, 1, 3)] == NAMES[2]
    with app.app_context():
        game = load(following)
        assert (game.variant, game.rounds_planned) == (variant_named("classic"), 2)


@pytest.mark.parametrize(
    ("variant", "names"),
    [
        ("hat-trick", ["Ann", "Ben", "Cleo", "Dan"]),
        ("delayed", NAMES),
    ],
)
def test_a_variant_without_indicators_opens_the_next_scoreboard(
    app: Flask, client: FlaskClient, table: Table, variant: str, names: list[str]
) -> None:
    code = abandoned_game(app, table, variant, names)
    where = press(client, code)
    following = next_code(app, code)
    assert where == f"/g/{following}"
    with app.app_context():
        game = load(following)
        assert game.variant == variant_named(variant) and game.rounds_planned == 3
        # abandoned before any round: the first lead still moves one seat on (R3)
        assert game.first_leader == round_leader(2, 2, len(names)) == 3 % len(names)
    board = read_page(page_of(client, where))
    assert board.find_all("a", href=f"/g/{following}/rounds/record")


def test_every_setting_of_a_custom_variant_is_kept(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    variant = {"scoring": "reverse", "colours": 2, "reveal": "hazy"}
    code = abandoned_game(app, table, variant, NAMES)
    press(client, code)
    with app.app_context():
        assert load(next_code(app, code)).variant == variant_from_settings("reverse", 2, "hazy")


def test_a_later_press_on_another_phone_of_the_table_gives_it_the_next_games_rights(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = finished_game(app, table)
    other = table.phone({"id": code, "edit_key": _key(client, code)})
    board = page_of(other, f"/g/{code}")  # a page from before the next game was started
    press(client, code)
    following = next_code(app, code)
    answer = other.post(f"/g/{code}/again", data={"csrf_token": csrf_token(board)})
    assert answer.status_code == 302 and answer.headers["Location"] == f"/g/{following}"
    assert read_page(page_of(other, f"/g/{following}")).find_all(
        "a", href=f"/g/{following}/rounds/record"
    )  # issue 24: the table keeps its rights, whichever phone pressed
    # the phone that started it is sent to its scoreboard, which it edits
    assert press_again(client, code) == f"/g/{following}"
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 2


def test_the_old_scoreboards_link_to_the_next_game(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = finished_game(app, table)
    viewer = app.test_client()
    assert not read_page(page_of(viewer, f"/g/{code}/view")).find_all(class_="play-again")
    press(client, code)
    following = next_code(app, code)
    view = read_page(page_of(viewer, f"/g/{code}/view"))
    assert not view.find_all("form", action=f"/g/{code}/again")
    assert view.find("a", href=f"/g/{following}/view").own_text == "Go to the next game"
    board = read_page(page_of(client, f"/g/{code}"))
    assert board.find("a", href=f"/g/{code}/next").own_text == "Go to the next game"
    assert client.get(f"/g/{code}/next").headers["Location"] == f"/g/{following}"


def test_a_phone_without_edit_rights_cannot_start_the_next_game(app: Flask, table: Table) -> None:
    code = finished_game(app, table)
    viewer = app.test_client()
    board = page_of(viewer, f"/g/{code}")
    assert not read_page(board).find_all("form", action=f"/g/{code}/again")
    token = csrf_token(page_of(viewer, "/games/new"))  # a valid token of this phone
    answer = viewer.post(f"/g/{code}/again", data={"csrf_token": token})
    assert answer.status_code == 403
    with app.app_context():
        assert load(code).next_game_id is None


def test_a_game_in_progress_offers_no_play_again(client: FlaskClient, table: Table) -> None:
    game = table.new_game(NAMES, rounds=2, edit_here=True)
    code = game["id"]
    board = page_of(client, f"/g/{code}")
    assert not read_page(board).find_all(class_="play-again")
    answer = client.post(f"/g/{code}/again", data={"csrf_token": csrf_token(board)})
    assert answer.status_code == 302 and answer.headers["Location"] == f"/g/{code}"
    assert table.state(game)["version"] == game["version"]  # nothing changed


def _key(client: FlaskClient, code: str) -> str:
    with client.session_transaction() as session:
        return str(session[SESSION_KEYS][code])


def press_again(phone: FlaskClient, code: str) -> str:
    """Send the Play again form once more from a scoreboard that shows the next game's link."""
    board = page_of(phone, f"/g/{code}")
    answer = phone.post(f"/g/{code}/again", data={"csrf_token": csrf_token(board)})
    assert answer.status_code == 302
    return answer.headers["Location"]


# --------------------------------------------------------------------------------------------
# The dealer in large type (issue 16) and the players by rank (issue 17)


def deal_box(page: str) -> dict[str, str]:
    """The round box's dealer and leader, by their labels."""
    box = read_page(page).find("section", class_="current-round").find("dl", class_="deal")
    labels = [term.own_text for term in box.find_all("dt")]
    names = [name.own_text for name in box.find_all("dd")]
    return dict(zip(labels, names, strict=True))


@pytest.mark.parametrize("played", [0, 1])
def test_both_scoreboards_name_who_deals_and_leads_the_round_being_played(
    app: Flask, client: FlaskClient, table: Table, played: int
) -> None:
    game = table.new_game(NAMES, rounds=3, first_leader=2, edit_here=True)
    code = str(game["id"])
    if played:
        record(app, code, *ROUND_ONE)
    number = played + 1
    expected = {
        "deals": NAMES[round_dealer(number, 2, len(NAMES))],
        "opens the round": NAMES[round_leader(number, 2, len(NAMES))],
    }
    editing = page_of(client, f"/g/{code}")
    assert read_page(editing).find_all("a", href=f"/g/{code}/rounds/record")
    assert deal_box(editing) == expected
    read_only = page_of(app.test_client(), f"/g/{code}/view")
    assert not read_page(read_only).find_all("a", href=f"/g/{code}/rounds/record")
    assert deal_box(read_only) == expected


def test_a_finished_scoreboard_lists_the_players_by_rank(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game([*NAMES, "Dan"], rounds=1, edit_here=True)
    code = str(game["id"])
    in_seat_order = read_page(page_of(client, f"/g/{code}")).find("ol", class_="seat-list")
    assert [n.own_text for n in in_seat_order.find_all(class_="seat__name")] == [*NAMES, "Dan"]
    assert "seat-ranks" not in in_seat_order.classes
    # C3: 14 tricks; Ben and Cleo take as many and lay out a 0, so they tie at the top (R10)
    entries = [
        QuickEntry((red(9),), 14 // 4, ()),
        QuickEntry((blue(0),), 4, ()),
        QuickEntry((green(0),), 4, ()),
        QuickEntry((Card(Colour.YELLOW, 11),), 14 - 3 - 4 - 4, (Card(Colour.YELLOW, 10),)),
    ]
    with app.app_context():
        game_row = load(code)
        record_round(game_row, game_row.version, entries)
        db.session.commit()
        totals = [result.score for result in load(code).rounds[0].results]
    page = page_of(client, f"/g/{code}")
    ranked = read_page(page).find("ol", class_="seat-list")
    seats = ranked.find_all("li")
    names = [*NAMES, "Dan"]
    order = sorted(range(4), key=lambda seat: (-totals[seat], seat))
    assert [li.find(class_="seat__name").own_text for li in seats] == [names[s] for s in order]
    ranks = [int(li.get("value")) for li in seats]
    expected = [1 + sum(1 for t in totals if t > totals[seat]) for seat in order]
    assert ranks == expected
    # equal highest totals share rank 1, and they are the winners of the rules (R11)
    assert [s for s, r in zip(order, ranks, strict=True) if r == 1] == winners(totals)
    assert len(winners(totals)) == 2 and ranks[2] == 3
    assert read_page(page).find("h2", id="players-title").own_text == "Ranking"


@pytest.mark.parametrize(
    ("page", "endpoint"),
    [
        ("record", "rounds/record"),
        ("mark", "rounds/mark"),
        ("live", "rounds/live"),
        ("2/live", "rounds/2/live"),  # a round played live on the phone
    ],
)
def test_the_next_game_s_offline_address_leads_to_its_page_once_started(
    app: Flask, table: Table, page: str, endpoint: str
) -> None:
    """A phone that started the next game offline gave its round pages an address under the
    old game (static/offline_play.js); online, it leads to the page of the game the server
    started, or to the way to the next game while there is none."""
    code = finished_game(app, table)
    address = f"/g/{code}/next/rounds/{page}"
    before = table.client.get(address)
    assert before.status_code == 302 and before.headers["Location"] == f"/g/{code}/next"
    press(table.client, code)
    following = next_code(app, code)
    after = table.client.get(address)
    assert after.status_code == 302
    assert after.headers["Location"] == f"/g/{following}/{endpoint}"
    assert table.client.get(f"/g/{code}/next/rounds/correct").status_code == 404
