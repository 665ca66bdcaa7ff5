"""The scoreboards answer conditional GETs: a strong ETag per game version and page variant,
an empty 304 to a matching If-None-Match (without rendering, with one query), and a new page
with a new ETag after any change."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask, template_rendered
from flask.testing import FlaskClient

from companion.data.models import Player, db
from companion.web.assets import split_fingerprint
from companion.web.scoreboard_cache import SCOREBOARD_STATIC, scoreboard_templates
from scripts.page_reader import csrf_token, loads, read_page
from tests.share.helpers import page_of, record_round, text_of
from tests.table import Table


@contextmanager
def watched(app: Flask) -> Iterator[dict[str, list[Any]]]:
    """The SQL statements run and the templates rendered while the block runs."""
    seen: dict[str, list[Any]] = {"statements": [], "templates": []}

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen["statements"].append(statement)

    def rendered(_app: Flask, template: Any, **_extra: Any) -> None:
        seen["templates"].append(template.name)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    template_rendered.connect(rendered, app)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
        template_rendered.disconnect(rendered, app)


@pytest.mark.parametrize("editing", [True, False], ids=["edit scoreboard", "read-only view"])
def test_a_scoreboard_answers_304_with_an_empty_body_without_rendering_the_page(
    app: Flask, client: FlaskClient, editing: bool, table: Table
) -> None:
    game = table.new_game(rounds=3)
    path = f"/g/{game['id']}" if editing else f"/g/{game['id']}/view"
    viewer = table.phone(game)
    first = viewer.get(path)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and re.fullmatch(r'"[0-9a-f]{32}"', tag)

    with watched(app) as seen:
        again = viewer.get(path, headers={"If-None-Match": tag})

    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == tag
    assert seen["templates"] == [] and len(seen["statements"]) == 1
    weak = viewer.get(path, headers={"If-None-Match": f'"other", W/{tag}'})
    assert weak.status_code == 304  # If-None-Match compares weakly (a proxy may weaken tags)


def test_the_edit_scoreboard_is_private_and_the_view_public_both_revalidated(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    editor = table.phone(game)
    assert editor.get(f"/g/{game['id']}").headers["Cache-Control"] == "private, no-cache"
    assert editor.get(f"/g/{game['id']}/view").headers["Cache-Control"] == "no-cache"


def test_a_round_recorded_through_the_api_changes_the_etag_and_the_page_shows_it(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    watcher = table.phone()
    path = f"/g/{game['id']}/view"
    before = watcher.get(path)
    assert "No round has been played yet." in text_of(before.get_data(as_text=True))

    assert record_round(client, game).status_code == 201
    after = watcher.get(path, headers={"If-None-Match": before.headers["ETag"]})

    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]
    scores = table.state(game)["rounds"][0]["scores"]
    page = after.get_data(as_text=True)
    assert "Round 2 of 3" in text_of(page) and "No round has been played yet." not in page
    rows = read_page(page).find_all("tr", class_="is-scored")
    cells = [td.find("b").text for row in rows for td in row.find_all("td") if td.find_all("b")]
    assert len(cells) == 3 and cells[0].endswith(str(abs(scores[0])))
    assert watcher.get(path, headers={"If-None-Match": after.headers["ETag"]}).status_code == 304


def test_the_etag_differs_between_view_and_edit_pages_and_between_languages(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code = game["id"]
    editor, watcher = table.phone(game), table.phone()
    tags = {
        "edit": editor.get(f"/g/{code}").headers["ETag"],
        "view": editor.get(f"/g/{code}/view").headers["ETag"],
        "look only": watcher.get(f"/g/{code}").headers["ETag"],
        "view in German": watcher.get(f"/g/{code}/view", headers={"Accept-Language": "de"}).headers[
            "ETag"
        ],
    }
    assert len(set(tags.values())) == len(tags), tags
    assert watcher.get(f"/g/{code}/view").headers["ETag"] == tags["view"]  # same for everyone
    german = watcher.get(
        f"/g/{code}/view", headers={"Accept-Language": "de", "If-None-Match": tags["view"]}
    )
    assert german.status_code == 200 and '<html lang="de">' in german.get_data(as_text=True)


def test_two_games_of_the_same_players_never_share_a_page(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    first, second = (
        table.new_game(rounds=3),
        table.new_game(rounds=3),
    )  # the same names, the same version
    keeper = table.phone(first)
    assert keeper.get(f"/g/{second['id']}/edit/{second['edit_key']}").status_code == 302
    keeper.get(f"/g/{second['id']}")  # the notice that this phone keeps the score, said once
    for who, path in ((client, "/g/{}/view"), (keeper, "/g/{}")):
        pages = {game["id"]: who.get(path.format(game["id"])) for game in (first, second)}
        assert pages[first["id"]].headers["ETag"] != pages[second["id"]].headers["ETag"]
        for code, answer in pages.items():  # each page is its own game's, never a kept copy
            other = second["id"] if code == first["id"] else first["id"]
            page = answer.get_data(as_text=True)
            assert f"/g/{code}/" in page and other not in page


def test_the_etag_follows_every_static_file_a_scoreboard_links(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    keeper = table.phone(game)
    for page in (page_of(keeper, f"/g/{game['id']}"), page_of(client, f"/g/{game['id']}/view")):
        linked = set()
        # the script a first tap on a score loads (static/score_reasons.js) is named too
        reasons = read_page(page).find(data_reasons=True).get("data-reasons")
        for url in [*loads(page), reasons]:
            name = url.removeprefix("/static/")
            split = split_fingerprint(name)
            linked.add(split[0] if split else name)
        assert linked == set(SCOREBOARD_STATIC)  # a new fingerprint makes a new page


def test_the_etag_covers_every_template_a_scoreboard_is_drawn_from(
    app: Flask, client: FlaskClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = table.new_game(rounds=3)
    keeper = table.phone(game)
    loader = app.jinja_env.loader
    assert loader is not None
    loaded: set[str] = set()
    get_source = loader.get_source

    def recording(env: Any, name: str) -> Any:
        loaded.add(name)
        return get_source(env, name)

    monkeypatch.setattr(loader, "get_source", recording)
    assert app.jinja_env.cache is not None
    app.jinja_env.cache.clear()  # every template is read afresh for this page
    page_of(keeper, f"/g/{game['id']}")
    page_of(client, f"/g/{game['id']}/view")
    with app.test_request_context():
        covered = set(scoreboard_templates())
    assert "macros.html" in loaded
    assert loaded == covered


def test_a_renamed_player_changes_the_etag(app: Flask, client: FlaskClient, table: Table) -> None:
    game = table.new_game(rounds=3)
    path = f"/g/{game['id']}/view"
    tag = client.get(path).headers["ETag"]
    with app.app_context():  # a rename changes no game, only the players row
        db.session.execute(sa.update(Player).where(Player.key == "ann").values(name="Anna"))
        db.session.commit()
    answer = client.get(path, headers={"If-None-Match": tag})
    assert answer.status_code == 200 and 'seat__name">Anna<' in answer.get_data(as_text=True)


def test_a_phone_that_loses_its_edit_rights_gets_a_new_page_without_controls(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code = game["id"]
    other = table.phone(game)
    tag = other.get(f"/g/{code}").headers["ETag"]

    rotated = client.post(
        f"/api/v1/games/{code}/edit-key",
        json={"version": game["version"]},
        headers={"Authorization": f"Bearer {game['edit_key']}"},
    )
    assert rotated.status_code == 200
    answer = other.get(f"/g/{code}", headers={"If-None-Match": tag})

    assert answer.status_code == 200
    words = text_of(answer.get_data(as_text=True))
    assert "This phone can no longer change this game." in words
    assert "Manage the game" not in words


def test_the_scoreboard_tells_the_poller_where_to_ask_and_its_own_etag(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code = game["id"]
    for path in (f"/g/{code}", f"/g/{code}/view"):
        response = table.phone(game).get(path)
        page = response.get_data(as_text=True)
        marker = read_page(page).find("div", class_="board-updates")
        assert "hidden" in marker.attrs, path
        attributes = {k.removeprefix("data-"): v for k, v in marker.attrs.items()}
        assert attributes["poll"] == path
        assert attributes["etag"] == response.headers["ETag"]
        assert attributes["version"] == str(game["version"])
        assert attributes["updated"] == "Scores updated"
        assert '<noscript><p class="reload-hint">' in page and f'href="{path}">Reload' in page


def test_a_refused_change_shows_the_scoreboard_uncached_and_without_an_etag(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    game = table.new_game(rounds=3)
    code = game["id"]
    editor = table.phone(game)
    page = page_of(editor, f"/g/{code}/abandon")
    token = csrf_token(page)
    answer = editor.post(
        f"/g/{code}/abandon",
        data={"csrf_token": token, "version": str(game["version"] - 1)},
    )
    assert answer.status_code == 409 and "ETag" not in answer.headers
    assert answer.headers["Cache-Control"] == "no-store"
    assert 'data-poll="/g/' in answer.get_data(as_text=True)  # it still follows the game


def test_an_unknown_game_is_still_a_404_with_or_without_if_none_match(client: FlaskClient) -> None:
    for path in ("/g/nosuchgame", "/g/nosuchgame/view"):
        assert client.get(path, headers={"If-None-Match": "*"}).status_code == 404
