"""Starting games is rate-limited per client address (issue 28, point 5;
companion/web/rate_limits.py): the new-game page, ``POST /api/v1/games`` and Play again share
one budget, counted in the app's database so that every worker counts together. A start over
the limit changes nothing and says why: 429 with ``Retry-After`` and the API's error, or the
new-game form again with the reason."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.data import rate_limit_storage
from companion.data.models import Game, RateLimitHits, db
from companion.data.rate_limit_storage import DatabaseStorage
from scripts.page_reader import csrf_token, read_page
from tests.conftest import TEST_CONFIG
from tests.games.test_game_pages import post_new_game, row_counts
from tests.games.test_play_again import abandoned_game, press
from tests.table import NAMES, Table

#: A limit a test reaches quickly.
LIMIT = "3 per hour"
ELSEWHERE = {"REMOTE_ADDR": "203.0.113.7"}  # another client address
BODY = {"players": NAMES, "variant": "classic", "rounds": 2}


@pytest.fixture
def limited(app: Flask) -> Flask:
    app.config["GAME_STARTS_LIMIT"] = LIMIT
    return app


def games(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(sa.select(sa.func.count()).select_from(Game)) or 0)


def test_the_api_refuses_a_start_over_the_limit_and_starts_nothing(
    limited: Flask, client: FlaskClient
) -> None:
    for _ in range(3):
        assert client.post("/api/v1/games", json=BODY).status_code == 201
    before = row_counts(limited)
    refused = client.post("/api/v1/games", json=BODY)
    assert refused.status_code == 429
    assert "Too many games were started from this address" in refused.json["error"]
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    assert row_counts(limited) == before
    other = limited.test_client()
    assert other.post("/api/v1/games", json=BODY, environ_base=ELSEWHERE).status_code == 201


def test_the_new_game_page_shows_the_form_again_with_the_reason(
    limited: Flask, client: FlaskClient
) -> None:
    for _ in range(3):
        assert post_new_game(client, NAMES).status_code == 302
    before = row_counts(limited)
    refused = post_new_game(client, ["Dora", "Emil", "Fritz"])
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    page = read_page(refused.get_data(as_text=True))
    form = page.find("form", id="new-game-form")
    assert "Too many games were started from this network" in form.text
    names = [form.find("input", name=f"player_{row}").get("value") for row in range(3)]
    assert names == ["Dora", "Emil", "Fritz"]  # kept, to start again in a few minutes
    assert row_counts(limited) == before
    assert client.get("/games/new").status_code == 200  # looking is never limited


def test_page_api_and_play_again_share_one_budget(
    limited: Flask, client: FlaskClient, table: Table
) -> None:
    first = abandoned_game(limited, table, "classic", NAMES)  # the API: 1
    second = abandoned_game(limited, table, "classic", NAMES)  # 2
    assert press(client, first) != f"/g/{first}"  # play again: 3
    before = row_counts(limited)
    assert post_new_game(client, NAMES).status_code == 429  # the page: over
    board = client.get(f"/g/{second}").get_data(as_text=True)
    refused = client.post(f"/g/{second}/again", data={"csrf_token": csrf_token(board)})
    assert refused.status_code == 429
    assert (
        "Too many games were started from this network"
        in read_page(refused.get_data(as_text=True)).find("main").text
    )
    assert client.post("/api/v1/games", json=BODY).status_code == 429
    assert row_counts(limited) == before


def test_workers_on_one_database_count_together(limited: Flask, client: FlaskClient) -> None:
    url = limited.config["SQLALCHEMY_DATABASE_URI"]
    other = create_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url, "GAME_STARTS_LIMIT": LIMIT},
        instance_path=limited.instance_path,
    )
    second = other.test_client()
    answers = [
        (client if turn % 2 == 0 else second).post("/api/v1/games", json=BODY).status_code
        for turn in range(4)
    ]
    assert answers == [201, 201, 201, 429]
    with other.app_context():
        db.engine.dispose()


def test_with_no_limit_nothing_is_counted(app: Flask, client: FlaskClient) -> None:
    for _ in range(12):
        assert client.post("/api/v1/games", json=BODY).status_code == 201
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(RateLimitHits)) == 0


class Clock:
    """The storage's time, moved by the test."""

    def __init__(self) -> None:
        self.time = 1_000_000.0

    def __call__(self) -> float:
        return self.time


def test_a_window_counts_up_ends_and_is_forgotten(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(rate_limit_storage, "now", clock)
    storage = DatabaseStorage("companion-db://")
    with app.app_context():
        assert storage.check()
        assert [storage.incr("a", 60) for _ in range(3)] == [1, 2, 3]
        assert storage.incr("b", 10, amount=2) == 2
        assert (storage.get("a"), storage.get_expiry("a")) == (3, clock.time + 60)
        clock.time += 30
        assert storage.incr("a", 60) == 4  # the same window
        clock.time += 30
        assert (storage.get("a"), storage.get_expiry("a")) == (0, clock.time)  # it ended
        assert storage.incr("a", 60) == 1  # a new window, which removed b's, ended too
        assert keys() == ["a"]
        storage.clear("a")
        assert storage.get("a") == 0 and keys() == []
        storage.incr("c", 60)
        assert storage.reset() == 1 and keys() == []


def keys() -> list[str]:
    """The windows stored now (each read its own: what the storage committed)."""
    with db.engine.connect() as connection:
        return list(connection.scalars(sa.select(RateLimitHits.key).order_by(RateLimitHits.key)))


def test_a_refused_start_is_not_counted(limited: Flask, client: FlaskClient) -> None:
    for _ in range(5):  # refused by the rules: nothing started, nothing counted (R2)
        assert client.post("/api/v1/games", json={**BODY, "players": ["Ann"]}).status_code == 422
    with limited.app_context():
        assert keys() == []
    assert [client.post("/api/v1/games", json=BODY).status_code for _ in range(4)] == [
        201,
        201,
        201,
        429,
    ]
