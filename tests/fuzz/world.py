"""The fuzz tests' world: one app per module, *scenes* of games built through the API, and
the checks that tie each answer to the database.

A scene is the set of games a test changes. It is kept for the next example as long as
every request was refused (a refusal changes nothing, which each example checks against a
snapshot of every table, taken when the scene was built); an accepted change is checked for
consistency (the rules, replaying every stored round, give the stored scores; totals are the
sums of the round scores; one game moved on by one version), and the next example starts
from a freshly built scene.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, settings

from companion.data import queries
from companion.data.models import MAX_NAME_LENGTH, Game, PlayerChange, db
from companion.formats.backup import export, reading
from companion.rules import Card, Colour
from companion.services.games import get_game
from companion.services.rounds import mark_colours
from scripts.page_reader import csrf_token
from tests.db_snapshot import snapshot
from tests.fuzz.form_reader import Form, read_forms
from tests.table import Table, auth


def fuzz_settings(examples: int) -> settings:
    """Few examples each (the whole fuzz suite must stay quick on a busy machine), no deadline
    (a scene rebuild makes some examples slower than others), no example database (a run
    must not leave files behind), no "explain" phase (it replays a failure for minutes), and
    no complaint about the module-scoped app. ``FUZZ_SCALE=20`` in the environment runs
    twenty times as many, for a deeper search now and then."""
    return settings(
        max_examples=examples * int(os.environ.get("FUZZ_SCALE", "1")),
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
            HealthCheck.filter_too_much,
        ],
    )


# --------------------------------------------------------------------------------------------
# The world: one app and database per module, scenes rebuilt when a request changed them


@dataclass
class Scene:
    """The games a test works on, the clients that look at them and the forms they saw."""

    games: dict[str, dict[str, Any]]  # name -> API state, with "edit_key"
    editor: FlaskClient  # holds the edit key of every game of the scene
    stranger: FlaskClient  # holds none, but has a session and a valid CSRF token
    stranger_token: str
    editor_token: str
    forms: dict[tuple[str, str], Form] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def form(self, url: str, selector: str = "") -> Form:
        """The form on the editor's page ``url`` whose action or class contains ``selector``
        (read once per scene: the scene does not change while every request is refused)."""
        cache_key = (url, selector)
        if cache_key not in self.forms:
            response = self.editor.get(url)
            assert response.status_code == 200, (url, response.status_code)
            page = response.get_data(as_text=True)
            matching = [f for f in read_forms(page, url) if selector in f.action + f.classes]
            assert matching, f"no form matching {selector!r} on {url}"
            self.forms[cache_key] = matching[0]
        return self.forms[cache_key]


class World:
    """The module's app, its current scene, and the snapshot every refusal must leave."""

    def __init__(self, app: Flask):
        self.app = app
        self.scene_name: str | None = None
        self.scene: Scene | None = None
        self.baseline: dict[str, list[tuple[object, ...]]] = {}
        self.dirty = True

    def snapshot(self) -> dict[str, list[tuple[object, ...]]]:
        """Every row of every table."""
        with self.app.app_context():
            return snapshot()

    def reset(self) -> None:
        """Empty every table (faster than dropping them, on SQLite and PostgreSQL alike)."""
        with self.app.app_context():
            for table in reversed(db.metadata.sorted_tables):
                db.session.execute(table.delete())
            db.session.commit()

    def use(self, name: str, build: Callable[[SceneBuilder], None]) -> Scene:
        """The scene ``name``, rebuilt from an empty database if another scene was in use or
        the last request changed it."""
        if self.dirty or self.scene_name != name or self.scene is None:
            self.reset()
            builder = SceneBuilder(self.app)
            build(builder)
            self.scene = builder.finish()
            self.scene_name = name
            self.baseline = self.snapshot()
            self.dirty = False
        return self.scene

    def sending(self) -> None:
        """A request is about to be sent: until it is known to have changed nothing, the
        scene counts as changed (an example that fails halfway leaves a fresh scene to the
        next one, as Hypothesis replays and shrinks)."""
        self.dirty = True

    def refused(self, where: str) -> None:
        """A refusal: the database must be exactly the snapshot taken when the scene was
        built (every request since was refused too)."""
        after = self.snapshot()
        if after != self.baseline:
            changed = [name for name in after if after[name] != self.baseline.get(name)]
            raise AssertionError(f"a refused request changed the tables {changed}: {where}")
        self.dirty = False

    def accepted(self, keep_scene: bool = False) -> None:
        """An accepted change: every game must still be consistent, and at most one game
        moved on, by one version; a rename or merge moves on exactly the games its journal
        entry names. The next example starts from a fresh scene, or, when the change leaves
        the scene's games alone (``keep_scene``: a new game), from the database as it is
        now."""
        self.dirty = True
        with self.app.app_context():
            check_every_game()
            versions = {
                code: version
                for code, version in db.session.execute(sa.select(Game.code, Game.version))
            }
            renamed = name_changed_games(len(self.baseline.get(PlayerChange.__tablename__, [])))
            db.session.rollback()
        games = self.scene.games.values() if self.scene else []
        moved = {
            g["id"]: versions[g["id"]]
            for g in games
            if versions.get(g["id"], g["version"]) != g["version"]
        }
        if renamed:
            assert set(moved) == renamed & {g["id"] for g in games}, (moved, renamed)
        else:
            assert len(moved) <= 1, f"one change moved several games on: {moved}"
        for game in games:
            if game["id"] in moved:
                assert moved[game["id"]] == game["version"] + 1, (game["version"], moved)
        if keep_scene and not moved:
            self.baseline = self.snapshot()
            self.dirty = False


def name_changed_games(known: int) -> set[str]:
    """The codes of the games the journal's entries after the first ``known`` moved on."""
    changes = db.session.scalars(sa.select(PlayerChange).order_by(PlayerChange.id).offset(known))
    ids = {game_id for change in changes for game_id in change.moved["games"]}
    return set(db.session.scalars(sa.select(Game.code).where(Game.id.in_(ids)))) if ids else set()


def check_every_game() -> None:
    """Every stored game reads back as an import would check it (names, rounds in order,
    every round scored again by the rules and giving the stored scores, the status matching
    the rounds scored), and each total is the sum of the round scores."""
    db.session.expire_all()
    games = list(db.session.scalars(sa.select(Game).order_by(Game.id)))
    documents = [export.game_document(game) for game in games]
    reading.read_document(export.document(documents))  # raises BackupError if inconsistent
    for game, document in zip(games, documents, strict=True):
        totals = queries.totals_of(game).totals
        sums = [0] * len(game.seats)
        for round_ in document["rounds"]:
            for seat, score in enumerate(round_["scores"] or []):
                sums[seat] += score
        assert totals == sums, (game.code, totals, sums)
        assert all(0 < len(name) <= MAX_NAME_LENGTH for name in document["players"])
    db.session.rollback()


class SceneBuilder:
    """Builds a scene through the JSON API, as phones make games (tests/table.py)."""

    def __init__(self, app: Flask):
        self.app = app
        self.table = Table(app, app.test_client())
        self.api = self.table.client
        self.games: dict[str, dict[str, Any]] = {}
        self.extra: dict[str, Any] = {}
        self.editor = app.test_client()

    def game(
        self,
        name: str,
        variant: Any,
        players: Sequence[str],
        rounds: int = 3,
        first_leader: int = 0,
        editable: bool = True,
    ) -> dict[str, Any]:
        """A new game; the scene's editor opens its edit link (unless not ``editable``)."""
        state = self.table.new_game(players, variant, rounds, first_leader)
        self.games[name] = state
        if editable:
            self.table.give_edit_rights(self.editor, state)
        return state

    def call(self, name: str, method: str, path: str, body: Any, status: int) -> dict[str, Any]:
        """An API change to game ``name`` with its key and version; the state follows."""
        state = self.games[name]
        answer = self.api.open(
            f"/api/v1/games/{state['id']}{path}",
            method=method,
            json={"version": state["version"], **body},
            headers=auth(state),
        )
        assert answer.status_code == status, answer.get_json()
        new_state: dict[str, Any] = answer.get_json()
        state.update(new_state)
        return state

    def record(self, name: str, entries: list[Any]) -> None:
        """Record the next round of game ``name``."""
        self.table.record(self.games[name], entries)

    def mark(self, name: str, marked: list[list[dict[str, Any]]]) -> None:
        """Mark the colours of the next round of game ``name`` (as the mark page does)."""
        state = self.games[name]
        with self.app.app_context():
            game = get_game(state["id"], for_update=True)
            cards = [tuple(Card(Colour(c["colour"]), c["value"]) for c in seat) for seat in marked]
            mark_colours(game, game.version, cards)
            db.session.commit()
        self.refresh(name)

    def refresh(self, name: str) -> None:
        """Read game ``name``'s state again (after a change made through a page)."""
        state = self.games[name]
        state.update(self.api.get(f"/api/v1/games/{state['id']}").get_json())

    def finish(self) -> Scene:
        """The scene, with a stranger: a phone with a session and a CSRF token of its own
        but no edit key."""
        stranger = self.app.test_client()
        token = csrf_token(stranger.get("/games/new").get_data(as_text=True))
        editor_token = csrf_token(self.editor.get("/games/new").get_data(as_text=True))
        return Scene(self.games, self.editor, stranger, token, editor_token, extra=self.extra)
