"""Fuzzing the rules endpoints: no request, however malformed, gets a 500.
Every answer is 200, 400, 413 or 422, and every refusal is exactly
``{"error": "<non-empty sentence>"}``.

(a) arbitrary JSON values, (b) random mutations of legal requests, (c) random bytes as the
body, (d) random query strings for ``/setup``.
"""

from __future__ import annotations

import copy
import json
import string
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote_from_bytes, urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from companion import create_app
from tests.fuzz.bodies import COLOURS, PRESETS, contains, nodes
from tests.fuzz.legal import legal_entries

RESOLVE = "/api/v1/tricks/resolve"
SCORE = "/api/v1/rounds/score"
SETUP = "/api/v1/setup"

FUZZ = settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

FIELD_NAMES = [
    "variant",
    "players",
    "cards",
    "plays",
    "entries",
    "marked",
    "captured",
    "tricks",
    "marked_captured",
    "choose",
    "counts",
    "passed",
    "colour",
    "value",
    "pass",
    "scoring",
    "reveal",
    "game",
]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlaskClient]:
    """One app for every example (a function-scoped app would be rebuilt per test, not per
    example, and Hypothesis rightly warns about that)."""
    app: Flask = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
        },
        instance_path=str(tmp_path_factory.mktemp("instance")),
    )
    yield app.test_client()


def check_answer(response: TestResponse, request: object) -> None:
    """200, 400, 413 or 422, as JSON; a refusal is exactly ``{"error": "<sentence>"}``."""
    text = response.get_data(as_text=True)
    where = f"request {request!r:.600} answered {response.status_code}: {text[:600]}"
    event(f"status {response.status_code}")
    assert response.status_code in (200, 400, 413, 422), where
    assert response.mimetype == "application/json", where
    answer = json.loads(text)
    assert isinstance(answer, dict), where
    if response.status_code != 200:
        assert list(answer) == ["error"], where
        assert isinstance(answer["error"], str), where
        assert answer["error"].strip(), where


def post_json(client: FlaskClient, path: str, body: Any) -> None:
    raw = json.dumps(body).encode()  # NaN and Infinity come out as the JS constants
    check_answer(client.post(path, data=raw, content_type="application/json"), (path, body))


# --------------------------------------------------------------------------------------------
# Strategies


KEYS = st.sampled_from(FIELD_NAMES + COLOURS) | st.text(max_size=8)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.integers(min_value=-2, max_value=22)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(COLOURS + PRESETS + ["open", "hazy", "delayed", "\ud800", ""])
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(KEYS, children, max_size=6),
    max_leaves=40,
)
VARIANTS = (
    st.sampled_from(PRESETS)
    | st.fixed_dictionaries(
        {
            "scoring": st.sampled_from(["classic", "mild", "reverse"]) | SCALARS,
            "colours": st.sampled_from([1, 2]) | SCALARS,
            "reveal": st.sampled_from(["open", "hazy", "delayed"]) | SCALARS,
        },
        optional={"game": st.sampled_from(["classic", "hat-trick"]) | SCALARS},
    )
    | st.just({"game": "hat-trick"})
    | JSON_VALUES
)


def mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``good`` three times in four, else ``bad``."""
    return st.integers(min_value=0, max_value=3).flatmap(lambda n: bad if n == 0 else good)


CARDS = st.fixed_dictionaries(
    {
        "colour": mostly(st.sampled_from(COLOURS), SCALARS),
        "value": mostly(st.integers(min_value=0, max_value=20), SCALARS),
    },
    optional={"pass": mostly(st.booleans(), SCALARS)},
)
CARD_LISTS = mostly(st.lists(CARDS, max_size=9, unique_by=str), JSON_VALUES)
ENTRIES = st.fixed_dictionaries(
    {},
    optional={
        "marked": CARD_LISTS,
        "captured": CARD_LISTS,
        "tricks": mostly(st.integers(min_value=0, max_value=15), SCALARS),
        "marked_captured": CARD_LISTS,
        "choose": mostly(st.lists(st.sampled_from(COLOURS), max_size=3), JSON_VALUES),
        "counts": mostly(
            st.fixed_dictionaries({c: st.integers(min_value=0, max_value=20) for c in COLOURS[:3]}),
            st.dictionaries(KEYS, JSON_VALUES, max_size=4),
        ),
        "passed": mostly(st.integers(min_value=0, max_value=15), CARD_LISTS),
    },
)
OPTIONAL_PLAYERS = {"players": mostly(st.integers(min_value=3, max_value=8), SCALARS)}
PLAUSIBLE_BODIES = (
    st.fixed_dictionaries(
        {
            "variant": mostly(st.sampled_from(PRESETS[:-1]), VARIANTS),
            "cards": mostly(st.lists(CARDS, min_size=1, max_size=8, unique_by=str), CARD_LISTS),
        },
        optional=OPTIONAL_PLAYERS,
    )
    | st.fixed_dictionaries(
        {
            "variant": mostly(st.just("hat-trick"), VARIANTS),
            "plays": mostly(st.lists(CARDS, min_size=1, max_size=7, unique_by=str), CARD_LISTS),
        },
        optional=OPTIONAL_PLAYERS,
    )
    | st.fixed_dictionaries(
        {
            "variant": mostly(st.sampled_from(PRESETS), VARIANTS),
            "players": mostly(st.integers(min_value=3, max_value=8), SCALARS),
            "entries": mostly(st.lists(ENTRIES, min_size=3, max_size=8), JSON_VALUES),
        },
    )
    | st.fixed_dictionaries(
        {"variant": VARIANTS},
        optional={
            **OPTIONAL_PLAYERS,
            "cards": CARD_LISTS,
            "plays": CARD_LISTS,
            "entries": JSON_VALUES,
        },
    )
)
BODIES = JSON_VALUES | st.dictionaries(KEYS, JSON_VALUES, max_size=8) | PLAUSIBLE_BODIES


# --------------------------------------------------------------------------------------------
# (a) arbitrary JSON


@FUZZ
@given(body=BODIES, path=st.sampled_from([RESOLVE, SCORE]))
def test_arbitrary_json_never_gets_a_500(api: FlaskClient, body: Any, path: str) -> None:
    post_json(api, path, body)


# --------------------------------------------------------------------------------------------
# (b) mutations of legal requests


def _card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def _legal_round(players: int, variant: str, quick: bool = False) -> dict[str, Any]:
    """A complete legal round for ``/rounds/score``: see :func:`tests.fuzz.legal.legal_entries`."""
    return {
        "variant": variant,
        "players": players,
        "entries": legal_entries(players, variant, quick),
    }


LEGAL_REQUESTS: list[tuple[str, dict[str, Any]]] = [
    (
        RESOLVE,
        {
            "variant": "classic",
            "players": 4,
            "cards": [_card("red", 5), _card("blue", 7), _card("red", 9), _card("green", 0)],
        },
    ),
    (
        RESOLVE,
        {
            "variant": {"scoring": "reverse", "colours": 2, "reveal": "hazy"},
            "cards": [_card("yellow", 5), _card("violet", 18), _card("yellow", 0)],
        },
    ),
    (
        RESOLVE,
        {
            "variant": "hat-trick",
            "players": 5,
            "plays": [
                _card("red", 10),
                _card("blue", 12),
                _card("red", 15),
                {"colour": "green", "value": 3, "pass": True},
                {"colour": "blue", "value": 1, "pass": False},
            ],
        },
    ),
    (SCORE, _legal_round(4, "classic")),
    (SCORE, _legal_round(5, "aggravated", quick=True)),
    (SCORE, _legal_round(3, "mild", quick=True)),
    (SCORE, _legal_round(7, "reverse")),
    (SCORE, _legal_round(4, "delayed")),
    (SCORE, _legal_round(4, "hat-trick")),
    (SCORE, _legal_round(5, "hat-trick", quick=True)),
]


MUTATIONS = ["delete key", "add key", "replace", "tweak number", "duplicate", "drop", "swap"]


@st.composite
def mutated_requests(draw: st.DrawFn) -> tuple[str, Any, list[str]]:
    """A legal request after one to three random mutations, with a log of what was done."""
    path, legal = draw(st.sampled_from(LEGAL_REQUESTS))
    holder = {"body": copy.deepcopy(legal)}
    log = []
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        everything = [n for n in nodes(holder["body"], holder, "body")]
        dicts = [n for n in everything if isinstance(n[2], dict) and n[2]]
        lists = [n for n in everything if isinstance(n[2], list) and n[2]]
        numbers = [n for n in everything if type(n[2]) is int]
        kind = draw(st.sampled_from(MUTATIONS))
        if kind == "delete key" and dicts:
            _, _, obj = draw(st.sampled_from(dicts))
            gone = draw(st.sampled_from(sorted(obj)))
            del obj[gone]
            log.append(f"delete {gone!r}")
        elif kind == "add key" and dicts:
            _, _, obj = draw(st.sampled_from(dicts))
            key, value = draw(KEYS), draw(JSON_VALUES)
            obj[key] = value
            log.append(f"add {key!r}: {value!r}")
        elif kind == "tweak number" and numbers:
            parent, key, value = draw(st.sampled_from(numbers))
            parent[key] = draw(
                st.sampled_from([value - 1, value + 1, -value, 0, -1, 21, 10**4, 10**4 + 1])
            )
            log.append(f"{key!r}: {value} -> {parent[key]}")
        elif kind == "duplicate" and lists:
            _, _, items = draw(st.sampled_from(lists))
            item = draw(st.sampled_from(items))
            items.insert(draw(st.integers(0, len(items))), copy.deepcopy(item))
            log.append(f"duplicate {item!r:.80}")
        elif kind == "drop" and lists:
            _, _, items = draw(st.sampled_from(lists))
            dropped = items.pop(draw(st.integers(0, len(items) - 1)))
            log.append(f"drop {dropped!r:.80}")
        elif kind == "swap" and len(everything) > 2:
            (p1, k1, v1), (p2, k2, v2) = draw(
                st.lists(st.sampled_from(everything[1:]), min_size=2, max_size=2)
            )
            if v1 is not v2 and not contains(v1, v2) and not contains(v2, v1):
                p1[k1], p2[k2] = copy.deepcopy(v2), copy.deepcopy(v1)
                log.append(f"swap {k1!r} and {k2!r}")
        else:
            parent, key, value = draw(st.sampled_from(everything))
            known = st.sampled_from([n[2] for n in everything]).map(copy.deepcopy)
            parent[key] = draw(JSON_VALUES | known)
            log.append(f"replace {key!r} ({value!r:.40}) with {parent[key]!r:.80}")
    return path, holder["body"], log


@pytest.mark.parametrize(("path", "body"), LEGAL_REQUESTS, ids=lambda v: str(v)[:40])
def test_the_legal_requests_to_mutate_are_accepted(
    api: FlaskClient, path: str, body: dict[str, Any]
) -> None:
    response = api.post(path, data=json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.get_data(as_text=True)


@FUZZ
@given(request=mutated_requests())
def test_a_mutated_legal_request_never_gets_a_500(
    api: FlaskClient, request: tuple[str, Any, list[str]]
) -> None:
    path, body, _log = request
    post_json(api, path, body)


# --------------------------------------------------------------------------------------------
# (c) random bytes


def _byte_edits(raw: bytes) -> st.SearchStrategy[bytes]:
    """``raw`` with a random slice replaced by random bytes."""
    return st.tuples(st.integers(0, len(raw)), st.integers(0, 8), st.binary(max_size=8)).map(
        lambda edit: raw[: edit[0]] + edit[2] + raw[edit[0] + edit[1] :]
    )


LEGAL_BYTES = [json.dumps(body).encode() for _, body in LEGAL_REQUESTS]
RAW_BODIES = (
    st.binary(max_size=512)
    | st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass"))
    | st.sampled_from(LEGAL_BYTES).flatmap(_byte_edits)
    | st.tuples(st.sampled_from(LEGAL_BYTES), st.integers(0, 2000)).map(
        lambda cut: cut[0][: cut[1]]
    )
)


@FUZZ
@given(raw=RAW_BODIES, path=st.sampled_from([RESOLVE, SCORE]))
def test_random_bytes_never_get_a_500(api: FlaskClient, raw: bytes, path: str) -> None:
    response = api.post(path, data=raw, content_type="application/json")
    check_answer(response, (path, raw))


# --------------------------------------------------------------------------------------------
# (d) query strings for /setup


QUERY_KEYS = st.sampled_from(["players", "variant", "scoring", "colours", "reveal"]) | st.text(
    max_size=6
)
QUERY_VALUES = (
    st.integers(min_value=-2, max_value=10).map(str)
    | st.integers().map(str)
    | st.sampled_from(PRESETS + ["classic", "mild", "reverse", "open", "hazy", "delayed"])
    | st.sampled_from(["", "1", "2", "4.0", "+4", "04", "0004", "\u0664", "\uff14", "1e1"])
    | st.text(max_size=10)
    | st.text(alphabet=string.digits, min_size=4, max_size=6000)
)


PLAUSIBLE_QUERIES = st.tuples(
    st.fixed_dictionaries(
        {"players": mostly(st.integers(min_value=2, max_value=9).map(str), QUERY_VALUES)}
    ),
    st.just({})
    | st.fixed_dictionaries({"variant": mostly(st.sampled_from(PRESETS), QUERY_VALUES)})
    | st.fixed_dictionaries(
        {},
        optional={
            "scoring": mostly(st.sampled_from(["classic", "mild", "reverse"]), QUERY_VALUES),
            "colours": mostly(st.sampled_from(["1", "2"]), QUERY_VALUES),
            "reveal": mostly(st.sampled_from(["open", "hazy", "delayed"]), QUERY_VALUES),
        },
    ),
).map(lambda parts: urlencode({**parts[0], **parts[1]}))
RAW_QUERIES = st.lists(st.tuples(QUERY_KEYS, st.binary(max_size=6)), max_size=4).map(
    lambda pairs: "&".join(
        f"{quote_from_bytes(k.encode())}={quote_from_bytes(v)}" for k, v in pairs
    )
)
QUERIES = (
    PLAUSIBLE_QUERIES
    | st.lists(st.tuples(QUERY_KEYS, QUERY_VALUES), max_size=5).map(urlencode)
    | RAW_QUERIES
)


@FUZZ
@given(query=QUERIES)
def test_random_setup_queries_never_get_a_500(api: FlaskClient, query: str) -> None:
    response = api.get(f"{SETUP}?{query}")
    check_answer(response, query)
    if response.status_code == 200:
        answer = response.get_json()
        assert {"players", "variant", "deck", "hand_size", "left_out", "tricks_per_round"} <= set(
            answer
        )
