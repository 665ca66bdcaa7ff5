"""The table the tests play at: games, rounds and edit rights made the way phones make
them, through the JSON API and the edit link (the ``table`` fixture; flaskr's
``AuthActions`` is the model).

A game is the API's answer (a dict) with its ``edit_key`` kept; :meth:`Table.record` and
:meth:`Table.correct` update it in place, so the next write carries the current version.
A "phone" is a Flask test client with a cookie jar of its own: the one that opened the edit
link holds the edit key in its session, any other one can only look.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from flask import Flask
from flask.testing import FlaskClient

NAMES = ["Ann", "Ben", "Cleo"]


def same_phone(app: Flask, phone: FlaskClient) -> FlaskClient:
    """Another test client with ``phone``'s session cookie as it is now: the same phone,
    in another tab or after an answer it never saw (whose cookie it never got)."""
    other = app.test_client()
    name = app.config["SESSION_COOKIE_NAME"]
    cookie = phone.get_cookie(name)
    if cookie is not None:
        other.set_cookie(name, cookie.value)
    return other


class AsJson(Protocol):
    """A rules entry (QuickEntry, FullEntry...) the API takes as JSON."""

    def as_json(self) -> Any: ...


Entry = Mapping[str, Any] | AsJson


def auth(game: Mapping[str, Any], key: str | None = None) -> dict[str, str]:
    """The header that proves the edit key (``key``, else the game's own)."""
    return {"Authorization": f"Bearer {key or game['edit_key']}"}


def as_json(entries: Sequence[Entry]) -> list[Any]:
    """Entries as the API takes them: dicts as they are, rules entries through as_json()."""
    return [entry if isinstance(entry, Mapping) else entry.as_json() for entry in entries]


class Table:
    """Games, rounds and phones for one test, on ``app`` through ``client``. One table is
    one circle (issue 28): its first game starts a new circle, whose invite key it keeps and
    sends with its next games (a club server has one circle, and answers no key)."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        self.app = app
        self.client = client
        self.circle_key: str | None = None

    def new_game(
        self,
        players: Sequence[str] = NAMES,
        variant: Any = "classic",
        rounds: int = 1,
        first_leader: int = 0,
        *,
        edit_here: bool = False,
    ) -> dict[str, Any]:
        """A new game through the API; the answer keeps its edit key. With ``edit_here``,
        the table's own phone (the ``client`` fixture) opens the edit link, as the phone
        that keeps the score does."""
        answer = self.client.post(
            "/api/v1/games",
            json={
                "players": list(players),
                "variant": variant,
                "rounds": rounds,
                "first_leader": first_leader,
            },
            headers={}
            if self.circle_key is None
            else {"Authorization": f"Bearer {self.circle_key}"},
        )
        assert answer.status_code == 201, answer.json
        game: dict[str, Any] = answer.json
        if "circle" in game:
            self.circle_key = game["circle"]["invite_key"]
        if edit_here:
            self.give_edit_rights(self.client, game)
        return game

    def record(self, game: dict[str, Any], entries: Sequence[Entry]) -> dict[str, Any]:
        """Record the next round (quick, full or delayed entries); ``game`` follows."""
        return self._write("POST", game, f"/api/v1/games/{game['id']}/rounds", entries, 201)

    def correct(
        self, game: dict[str, Any], number: int, entries: Sequence[Entry]
    ) -> dict[str, Any]:
        """Correct round ``number``; ``game`` follows the new version."""
        url = f"/api/v1/games/{game['id']}/rounds/{number}"
        return self._write("PUT", game, url, entries, 200)

    def _write(
        self, method: str, game: dict[str, Any], url: str, entries: Sequence[Entry], status: int
    ) -> dict[str, Any]:
        """Send a round with the game's version and key; the game follows the answer."""
        answer = self.client.open(
            url,
            method=method,
            json={"version": game["version"], "entries": as_json(entries)},
            headers=auth(game),
        )
        assert answer.status_code == status, answer.json
        game.update(answer.json)
        return game

    def state(self, game: Mapping[str, Any]) -> dict[str, Any]:
        """The game as the API shows it now."""
        answer = self.client.get(f"/api/v1/games/{game['id']}")
        assert answer.status_code == 200
        state: dict[str, Any] = answer.json
        return state

    def give_edit_rights(
        self, phone: FlaskClient, game: Mapping[str, Any], key: str | None = None
    ) -> FlaskClient:
        """Open the game's edit link (with ``key``, else the game's current key) on
        ``phone``, as another phone at the table would."""
        opened = phone.get(f"/g/{game['id']}/edit/{key or game['edit_key']}")
        assert opened.status_code == 302, opened.status_code
        assert opened.headers["Location"] == f"/g/{game['id']}"
        # A browser follows the redirect: the scoreboard says once that the phone keeps the
        # score now (companion/web/save_notice.py), so the phone's next pages are the usual.
        confirmed = phone.get(opened.headers["Location"])
        assert confirmed.status_code == 200, confirmed.status_code
        assert "notice--saved" in confirmed.get_data(as_text=True)
        return phone

    def phone(self, game: Mapping[str, Any] | None = None, key: str | None = None) -> FlaskClient:
        """A new phone; given a game, it holds the game's edit key (``key``, else the
        current one) from its edit link; without, it can only look."""
        phone = self.app.test_client()
        if game is not None:
            self.give_edit_rights(phone, game, key)
        return phone
