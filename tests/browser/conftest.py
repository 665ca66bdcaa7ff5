"""Fixtures of the browser tests: the app served on a loopback port, driven by Debian's
Chromium (see support.py).

Where Chromium is missing the tests are skipped with the reason, except in CI (``CI=true``),
where that is a failure: ``python3 manage.py test`` installs it from Debian's packages first.

One server and one browser serve the whole session. The journeys get a fresh phone (browser
context) per test; the page checks, which only look, share a phone per colour scheme. Every
phone records every request it makes, so that a test can check that nothing leaves the app's
own host. A test of offline play may ask for a phone that kept the offline kit
(``new_phone(kit_kept=True)``): a browser of its own started on a copy of a profile that kept
it once in the session, in the phone's locale (``kit_profiles``).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import (
    CHROMIUM,
    TIMEOUT_MS,
    WORKER_START_MS,
    LiveServer,
    Phone,
    PhoneFactory,
    Site,
    missing_browser_reason,
    open_phone,
    open_profile_phone,
    record_rounds,
)
from tests.needed_tools import require
from tests.table import Table


def require_browser() -> None:
    """Skip the test (outside CI) or fail it (in CI) when the browser cannot run here."""
    reason = missing_browser_reason()
    require(None if reason is None else f"the browser tests cannot run: {reason}")


# --------------------------------------------------------------------------------------------
# The order of the files

#: The files of offline play start Pyodide on page after page: the slowest, so they go first,
#: and the two workers (a file each at a time) end together on the short files.
SLOWEST_FIRST = "tests/browser/test_offline_"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the files of offline play first among the browser tests (a stable sort: every
    other test keeps its place, and tests/conftest.py's order of the folders stands)."""
    items.sort(key=lambda item: not item.nodeid.startswith(SLOWEST_FIRST))


# --------------------------------------------------------------------------------------------
# The app, served on a free loopback port


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The app on SQLite in a temporary instance folder, served until the session ends."""
    require_browser()
    from werkzeug.serving import WSGIRequestHandler, make_server

    class QuietHandler(WSGIRequestHandler):
        def log_request(self, *args: Any, **kwargs: Any) -> None:
            """Keep the test output free of one line per request."""

    from companion import create_app
    from companion.data.models import db

    instance = tmp_path_factory.mktemp("browser-instance")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-tests",
            "GAME_STARTS_LIMIT": "",  # the tests start many games from one address
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'browser.sqlite3'}",
        },
        instance_path=str(instance),
    )
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield LiveServer(f"http://127.0.0.1:{server.server_port}", app)
    finally:
        server.shutdown()
        thread.join(timeout=10)
        with app.app_context():
            db.engine.dispose()


@pytest.fixture(scope="session")
def live_table(live_server: LiveServer) -> Table:
    """Games made on the served app as phones make them (tests/table.py): through its JSON
    API, from this process, into the database the browser's pages read."""
    return Table(live_server.app, live_server.app.test_client())


# --------------------------------------------------------------------------------------------
# The browser and the phones


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, for the whole session."""
    require_browser()
    from playwright.sync_api import expect, sync_playwright

    # Service workers' own requests are seen and routed (Phone.set_offline cuts them).
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def kit_profiles(
    browser: Any,
    live_server: LiveServer,
    live_table: Table,
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[str], Path]:
    """The profile folder of a phone in a locale (``"de-DE"``; ``""``: the browser's own) that
    kept the offline kit, made at the first call for that locale and kept for the session.

    That phone did what a table does first: opened a game by its edit link (the service
    worker installed, keeping the pages of this visit in its language), kept the kit on the
    share page ("Keep for offline play", its 7 MB downloaded and checked), opened the
    scoreboard (offline play kept the game), then, with no network, its record page (the rules
    worker started, so the browser keeps Pyodide compiled as a phone does). Then its cookies
    are cleared: a copy holds no game's edit right and nothing waiting to be sent. The share
    page's keeping is tested on fresh phones (test_offline_keep.py, test_offline_ready.py)."""
    from flask_babel import force_locale, gettext
    from playwright.sync_api import expect

    made: dict[str, Path] = {}

    def kept(locale: str) -> Path:
        if locale in made:
            return made[locale]
        profile = tmp_path_factory.mktemp("kit-profile") / "profile"
        game = live_table.new_game(["Ann", "Ben", "Cleo"], rounds=5)
        with live_server.app.test_request_context(), force_locale(locale.split("-")[0] or "en"):
            keep = gettext("Keep for offline play")
            offline = gettext(
                "This phone is offline. Rounds entered on it are kept on this phone and sent "
                "by themselves when the connection is back."
            )
        options = {"locale": locale} if locale else {}
        phone = open_profile_phone(browser, live_server.url, profile, **options)
        try:
            page = phone.page
            phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            phone.goto(f"/g/{game['id']}/share")
            button = page.get_by_role("button", name=keep)
            button.click()
            expect(button).to_be_hidden()  # once the whole kit is kept
            phone.goto(f"/g/{game['id']}")
            expect(page.locator("main")).to_have_attribute("data-offline-ready", "")
            phone.set_offline(True)
            phone.goto(f"/g/{game['id']}/rounds/record")
            status = page.locator("#offline-play-status")
            expect(status).to_have_text(offline, timeout=WORKER_START_MS)
            phone.context.clear_cookies()
        finally:
            phone.context.close()
        made[locale] = profile
        return profile

    return kept


@pytest.fixture
def new_phone(
    browser: Any,
    live_server: LiveServer,
    kit_profiles: Callable[[str], Path],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[PhoneFactory]:
    """Open phones (browser contexts); each is closed at the end of the test. With
    ``kit_kept=True``, a phone that kept the offline kit (see ``kit_profiles``), on a browser
    of its own, its service workers allowed."""
    phones: list[Phone] = []

    def new(kit_kept: bool = False, **options: Any) -> Phone:
        if kit_kept:
            profile = tmp_path_factory.mktemp("phone") / "profile"
            kept = kit_profiles(options.get("locale", ""))
            shutil.copytree(kept, profile, ignore=shutil.ignore_patterns("Singleton*"))
            phones.append(open_profile_phone(browser, live_server.url, profile, **options))
            phones[-1].kit_kept = True
        else:
            phones.append(open_phone(browser, live_server.url, **options))
        return phones[-1]

    yield new
    for phone in phones:
        phone.context.close()


@pytest.fixture
def phone(new_phone: PhoneFactory) -> Phone:
    """A fresh phone in the light colour scheme and English."""
    return new_phone()


@pytest.fixture(scope="session")
def shared_phones(browser: Any, live_server: LiveServer) -> Iterator[PhoneFactory]:
    """Phones kept for the whole session, one per set of options (the first call with a
    ``key`` opens it): the page checks only look, so one phone can look at every page, and
    opening a context per page costs more than the page. Each call forgets the requests
    recorded so far."""
    phones: dict[str, Phone] = {}

    def shared(key: str, **options: Any) -> Phone:
        if key not in phones:
            phones[key] = open_phone(browser, live_server.url, **options)
        phones[key].requests.clear()
        return phones[key]

    yield shared
    for phone in phones.values():
        phone.context.close()


# --------------------------------------------------------------------------------------------
# axe-core


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's axe.min.js, as shipped inside the axe-playwright-python package."""
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text("utf-8")


# --------------------------------------------------------------------------------------------
# The games every page check looks at, set up once through the JSON API


@pytest.fixture(scope="session")
def site(live_server: LiveServer, live_table: Table, browser: Any) -> Site:
    """Four games: one in progress with two rounds scored ("main"), one finished, one in a
    live round with a trick played and the next trick begun on this phone ("live"), and a
    Hat Trick game of four to record ("hat")."""
    from playwright.sync_api import expect

    from tests.browser.scenario import FIVE_ROUNDS, card

    main_game = live_table.new_game(["Ann", "Ben", "Cleo"], rounds=5)
    record_rounds(live_table, main_game, FIVE_ROUNDS[:2])

    finished_names = ["Ann", "Bartholomäus", "Zsuzsanna"]
    finished_game = live_table.new_game(finished_names, rounds=3)
    record_rounds(live_table, finished_game, FIVE_ROUNDS[2:])

    live_game = live_table.new_game(["Anna-Lena", "Jean-Baptiste", "Gergely"], rounds=5)
    hat_game = live_table.new_game(["Ann", "Ben", "Cleo", "Dan"], "hat-trick", rounds=5)
    main, main_key = main_game["id"], main_game["edit_key"]
    finished, finished_key = finished_game["id"], finished_game["edit_key"]
    live, live_key = live_game["id"], live_game["edit_key"]
    marked = [[card(text).as_json()] for text in ("red 4", "blue 0", "green 1")]
    state = live_server.api(
        "POST",
        f"/api/v1/games/{live}/rounds/live",
        {"version": live_game["version"], "marked": marked},
        live_key,
    )
    trick = [card(text).as_json() for text in ("yellow 3", "green 3", "blue 7")]
    live_server.api(
        "POST",
        f"/api/v1/games/{live}/rounds/1/tricks",
        {"version": state["version"], "cards": trick},
        live_key,
    )

    setup_phone = open_phone(browser, live_server.url)
    page = setup_phone.page
    hat, hat_key = hat_game["id"], hat_game["edit_key"]
    for code, key in ((main, main_key), (finished, finished_key), (live, live_key), (hat, hat_key)):
        page.goto(f"/g/{code}/edit/{key}")
    # Seat 2 took trick 1 (blue 7 is the highest trump) and leads trick 2: one card of it is
    # entered on this phone, so the live page shows a trick under way.
    page.goto(f"/g/{live}/rounds/1/live")
    page.get_by_role("button", name="yellow 8", exact=True).click()
    expect(page.locator(".live-turn")).to_have_text("Next to play: Anna-Lena.")
    stored = setup_phone.context.storage_state()
    setup_phone.context.close()
    codes = {"main": main, "finished": finished, "live": live, "hat": hat}
    return Site(live_server.url, codes, stored)
