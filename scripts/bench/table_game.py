"""The game at the table, played through the JSON API: the 8-player game, the live one,
and the 20 games of the table's phone."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

from scripts.bench.servers import Answer, request
from scripts.bench.settings import COLOURS, NAMES, PHONE_GAMES, TRICKS


def card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def round_entries(number: int) -> list[dict[str, Any]]:
    """A quick entry per seat of an 8-player classic round."""
    turn = number % len(TRICKS)
    tricks = TRICKS[turn:] + TRICKS[:turn]
    return [
        {
            "marked": [card(colour, 10 + seat)],
            "tricks": tricks[seat],
            "marked_captured": [card(colour, seat)] if seat % 3 == 0 else [],
        }
        for seat, colour in enumerate(COLOURS)
    ]


@dataclass
class Table:
    """The 8-player game: its code, edit link and a session cookie holding its edit key."""

    code: str
    edit_path: str
    cookie: str


@dataclass
class Phone:
    """The phone that keeps the score at the table: a session holding the edit keys of
    ``PHONE_GAMES`` games (the table's among them), opened by their edit links."""

    cookie: str
    edit_paths: list[str]
    live_path: str  #: the live page of an 8-player game playing round 6, 3 tricks in
    four_players: str  #: the code of a 4-player game with no round yet


def new_game(port: int, names: list[str], rounds: int) -> tuple[str, str, int]:
    """A classic game started through the API: its code, edit key and version."""
    answer = request(
        port,
        "POST",
        "/api/v1/games",
        {"players": names, "variant": "classic", "rounds": rounds, "first_leader": 0},
    )
    if answer.status != 201:
        sys.exit(f"could not create a game: {answer.status} {answer.body[:300]!r}")
    game = json.loads(answer.body)
    return game["id"], game["edit_key"], game["version"]


def send(port: int, key: str, path: str, body: dict[str, Any], method: str = "POST") -> int:
    """A change sent with the game's edit key; the game's version after it."""
    answer = request(port, method, path, body, {"Authorization": f"Bearer {key}"})
    if answer.status not in (200, 201):
        sys.exit(f"{method} {path} failed: {answer.status} {answer.body[:300]!r}")
    return int(json.loads(answer.body)["version"])


def scored_game(port: int, rounds: int, planned: int = 10) -> tuple[str, str, int]:
    """An 8-player game of ``planned`` rounds with ``rounds`` scored, through the API."""
    code, key, version = new_game(port, NAMES, planned)
    for number in range(rounds):
        body = {"version": version, "entries": round_entries(number)}
        version = send(port, key, f"/api/v1/games/{code}/rounds", body)
    return code, key, version


def open_session(port: int, edit_path: str, cookie: str | None = None) -> str:
    """The session cookie a phone holds after opening ``edit_path`` (with ``cookie`` before)."""
    answer = request(port, "GET", edit_path, headers={"Cookie": cookie} if cookie else None)
    renewed = session_cookie(answer)
    if answer.status != 302 or renewed is None:
        sys.exit(f"the edit link gave no session: {answer.status}")
    return renewed


def settled(port: int, code: str, cookie: str) -> str:
    """The session after its scoreboard: the scoreboard puts a CSRF token in the session
    the first time, so keep it, as a browser would, and every later request sends the same
    session."""
    for _ in range(3):
        answer = request(port, "GET", f"/g/{code}", headers={"Cookie": cookie})
        renewed = session_cookie(answer)
        if renewed is None or renewed == cookie:
            break
        cookie = renewed
    return cookie


def play_table_game(port: int, rounds: int) -> Table:
    """An 8-player game of 10 rounds with ``rounds`` scored, through the API; then the edit
    link opened, as the phone that keeps the score would."""
    code, key, _version = scored_game(port, rounds)
    edit_path = f"/g/{code}/edit/{key}"
    return Table(code, edit_path, settled(port, code, open_session(port, edit_path)))


def four_player_round() -> list[dict[str, Any]]:
    """A quick entry per seat of a 4-player classic round."""
    return [
        {"marked": [card(colour, value)], "tricks": tricks, "marked_captured": []}
        for colour, value, tricks in (
            ("red", 1, 4),
            ("blue", 2, 3),
            ("green", 3, 4),
            ("yellow", 0, 3),
        )
    ]


def phone_with_games(port: int, table_: Table, rounds: int) -> Phone:
    """The table's phone holding ``PHONE_GAMES`` games: the table's, an 8-player game
    playing round ``rounds + 1`` live (3 tricks in), a 4-player game with no round yet, and
    4-player games in progress (1 of 3 rounds scored) and finished (2 of 2), half and half."""
    live_code, live_key, version = scored_game(port, rounds)
    marked = [entry["marked"] for entry in round_entries(rounds)]
    version = send(
        port,
        live_key,
        f"/api/v1/games/{live_code}/rounds/live",
        {"version": version, "marked": marked},
    )
    for colour in ("green", "yellow", "brown"):
        body = {"version": version, "cards": [card(colour, value) for value in range(len(NAMES))]}
        version = send(
            port, live_key, f"/api/v1/games/{live_code}/rounds/{rounds + 1}/tricks", body
        )
    four_code, four_key, _ = new_game(port, NAMES[:4], 3)
    games = [(live_code, live_key), (four_code, four_key)]
    for number in range(PHONE_GAMES - 3):
        finished = number % 2 == 1
        code, key, version = new_game(
            port, NAMES[number % 4 : number % 4 + 4], 2 if finished else 3
        )
        for _ in range(2 if finished else 1):
            body = {"version": version, "entries": four_player_round()}
            version = send(port, key, f"/api/v1/games/{code}/rounds", body)
        games.append((code, key))
    cookie, paths = table_.cookie, [table_.edit_path]
    for code, key in games:
        paths.append(f"/g/{code}/edit/{key}")
        cookie = open_session(port, paths[-1], cookie)
    return Phone(
        settled(port, table_.code, cookie),
        paths,
        f"/g/{live_code}/rounds/{rounds + 1}/live",
        four_code,
    )


def session_cookie(answer: Answer) -> str | None:
    """The session cookie's ``name=value`` pair an answer sets, if it sets one."""
    from companion.config import SESSION_COOKIE_NAME

    cookies = [c.split(";", 1)[0] for c in answer.headers.get_all("Set-Cookie") or []]
    session = [c for c in cookies if c.startswith(f"{SESSION_COOKIE_NAME}=")]
    return session[-1] if session else None
