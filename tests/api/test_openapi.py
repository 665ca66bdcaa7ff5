"""The API is described by its OpenAPI document (companion/web/api/openapi.yaml): a valid
OpenAPI 3.1 document, served at /api/v1/openapi.json with an ETag, naming exactly the app's
/api/v1 routes; and the check that holds every test's exchanges to it (tests/openapi_check.py)
refuses an answer, a request or a route that breaks it."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate
from werkzeug.routing import PathConverter

from companion.web.api.openapi_routes import openapi_document
from tests.openapi_check import (
    PREFIX,
    REST_OF_PATH,
    UNDESCRIBED_METHODS,
    CheckingClient,
    DocumentBroken,
    ExchangeChecker,
)

#: The methods an OpenAPI path item may hold.
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def document_routes(document: dict[str, Any]) -> set[tuple[str, str]]:
    """Every (method, path) the document describes."""
    return {
        (method.upper(), path)
        for path, item in document["paths"].items()
        for method in item
        if method in HTTP_METHODS
    }


def app_routes(app: Flask) -> set[tuple[str, str]]:
    """Every (method, path) the app serves under the API's prefix, Flask's ``<int:n>`` written
    as OpenAPI's ``{n}``; HEAD and OPTIONS, which Flask adds to every route, left out."""
    return {
        (method, re.sub(r"<(?:[a-z]+:)?(\w+)>", r"{\1}", rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(f"{PREFIX}/")
        for method in rule.methods or ()
        if method not in UNDESCRIBED_METHODS
    }


def test_the_document_is_a_valid_openapi_3_1_document() -> None:
    document = openapi_document()
    validate(document)  # raises on any breach of the OpenAPI 3.1 schema
    assert document["openapi"].startswith("3.1")


@pytest.mark.no_database_queries
def test_every_api_route_is_in_the_document_and_every_path_of_the_document_is_a_route(
    app: Flask,
) -> None:
    served, described = app_routes(app), document_routes(openapi_document())
    assert served - described == set(), "routes the document does not describe"
    assert described - served == set(), "described paths and methods the app does not serve"
    assert len(served) >= 15


@pytest.mark.no_database_queries
def test_the_routes_taking_the_rest_of_the_path_are_the_ones_the_check_knows(app: Flask) -> None:
    """A ``<path:...>`` parameter may hold slashes, which OpenAPI cannot say: the check sends
    the rest of such a path as one segment, so it must know each of them."""
    rest_of_path = {
        rule.rule.split("<", 1)[0]
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(f"{PREFIX}/")
        and any(isinstance(converter, PathConverter) for converter in rule._converters.values())
    }
    assert rest_of_path == set(REST_OF_PATH)


@pytest.mark.no_database_queries
def test_the_document_is_served_as_json_and_answers_304_to_its_etag(client: FlaskClient) -> None:
    answer = client.get(f"{PREFIX}/openapi.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert answer.get_json() == yaml.safe_load(
        open_text("companion/web/api/openapi.yaml")  # the committed file, as it stands
    )
    assert answer.headers["Cache-Control"] == "no-cache"
    tag = answer.headers["ETag"]
    again = client.get(f"{PREFIX}/openapi.json", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == tag


def open_text(path: str) -> str:
    """A file of the checkout, as text."""
    with open(path, encoding="utf-8") as file:
        return file.read()


# --------------------------------------------------------------------------------------------
# The check bites


def checked_client(app: Flask, document: dict[str, Any]) -> CheckingClient:
    """A test client holding its exchanges to ``document`` instead of the served one."""
    client = app.test_client()
    assert isinstance(client, CheckingClient)
    client.checker = ExchangeChecker(document)
    return client


def mutated(change: Any) -> dict[str, Any]:
    """A copy of the served document, changed by ``change``."""
    document = copy.deepcopy(openapi_document())
    change(document)
    return document


@pytest.mark.no_database_queries
def test_the_test_client_of_every_app_checks_against_the_document(app: Flask) -> None:
    assert isinstance(app.test_client(), CheckingClient)


@pytest.mark.no_database_queries
def test_an_answer_with_a_field_the_document_does_not_have_fails_the_test(app: Flask) -> None:
    schemas = "components", "schemas"

    def drop_hand_size(document: dict[str, Any]) -> None:
        setup = document[schemas[0]][schemas[1]]["TableSetup"]
        del setup["properties"]["hand_size"]
        setup["required"].remove("hand_size")

    with pytest.raises(DocumentBroken, match=r"(?s)answer breaks.*hand_size"):
        checked_client(app, mutated(drop_hand_size)).get(f"{PREFIX}/setup?players=4")


@pytest.mark.no_database_queries
def test_an_answer_of_a_status_the_document_does_not_list_fails_the_test(app: Flask) -> None:
    def no_refusal_of_setup(document: dict[str, Any]) -> None:
        del document["paths"][f"{PREFIX}/setup"]["get"]["responses"]["400"]

    client = checked_client(app, mutated(no_refusal_of_setup))
    with pytest.raises(DocumentBroken, match="answer breaks"):
        client.get(f"{PREFIX}/setup?players=many")


@pytest.mark.no_database_queries
def test_a_request_the_api_took_but_the_document_refuses_fails_the_test(app: Flask) -> None:
    def three_players_at_most(document: dict[str, Any]) -> None:
        (players,) = [
            parameter
            for parameter in document["paths"][f"{PREFIX}/setup"]["get"]["parameters"]
            if parameter["name"] == "players"
        ]
        players["schema"]["maximum"] = 3

    with pytest.raises(DocumentBroken, match="request breaks"):
        checked_client(app, mutated(three_players_at_most)).get(f"{PREFIX}/setup?players=4")


@pytest.mark.no_database_queries
def test_a_route_the_document_does_not_have_may_only_refuse(app: Flask) -> None:
    app.add_url_rule(f"{PREFIX}/undescribed", "undescribed", lambda: {"answer": 42})
    app.add_url_rule(f"{PREFIX}/odd-refusal", "odd_refusal", lambda: ({"message": "no"}, 400))
    client = app.test_client()
    with pytest.raises(DocumentBroken, match="no such path"):
        client.get(f"{PREFIX}/undescribed")
    with pytest.raises(DocumentBroken, match="not in the API's error shape"):
        client.get(f"{PREFIX}/odd-refusal")
    assert client.get(f"{PREFIX}/no-such-thing").status_code == 404  # refused: passes


@pytest.mark.no_database_queries
def test_a_page_outside_the_api_is_not_held_to_the_document(client: FlaskClient) -> None:
    assert client.get("/").status_code == 200


def request_examples() -> list[tuple[str, str, str, Any]]:
    """Every request body example of the document: (method, path, name, body)."""
    return [
        (method.upper(), path, name, example["value"])
        for path, item in openapi_document()["paths"].items()
        for method, operation in item.items()
        if method in HTTP_METHODS
        for name, example in (
            operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        )
        .get("examples", {})
        .items()
    ]


@pytest.mark.parametrize(
    ("method", "path", "name", "body"),
    request_examples(),
    ids=[f"{method} {path} {name}" for method, path, name, _body in request_examples()],
)
def test_each_example_of_the_document_is_taken_by_the_api(
    client: FlaskClient, method: str, path: str, name: str, body: Any
) -> None:
    """The examples a reader copies work (and the check holds their answers to the document)."""
    answer = client.open(path, method=method, json=body)
    assert answer.status_code in (200, 201), answer.get_json()


#: A route named in docs/api.md: `METHOD /api/v1/path` (with `<id>`-style parameters and an
#: optional query).
DOCS_ROUTE = re.compile(r"`(GET|POST|PUT|DELETE) (/api/v1/[^`?\s]*)")


def test_every_route_the_api_docs_name_is_in_the_document() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    named = {(method, re.sub(r"<\w+>", "{}", path)) for method, path in DOCS_ROUTE.findall(text)}
    described = {
        (method, re.sub(r"\{\w+\}", "{}", path))
        for method, path in document_routes(openapi_document())
    }
    assert len(named) >= 12  # the reference is read, not an empty file
    assert named - described == set(), "routes the docs name that the document lacks"
