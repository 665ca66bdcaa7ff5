"""The API's own description: the OpenAPI document ``openapi.yaml`` beside this module,
served as JSON. The tests hold the code to it (tests/api/test_openapi*.py)."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

import yaml
from flask import Response, request
from flask.typing import ResponseReturnValue

from companion.web.api import bp

#: The document's file, inside the package so that the wheel carries it.
DOCUMENT = "openapi.yaml"


@cache
def openapi_document() -> dict[str, Any]:
    """The OpenAPI document, read once per process."""
    text = files("companion.web.api").joinpath(DOCUMENT).read_text(encoding="utf-8")
    document: dict[str, Any] = yaml.safe_load(text)
    return document


@cache
def _document_json() -> bytes:
    return json.dumps(openapi_document(), ensure_ascii=False, indent=1).encode()


@bp.get("/openapi.json")
def openapi() -> ResponseReturnValue:
    """The document as JSON; it changes only with a new release, so a client keeps it and
    asks with its ETag whether it changed (304 without the body)."""
    response = Response(_document_json(), mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)
