"""The games endpoints: create a game, read its state, record and correct rounds.

Every mutation needs the game's edit key (401 without, 403 with a wrong one) and the
version it was based on (409 with the current version if stale). A request either changes
the game as a whole or, refused, leaves the database exactly as it was.
"""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask.typing import ResponseReturnValue

from companion import services
from companion.api import bp, parse
from companion.api.parse import ApiError
from companion.api.rules_routes import read_entries, request_body
from companion.edit_rights import bearer_key
from companion.models import Game, db
from companion.rules.table import DEFAULT_ROUNDS


def game_state(game: Game) -> dict[str, object]:
    """The API's game state with links to its pages."""
    return services.game_state(
        game,
        url=url_for("games.scoreboard", code=game.code, _external=True),
        share_url=url_for("games.view", code=game.code, _external=True),
    )


def editable_game(code: str) -> Game:
    """The game ``code``, locked for this transaction, if the request holds its edit key."""
    game = services.get_game(code, for_update=True)
    key = bearer_key()
    if key is None:
        raise ApiError("Send the game's edit key as 'Authorization: Bearer <key>'.", 401)
    if not services.key_opens(game, key):
        raise ApiError("This key does not allow changes to this game.", 403)
    return game


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    """Start a game; the answer holds the edit key, shown this once."""
    data = parse.fields(
        request_body(), "The request", ("players", "variant"), ("rounds", "first_leader")
    )
    names = [
        parse.string(name, f"players[{seat}]")
        for seat, name in enumerate(parse.listing(data["players"], "players", 8))
    ]
    variant = parse.variant(data["variant"])
    rounds = parse.integer(data.get("rounds", DEFAULT_ROUNDS), "rounds", 1, 10)
    first_leader = parse.integer(data.get("first_leader", 0), "first_leader", 0, 7)
    game, key = services.create_game(names, variant, rounds, first_leader)
    db.session.commit()
    return {**game_state(game), "edit_key": key}, 201


@bp.get("/games/<code>")
def show_game(code: str) -> ResponseReturnValue:
    """The state of a game, for anyone holding its link."""
    return game_state(services.get_game(code))


def _version_and_entries(game: Game) -> tuple[int, list[Any]]:
    data = parse.fields(request_body(), "The request", ("version", "entries"))
    version = parse.integer(data["version"], "version", 0, 2**31)
    services.check_version(game, version)
    return version, read_entries(data["entries"], services.setup_of(game))


@bp.post("/games/<code>/rounds")
def record_round(code: str) -> ResponseReturnValue:
    """Record and score the next round."""
    game = editable_game(code)
    version, entries = _version_and_entries(game)
    services.record_round(game, version, entries)
    db.session.commit()
    return game_state(game), 201


@bp.put("/games/<code>/rounds/<int:number>")
def correct_round(code: str, number: int) -> ResponseReturnValue:
    """Correct a scored round; totals and winners follow."""
    game = editable_game(code)
    version, entries = _version_and_entries(game)
    services.correct_round(game, number, version, entries)
    db.session.commit()
    return game_state(game)
