"""Every form works over HTTPS when the browser sends no ``Referer``.

The share page and the edit link answer with ``Referrer-Policy: no-referrer``, so a browser
posts their forms without a ``Referer`` (and with ``Origin: null``); privacy settings drop
the header on any page. A phone goes through every state-changing form of the app, as a
browser sends it: the CSRF token of the page, no ``Referer``; once over ``https://`` with the
fetch metadata a current browser adds, once behind a proxy (``PROXY_COUNT=1``,
``X-Forwarded-Proto: https``) without any. Each change must happen. A form sent from another
site is still refused, and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict
from werkzeug.test import TestResponse

from companion import create_app
from companion.data.models import db
from companion.web.errors import expired_form_message
from scripts.page_reader import addresses, read_page
from tests.conftest import TEST_CONFIG, database_url
from tests.fuzz.form_reader import Form, read_forms

#: Its apps are made here, on the suite's database (``database_url``).
pytestmark = pytest.mark.database

#: What a current browser adds to a form it posts from a page with ``no-referrer``.
SAME_ORIGIN_BROWSER = {
    "Origin": "null",
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Mode": "navigate",
}
#: What the proxy adds in front of the app (and nothing about where the form came from).
BEHIND_PROXY = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
#: The two ways a phone reaches an HTTPS deployment: (setting, base URL, headers).
DEPLOYMENTS = {
    "https": ({}, "https://sticheln.example", SAME_ORIGIN_BROWSER),
    "proxy": ({"PROXY_COUNT": 1}, "http://sticheln.example", BEHIND_PROXY),
}
#: Indicator cards of a three-player classic round (R8: one per seat).
INDICATORS = ["red-4", "blue-1", "green-7"]


@pytest.fixture(params=list(DEPLOYMENTS))
def deployment(request: pytest.FixtureRequest, instance_path: Path) -> Iterator[Browser]:
    """A phone on an HTTPS deployment, directly or behind a proxy."""
    settings, base_url, headers = DEPLOYMENTS[request.param]
    instance_path.mkdir(parents=True, exist_ok=True)
    config = {
        **TEST_CONFIG,
        **settings,
        "CLUB_SERVER": False,  # the product's default: the phone's games make its circle
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
    }
    app = create_app(config, instance_path=str(instance_path))
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield Browser(app, app.test_client(), base_url, headers)
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


@dataclass
class Browser:
    """A phone's browser: it opens pages and sends their forms as they are, with the CSRF
    token of the page and never a ``Referer``; it notes which view each form reached."""

    app: Flask
    client: FlaskClient
    base_url: str
    headers: dict[str, str]
    reached: set[str] = field(default_factory=set)

    def get(self, path: str) -> TestResponse:
        return self.client.get(path, base_url=self.base_url, headers=self.headers)

    def open(self, path: str) -> str:
        """The page at ``path``, which must open."""
        response = self.get(path)
        assert response.status_code == 200, (path, response.status_code)
        return response.get_data(as_text=True)

    def form(self, path: str, action: str | None = None, page: str | None = None) -> Form:
        """The POST form sent to ``action`` (default: the first) of the page at ``path``
        (``page``: as already shown)."""
        page = page if page is not None else self.open(path)
        forms = read_forms(page, self.base_url + path)
        found = [f for f in forms if action is None or urlsplit(f.action).path == action]
        assert found, f"no form sent to {action} on {path}"
        return found[0]

    def send(
        self,
        path: str,
        action: str | None = None,
        fill: Mapping[str, str | list[str]] | None = None,
        button: tuple[str, str] | None = None,
        page: str | None = None,
    ) -> TestResponse:
        """Fill in the form of the page at ``path`` and send it, as the browser would; it
        must not be refused as expired."""
        form = self.form(path, action, page)
        data = MultiDict(form.fields)
        for name, value in (fill or {}).items():
            data.setlist(name, value if isinstance(value, list) else [value])
        if button is not None:
            data.add(*button)
        target = urlsplit(form.action)
        response = self.client.post(
            target.path + (f"?{target.query}" if target.query else ""),
            data=data,
            base_url=self.base_url,
            headers=self.headers,
        )
        assert "Referer" not in self.headers
        assert expired_form_message() not in response.get_data(as_text=True), form.action
        self.reached.add(self.endpoint(target.path))
        return response

    def confirm(self, answer: TestResponse, path: str, action: str) -> TestResponse:
        """Press "yes" on the confirmation page ``answer`` shows."""
        assert answer.status_code == 200, answer.status_code
        return self.send(path, action, page=answer.get_data(as_text=True))

    def endpoint(self, path: str) -> str:
        """The view a POST to ``path`` reaches."""
        adapter = self.app.url_map.bind("sticheln.example")
        endpoint, _arguments = adapter.match(path, method="POST")
        return str(endpoint)

    def follow(self, response: TestResponse) -> str:
        """The page a post/redirect/get answer leads to."""
        assert response.status_code == 302, response.get_data(as_text=True)[:600]
        return self.open(urlsplit(response.headers["Location"]).path)

    def state(self, code: str) -> dict[str, Any]:
        """The game as the API shows it now."""
        answer = self.get(f"/api/v1/games/{code}")
        assert answer.status_code == 200
        result: dict[str, Any] = answer.get_json()
        return result


def post_endpoints(app: Flask) -> set[str]:
    """Every view of the pages that takes a POST (the API takes no cookies, no forms)."""
    return {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "POST" in (rule.methods or ()) and not rule.endpoint.startswith("api.")
    }


def start_game(phone: Browser, names: list[str]) -> str:
    """The new-game form: three players, three rounds; answers the game's code."""
    fill: dict[str, str | list[str]] = {f"player_{seat}": name for seat, name in enumerate(names)}
    response = phone.send("/games/new", fill={**fill, "rounds": "3"})
    assert response.status_code == 302
    match = re.fullmatch(r"/g/(\w+)", urlsplit(response.headers["Location"]).path)
    assert match, response.headers["Location"]
    return match.group(1)


def edit_link(share_page: str, code: str) -> str:
    """The path of the edit link the share page shows."""
    path = f"/g/{code}/edit/"
    links = [a for a in addresses(share_page) if path in a and not a.endswith(path)]
    assert links, "the share page shows no edit link"
    return links[0][links[0].index(path) :]


def marked(code: str) -> dict[str, str | list[str]]:
    """The indicator chips of the three seats."""
    return {f"s{seat}-marked": [card] for seat, card in enumerate(INDICATORS)}


def test_every_form_works_over_https_without_a_referer(deployment: Browser) -> None:
    phone = deployment
    code = start_game(phone, ["Ann", "Ben", "Cleo"])
    assert phone.state(code)["players"] == ["Ann", "Ben", "Cleo"]

    # Round 1: mark the colours, record it, then correct it.
    phone.follow(phone.send(f"/g/{code}/rounds/mark", fill=marked(code)))
    tricks = {"s0-tricks": "4", "s1-tricks": "4", "s2-tricks": "6"}
    phone.follow(phone.send(f"/g/{code}/rounds/record", fill=tricks, button=("action", "save")))
    first = phone.state(code)["rounds"]
    assert len(first) == 1 and first[0]["status"] == "scored"
    fixed = {"s0-tricks": "5", "s1-tricks": "3", "s2-tricks": "6"}
    phone.follow(phone.send(f"/g/{code}/rounds/1", fill=fixed, button=("action", "save")))
    corrected = phone.state(code)["rounds"]
    assert corrected[0]["scores"] != first[0]["scores"]

    # Round 2, live: start it, tap three cards (a whole trick), take it back, tap and undo.
    live_page = phone.follow(phone.send(f"/g/{code}/rounds/live", fill=marked(code)))
    live = f"/g/{code}/rounds/2/live"
    assert "0 of 14 tricks played" in read_page(live_page).words()
    for card in ("red-5", "red-6", "red-7"):
        phone.follow(phone.send(live, action=f"{live}/card", fill={"card": card}))
    assert phone.state(code)["rounds"][1]["tricks_played"] == 1
    phone.follow(phone.send(live, action=f"{live}/undo-trick"))
    assert phone.state(code)["rounds"][1]["tricks_played"] == 0
    phone.follow(phone.send(live, action=f"{live}/card", fill={"card": "red-5"}))
    phone.follow(phone.send(live, action=f"{live}/undo-card"))
    assert read_page(phone.open(live)).find("button", value="red-5").get("disabled") is None

    # The resolvers, in the game and on their own.
    for resolver in (f"/g/{code}/resolve", "/resolve"):
        answer = phone.send(resolver, button=("add", "red-5"))
        assert answer.status_code == 200
        trick = read_page(answer.get_data(as_text=True)).find("input", name="trick")
        assert (trick.get("type"), trick.get("value")) == ("hidden", "red-5")

    # Leave the game out of the statistics.
    exclude = f"/g/{code}/exclude"
    assert ("excluded", "1") in phone.form(f"/g/{code}", exclude).fields
    phone.follow(phone.send(f"/g/{code}", action=exclude))
    assert ("excluded", "0") in phone.form(f"/g/{code}", exclude).fields  # "count it again"

    # Players: rename one, merge another (who sat in a game of their own) into her.
    rename = "/players/Cleo/rename"
    asked = phone.send(rename, fill={"new_name": "Clio"})
    phone.follow(phone.confirm(asked, rename, rename))
    assert phone.state(code)["players"] == ["Ann", "Ben", "Clio"]
    other = start_game(phone, ["Dan", "Eve", "Fay"])
    merge = "/players/Dan/merge"
    asked = phone.send("/players/Dan/rename", action=merge, fill={"into": "Ann"})
    phone.follow(phone.confirm(asked, merge, merge))
    assert phone.state(other)["players"] == ["Ann", "Eve", "Fay"]

    # Circles: give the table's circle a name, and a new invite link.
    invite = urlsplit(phone.form("/circles").action).path  # the first: the circle's invite
    circle = invite.removesuffix("/invite")
    old_invites = invite_links(phone.open("/circles"))
    phone.follow(phone.send("/circles", action=f"{circle}/rename", fill={"name": "Thursdays"}))
    assert read_page(phone.open("/circles")).find("h2", id=True).text == "Thursdays"
    phone.follow(phone.send("/circles", action=invite))
    assert invite_links(phone.open("/circles")) not in ([], old_invites)

    # Share: make a new edit link; the old one opens the game no more.
    old_link = edit_link(phone.open(f"/g/{code}/share"), code)
    new_link = edit_link(phone.follow(phone.send(f"/g/{code}/share")), code)
    assert new_link != old_link
    assert phone.get(old_link).status_code == 403

    # Abandon the second game, play it again, then delete it.
    phone.follow(phone.send(f"/g/{other}/abandon"))
    assert phone.state(other)["status"] == "abandoned"
    again = phone.send(f"/g/{other}", action=f"/g/{other}/again")
    assert again.status_code == 302
    following = urlsplit(again.headers["Location"]).path.split("/")[2]
    assert phone.state(following)["players"] == phone.state(other)["players"]
    response = phone.send(f"/g/{other}/delete")
    assert response.status_code == 302
    assert phone.get(f"/api/v1/games/{other}").status_code == 404

    assert phone.reached == post_endpoints(phone.app), "a form this journey does not send"


def invite_links(page: str) -> list[str]:
    """The circle invite links a circles page shows."""
    links = read_page(page).find_all("a", rel="noreferrer")
    return [link.get("href") or "" for link in links if "/join/" in (link.get("href") or "")]


#: Requests another site's page makes a browser send, each with the victim's cookie.
CROSS_SITE = {
    "another site (fetch metadata)": {"Sec-Fetch-Site": "cross-site", "Origin": "null"},
    "a sibling subdomain": {"Sec-Fetch-Site": "same-site", "Origin": "https://x.example"},
    "an older browser naming the site": {"Origin": "https://evil.example"},
}


def without_fetch_metadata(headers: dict[str, str]) -> dict[str, str]:
    """The headers an older browser would send: no ``Sec-Fetch-*``, no ``Origin``."""
    return {k: v for k, v in headers.items() if not k.startswith("Sec-Fetch") and k != "Origin"}


@pytest.mark.parametrize("sender", list(CROSS_SITE))
def test_a_form_sent_from_another_site_is_refused_even_with_its_token(
    deployment: Browser, sender: str
) -> None:
    """The token is the first guard; where the browser says the form came from is a second
    one, which still holds if a page's token ever leaked."""
    phone = deployment
    code = start_game(phone, ["Ann", "Ben", "Cleo"])
    link = edit_link(phone.open(f"/g/{code}/share"), code)
    form = phone.form(f"/g/{code}/share")
    response = phone.client.post(
        f"/g/{code}/share",
        data=MultiDict(form.fields),
        base_url=phone.base_url,
        headers={**without_fetch_metadata(phone.headers), **CROSS_SITE[sender]},
    )
    assert response.status_code == 400
    assert expired_form_message() in response.get_data(as_text=True)
    assert edit_link(phone.open(f"/g/{code}/share"), code) == link


def test_a_form_without_its_token_is_refused_over_https(deployment: Browser) -> None:
    phone = deployment
    code = start_game(phone, ["Ann", "Ben", "Cleo"])
    link = edit_link(phone.open(f"/g/{code}/share"), code)
    version = dict(phone.form(f"/g/{code}/share").fields)["version"]
    response = phone.client.post(
        f"/g/{code}/share",
        data={"version": version},
        base_url=phone.base_url,
        headers=phone.headers,
    )
    assert response.status_code == 400
    assert edit_link(phone.open(f"/g/{code}/share"), code) == link


def test_the_same_site_s_own_origin_is_welcome(deployment: Browser) -> None:
    """An older browser on this site names it in ``Origin``: that is no reason to refuse."""
    phone = deployment
    phone.headers = {**without_fetch_metadata(phone.headers), "Origin": "https://sticheln.example"}
    code = start_game(phone, ["Ann", "Ben", "Cleo"])
    assert phone.state(code)["players"] == ["Ann", "Ben", "Cleo"]
