"""A backup keeps which game a table played next ("play again"): written as the next game's
code, restored as the link, left out when that game is nowhere, refused when it goes round."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from companion import services
from companion.data.models import Game, db
from tests.backup.test_import_refusals import refused
from tests.table import Table

Document = dict[str, Any]


def abandoned_then_played_again(app: Flask, code: str) -> str:
    """Abandon game ``code`` and play it again; answers the next game's code."""
    with app.app_context():
        game = services.lock_game(services.get_game(code))
        services.abandon_game(game, game.version)
        following, _key = services.play_again(services.lock_game(services.get_game(code)))
        db.session.commit()
        return following.code


@pytest.fixture
def chain(app: Flask, table: Table) -> list[str]:
    """Three games of one table, each played again after the one before: their codes."""
    first = str(table.new_game(["Ann", "Ben", "Cleo"], rounds=2)["id"])
    second = abandoned_then_played_again(app, first)
    third = abandoned_then_played_again(app, second)
    return [first, second, third]


def export(app: Flask, path: Path) -> Document:
    result = app.test_cli_runner().invoke(args=["export", str(path)])
    assert result.exit_code == 0, result.output
    data: Document = json.loads(path.read_text(encoding="utf-8"))
    return data


def import_document(app: Flask, path: Path, data: Document, *options: str) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["import", *options, str(path)])
    assert result.exit_code == 0, result.output
    return str(result.output)


def links(app: Flask) -> dict[str, str | None]:
    """Each game's code and the code of its next game, as the database holds them."""
    with app.app_context():
        following = sa.orm.aliased(Game)
        rows = db.session.execute(
            sa.select(Game.code, following.code).outerjoin(
                following, following.id == Game.next_game_id
            )
        )
        return {code: next_code for code, next_code in rows}


def only(data: Document, codes: list[str]) -> Document:
    """The document with only the games ``codes``."""
    kept = copy.deepcopy(data)
    kept["games"] = [game for game in kept["games"] if game["code"] in codes]
    return kept


def test_the_export_names_each_games_next_game(
    app: Flask, chain: list[str], tmp_path: Path
) -> None:
    data = export(app, tmp_path / "backup.json")
    written = {game["code"]: game["next_game"] for game in data["games"]}
    assert written == links(app) == {chain[0]: chain[1], chain[1]: chain[2], chain[2]: None}


def test_a_restore_links_the_games_again_and_exports_the_same(
    app: Flask, second_app: Flask, chain: list[str], tmp_path: Path
) -> None:
    first = export(app, tmp_path / "backup.json")
    output = import_document(second_app, tmp_path / "restore.json", first)
    assert "Games imported: 3. Skipped: 0." in output
    assert links(second_app) == links(app)
    again = export(second_app, tmp_path / "again.json")
    assert again["games"] == first["games"]


def test_a_next_game_already_in_the_database_is_linked(
    app: Flask, second_app: Flask, chain: list[str], tmp_path: Path
) -> None:
    data = export(app, tmp_path / "backup.json")
    import_document(second_app, tmp_path / "later.json", only(data, chain[1:]))
    with second_app.app_context():
        circle = str(db.session.scalar(sa.select(Game.circle_id).filter_by(code=chain[1])))
    import_document(
        second_app, tmp_path / "earlier.json", only(data, chain[:1]), "--circle", circle
    )
    assert links(second_app) == links(app)


def test_a_next_game_in_another_circle_is_not_linked(
    app: Flask, second_app: Flask, chain: list[str], tmp_path: Path
) -> None:
    """Each import of a document with circles makes its circles anew: the earlier game,
    imported on its own, lands in another circle than the later ones (a table plays again
    in its circle)."""
    data = export(app, tmp_path / "backup.json")
    import_document(second_app, tmp_path / "later.json", only(data, chain[1:]))
    import_document(second_app, tmp_path / "earlier.json", only(data, chain[:1]))
    assert links(second_app) == {chain[0]: None, chain[1]: chain[2], chain[2]: None}


def test_a_next_game_that_is_nowhere_is_left_out_and_the_file_imports_again_unchanged(
    app: Flask, second_app: Flask, chain: list[str], tmp_path: Path
) -> None:
    """A one-game export names a next game it does not hold."""
    data = only(export(app, tmp_path / "backup.json"), chain[:1])
    assert data["games"][0]["next_game"] == chain[1]
    import_document(second_app, tmp_path / "one.json", data)
    assert links(second_app) == {chain[0]: None}
    output = import_document(second_app, tmp_path / "one.json", data)
    assert "Games imported: 0. Skipped: 1." in output
    assert "differs" not in output


def test_a_file_written_before_the_link_existed_imports_and_matches(
    app: Flask, second_app: Flask, chain: list[str], tmp_path: Path
) -> None:
    data = export(app, tmp_path / "backup.json")
    older = copy.deepcopy(data)
    for game in older["games"]:
        del game["next_game"]
    output = import_document(second_app, tmp_path / "older.json", older)
    assert "Games imported: 3." in output
    assert set(links(second_app).values()) == {None}
    # The database now holds the games; the newer file with links matches them.
    output = import_document(second_app, tmp_path / "newer.json", data)
    assert "Games imported: 0. Skipped: 3." in output and "differs" not in output


@pytest.mark.parametrize(
    ("game", "next_game", "says"),
    [
        (2, lambda chain: chain[0], "Game 1 ({code0}): its next games lead back to a game"),
        (0, lambda chain: chain[0], "Game 1 ({code0}): next_game must be another game"),
        (0, lambda chain: "no such/code", "Game 1 ({code0}): next_game must be 1 to 16"),
        (1, lambda chain: 7, "Game 2 ({code1}): next_game must be a string"),
    ],
)
def test_a_link_that_cannot_be_is_refused_and_nothing_is_imported(
    app: Flask,
    second_app: Flask,
    chain: list[str],
    tmp_path: Path,
    game: int,
    next_game: Callable[[list[str]], object],
    says: str,
) -> None:
    data = export(app, tmp_path / "backup.json")
    codes = {f"code{index}": written["code"] for index, written in enumerate(data["games"])}
    data["games"][game]["next_game"] = next_game(chain)
    message = refused(second_app, tmp_path, json.dumps(data).encode())
    assert says.format(**codes) in message
