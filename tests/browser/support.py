"""What the browser tests share: the phone they browse with, the app they browse, the games
they look at. The fixtures that make them are in conftest.py.

Playwright (the pip package, which brings its own node driver) drives Debian's Chromium at
``/usr/bin/chromium``; ``playwright install`` is never run.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.needed_tools import require
from tests.table import Table

CHROMIUM = Path("/usr/bin/chromium")
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "screen": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
    # The pages get a strict Content-Security-Policy (script-src 'self'); axe-core is
    # injected by the test, so the test contexts bypass it.
    "bypass_csp": True,
    # The service worker installs in the background after the first page and re-fetches
    # every static file then, which races with the test's next page; it has its own test.
    "service_workers": "block",
}
#: The WCAG 2.1 A and AA rules of axe-core.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: How long a step may wait for the page: a page of this app answers in well under a second,
#: but on a machine busy with other jobs beside the suite's two workers a page load can take
#: many seconds. A bound, never a pause: a step goes on as soon as the page is there.
TIMEOUT_MS = 30_000
#: A step that waits for the rules worker to start on a new page (Pyodide, a few seconds
#: alone) or for offline play's next try to send (every 5 s), on that busy machine.
WORKER_START_MS = 60_000


def missing_browser_reason() -> str | None:
    """Why the browser tests cannot run here, or None if they can."""
    if not CHROMIUM.exists():
        return (
            f"{CHROMIUM} is missing: install Debian's chromium package "
            "(python3 manage.py test does so when it runs as root)"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing: run .venv/bin/pip install -e '.[dev]'"
    return None


@dataclass
class LiveServer:
    """The app served in a thread of the test process."""

    url: str  # http://127.0.0.1:<port>, no trailing slash
    app: Any  # the Flask app it serves, for games made through tests/table.py

    def api(self, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
        """Call the JSON API; answer the decoded body (an error status raises)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if key:
            request.add_header("Authorization", f"Bearer {key}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


@dataclass
class Phone:
    """A browser context set up as a phone, with every URL it requested."""

    context: Any
    page: Any
    base_url: str
    requests: list[str] = field(default_factory=list)
    offline: bool = False
    routed: bool = False
    #: Started on a copy of a profile that kept the offline kit (``kit_kept`` in conftest.py).
    kit_kept: bool = False

    def goto(self, path: str) -> Any:
        """Open ``path`` of the app; answer the response."""
        return self.page.goto(self.base_url + path)

    def set_offline(self, offline: bool, tell_pages: bool = True) -> None:
        """Take the phone off the network, or put it back: its pages, and its service
        worker's own requests too (Chromium's offline emulation leaves those alone, as the
        Background Sync of offline play would show), which are then refused as a phone
        without a network refuses them. Once routed, every request of the phone stays
        routed, so none is ever left waiting on a route taken away.

        Chromium's emulation does not reach a page loaded while offline: its
        ``navigator.onLine`` stays true and no ``online`` event comes when the network is
        back, where a phone's browser sends one. Back online, such pages are sent it, as a
        phone's are (``tell_pages``; without, a page finds the network by its own next try,
        as behind a Wi-Fi whose browser never says so)."""
        if not self.routed:
            self.context.route("**/*", self.through_network)
            self.routed = True
        unaware = [] if offline or not tell_pages else self.pages_online_while_offline()
        self.offline = offline
        self.context.set_offline(offline)
        for page in unaware:
            in_page(page, "() => window.dispatchEvent(new Event('online'))")

    def pages_online_while_offline(self) -> list[Any]:
        """The open pages that believe the network is there while the phone is offline."""
        if not self.offline:
            return []
        return [page for page in self.context.pages if in_page(page, "navigator.onLine")]

    def through_network(self, route: Any) -> None:
        """While the phone is offline, a request of its service worker fails as with no
        network; any other goes on to the browser (whose emulation refuses a page's)."""
        if self.offline and route.request.service_worker is not None:
            route.abort("internetdisconnected")
        else:
            route.fallback()

    def foreign_requests(self) -> list[str]:
        """Requests that went anywhere but the app's own host."""
        own = (self.base_url + "/", "data:", "blob:", "about:")
        return [url for url in self.requests if not url.startswith(own)]


def in_page(page: Any, script: str) -> Any:
    """``script``'s answer in ``page``; None if the page is being left meanwhile (a page of
    offline play loads itself again once it has sent): the next one is another document."""
    from playwright.sync_api import Error

    try:
        return page.evaluate(script)
    except Error as error:
        if "context was destroyed" not in error.message:
            raise
        return None


PhoneFactory = Callable[..., Phone]


def kit_manifest(server: LiveServer) -> dict[str, Any]:
    """The served kit's manifest; a missing kit skips the test, or fails it in CI."""
    answer = server.app.test_client().get("/offline-kit/manifest.json")
    if answer.status_code != 200:
        require(
            f"the offline kit is not served ({answer.status_code}): run python3 manage.py setup"
        )
    manifest: dict[str, Any] = answer.get_json()
    return manifest


def open_phone(browser: Any, base_url: str, **options: Any) -> Phone:
    """A new context set up as a phone (``options`` override PHONE), recording requests."""
    context = browser.new_context(**{**PHONE, "base_url": base_url, **options})
    return phone_of(context, base_url, context.new_page())


def open_profile_phone(
    browser: Any, base_url: str, profile: Path, args: tuple[str, ...] = (), **options: Any
) -> Phone:
    """A phone on a browser of its own, started on the profile folder ``profile`` (its
    cookies, local storage, IndexedDB, service worker and caches, as a phone keeps them when
    the browser closes), with its service workers allowed; closing its context stops that
    browser. ``args`` go to Chromium, ``options`` override PHONE."""
    options = {**PHONE, "service_workers": "allow", "base_url": base_url, **options}
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), headless=True, args=list(args), **options
    )
    return phone_of(context, base_url, context.pages[0] if context.pages else context.new_page())


def phone_of(context: Any, base_url: str, page: Any) -> Phone:
    """The phone of a new ``context`` and its first ``page``, recording its requests."""
    context.set_default_timeout(TIMEOUT_MS)
    phone = Phone(context, page, base_url)
    context.on("request", lambda request: phone.requests.append(request.url))
    return phone


@dataclass
class Site:
    """Games in several states, and a phone's cookies that may edit them all."""

    base_url: str
    codes: dict[str, str]  # main, finished, live, hat
    state: dict[str, Any]  # Playwright storage state: the session holding the edit keys

    def path(self, template: str) -> str:
        """``/g/{main}/setup`` with the game codes filled in."""
        return template.format(**self.codes)


def record_rounds(table: Table, game: dict[str, Any], rounds: Any) -> None:
    """Record quick rounds, one after the other; ``game`` follows."""
    for played in rounds:
        table.record(game, played)


def wait_for_async(
    page: Any, predicate: str, arg: Any = None, timeout: float | None = None
) -> None:
    """Wait until the asynchronous JavaScript ``predicate`` (called with ``arg``) answers
    something truthy. Playwright's ``wait_for_function`` takes the promise such a function
    returns as truthy at once, so here each check runs in turn and the next poll reads its
    answer."""
    poll = f"""(arg) => {{
      const box = window.__awaited || (window.__awaited = {{ running: false, value: false }});
      if (!box.running) {{
        box.running = true;
        Promise.resolve(({predicate})(arg)).then(
          (value) => {{ box.value = Boolean(value); box.running = false; }},
          () => {{ box.running = false; }}
        );
      }}
      return box.value;
    }}"""
    page.evaluate("() => { delete window.__awaited; }")
    page.wait_for_function(poll, arg=arg, timeout=timeout)
    page.evaluate("() => { delete window.__awaited; }")


def chip_input(scope: Any, name: str, value: str) -> Any:
    """The radio or checkbox that posts ``value`` for the field ``name``: a card (``"red-4"``)
    or a count (``"3"``) of a round page's picker."""
    return scope.locator(f'input[name="{name}"][value="{value}"]')


def chip_face(scope: Any, name: str, value: str) -> Any:
    """What a finger taps to pick it: the chip its label draws after it (round_macros.html;
    the label itself is laid out as its chip, display: contents)."""
    return scope.locator(f'label:has(> input[name="{name}"][value="{value}"]) > span')


#: The pages' scripts (the Content-Security-Policy allows no inline script).
STATIC = Path(__file__).resolve().parents[2] / "static"


def scripts_reading(pattern: re.Pattern[str]) -> list[str]:
    """Where a page's script reads what ``pattern`` names (``file: match``): a page checked
    once and then changed in place (its colour scheme, its width) stands for a page loaded
    that way only while no script reads it."""
    scripts = sorted(STATIC.glob("*.js"))
    assert scripts, STATIC
    return [
        f"{script.name}: {match.group()}"
        for script in scripts
        for match in pattern.finditer(script.read_text("utf-8"))
    ]
