"""Offline play, first slice (issue 26, point 3), in a real browser at a phone's size: "Keep for
offline play" on the share page downloads the offline kit once, with its size and progress,
checking each file's SHA-256 (a tampered file is refused and not kept); the service worker
then serves the kit, the rules page and the trick resolver with no network, and the resolver
says honestly that a tap needs the connection. Under ``URL_PREFIX`` the worker is registered
at the prefixed address, for the prefixed pages only.

Screenshots (``SCREENSHOTS_DIR``) of the control before, during and after the download, and of
the resolver offline, in English and German.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.support import (
    WORKER_START_MS,
    LiveServer,
    Phone,
    PhoneFactory,
    kit_manifest,
    open_phone,
)
from tests.browser.test_pages import axe_violations, describe_violations, save_screenshot
from tests.table import Table

#: The words of the keep control and the resolver, in the two languages looked at.
WORDS = {
    "en": {
        "locale": "en-GB",
        "size": "About {size} to download, once.",
        "kept": "Kept for offline play ({size} on this phone).",
        "refused": "A downloaded file did not match its checksum, so it was not kept.",
        "rules": "Rules",
        "resolver": "Who takes the trick?",
        "offline": "This phone seems to be offline",
    },
    "de": {
        "locale": "de-DE",
        "size": "Etwa {size} herunterzuladen, nur einmal.",
        "kept": "Für das Spielen ohne Netz gespeichert ({size} auf diesem Handy).",
        "refused": "Eine heruntergeladene Datei passte nicht zu ihrer Prüfsumme",
        "rules": "Regeln",
        "resolver": "Wer bekommt den Stich?",
        "offline": "Dieses Handy scheint offline zu sein",
    },
}

#: The kit's files in Cache Storage, and the names of the caches holding a kit.
KEPT_FILES = """async (urls) => {
  const kept = {};
  for (const url of urls) {
    const found = await caches.match(url);
    kept[url] = found ? (await found.arrayBuffer()).byteLength : null;
  }
  const names = (await caches.keys()).filter((name) => name.startsWith("sticheln-kit-"));
  return { kept, names };
}"""

#: A kit file fetched by the page (through the service worker) and its SHA-256.
FETCHED_SHA = """async (url) => {
  const response = await fetch(url);
  const digest = await crypto.subtle.digest("SHA-256", await response.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}"""

CONTROLLED = "() => navigator.serviceWorker.controller !== null"


def megabytes(size: int, language: str) -> str:
    """A size as the control writes it: one decimal, the language's decimal sign."""
    number = f"{size / 1e6:.1f}"
    return (number.replace(".", ",") if language == "de" else number) + "\u00a0MB"


def keep_control(phone: Phone) -> Any:
    return phone.page.locator("[data-keep]")


def open_share_page(phone: Phone, table: Table) -> None:
    """The share page of a new game, opened by the phone that made it (it may edit)."""
    game = table.new_game(["Ann", "Ben", "Cleo"], rounds=3)
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    phone.goto(f"/g/{game['id']}/share")


def no_axe_violations(phone: Phone, axe_source: str, where: str) -> None:
    problems = describe_violations(axe_violations(phone, axe_source), where)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_kit_is_kept_once_with_its_size_and_progress_then_serves_offline(
    new_phone: PhoneFactory,
    live_server: LiveServer,
    live_table: Table,
    axe_source: str,
    language: str,
) -> None:
    manifest = kit_manifest(live_server)
    words = WORDS[language]
    phone = new_phone(locale=words["locale"], service_workers="allow")
    page = phone.page
    open_share_page(phone, live_table)
    control = keep_control(phone)
    status = control.locator(".keep__status")
    percent = control.locator(".keep__percent")
    button = control.get_by_role("button")

    # Before: the size to download (gzip as served), and the button.
    expect(status).to_have_text(
        words["size"].format(size=megabytes(manifest["download_size"], language))
    )
    expect(button).to_be_visible()
    control.scroll_into_view_if_needed()
    save_screenshot(phone, f"keep-before-{language}")
    no_axe_violations(phone, axe_source, f"share page, keep control ({language})")

    # During: the worker's file is held back until the rest is in, then let through.
    held: list[Any] = []
    worker_url = manifest["worker"]
    phone.context.route(f"**{worker_url}", lambda route: held.append(route))
    button.click()
    expect(percent).to_have_text("99%" if language == "en" else "99 %")
    expect(control.locator("progress")).to_have_attribute("value", "99")
    page.wait_for_function("() => true")  # lets the route handler run
    assert len(held) == 1
    save_screenshot(phone, f"keep-during-{language}")
    held[0].continue_()

    # After: kept, at 100%, every file in Cache Storage as the manifest says.
    kept_words = words["kept"].format(size=megabytes(manifest["size"], language))
    expect(status).to_have_text(kept_words)
    expect(percent).to_have_text("100%" if language == "en" else "100 %")
    expect(button).to_be_hidden()
    phone.context.unroute(f"**{worker_url}")
    urls = [file["url"] for file in manifest["files"]]
    cached = page.evaluate(KEPT_FILES, urls)
    assert cached["kept"] == {file["url"]: file["size"] for file in manifest["files"]}
    assert cached["names"] == ["sticheln-kit-" + worker_url.split("/")[-2]]
    save_screenshot(phone, f"keep-after-{language}")
    no_axe_violations(phone, axe_source, f"share page, kit kept ({language})")

    # A later visit says it is kept, and fetches no kit file again.
    phone.requests.clear()
    page.reload()
    expect(status).to_have_text(kept_words)
    assert [url for url in phone.requests if "/offline-kit/" in url and "manifest" not in url] == []

    # Offline: the worker serves the kit from the cache, the rules page and the resolver.
    page.wait_for_function(CONTROLLED)
    phone.goto("/rules")
    phone.goto("/resolve?variant=classic&players=4")
    phone.set_offline(True)
    for file in manifest["files"]:
        assert page.evaluate(FETCHED_SHA, file["url"]) == file["sha256"], file["name"]
    phone.goto("/rules")
    expect(page.locator("h1")).to_contain_text(words["rules"])
    assert page.locator("html").get_attribute("lang") == language
    phone.goto("/resolve")
    expect(page.locator("h1")).to_have_text(words["resolver"])
    page.locator(".picker-chips button").first.click()  # answered by the kit's rules worker
    expect(page.locator(".trick-play")).to_have_count(1, timeout=WORKER_START_MS)
    expect(page.locator(".resolver-offline, .offline-notice")).to_have_count(0)
    save_screenshot(phone, f"resolver-offline-{language}")
    no_axe_violations(phone, axe_source, f"resolver offline ({language})")

    # A page the worker does not keep: the offline page, whose links open the kept ones.
    phone.goto("/setup")
    expect(page.locator("h1")).to_have_text(words["offline"])
    page.locator("main").get_by_role("link", name=words["rules"], exact=True).click()
    expect(page.locator("h1")).to_contain_text(words["rules"])


def test_a_tampered_file_is_refused_and_not_kept_and_the_rest_is_not_fetched_again(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    manifest = kit_manifest(live_server)
    phone = new_phone(service_workers="allow")
    page = phone.page
    open_share_page(phone, live_table)
    control = keep_control(phone)
    status = control.locator(".keep__status")
    tampered = next(file for file in manifest["files"] if file["name"] == "rules.zip")

    def wrong_bytes(route: Any) -> None:
        route.fulfill(status=200, body=b"PK not the rules", content_type="application/zip")

    phone.context.route(f"**{tampered['url']}", wrong_bytes)
    control.get_by_role("button").click()
    expect(status).to_contain_text(WORDS["en"]["refused"])
    urls = [file["url"] for file in manifest["files"]]
    cached = page.evaluate(KEPT_FILES, urls)
    assert cached["kept"][tampered["url"]] is None
    before = urls[: urls.index(tampered["url"])]
    assert before and all(cached["kept"][url] is not None for url in before)
    expect(control.get_by_role("button")).to_be_enabled()

    phone.context.unroute(f"**{tampered['url']}")
    phone.requests.clear()
    control.get_by_role("button").click()
    expect(status).to_have_text(WORDS["en"]["kept"].format(size=megabytes(manifest["size"], "en")))
    fetched = [url for url in phone.requests if "/offline-kit/" in url and "manifest" not in url]
    # (the page's request and, once the service worker runs, the worker's for it)
    assert set(fetched) == {live_server.url + url for url in urls if url not in before}


# --------------------------------------------------------------------------------------------
# Under URL_PREFIX


@pytest.fixture(scope="module")
def prefixed_server(
    tmp_path_factory: pytest.TempPathFactory, live_server: LiveServer
) -> Iterator[str]:
    """The app again, served under /sticheln on a port of its own; answers its base URL."""
    from werkzeug.serving import WSGIRequestHandler, make_server

    from companion import create_app
    from companion.data.models import db

    class QuietHandler(WSGIRequestHandler):
        def log_request(self, *args: Any, **kwargs: Any) -> None:
            """No line per request."""

    instance = tmp_path_factory.mktemp("prefixed-instance")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-tests",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'prefixed.sqlite3'}",
            "URL_PREFIX": "/sticheln",
        },
        instance_path=str(instance),
    )
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="prefixed-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        with app.app_context():
            db.engine.dispose()


def test_under_url_prefix_the_worker_is_registered_at_the_prefixed_address(
    browser: Any, prefixed_server: str
) -> None:
    phone = open_phone(browser, prefixed_server, service_workers="allow")
    try:
        phone.goto("/sticheln/rules")
        registration = phone.page.evaluate(
            """async () => {
              const registration = await navigator.serviceWorker.ready;
              return { scope: registration.scope, script: registration.active.scriptURL };
            }"""
        )
        assert registration == {
            "scope": prefixed_server + "/sticheln/",
            "script": prefixed_server + "/sticheln/sw.js",
        }
        phone.page.wait_for_function(CONTROLLED)
        phone.set_offline(True)
        phone.goto("/sticheln/rules")
        expect(phone.page.locator("h1")).to_contain_text("Rules")
        assert [url for url in phone.requests if url.startswith(prefixed_server + "/sw.js")] == []
    finally:
        phone.context.close()


def test_where_the_address_is_not_secure_the_share_page_says_offline_play_needs_https(
    phone: Phone, live_table: Table
) -> None:
    """Over plain HTTP on a local network the browser gives a page no service worker and no
    Cache Storage; the control says so instead of failing silently (127.0.0.1 is secure, so
    the page is told it is not)."""
    phone.page.add_init_script(
        "Object.defineProperty(window, 'isSecureContext', { get: () => false })"
    )
    open_share_page(phone, live_table)
    control = keep_control(phone)
    expect(control.locator(".keep__status")).to_have_text(
        "Offline play needs a secure connection (HTTPS): at this address the phone cannot "
        "keep anything for offline use."
    )
    expect(control.get_by_role("button")).to_be_hidden()


def test_a_new_kit_replaces_the_old_one_fetching_only_its_changed_files(
    new_phone: PhoneFactory, live_server: LiveServer, live_table: Table
) -> None:
    """A kit whose rules worker changed (a new fingerprint): the control offers the update
    with the size of what changed only, fetches only that, and deletes the old kit."""
    manifest = kit_manifest(live_server)
    phone = new_phone(service_workers="allow")
    page = phone.page
    worker = next(file for file in manifest["files"] if file["url"] == manifest["worker"])
    old_worker = "/offline-kit/0000000000000000/rules-worker.js"
    old_files = [
        {**file, "url": old_worker} if file is worker else file for file in manifest["files"]
    ]
    old_manifest = {**manifest, "worker": old_worker, "files": old_files}
    worker_bytes = live_server.app.test_client().get(manifest["worker"]).get_data()
    phone.context.route(
        "**/offline-kit/manifest.json", lambda route: route.fulfill(json=old_manifest)
    )
    phone.context.route(
        f"**{old_worker}",
        lambda route: route.fulfill(body=worker_bytes, content_type="text/javascript"),
    )
    open_share_page(phone, live_table)
    control = keep_control(phone)
    status = control.locator(".keep__status")
    control.get_by_role("button").click()
    kept = WORDS["en"]["kept"].format(size=megabytes(manifest["size"], "en"))
    expect(status).to_have_text(kept)
    names = page.evaluate(KEPT_FILES, [])["names"]
    assert names == ["sticheln-kit-0000000000000000"]

    phone.context.unroute("**/offline-kit/manifest.json")
    page.reload()
    changed = f"{-(-worker['download_size'] // 1000)}\u00a0kB"
    expect(status).to_have_text(f"A new version of the offline kit: about {changed} to download.")
    phone.requests.clear()
    control.get_by_role("button").click()
    expect(status).to_have_text(kept)
    fetched = {url for url in phone.requests if "/offline-kit/" in url and "manifest" not in url}
    assert fetched == {live_server.url + manifest["worker"]}
    cached = page.evaluate(KEPT_FILES, [file["url"] for file in manifest["files"]])
    assert cached["names"] == ["sticheln-kit-" + manifest["worker"].split("/")[-2]]
    assert cached["kept"] == {file["url"]: file["size"] for file in manifest["files"]}
    assert page.evaluate("(url) => caches.match(url).then(Boolean)", old_worker) is False
