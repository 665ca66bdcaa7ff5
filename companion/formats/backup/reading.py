"""A backup file read: the document's frame, then each game checked, refused as a whole
at the first problem with the game and round named."""

from __future__ import annotations

import json
from dataclasses import dataclass

from companion.data.names import clean_name
from companion.data.seating import check_names
from companion.data.states import GameStatus, RoundStatus
from companion.formats.backup.export import FORMAT, FORMAT_VERSION
from companion.formats.backup.plans import (
    BackupError,
    BackupPlan,
    CirclePlan,
    GamePlan,
    GameRefusal,
)
from companion.formats.backup.rounds import parse_time, read_round
from companion.play_state import parse
from companion.play_state.parse import ApiError
from companion.read_models.messages import render_message
from companion.rules import MAX_PLAYERS, Refusal, table_setup
from companion.rules.table import check_round_count
from companion.rules.text import N_
from companion.services.errors import ServiceError
from companion.services.keys import is_game_code
from companion.services.players import check_name_characters, check_name_length

GAME_STATUSES = tuple(GameStatus)


#: The format versions read: 1 (no circles) and 2 (``export.FORMAT_VERSION``, circles).
READ_VERSIONS = (1, FORMAT_VERSION)

#: The document's fields besides those of every version; ``circles`` came with version 2.
OPTIONAL_FIELDS = {1: ("exported_at",), 2: ("exported_at", "circles")}

CIRCLE_FIELDS = ("key", "name", "created_at")


#: The shortest code an import takes. The code is all that guards a game's read-only link,
#: so a short one is guessable; and a genuine export never holds one: the app has made every
#: code with ``services.keys.new_code``, ten characters (``CODE_LENGTH``) since the first
#: schema, and so does the ``demo-data`` command. A number, not ``CODE_LENGTH``: should new
#: codes grow longer, the backups written before must still import.
MIN_CODE_LENGTH = 10

GAME_FIELDS = (
    "code",
    "players",
    "variant",
    "rounds_planned",
    "first_leader",
    "status",
    "excluded",
    "created_at",
    "updated_at",
    "rounds",
)


def load(raw: bytes) -> object:
    """The JSON value of an export file (UTF-8), or a ``BackupError`` saying what is wrong."""
    if not raw.strip():
        raise BackupError("The file is empty.")
    try:
        return parse.read_json(raw.removeprefix(b"\xef\xbb\xbf"))
    except ApiError as error:
        if "must be a JSON object" in str(error):
            raise BackupError("The file must hold a JSON object, as an export does.") from None
        raise BackupError("The file is not valid JSON (UTF-8).") from None


def read_document(data: object) -> list[GamePlan]:
    """The games of a whole document checked (``read_backup``), for callers that want
    only them."""
    return read_backup(data).games


def read_backup(data: object) -> BackupPlan:
    """Check a whole document; answers its circles and games, or raises ``BackupError`` at
    the first problem, naming the circle, or the game and round."""
    version = _read_version(data)
    try:
        body = parse.fields(
            data, "The document", ("format", "version", "games"), OPTIONAL_FIELDS[version]
        )
    except ApiError as error:
        raise BackupError(str(error)) from None
    circles = _read_circles(body["circles"]) if "circles" in body else None
    keys = {circle.key for circle in circles} if circles is not None else None
    if not isinstance(body["games"], list):
        raise BackupError('The document\'s "games" must be a list.')
    plans: list[GamePlan] = []
    seen: set[str] = set()
    for index, item in enumerate(body["games"]):
        plan = _read_game_reporting(item, index)
        if plan.code in seen:
            raise BackupError(f"Game {index + 1}: the code {plan.code} appears twice.")
        seen.add(plan.code)
        _check_circle_of(plan, index, keys)
        plans.append(plan)
    _refuse_loops(plans)
    return BackupPlan(circles=circles, games=plans)


def _read_version(data: object) -> int:
    """The document's format version, once its format is this app's: one it reads."""
    if not isinstance(data, dict):
        raise BackupError("The document must be a JSON object.")
    for name in ("format", "version"):
        if name not in data:
            raise BackupError(f'The document is missing the field "{name}".')
    if data["format"] != FORMAT:
        raise BackupError(f'This is not a Sticheln companion export (format "{FORMAT}").')
    version = data["version"]
    if type(version) is not int or version not in READ_VERSIONS:  # not true, nor 1.0
        read = ", ".join(map(str, READ_VERSIONS[:-1])) + f" and {READ_VERSIONS[-1]}"
        raise BackupError(
            f"This export has format version {json.dumps(version)[:40]}; this app reads "
            f"versions {read}."
        )
    return version


def _read_circles(value: object) -> list[CirclePlan]:
    """The document's circles, each checked; their keys must differ."""
    if not isinstance(value, list):
        raise BackupError('The document\'s "circles" must be a list.')
    circles: list[CirclePlan] = []
    keys: set[int] = set()
    for index, item in enumerate(value):
        try:
            circle = _read_circle(item)
        except Refusal as error:  # the format's reading or a name's check
            raise BackupError(f"Circle {index + 1}: {render_message(error.message)}") from None
        if circle.key in keys:
            raise BackupError(f"Circle {index + 1}: the key {circle.key} appears twice.")
        keys.add(circle.key)
        circles.append(circle)
    return circles


def _read_circle(item: object) -> CirclePlan:
    """One circle: its key, and a name written as a player's is (``rename_circle``)."""
    obj = parse.fields(item, "The circle", CIRCLE_FIELDS)
    written = parse.string(obj["name"], "name")
    name = clean_name(written)
    if not name:
        raise ServiceError(N_("Every circle needs a name."))
    check_name_characters(written)
    check_name_length(name)
    return CirclePlan(
        key=parse.integer(obj["key"], "key"),
        name=name,
        created_at=parse_time(obj["created_at"], "created_at"),
    )


def _check_circle_of(plan: GamePlan, index: int, keys: set[int] | None) -> None:
    """A game names one of the document's circles (by its key) when the document lists
    circles, and none when it lists none."""
    label = f"Game {index + 1} ({plan.code})"
    if keys is None:
        if plan.circle is not None:
            raise BackupError(
                f'{label}: it names circle {plan.circle}, but the document has no "circles".'
            )
        return
    if plan.circle is None:
        raise BackupError(
            f'{label}: the field "circle" is missing; a document with circles names every game\'s.'
        )
    if plan.circle not in keys:
        raise BackupError(f"{label}: circle {plan.circle} is not one of the document's circles.")


def _refuse_loops(plans: list[GamePlan]) -> None:
    """A table's next game is started after it, so following the next games never comes
    back to a game: a file whose links go round is refused."""
    following = {plan.code: plan.next_game for plan in plans if plan.next_game}
    for index, plan in enumerate(plans):
        seen = {plan.code}
        code = following.get(plan.code)
        while code is not None:
            if code in seen:
                raise BackupError(
                    f"Game {index + 1} ({plan.code}): its next games lead back to a game "
                    "before them."
                )
            seen.add(code)
            code = following.get(code)


def _read_game_reporting(item: object, index: int) -> GamePlan:
    """``read_game``, its refusal naming the game (and the round) it concerns."""
    code = item.get("code") if isinstance(item, dict) else None
    label = f"Game {index + 1}" + (f" ({code})" if isinstance(code, str) else "")
    context = _Context()
    try:
        return read_game(item, context)
    except Refusal as error:  # the API's reading, the rules or a service
        reason = render_message(error.message, context.names)
    where = f", round {context.round}" if context.round else ""
    raise BackupError(f"{label}{where}: {reason}")


@dataclass
class _Context:
    """Where the check is, for a refusal that says so."""

    names: list[str] | None = None
    round: int | None = None


def _next_game(value: object, code: str) -> str | None:
    """The code of the game played next, checked as a code (files written before the field
    existed have none)."""
    if value is None:
        return None
    next_code = parse.string(value, "next_game")
    if not is_game_code(next_code):
        raise ApiError("next_game must be 1 to 16 letters, digits, '-' or '_', or null.")
    if next_code == code:
        raise ApiError("next_game must be another game than the game itself.")
    return next_code


def _game_code(value: object) -> str:
    """The game's code: characters a link can hold, and at least ``MIN_CODE_LENGTH`` of
    them, since the link to a game with a code of a letter or two is found by trying."""
    code = parse.string(value, "code")
    if not is_game_code(code):
        raise ApiError("code must be 1 to 16 letters, digits, '-' or '_'.")
    if len(code) < MIN_CODE_LENGTH:
        raise GameRefusal(
            N_(
                "The code is too short; a game's code has at least %(least)s characters, so "
                "that no one can guess its read-only link."
            ),
            least=MIN_CODE_LENGTH,
        )
    return code


def read_game(item: object, context: _Context) -> GamePlan:
    """Check one game and every round of it against the rules."""
    obj = parse.fields(item, "The game", GAME_FIELDS, ("next_game", "circle"))
    code = _game_code(obj["code"])
    variant = parse.variant(obj["variant"])
    raw_names = [
        parse.string(name, f"players[{seat}]")
        for seat, name in enumerate(parse.listing(obj["players"], "players", MAX_PLAYERS))
    ]
    names = check_names(raw_names, variant)
    context.names = names
    rounds_planned = check_round_count(parse.integer(obj["rounds_planned"], "rounds_planned", 0))
    first_leader = parse.integer(obj["first_leader"], "first_leader", 0, len(names) - 1)
    status = parse.string(obj["status"], "status")
    if status not in GAME_STATUSES:
        raise ApiError(f"status must be one of {', '.join(GAME_STATUSES)}.")
    plan = GamePlan(
        code=code,
        names=names,
        variant=variant,
        rounds_planned=rounds_planned,
        first_leader=first_leader,
        status=status,
        excluded=parse.boolean(obj["excluded"], "excluded"),
        created_at=parse_time(obj["created_at"], "created_at"),
        updated_at=parse_time(obj["updated_at"], "updated_at"),
        next_game=_next_game(obj.get("next_game"), code),
        circle=parse.integer(obj["circle"], "circle") if "circle" in obj else None,
    )
    setup = table_setup(len(names), variant)
    rounds = parse.listing(obj["rounds"], "rounds", rounds_planned)
    for index, round_item in enumerate(rounds):
        context.round = index + 1
        last = index == len(rounds) - 1
        plan.rounds.append(read_round(round_item, index + 1, plan, setup, last))
    context.round = None
    scored = sum(1 for round_ in plan.rounds if round_.status == RoundStatus.SCORED)
    expected = GameStatus.FINISHED if scored >= rounds_planned else GameStatus.IN_PROGRESS
    if status != GameStatus.ABANDONED and status != expected:
        raise ApiError(
            f'status is "{status}", but {scored} of {rounds_planned} rounds are scored '
            f'("{expected}").'
        )
    return plan
