"""Every request the tests send to the JSON API, and every answer it gives, checked against
the API's OpenAPI document (companion/web/api/openapi.yaml) with openapi-core, so that the
document cannot drift from the code.

tests/conftest.py makes :class:`CheckingClient` the test client of every app the tests
build. For each exchange under ``/api/v1``:

- the answer must be one the document gives for that path, method and status (its JSON
  shape and the headers it declares as required);
- a request the API took (an answer below 400) must be one the document describes: a test
  that sends a malformed request on purpose is answered 4xx, and only that answer is held to
  the document;
- an address the document does not have (an unknown path, a wrong method, a route a test
  adds for itself) may only be refused, with the API's error shape; a path with doubled
  slashes may also be redirected to the path with them merged (Werkzeug's own answer).

HEAD and OPTIONS are Flask's own answers for every GET route and are left out.
"""

from __future__ import annotations

import gzip
import io
import warnings
from collections.abc import Mapping
from functools import cache
from typing import Any
from urllib.parse import quote, unquote

from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from openapi_core import Config, OpenAPI
from openapi_core.datatypes import RequestParameters
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from werkzeug.datastructures import Headers, ImmutableMultiDict
from werkzeug.test import TestResponse
from werkzeug.wrappers import Request

from companion.web.api.openapi_routes import openapi_document
from tests.openapi_fast import FastSchemaValidatorsFactory

PREFIX = "/api/v1"
#: Flask answers these for every route by itself; the document describes the GETs.
UNDESCRIBED_METHODS = {"HEAD", "OPTIONS"}
#: The routes whose last parameter takes the rest of the path, slashes and all (Flask's
#: ``<path:...>``); OpenAPI has no such parameter, so the rest is sent to it as one segment.
REST_OF_PATH = ("/api/v1/players/",)
#: The error shapes an address outside the document may answer with.
REFUSALS = ("Error", "StaleVersion")


class DocumentBroken(AssertionError):
    """An exchange that breaks the OpenAPI document; the message says how."""


class RecordedRequest:
    """A request as sent, for openapi-core: the body the test client sent (the view reads
    the stream itself), read as JSON as the API reads it, and the path as it was on the
    wire, so that a name holding ``%2F`` stays one path segment."""

    def __init__(self, request: Request, body: bytes):
        self.request = request
        self._body = body
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(request.args),
            header=Headers(request.headers),
            cookie=request.cookies,
        )

    @property
    def host_url(self) -> str:
        return self.request.host_url

    @property
    def path(self) -> str:
        """The path as sent, each segment decoded (a WSGI string holds UTF-8 as Latin-1),
        a slash inside one kept as ``%2F``."""
        environ = self.request.environ
        raw = environ.get("RAW_URI") or environ.get("REQUEST_URI")
        if not raw:
            return self.request.path
        sent = str(raw).split("?", 1)[0].encode("latin-1").decode("utf-8", "replace")
        for prefix in REST_OF_PATH:
            if sent.startswith(prefix):
                return prefix + quote(unquote(sent.removeprefix(prefix)), safe="")
        return "/".join(unquote(segment).replace("/", "%2F") for segment in sent.split("/"))

    @property
    def method(self) -> str:
        return self.request.method.lower()

    @property
    def body(self) -> bytes:
        return self._body

    @property
    def content_type(self) -> str:
        """JSON: the API reads every body as JSON, whatever its Content-Type says (the
        document says so), and a test may send another type on purpose."""
        return "application/json"


class RecordedResponse:
    """An answer for openapi-core, its body unzipped if it was sent gzipped."""

    def __init__(self, response: TestResponse):
        self.response = response
        data = response.get_data()
        if response.headers.get("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        self.data = data

    @property
    def status_code(self) -> int:
        return self.response.status_code

    @property
    def content_type(self) -> str:
        return str(self.response.mimetype)

    @property
    def headers(self) -> Headers:
        return Headers(self.response.headers)


class ExchangeChecker:
    """Holds exchanges with the API to one OpenAPI document."""

    def __init__(self, document: Mapping[str, Any]):
        self.document = document
        # The same verdicts as openapi-core's own schema validation, sooner (openapi_fast.py).
        fast = Config(schema_validators_factory=FastSchemaValidatorsFactory(document))
        self.api = OpenAPI.from_dict(dict(document), config=fast)

    def check(self, request: Request, body: bytes, response: TestResponse) -> None:
        """Raise :class:`DocumentBroken` if the exchange breaks the document."""
        if not is_api_path(request.path) or request.method in UNDESCRIBED_METHODS:
            return
        sent, answered = RecordedRequest(request, body), RecordedResponse(response)
        where = f"{request.method} {request.full_path.rstrip('?')} -> {response.status_code}"
        if response.status_code == 405:  # a method the path does not take, as Flask says
            self.check_refusal(where, answered)
            return
        if response.status_code == 308 and "//" in request.path:
            return  # Werkzeug's redirect to the path with its doubled slashes merged
        try:
            self.api.validate_response(sent, answered)
        except (PathNotFound, OperationNotFound):
            self.check_refusal(where, answered)
            return
        except Exception as broken:  # openapi-core's errors carry the schema's in __cause__
            raise DocumentBroken(describe(where, "answer", broken, answered.data)) from broken
        if response.status_code < 400:
            try:
                with warnings.catch_warnings():
                    # The games list takes empty filters, as its page's form sends them.
                    warnings.filterwarnings("ignore", "Use of allowEmptyValue", DeprecationWarning)
                    self.api.validate_request(sent)
            except Exception as broken:
                raise DocumentBroken(describe(where, "request", broken, body)) from broken

    def check_refusal(self, where: str, answered: RecordedResponse) -> None:
        """An address the document does not describe may only be refused, as the API
        refuses (``{"error": ...}``)."""
        if not 400 <= answered.status_code < 500:
            raise DocumentBroken(f"{where}: the document has no such path and method")
        body = answered.response.get_json(silent=True)
        components = {"components": self.document["components"]}
        for name in REFUSALS:
            schema = {**components, "$ref": f"#/components/schemas/{name}"}
            if Draft202012Validator(schema).is_valid(body):
                return
        raise DocumentBroken(f"{where}: a refusal not in the API's error shape: {body!r}")


def describe(where: str, what: str, broken: Exception, data: bytes) -> str:
    """The broken exchange, the validator's reasons and the body, for the test's failure."""
    reasons = [str(broken)]
    cause = broken.__cause__
    reasons += [str(error) for error in getattr(cause, "schema_errors", ()) or ()]
    if cause is not None and not getattr(cause, "schema_errors", None):
        reasons.append(str(cause))
    shown = data[:2000].decode("utf-8", "replace")
    return (
        f"{where}: the {what} breaks the OpenAPI document:\n"
        + "\n".join(reasons)
        + (f"\n{what} body: {shown}")
    )


def is_api_path(path: str) -> bool:
    """Whether ``path`` is under the API's prefix."""
    path = unquote(path)
    return path == PREFIX or path.startswith(f"{PREFIX}/")


@cache
def document_checker() -> ExchangeChecker:
    """The checker of the document the app serves, built once per test process."""
    return ExchangeChecker(openapi_document())


class CheckingClient(FlaskClient):
    """Flask's test client, holding every exchange with the API to the OpenAPI document
    (``checker``: the served document's unless a test gives another)."""

    checker: ExchangeChecker | None = None

    def run_wsgi_app(
        self, environ: dict[str, Any], buffered: bool = False
    ) -> tuple[Any, str, Headers]:
        """Keep the body sent (the view reads the stream itself), then run the app."""
        stream = environ["wsgi.input"]
        body = stream.read() if stream is not None else b""
        environ["wsgi.input"] = io.BytesIO(body)
        self.sent_body = body
        return super().run_wsgi_app(environ, buffered)

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        """Send the request, then check the exchange against the document."""
        response = super().open(*args, **kwargs)
        request = response.request
        if is_api_path(request.path):
            checker = self.checker or document_checker()
            checker.check(request, getattr(self, "sent_body", b""), response)
        return response
