"""JSON bodies: arbitrary ones, and mutations of legal ones (a key dropped or added, a
value replaced or of another type, numbers out of range, a card named twice or left out,
odd or huge text); and the Authorization headers a client might send."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import strategies as st

from companion.data.models import MAX_NAME_LENGTH
from tests.fuzz.answers import MARKUP

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
        "\ud800",
        "x\udfff",
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
#: Characters no part of an address may hold: NUL (PostgreSQL refuses it in any text, even
#: in a value it only compares), other control characters, DEL, and half a surrogate pair.
CONTROL_CHARACTERS = ["\x00", "\x01", "\x1f", "\x7f", "\ud800"]
#: A part of an address (a game's code, a player's name, an edit key) with one of them,
#: alone or between ordinary characters.
CONTROL_TEXT = st.builds(
    lambda before, character, after: before + character + after,
    st.text("ab23", max_size=5),
    st.sampled_from(CONTROL_CHARACTERS),
    st.text("ab23", max_size=5),
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


def contains(outer: Any, inner: Any) -> bool:
    """Whether ``inner`` (the very object) is somewhere in the JSON tree ``outer``."""
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
            if v1 is not v2 and not contains(v1, v2) and not contains(v2, v1):
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
