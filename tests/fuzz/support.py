"""What every fuzz test shares: one app per module, scenes of games rebuilt only when a
request changed them, the checks every answer must pass, and the strategies that make
arbitrary and mutated requests.

The promise under test (DESIGN.md, quality bars): no request, however malformed, gets a 500;
a refusal is a clear error (API: ``{"error": "<sentence>"}``; pages: a message beside the
field) and leaves the database exactly as it was; an accepted change leaves every game
consistent (the rules, replaying each stored round, give the stored scores). Names with
markup must come back escaped on every page.

A *scene* is the set of games a test changes. It is built through the API, and kept for the
next example as long as every request was refused (a refusal changes nothing, which each
example checks against a snapshot of every table); an accepted change marks it dirty, and the
next example starts from a freshly built scene.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote_from_bytes, urldefrag, urljoin, urlsplit

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from companion import backup, services
from companion.edit_rights import SESSION_KEYS
from companion.models import MAX_NAME_LENGTH, Game, db
from companion.rules import Card, Colour, RuleError, table_setup, variant_named
from companion.rules.hat_trick import Play
from tests.db_snapshot import snapshot


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
        moved on, by one version. The next example starts from a fresh scene, or, when the
        change leaves the scene's games alone (``keep_scene``: a new game), from the
        database as it is now."""
        self.dirty = True
        with self.app.app_context():
            check_every_game()
            versions = {
                code: version
                for code, version in db.session.execute(sa.select(Game.code, Game.version))
            }
            db.session.rollback()
        games = self.scene.games.values() if self.scene else []
        moved = {
            g["id"]: versions[g["id"]]
            for g in games
            if versions.get(g["id"], g["version"]) != g["version"]
        }
        assert len(moved) <= 1, f"one change moved several games on: {moved}"
        for game in games:
            if game["id"] in moved:
                assert moved[game["id"]] == game["version"] + 1, (game["version"], moved)
        if keep_scene and not moved:
            self.baseline = self.snapshot()
            self.dirty = False


def check_every_game() -> None:
    """Every stored game reads back as an import would check it (names, rounds in order,
    every round scored again by the rules and giving the stored scores, the status matching
    the rounds scored), and each total is the sum of the round scores."""
    db.session.expire_all()
    games = list(db.session.scalars(sa.select(Game).order_by(Game.id)))
    documents = [backup.game_document(game) for game in games]
    backup.read_document(backup.document(documents))  # raises BackupError if inconsistent
    for game, document in zip(games, documents, strict=True):
        totals = services.totals_of(game).totals
        sums = [0] * len(game.seats)
        for round_ in document["rounds"]:
            for seat, score in enumerate(round_["scores"] or []):
                sums[seat] += score
        assert totals == sums, (game.code, totals, sums)
        assert all(0 < len(name) <= MAX_NAME_LENGTH for name in document["players"])
    db.session.rollback()


class SceneBuilder:
    """Builds a scene through the JSON API, as a client would."""

    def __init__(self, app: Flask):
        self.app = app
        self.api = app.test_client()
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
        """A new game, editable from the scene's editor (unless not ``editable``)."""
        answer = self.api.post(
            "/api/v1/games",
            json={
                "players": list(players),
                "variant": variant,
                "rounds": rounds,
                "first_leader": first_leader,
            },
        )
        assert answer.status_code == 201, answer.get_json()
        state: dict[str, Any] = answer.get_json()
        self.games[name] = state
        if editable:
            with self.editor.session_transaction() as session:
                keys = dict(session.get(SESSION_KEYS, {}))
                keys[state["id"]] = state["edit_key"]
                session[SESSION_KEYS] = keys
        return state

    def call(self, name: str, method: str, path: str, body: Any, status: int) -> dict[str, Any]:
        """An API change to game ``name`` with its key and version; the state follows."""
        state = self.games[name]
        answer = self.api.open(
            f"/api/v1/games/{state['id']}{path}",
            method=method,
            json={"version": state["version"], **body},
            headers={"Authorization": f"Bearer {state['edit_key']}"},
        )
        assert answer.status_code == status, answer.get_json()
        new_state: dict[str, Any] = answer.get_json()
        state.update(new_state)
        return state

    def record(self, name: str, entries: list[Any]) -> None:
        """Record the next round of game ``name``."""
        self.call(name, "POST", "/rounds", {"entries": entries}, 201)

    def mark(self, name: str, marked: list[list[dict[str, Any]]]) -> None:
        """Mark the colours of the next round of game ``name`` (as the mark page does)."""
        state = self.games[name]
        with self.app.app_context():
            game = services.get_game(state["id"], for_update=True)
            cards = [tuple(Card(Colour(c["colour"]), c["value"]) for c in seat) for seat in marked]
            services.mark_colours(game, game.version, cards)
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
        token = csrf_token_of(stranger.get("/games/new").get_data(as_text=True))
        editor_token = csrf_token_of(self.editor.get("/games/new").get_data(as_text=True))
        return Scene(self.games, self.editor, stranger, token, editor_token, extra=self.extra)


def csrf_token_of(page: str) -> str:
    """The CSRF token of the first form of ``page``."""
    forms = read_forms(page, "/")
    token = next((v for f in forms for k, v in f.fields if k == "csrf_token"), None)
    assert token, "the page has no CSRF token"
    return token


# --------------------------------------------------------------------------------------------
# Legal rounds, to mutate


def card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def legal_entries(players: int, variant: str, quick: bool = False) -> list[dict[str, Any]]:
    """A complete legal round in the API's shape: indicators first (seat s marks the deck's
    s-th colour; two with Aggravated), left-out cards unnamed, the rest captured trick by
    trick round-robin (the same construction as tests/api/test_fuzz.py)."""
    setup = table_setup(players, variant_named(variant))
    pool = [card(c.colour.value, c.value) for c in setup.deck]
    colours = [c.value for c in setup.deck.colours]
    laid = setup.cards_laid_out
    marked = []
    for seat in range(players):
        picks = []
        for k in range(laid):
            pick = next(c for c in pool if c["colour"] == colours[(seat + k) % len(colours)])
            pool.remove(pick)
            picks.append(pick)
        marked.append(picks)
    pool = pool[: setup.tricks_per_round * players]
    captured: list[list[Any]] = [[] for _ in range(players)]
    for trick in range(setup.tricks_per_round):
        captured[trick % players].extend(pool[trick * players : (trick + 1) * players])
    entries: list[dict[str, Any]] = []
    for seat in range(players):
        if variant == "hat-trick":
            passed = [captured[seat].pop()] if seat == 1 else []
            if quick:
                counts = {c: sum(x["colour"] == c for x in captured[seat]) for c in colours}
                entries.append({"counts": counts, "passed": len(passed)})
            else:
                entries.append({"captured": captured[seat], "passed": passed})
        elif laid == 0:
            entries.append({"captured": captured[seat]})
        elif quick:
            own = {c["colour"] for c in marked[seat]}
            entries.append(
                {
                    "marked": marked[seat],
                    "tricks": len(captured[seat]) // players,
                    "marked_captured": [c for c in captured[seat] if c["colour"] in own],
                }
            )
        else:
            entries.append({"marked": marked[seat], "captured": captured[seat]})
    return entries


def legal_marked(players: int, variant: str) -> list[list[dict[str, Any]]]:
    """Each seat's indicator cards of a legal round (empty lists when none are laid out)."""
    return [entry.get("marked", []) for entry in legal_entries(players, variant)]


def next_legal_trick(app: Flask, code: str, number: int) -> list[dict[str, Any]]:
    """Plays for the next trick of a live round that the rules accept (C1, C6, R19): each
    seat in turn plays the first card of the deck that is still in a hand and keeps the
    trick legal so far."""
    with app.app_context():
        game = services.get_game(code)
        round_ = services.round_of(game, number)
        live = services.live_round_of(game, round_)
        out = set(live.cards_out()) | {c for cards in live.marked for c in cards}
        plays: list[Play] = []
        for _seat in range(live.setup.players):
            for candidate in live.setup.deck:
                if candidate in out or any(p.card == candidate for p in plays):
                    continue
                try:
                    live.check_partial_trick([*plays, Play(candidate)])
                except RuleError:  # the rules refuse this card here: try the next one
                    continue
                plays.append(Play(candidate))
                break
        db.session.rollback()
        return [play.card.as_json() for play in plays]


# --------------------------------------------------------------------------------------------
# Answers: never a 500; API refusals are {"error": ...}; no markup comes back unescaped


#: Markup a player might type as a name; it must be shown as text, never as markup.
MARKUP = [
    '<script>alert("fz")</script>',
    '"><img src=x onerror=alert(1)>',
    "<b>fz</b>",
    "</title><svg onload=alert(1)>",
]
#: What would be in a page if the markup above were not escaped.
MARKUP_PROBES = ["<script>alert", "<img src=x", "<b>fz", "<svg onload"]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)


def check_page(response: TestResponse, where: str) -> str:
    """A page answer: no 500, no markup from the input, no inline script."""
    text = response.get_data(as_text=True)
    context = f"{where} answered {response.status_code}: {text[:300]!r}"
    assert response.status_code < 500, context
    if response.mimetype == "text/html":
        for probe in MARKUP_PROBES:
            assert probe not in text, f"unescaped markup {probe!r} in the page: {where}"
        assert not INLINE_SCRIPT.search(text), f"inline script in the page: {where}"
    if response.status_code in (301, 302, 303, 307, 308):
        location = response.headers.get("Location", "")
        assert urlsplit(location).netloc in ("", "localhost"), context
    return text


def check_api(response: TestResponse, where: str) -> Any:
    """An API answer: no 500, JSON; a refusal is ``{"error": "<sentence>"}`` (409 adds the
    current ``version``)."""
    text = response.get_data(as_text=True)
    context = f"{where} answered {response.status_code}: {text[:400]}"
    assert response.status_code < 500, context
    if is_redirect(response):  # Werkzeug's 308 from "//" to "/": to the same site
        assert urlsplit(response.headers["Location"]).netloc in ("", "localhost"), context
        return None
    assert response.mimetype == "application/json", context
    answer = json.loads(text)
    if response.status_code >= 400:
        assert isinstance(answer, dict), context
        assert isinstance(answer.get("error"), str) and answer["error"].strip(), context
        allowed = {"error", "version"} if response.status_code == 409 else {"error"}
        assert set(answer) <= allowed, context
    return answer


def is_redirect(response: TestResponse) -> bool:
    return response.status_code in (301, 302, 303, 307, 308)


# --------------------------------------------------------------------------------------------
# JSON strategies


COLOURS = ["red", "blue", "green", "yellow", "brown", "violet"]
PRESETS = ["classic", "mild", "reverse", "aggravated", "hazy", "delayed", "hat-trick"]
FIELD_NAMES = [
    "players",
    "variant",
    "rounds",
    "first_leader",
    "version",
    "entries",
    "marked",
    "captured",
    "tricks",
    "marked_captured",
    "choose",
    "counts",
    "passed",
    "cards",
    "plays",
    "colour",
    "value",
    "pass",
]
HUGE_TEXT = st.sampled_from([41, 300, 5000]).map(lambda n: "é" * n)
ODD_TEXT = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "A\x00B",
        # DEV-SURROGATES
        "\u202eevil",
        "\ufeff",
        "Ann",
        "ann",
        " Ann ",
        "A" * MAX_NAME_LENGTH,
        "A" * (MAX_NAME_LENGTH + 1),
        "🂡" * 40,
        "Ζωή",
        *MARKUP,
    ]
)
KEYS = st.sampled_from(FIELD_NAMES + COLOURS) | st.text(max_size=8)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.integers(min_value=-2, max_value=22)
    | st.sampled_from([2**31, 2**31 + 1, 2**63, -(2**63) - 1, 10**10])
    | st.floats()
    | st.text(max_size=12)
    | ODD_TEXT
    | HUGE_TEXT
    | st.sampled_from(COLOURS + PRESETS + ["open", "hazy", "delayed"])
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(KEYS, children, max_size=5),
    max_leaves=25,
)
#: Arbitrary bodies: any JSON value, or an object with known and unknown keys.
ARBITRARY_BODIES = JSON_VALUES | st.dictionaries(KEYS, JSON_VALUES, max_size=6)


def nodes(value: Any, parent: Any = None, key: Any = None) -> Iterator[tuple[Any, Any, Any]]:
    """Every (parent, key, value) in a JSON tree, the root's parent being a holder."""
    yield parent, key, value
    if isinstance(value, dict):
        for k, v in list(value.items()):
            yield from nodes(v, value, k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nodes(v, value, i)


def _contains(outer: Any, inner: Any) -> bool:
    return any(value is inner for _, _, value in nodes(outer))


TYPE_CHANGES: list[Callable[[Any], Any]] = [
    str,
    lambda v: float(v) if isinstance(v, int) and abs(v) < 2**53 else 1.5,
    lambda v: [v],
    lambda v: {"value": v},
    lambda v: None,
    lambda v: True,
    lambda v: "",
]

MUTATIONS = [
    "delete key",
    "add key",
    "replace",
    "change type",
    "tweak number",
    "duplicate",
    "drop",
    "swap",
    "odd text",
]


@st.composite
def mutated(draw: st.DrawFn, legal: Any, most: int = 3) -> Any:
    """``legal`` after one to ``most`` random mutations: a key dropped or added, a value
    replaced, of another type or out of range, a list item (a card) duplicated or dropped,
    two values swapped, odd or huge text."""
    holder = {"body": copy.deepcopy(legal)}
    for _ in range(draw(st.integers(min_value=1, max_value=most))):
        everything = list(nodes(holder["body"], holder, "body"))
        dicts = [n for n in everything if isinstance(n[2], dict) and n[2]]
        lists = [n for n in everything if isinstance(n[2], list) and n[2]]
        numbers = [n for n in everything if type(n[2]) is int]
        kind = draw(st.sampled_from(MUTATIONS))
        if kind == "delete key" and dicts:
            _, _, obj = draw(st.sampled_from(dicts))
            del obj[draw(st.sampled_from(sorted(obj)))]
        elif kind == "add key" and dicts:
            _, _, obj = draw(st.sampled_from(dicts))
            obj[draw(KEYS)] = draw(JSON_VALUES)
        elif kind == "tweak number" and numbers:
            parent, key, value = draw(st.sampled_from(numbers))
            parent[key] = draw(
                st.sampled_from([value - 1, value + 1, -value, 0, -1, 21, 10**4 + 1, 2**31 + 1])
            )
        elif kind == "change type" and len(everything) > 1:
            parent, key, value = draw(st.sampled_from(everything[1:]))
            parent[key] = draw(st.sampled_from(TYPE_CHANGES))(value)
        elif kind == "duplicate" and lists:
            _, _, items = draw(st.sampled_from(lists))
            item = draw(st.sampled_from(items))
            items.insert(draw(st.integers(0, len(items))), copy.deepcopy(item))
        elif kind == "drop" and lists:
            _, _, items = draw(st.sampled_from(lists))
            items.pop(draw(st.integers(0, len(items) - 1)))
        elif kind == "swap" and len(everything) > 2:
            (p1, k1, v1), (p2, k2, v2) = draw(
                st.lists(st.sampled_from(everything[1:]), min_size=2, max_size=2)
            )
            if v1 is not v2 and not _contains(v1, v2) and not _contains(v2, v1):
                p1[k1], p2[k2] = copy.deepcopy(v2), copy.deepcopy(v1)
        elif kind == "odd text":
            parent, key, _value = draw(st.sampled_from(everything))
            parent[key] = draw(ODD_TEXT | HUGE_TEXT)
        else:
            parent, key, _value = draw(st.sampled_from(everything))
            known = st.sampled_from([n[2] for n in everything]).map(copy.deepcopy)
            parent[key] = draw(JSON_VALUES | known)
    return holder["body"]


def maybe_mutated(legal: Any) -> st.SearchStrategy[Any]:
    """The legal body itself one time in five, a mutation of it three in five, anything
    else one in five."""
    return st.integers(0, 4).flatmap(
        lambda n: st.just(legal) if n == 0 else ARBITRARY_BODIES if n == 4 else mutated(legal)
    )


def json_bytes(body: Any) -> bytes:
    """``body`` as JSON text, lone surrogates kept as ``\\udxxx`` escapes (valid JSON text
    that decodes to a string no database can store)."""
    return json.dumps(body).encode()


# --------------------------------------------------------------------------------------------
# Who sends a change


AUTH_MODES = ["key", "none", "wrong", "other game", "lowercase", "no scheme", "basic", "empty"]
#: The game's own key about half the time, so that changes get past the door as often as not.
AUTH = st.sampled_from(["key"] * 5 + AUTH_MODES[1:])


def auth_headers(mode: str, key: str, other_key: str) -> dict[str, str]:
    """The Authorization header a client sends: the game's key, none, or a wrong one."""
    header = {
        "key": f"Bearer {key}",
        "wrong": f"Bearer {key[:-1]}{'A' if key[-1] != 'A' else 'B'}",
        "other game": f"Bearer {other_key}",
        "lowercase": f"bearer {key}",
        "no scheme": key,
        "basic": f"Basic {key}",
        "empty": "Bearer ",
    }.get(mode)
    return {"Authorization": header} if header is not None else {}


def auth_opens(mode: str) -> bool:
    """Whether the header of ``mode`` carries the game's own key."""
    return mode in ("key", "lowercase")


# --------------------------------------------------------------------------------------------
# Forms: read as a browser would, mutated, sent as raw bodies


@dataclass
class Form:
    """A page's form: what a browser would send (without pressing a named button), the
    values each name could take (chips, options, radios), and the named buttons."""

    action: str
    classes: str
    fields: list[tuple[str, str]]
    choices: dict[str, list[str]]
    buttons: list[tuple[str, str]]

    def version(self) -> str | None:
        return next((v for k, v in self.fields if k == "version"), None)


class _FormReader(HTMLParser):
    def __init__(self, url: str):
        super().__init__(convert_charrefs=True)
        self.url = url
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []
        self.textarea: str | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            if a.get("method", "get").lower() == "post":
                action = urldefrag(urljoin(self.url, a.get("action") or self.url)).url
                self.form = Form(action, a.get("class", ""), [], {}, [])
            return
        form = self.form
        name = a.get("name")
        if form is None or not name:
            return
        if tag == "input":
            kind = a.get("type", "text").lower()
            value = a.get("value", "on" if kind in ("checkbox", "radio") else "")
            if kind in ("checkbox", "radio"):
                form.choices.setdefault(name, []).append(value)
                if "checked" in a:
                    form.fields.append((name, value))
            elif kind in ("submit", "image"):
                form.buttons.append((name, value))
                form.choices.setdefault(name, []).append(value)
            else:
                form.fields.append((name, value))
        elif tag == "button" and a.get("type", "submit").lower() == "submit":
            form.buttons.append((name, a.get("value", "")))
            form.choices.setdefault(name, []).append(a.get("value", ""))
        elif tag == "select":
            self.select, self.options = name, []
        elif tag == "option" and self.select:
            value = a.get("value", "")
            self.options.append((value, "selected" in a))
            form.choices.setdefault(self.select, []).append(value)
        elif tag == "textarea":
            self.textarea, self.text = name, ""

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        form = self.form
        if form is None:
            return
        if tag == "form":
            self.forms.append(form)
            self.form = None
        elif tag == "select" and self.select:
            chosen = [v for v, selected in self.options if selected] or [
                v for v, _ in self.options[:1]
            ]
            form.fields.extend((self.select, v) for v in chosen)
            self.select = None
        elif tag == "textarea" and self.textarea:
            form.fields.append((self.textarea, self.text))
            self.textarea = None


def read_forms(page: str, url: str) -> list[Form]:
    """Every POST form of ``page``."""
    reader = _FormReader(url)
    reader.feed(page)
    return reader.forms


Pairs = list[tuple[str | bytes, str | bytes]]


def encode_form(pairs: Pairs, junk: bytes = b"") -> bytes:
    """``application/x-www-form-urlencoded`` as a browser sends it; bytes are sent as they
    are (invalid UTF-8 too), text with lone surrogates as the bytes Python gives them;
    ``junk`` is appended raw (stray ``&``, bad percent escapes)."""

    def part(value: str | bytes) -> str:
        raw = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
        return quote_from_bytes(raw, safe="")

    body = "&".join(f"{part(k)}={part(v)}" for k, v in pairs).encode()
    return body + junk


#: Values a form field might receive from a broken or hostile client.
GARBAGE_VALUES = (
    st.text(max_size=15)
    | ODD_TEXT
    | HUGE_TEXT
    | st.sampled_from(
        [
            "-1",
            "0",
            "1e3",
            "99999999999999999999",
            "0x10",
            "٣",
            "３",
            " 2",
            "+1",
            "1.0",
            "red-7",
            "red-99",
            "pink-3",
            "red--1",
            "red-007",
            "red-",
            "-7",
            "red-7-7",
            "red+blue",
            "red+red",
            "on",
            "yes",
            "s0-tricks:+1",
            "s9-tricks:+1",
            "s0-red:-1",
            "x" * 70_000,
        ]
    )
)
RAW_VALUES = st.sampled_from([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"a\x00b", b"%", b"\x80abc"])
JUNK = st.sampled_from([b"", b"", b"", b"&", b"&&=", b"&%zz=%", b"&=x", b"&a=%E0%A4%A", b"&%FF=1"])


@st.composite
def mutated_form(
    draw: st.DrawFn, fields: Sequence[tuple[str, str]], choices: dict[str, list[str]]
) -> tuple[Pairs, bytes]:
    """A form's fields as they are (three times in seven) or after one to four mutations:
    a field dropped, emptied, repeated, given garbage or invalid UTF-8, another of its own
    choices (a chip tapped), a foreign or misplaced field added; and sometimes junk after
    the body."""
    pairs: Pairs = list(fields)
    names = sorted({k for k, _ in fields} | set(choices))
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 1, 2, 4]), label="mutations")):
        kind = draw(
            st.sampled_from(
                ["drop", "garbage", "repeat", "choice", "tap", "add", "raw", "empty", "version"]
            )
        )
        versions = [i for i, (k, v) in enumerate(pairs) if k == "version" and isinstance(v, str)]
        if kind == "version" and versions:  # stale, ahead, or no number that fits anywhere
            index = versions[0]
            seen = int(str(pairs[index][1])) if str(pairs[index][1]).isdigit() else 1
            wrong = draw(st.sampled_from([seen - 1, seen + 1, 0, -1, 2**31, 2**63, 10**30]))
            pairs[index] = ("version", str(wrong))
        elif kind == "drop" and pairs:
            pairs.pop(draw(st.integers(0, len(pairs) - 1)))
        elif kind == "garbage" and pairs:
            index = draw(st.integers(0, len(pairs) - 1))
            pairs[index] = (pairs[index][0], draw(GARBAGE_VALUES))
        elif kind == "empty" and pairs:
            index = draw(st.integers(0, len(pairs) - 1))
            pairs[index] = (pairs[index][0], "")
        elif kind == "repeat" and pairs:
            name, value = draw(st.sampled_from(pairs))
            pairs.append((name, draw(st.just(value) | GARBAGE_VALUES)))
        elif kind in ("choice", "tap") and choices:
            name = draw(st.sampled_from(sorted(choices)))
            value = draw(st.sampled_from(choices[name]))
            if kind == "choice":
                pairs = [(k, v) for k, v in pairs if k != name]
            pairs.append((name, value))
        elif kind == "add" and names:
            name = draw(
                st.sampled_from(names)
                | st.text(max_size=10)
                | st.sampled_from(["s9-marked", "s-1-tricks", "s0-", "player_8", "player_99"])
            )
            pairs.append((name, draw(GARBAGE_VALUES)))
        elif kind == "raw" and pairs:
            index = draw(st.integers(0, len(pairs) - 1))
            pairs[index] = (pairs[index][0], draw(RAW_VALUES))
    return pairs, draw(JUNK)


def post_form(client: FlaskClient, url: str, pairs: Pairs, junk: bytes = b"") -> TestResponse:
    """Send a form body as a browser would."""
    return client.post(
        url, data=encode_form(pairs, junk), content_type="application/x-www-form-urlencoded"
    )


def with_value(pairs: Pairs, name: str, value: str | bytes | None) -> Pairs:
    """``pairs`` with every ``name`` replaced by one ``value`` (or removed, for ``None``)."""
    kept: Pairs = [(k, v) for k, v in pairs if k != name]
    return kept if value is None else [*kept, (name, value)]


#: Who sends a form: the phone holding the edit key, a phone without it (its own valid CSRF
#: token), and the editor without a CSRF token or with a foreign one.
SENDERS = ["editor", "editor", "editor", "stranger", "no token", "foreign token"]


def sender(scene: Scene, who: str, pairs: Pairs) -> tuple[FlaskClient, Pairs]:
    """The client and the fields it sends."""
    if who == "stranger":
        return scene.stranger, with_value(pairs, "csrf_token", scene.stranger_token)
    if who == "no token":
        return scene.editor, with_value(pairs, "csrf_token", None)
    if who == "foreign token":
        return scene.editor, with_value(pairs, "csrf_token", scene.stranger_token)
    return scene.editor, pairs


def send_form(
    world: World, client: FlaskClient, url: str, pairs: Pairs, junk: bytes, keep_scene: bool
) -> bool:
    """Post the form and check the answer: a refusal (anything but a redirect) changed
    nothing; an accepted change left every game consistent and its page shows no markup.
    Answers whether it was accepted."""
    where = f"POST {url} {pairs!r:.1500} {junk!r}"
    world.sending()
    response = post_form(client, url, pairs, junk)
    event(f"status {response.status_code}")
    check_page(response, where)
    if not is_redirect(response):
        world.refused(where)
        return False
    world.accepted(keep_scene)
    target = response.headers["Location"]
    check_page(client.get(target), f"GET {target} after {where}")
    return True


def fuzz_form(
    world: World,
    scene: Scene,
    data: st.DataObject,
    url: str,
    selector: str = "",
    overlay: Pairs | None = None,
    needs_rights: bool = True,
    keep_scene: bool = False,
) -> bool:
    """Send the form of page ``url``: as the page shows it, or with ``overlay``'s values in
    place of its own (a filled-in form), perhaps with one of its buttons, then mutated, by
    one of the senders. Only the editor with a valid token may get a change through (and
    anyone, for forms that need no rights). Answers whether the change was accepted."""
    form = scene.form(url, selector)
    pairs: Pairs = list(form.fields)
    for name in dict.fromkeys(k for k, _ in overlay or []):
        pairs = [(k, v) for k, v in pairs if k != name]
    pairs += overlay or []
    if form.buttons and data.draw(st.booleans(), label="press a button"):
        name = data.draw(st.sampled_from(sorted({k for k, _ in form.buttons})), label="button")
        values = sorted({v for k, v in form.buttons if k == name})
        pairs.append((name, data.draw(st.sampled_from(values), label="value")))
    mutated_pairs, junk = data.draw(mutated_form(pairs, form.choices), label="form")
    who = data.draw(st.sampled_from(SENDERS), label="sender")
    client, sent = sender(scene, who, mutated_pairs)
    accepted = send_form(world, client, form.action, sent, junk, keep_scene)
    if who in ("no token", "foreign token") or (who == "stranger" and needs_rights):
        assert not accepted, f"{who} got a change through: {sent!r:.500}"
    return accepted
