"""A round to record through the API and a look at the pages (games and phones come from
the ``table`` fixture, tests/table.py)."""

from __future__ import annotations

import html
import re
from typing import Any

from flask.testing import FlaskClient

from tests.table import auth

#: A complete quick round for three players (classic): 5 + 5 + 4 of the 14 tricks, no
#: marked card captured (the tests read the scores from the API's answer).
ROUND = [
    {"marked": [{"colour": "red", "value": 0}], "tricks": 5, "marked_captured": []},
    {"marked": [{"colour": "blue", "value": 0}], "tricks": 5, "marked_captured": []},
    {"marked": [{"colour": "green", "value": 1}], "tricks": 4, "marked_captured": []},
]
#: The QR codes' SVG, as segno writes it inline.
QR_SVG = '<svg viewBox="0 0 '


def record_round(client: FlaskClient, game: dict[str, Any], key: str | None = None) -> Any:
    """Record the next round through the API (Bearer ``key``, else the game's key)."""
    return client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": game["version"], "entries": ROUND},
        headers=auth(game, key),
    )


def page_of(client: FlaskClient, path: str, status: int = 200, **kwargs: Any) -> str:
    """The HTML of ``path``, after checking its status."""
    response = client.get(path, **kwargs)
    assert response.status_code == status, (path, response.status_code)
    return response.get_data(as_text=True)


def text_of(page: str) -> str:
    """The words of a page's <main> (tags dropped, entities decoded, spaces collapsed)."""
    body = page[page.index("<main") : page.index("</main>")]
    body = re.sub(r"<svg.*?</svg>", " ", body, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def form_version(page: str) -> str:
    """The version the page's form carries."""
    match = re.search(r'<input[^>]*name="version"[^>]*value="([^"]*)"', page)
    assert match, "the page has no version field"
    return match.group(1)


def edit_url_on(page: str, code: str) -> str | None:
    """The key of the edit link a page shows for game ``code``, if any."""
    match = re.search(rf'href="http://localhost/g/{code}/edit/([^"]+)"', page)
    return html.unescape(match.group(1)) if match else None
