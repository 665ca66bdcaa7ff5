"""What every answer must be: never a 5xx; an API refusal is ``{"error": "<sentence>"}``;
a page shows markup typed as a name as text and runs no inline script; a redirect stays on
the site."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from hypothesis import event
from hypothesis.control import currently_in_test_context
from werkzeug.test import TestResponse

from scripts.page_reader import read_page

#: Markup a player might type as a name; it must be shown as text, never as markup.
MARKUP = [
    '<script>alert("fz")</script>',
    '"><img src=x onerror=alert(1)>',
    "<b>fz</b>",
    "</title><svg onload=alert(1)>",
]
#: What would be in a page if the markup above were not escaped.
MARKUP_PROBES = ["<script>alert", "<img src=x", "<b>fz", "<svg onload"]


def check_page(response: TestResponse, where: str) -> str:
    """A page answer: no 500, no markup from the input, no inline script."""
    text = response.get_data(as_text=True)
    context = f"{where} answered {response.status_code}: {text[:300]!r}"
    assert response.status_code < 500, context
    if response.mimetype == "text/html":
        for probe in MARKUP_PROBES:
            assert probe not in text, f"unescaped markup {probe!r} in the page: {where}"
        inline = [s for s in read_page(text).find_all("script") if s.get("src") is None]
        assert not inline, f"inline script in the page: {where}"
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


def note_status(response: TestResponse) -> None:
    """Count the answers, for ``--hypothesis-show-statistics`` (how often a change got
    through, how often each refusal came)."""
    if currently_in_test_context():
        event(f"status {response.status_code}")


def is_redirect(response: TestResponse) -> bool:
    return response.status_code in (301, 302, 303, 307, 308)
