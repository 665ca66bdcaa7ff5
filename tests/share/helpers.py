"""A round to record through the API and a look at the pages (games and phones come from
the ``table`` fixture, tests/table.py)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from scripts.page_reader import read_page, words_of_main
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
    return words_of_main(page, skip={"svg"})


def form_version(page: str) -> str:
    """The version the page's form carries."""
    return str(read_page(page).find("input", name="version").get("value"))


def edit_url_on(page: str, code: str) -> str | None:
    """The key of the edit link a page shows for game ``code``, if any."""
    prefix = f"http://localhost/g/{code}/edit/"
    links = [str(tag.get("href")) for tag in read_page(page).find_all(href=True)]
    return next((link.removeprefix(prefix) for link in links if link.startswith(prefix)), None)
