"""Circles on the phones (issue 28, point 1; companion/web/circle_rights.py and
companion/web/circles): the first game a phone starts makes its circle, an invite link or a
game's edit link lets another phone in, a new invite link ends the old one, and the
new-game page says which circle a game joins (the last one used by default). On a club
server every game joins the one circle, as before circles."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.data.models import Circle, CircleChange, Game, Player, db
from scripts.page_reader import csrf_token, read_page
from tests.games.test_game_pages import create_through_form, edit_key_of, post_new_game, row_counts

ANN_TABLE = ["Ann", "Ben", "Cleo"]
ZOE_TABLE = ["Zoe", "Yan", "Xia"]


@pytest.fixture
def circles(app: Flask) -> Flask:
    """The product's default: each table its own circle."""
    app.config["CLUB_SERVER"] = False
    return app


def circle_of(app: Flask, code: str) -> int:
    with app.app_context():
        return int(db.session.scalar(sa.select(Game.circle_id).where(Game.code == code)))


def circle_rows(app: Flask) -> list[tuple[int, str]]:
    with app.app_context():
        return [tuple(row) for row in db.session.execute(sa.select(Circle.id, Circle.name))]


def invite_links(client: FlaskClient) -> list[str]:
    """The invite links the circles page shows this phone, as paths."""
    page = read_page(client.get("/circles").get_data(as_text=True))
    return [
        urlsplit(link.get("href") or "").path
        for link in page.find_all("a", rel="noreferrer")
        if "/join/" in (link.get("href") or "")
    ]


def circle_choices(client: FlaskClient) -> dict[str, str]:
    """The new-game page's circle choices (value: name), the chosen one under ``chosen``."""
    page = read_page(client.get("/games/new").get_data(as_text=True))
    select = page.find("select", name="circle")
    choices = {option.get("value") or "": option.text for option in select.find_all("option")}
    chosen = [option.get("value") for option in select.find_all("option", selected=True)]
    return {**choices, "chosen": chosen[0] if chosen else ""}


def test_the_first_game_of_a_phone_makes_a_circle_named_after_its_players(
    circles: Flask, client: FlaskClient
) -> None:
    page = read_page(client.get("/circles").get_data(as_text=True))
    assert "This phone is in no circle yet" in page.find("main").text
    code = create_through_form(client, ANN_TABLE)
    assert circle_rows(circles) == [(circle_of(circles, code), "Ann, Ben, Cleo")]
    assert len(invite_links(client)) == 1
    # the next game joins it, and the page offers it first
    choices = circle_choices(client)
    assert choices["chosen"] == str(circle_of(circles, code))
    again = create_through_form(client, ["Ann", "Ben", "Dora"])
    assert circle_of(circles, again) == circle_of(circles, code)
    with circles.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Player)) == 4


def test_an_invite_link_lets_a_phone_in_and_a_wrong_one_changes_nothing(
    circles: Flask, client: FlaskClient
) -> None:
    code = create_through_form(client, ANN_TABLE)
    (link,) = invite_links(client)
    other = circles.test_client()
    assert "This phone is in no circle yet" in other.get("/circles").get_data(as_text=True)
    wrong = other.get(link[:-3] + "xyz")
    assert wrong.status_code == 403
    assert "This invite link does not open a circle" in wrong.get_data(as_text=True)
    joined = other.get(link)
    assert joined.status_code == 302
    page = read_page(other.get(joined.headers["Location"]).get_data(as_text=True))
    assert "This phone is now in the circle Ann, Ben, Cleo." in page.find("main").text
    # it holds the secret now, so it can pass the invite on
    assert invite_links(other) == [link]
    # and its new games may join the circle, which it offers first
    assert circle_choices(other)["chosen"] == str(circle_of(circles, code))
    joined_game = create_through_form(other, ZOE_TABLE)
    assert circle_of(circles, joined_game) == circle_of(circles, code)


def test_a_game_s_edit_link_lets_a_phone_in_without_the_invite_secret(
    circles: Flask, client: FlaskClient
) -> None:
    code = create_through_form(client, ANN_TABLE)
    other = circles.test_client()
    other.get(f"/g/{code}/edit/{edit_key_of(client, code)}")
    page = read_page(other.get("/circles").get_data(as_text=True))
    assert page.find("h2", id=f"circle-{circle_of(circles, code)}-title").text == "Ann, Ben, Cleo"
    assert "through the edit link of one of its games" in page.find("main").text
    assert invite_links(other) == []
    # a new edit link takes the membership away with the edit rights
    share = client.get(f"/g/{code}/share").get_data(as_text=True)
    version = read_page(share).find("input", name="version").get("value")
    client.post(f"/g/{code}/share", data={"csrf_token": csrf_token(share), "version": version})
    assert "This phone is in no circle yet" in other.get("/circles").get_data(as_text=True)


def test_a_new_invite_link_ends_the_old_one(circles: Flask, client: FlaskClient) -> None:
    create_through_form(client, ANN_TABLE)
    (old,) = invite_links(client)
    joined = circles.test_client()
    joined.get(old)
    page = client.get("/circles").get_data(as_text=True)
    circle_id = circle_rows(circles)[0][0]
    made = client.post(f"/circles/{circle_id}/invite", data={"csrf_token": csrf_token(page)})
    assert made.status_code == 302
    (new,) = invite_links(client)
    assert new != old
    late = circles.test_client()
    assert late.get(old).status_code == 403
    # the phone in only through the old invite is out until it opens the new one
    assert "This phone is in no circle yet" in joined.get("/circles").get_data(as_text=True)
    joined.get(new)
    assert invite_links(joined) == [new]


def test_a_phone_outside_a_circle_can_neither_rename_it_nor_make_its_invite(
    circles: Flask, client: FlaskClient
) -> None:
    create_through_form(client, ANN_TABLE)
    circle_id = circle_rows(circles)[0][0]
    stranger = circles.test_client()
    create_through_form(stranger, ZOE_TABLE)
    token = csrf_token(stranger.get("/circles").get_data(as_text=True))
    renamed = stranger.post(f"/circles/{circle_id}/rename", data={"csrf_token": token, "name": "X"})
    invited = stranger.post(f"/circles/{circle_id}/invite", data={"csrf_token": token})
    assert renamed.status_code == invited.status_code == 403
    assert "This phone is not in this circle" in renamed.get_data(as_text=True)
    assert circle_rows(circles)[0] == (circle_id, "Ann, Ben, Cleo")
    assert len(invite_links(client)) == 1


def test_a_member_renames_the_circle_and_a_bad_name_is_shown_beside_its_field(
    circles: Flask, client: FlaskClient
) -> None:
    create_through_form(client, ANN_TABLE)
    circle_id = circle_rows(circles)[0][0]
    token = csrf_token(client.get("/circles").get_data(as_text=True))
    refused = client.post(
        f"/circles/{circle_id}/rename", data={"csrf_token": token, "name": "x" * 41}
    )
    assert refused.status_code == 400
    field = read_page(refused.get_data(as_text=True)).find("input", id=f"circle-{circle_id}-name")
    assert field.get("aria-invalid") == "true"
    errors = read_page(refused.get_data(as_text=True)).find(
        "ul", id=f"circle-{circle_id}-name-errors"
    )
    assert "at most 40 characters" in errors.text
    assert circle_rows(circles) == [(circle_id, "Ann, Ben, Cleo")]
    client.post(f"/circles/{circle_id}/rename", data={"csrf_token": token, "name": " Thursdays "})
    assert circle_rows(circles) == [(circle_id, "Thursdays")]
    assert circle_choices(client)[str(circle_id)] == "Thursdays"
    same = client.post(
        f"/circles/{circle_id}/rename", data={"csrf_token": token, "name": "Thursdays"}
    )
    assert same.status_code == 302  # nothing to change, nothing refused
    with circles.app_context():
        journal = db.session.scalars(sa.select(CircleChange.origin)).all()
    assert journal == ["page"]


def test_a_phone_in_two_circles_chooses_and_its_last_choice_comes_first(
    circles: Flask, client: FlaskClient
) -> None:
    first = create_through_form(client, ANN_TABLE)
    second = create_through_form(client, ZOE_TABLE, circle="new")
    a, b = circle_of(circles, first), circle_of(circles, second)
    assert a != b
    choices = circle_choices(client)
    assert {choices[str(a)], choices[str(b)]} == {"Ann, Ben, Cleo", "Zoe, Yan, Xia"}
    assert choices["chosen"] == str(b)
    third = create_through_form(client, ["Ann", "Ben", "Eve"], circle=str(a))
    assert circle_of(circles, third) == a
    assert circle_choices(client)["chosen"] == str(a)
    # Ann is matched within circle a only: one Ann there, none in b
    with circles.app_context():
        anns = db.session.execute(sa.select(Player.circle_id).where(Player.name == "Ann")).all()
    assert anns == [(a,)]


def test_a_circle_the_phone_is_not_in_is_refused_beside_the_field(
    circles: Flask, client: FlaskClient
) -> None:
    create_through_form(client, ANN_TABLE)
    theirs = circle_rows(circles)[0][0]
    stranger = circles.test_client()
    before = row_counts(circles)
    refused = post_new_game(stranger, ZOE_TABLE, circle=str(theirs))
    assert refused.status_code == 400
    errors = read_page(refused.get_data(as_text=True)).find("ul", id="circle-errors")
    assert "This phone is no longer in that circle" in errors.text
    assert row_counts(circles) == before
    assert len(circle_rows(circles)) == 1


def test_a_refused_game_makes_no_circle(circles: Flask, client: FlaskClient) -> None:
    refused = post_new_game(client, ["Ann", "Ben"])
    assert refused.status_code == 400
    assert circle_rows(circles) == []


def test_the_share_page_leads_a_member_to_the_circle_s_invite(
    circles: Flask, client: FlaskClient
) -> None:
    code = create_through_form(client, ANN_TABLE)
    page = read_page(client.get(f"/g/{code}/share").get_data(as_text=True))
    assert page.find("h2", id="circle-title").text == "Circle: Ann, Ben, Cleo"
    stranger = circles.test_client()
    theirs = read_page(stranger.get(f"/g/{code}/share").get_data(as_text=True))
    assert theirs.find_all("h2", id="circle-title") == []


def test_on_a_club_server_every_game_joins_the_one_circle(app: Flask, client: FlaskClient) -> None:
    assert app.config["CLUB_SERVER"]
    first = create_through_form(client, ANN_TABLE)
    second = app.test_client()
    other = create_through_form(second, ZOE_TABLE)
    assert circle_of(app, first) == circle_of(app, other)
    assert len(circle_rows(app)) == 1
    new_game = read_page(client.get("/games/new").get_data(as_text=True))
    assert new_game.find_all("select", name="circle") == []
    page = client.get("/circles").get_data(as_text=True)
    assert "This server is one club" in page
    assert invite_links(client) == []
