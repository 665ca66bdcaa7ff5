"""The faster schema check of tests/openapi_fast.py gives python-jsonschema's verdicts: on the
API's real answers, and on those answers broken in random places (a field gone, a field
added, a value of another type or out of range), jsonschema-rs finds valid exactly what
openapi-core's own python-jsonschema validator finds valid."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from flask import Flask
from hypothesis import given
from hypothesis import strategies as st
from jsonschema_path import SchemaPath
from openapi_core import OpenAPI
from openapi_core.validation.schemas import oas31_schema_validators_factory

from companion.web.api.openapi_routes import openapi_document
from tests.backup.history import build_history
from tests.fuzz.world import fuzz_settings
from tests.openapi_fast import FastSchemaValidatorsFactory, Unsuitable, formats_of
from tests.table import Table

#: What a broken answer may hold in place of a value.
REPLACEMENTS = [
    None,
    True,
    0,
    -1,
    15,
    10**20,
    1.5,
    "",
    "x",
    "red",
    "2026-13-45T99:00:00",
    "2026-11-27T12:00:00Z",
    [],
    [1],
    {},
    {"unknown": 1},
]


@cache
def spec() -> SchemaPath:
    """The served document, as openapi-core reads it."""
    return OpenAPI.from_dict(dict(openapi_document())).spec


def schema_of(name: str) -> SchemaPath:
    """The document's schema ``name``, as openapi-core reads it."""
    return spec() / "components" / "schemas" / name


def python_verdict(schema: SchemaPath, value: Any) -> bool:
    """Whether openapi-core's own (python-jsonschema) validator finds ``value`` valid."""
    validator = oas31_schema_validators_factory.create(spec(), schema)
    return not any(True for _ in validator.validator.iter_errors(value))


@cache
def fast_validator(name: str) -> Any:
    """The jsonschema-rs validator of the document's schema ``name``."""
    fast = FastSchemaValidatorsFactory(openapi_document()).compile(spec(), schema_of(name))
    assert fast is not None, f"{name} is checked by python-jsonschema only"
    return fast


def fast_verdict(name: str, value: Any) -> bool:
    """Whether the jsonschema-rs validator of the schema ``name`` finds ``value`` valid."""
    return bool(fast_validator(name).is_valid(value))


def places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value``: the keys and indexes that lead to each part of it."""
    found = [path]
    if isinstance(value, dict):
        for key, each in value.items():
            found += places(each, (*path, key))
    elif isinstance(value, list):
        for index, each in enumerate(value):
            found += places(each, (*path, index))
    return found


def part(value: Any, path: tuple[Any, ...]) -> Any:
    """The part of ``value`` at ``path``."""
    for step in path:
        value = value[step]
    return value


def broken(value: Any, path: tuple[Any, ...], how: str, replacement: Any) -> Any:
    """A copy of ``value`` with the part at ``path`` removed, replaced, or (an object) given
    a field the document does not have."""
    copied = copy.deepcopy(value)
    if how == "add":
        part(copied, path)["not_in_the_document"] = replacement
        return copied
    if not path:
        return replacement
    parent = part(copied, path[:-1])
    if how == "remove":
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return copied


def breakage(data: st.DataObject, value: Any) -> tuple[tuple[Any, ...], str, Any]:
    """Where and how to break ``value``: a field added to an object, a part removed, or a
    part replaced by a value of another type, out of range, or a broken timestamp."""
    everywhere = places(value)
    how = data.draw(st.sampled_from(["add", "remove", "replace"]))
    if how == "add":
        objects = [path for path in everywhere if isinstance(part(value, path), dict)]
        return data.draw(st.sampled_from(objects)), how, 1
    path = data.draw(st.sampled_from([path for path in everywhere if path]))
    return path, how, data.draw(st.sampled_from(REPLACEMENTS))


def test_the_body_schemas_are_checked_by_jsonschema_rs() -> None:
    """The answers that cost python-jsonschema most are those jsonschema-rs takes."""
    for name in ("GameState", "NewGame", "TrickPlayed", "CardTakenBack", "ExportDocument"):
        assert fast_validator(name) is not None
    assert fast_verdict("Error", {"error": "no"}) and not fast_verdict("Error", {"error": 1})


def test_a_keyword_jsonschema_rs_might_read_otherwise_leaves_the_schema_to_python() -> None:
    document = openapi_document()
    for odd in ({"pattern": "^a$"}, {"discriminator": {}}, {"format": "int32"}):
        try:
            formats_of({"type": "string", **odd}, document)
        except Unsuitable:
            continue
        raise AssertionError(f"{odd} was taken as the same in both")


def test_jsonschema_rs_and_python_jsonschema_agree_on_real_and_broken_answers(
    app: Flask, table: Table
) -> None:
    games = build_history(table)
    client = table.client
    answers: list[tuple[str, Any]] = [("GameState", table.state(game)) for game in games.values()]
    for game in games.values():
        export = client.get(f"/api/v1/games/{game['id']}/export")
        assert export.status_code == 200
        answers.append(("ExportDocument", export.get_json()))
    for name, value in answers:
        assert python_verdict(schema_of(name), value) and fast_verdict(name, value)

    @fuzz_settings(300)
    @given(st.data())
    def agree(data: st.DataObject) -> None:
        name, value = data.draw(st.sampled_from(answers))
        path, how, replacement = breakage(data, value)
        changed = broken(value, path, how, replacement)
        verdict = python_verdict(schema_of(name), changed)
        assert fast_verdict(name, changed) == verdict, (name, path, how)

    agree()
