"""A new game: read from the API's request, checked, and the state it starts in.

The JSON API's ``POST /games`` reads its request here, and the offline rules worker answers
its ``games/new`` here (a game started on a phone with no network), so both read and refuse
the same request alike (``companion.data.seating`` checks it); the phone then shows the state
the server will answer once it has the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.data.names import name_key
from companion.data.seating import check_new_game
from companion.play_state import parse
from companion.play_state.parse import ApiError
from companion.rules import MAX_PLAYERS, Variant
from companion.rules.table import DEFAULT_ROUNDS, MAX_ROUNDS, MIN_ROUNDS

#: What the server calls a game being played (companion/data/states.py).
IN_PROGRESS = "in_progress"
#: The choice of ``circle`` that starts the game in a new circle, as the new-game page's
#: circle select says it.
NEW_CIRCLE = "new"


@dataclass(frozen=True)
class NewGame:
    """The table as a request describes it: names in seat order (as typed), the variant,
    the rounds planned (R11) and the seat leading the first round (R3); and the circle it
    joins if the request says (a circle's id, or :data:`NEW_CIRCLE`), as the new-game page's
    circle select says it."""

    names: list[str]
    variant: Variant
    rounds: int
    first_leader: int
    circle: int | str | None = None


def read_new_game(body: object) -> NewGame:
    """The request of ``POST /games``, read (400 with the API's words when malformed);
    the table itself is checked when the game is started."""
    data = parse.fields(
        body, "The request", ("players", "variant"), ("rounds", "first_leader", "circle")
    )
    names = [
        parse.string(name, f"players[{seat}]")
        for seat, name in enumerate(parse.listing(data["players"], "players", MAX_PLAYERS))
    ]
    return NewGame(
        names=names,
        variant=parse.variant(data["variant"]),
        rounds=parse.integer(data.get("rounds", DEFAULT_ROUNDS), "rounds", MIN_ROUNDS, MAX_ROUNDS),
        first_leader=parse.integer(data.get("first_leader", 0), "first_leader", 0, MAX_PLAYERS - 1),
        circle=circle_choice(data["circle"]) if "circle" in data else None,
    )


def circle_choice(value: object) -> int | str:
    """The ``circle`` of a request: a circle's id, or :data:`NEW_CIRCLE`."""
    if value == NEW_CIRCLE:
        return NEW_CIRCLE
    if isinstance(value, int) and not isinstance(value, bool):
        return parse.integer(value, "circle", 1, 2**31)
    raise ApiError(f'"circle" must be a circle\'s id or "{NEW_CIRCLE}".')


def starting_state(
    players: Sequence[str], variant: object, rounds: int, first_leader: int
) -> dict[str, object]:
    """A game as the server has it once started, nothing played; no id nor version until
    the server has it."""
    return {
        "id": None,
        "players": list(players),
        "variant": variant,
        "rounds_planned": rounds,
        "first_leader": first_leader,
        "status": IN_PROGRESS,
        "rounds": [],
        "totals": [0] * len(players),
        "winners": [],
        "version": 0,
    }


def new_game_answer(request: Mapping[str, Any]) -> dict[str, object]:
    """The rules worker's ``games/new``: ``{"game": <the request of POST /games>, "known":
    [names]}`` answered with the game the server will start, refused as the server refuses
    it. A name that is a known player's written otherwise ("anna" for "Anna") is shown as
    the server will store it: as the known player's."""
    body = parse.fields(request, "The request", ("game",), ("known",))
    known = body.get("known", [])
    if not isinstance(known, list) or not all(isinstance(name, str) for name in known):
        raise ApiError('"known" must be a list of names.')
    table = read_new_game(body["game"])
    names = check_new_game(table.names, table.variant, table.rounds, table.first_leader)
    spelled = {name_key(name): name for name in known}
    players = [spelled.get(name_key(name), name) for name in names]
    return starting_state(players, table.variant.as_json(), table.rounds, table.first_leader)
