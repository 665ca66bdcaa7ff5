"""The service worker, its list of files to keep and their cache version, and the offline page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from scripts.page_reader import read_page, words_of_main
from tests.assets.helpers import static_url
from tests.conftest import TEST_CONFIG
from tests.table import Table

ROOT = Path(__file__).resolve().parent.parent.parent


def worker(client: FlaskClient) -> str:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def version(client: FlaskClient) -> str:
    match = re.search(r'var CACHE = CACHE_PREFIX \+ "([0-9a-f]+)";', worker(client))
    assert match
    return match.group(1)


def listed(source: str, name: str) -> list[str]:
    """The URLs of the worker's list ``var <name> = [...]``."""
    match = re.search(rf"var {name} = (\[.*?\]);", source)
    assert match, name
    return re.findall(r'"([^"]+)"', match.group(1))


def setting(source: str, name: str) -> str:
    """The string the worker's ``var <name> = "...";`` holds."""
    match = re.search(rf'var {name} = "([^"]*)";', source)
    assert match, name
    return match.group(1)


def precached(client: FlaskClient) -> list[str]:
    return listed(worker(client), "PRECACHE")


@pytest.fixture
def static_folder(app: Flask, tmp_path: Path) -> Path:
    """A static folder of its own for one test, with a stylesheet and a script."""
    folder = tmp_path / "static"
    (folder / "icons").mkdir(parents=True)
    (folder / "style.css").write_text("body { color: black; }\n")
    (folder / "icons" / "icon.svg").write_text("<svg></svg>\n")
    app.static_folder = str(folder)
    return folder


@pytest.mark.no_database_queries
def test_the_worker_is_served_from_the_site_root_as_javascript_never_cached(
    client: FlaskClient,
) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"


@pytest.mark.no_database_queries
def test_the_worker_keeps_every_static_file_and_the_offline_page(client: FlaskClient) -> None:
    urls = precached(client)
    assert "/offline" in urls
    assert "/manifest.webmanifest" in urls
    files = [path for path in (ROOT / "static").rglob("*") if path.is_file()]
    assert files
    for path in files:
        if not path.name.startswith("."):
            assert static_url(path.relative_to(ROOT / "static").as_posix()) in urls, path
    pages = [url for url in urls if not url.startswith("/static/")]
    assert pages == ["/offline", "/manifest.webmanifest"], "no other page is ever kept"


@pytest.mark.no_database_queries
def test_every_file_the_worker_keeps_answers(client: FlaskClient) -> None:
    for url in precached(client):
        answer = client.get(url)
        assert answer.status_code == 200, url
        answer.close()


#: What the worker fetches when it installs: the static folder (about 150 KB) and two pages.
#: The offline kit (13 MB of Pyodide) is fetched only when a phone asks to play offline.
PRECACHE_BUDGET = 400_000


@pytest.mark.no_database_queries
def test_the_worker_keeps_none_of_the_offline_kit(client: FlaskClient) -> None:
    urls = precached(client)
    assert client.get("/offline-kit/manifest.json").status_code in (200, 503)
    assert not [url for url in urls if url.startswith("/offline-kit/")]
    assert not [url for url in urls if url.endswith((".wasm", ".mjs", ".zip"))]
    total = 0
    for url in urls:
        answer = client.get(url, headers={"Accept-Encoding": "identity"})
        answer.direct_passthrough = False
        total += len(answer.get_data())
        answer.close()
    assert total < PRECACHE_BUDGET


@pytest.mark.no_database_queries
def test_the_worker_lists_the_files_of_the_static_folder_it_is_given(
    client: FlaskClient, static_folder: Path
) -> None:
    (static_folder / ".gitkeep").write_text("")
    assert precached(client) == [
        "/offline",
        "/manifest.webmanifest",
        static_url("icons/icon.svg", static_folder),
        static_url("style.css", static_folder),
    ]


@pytest.mark.no_database_queries
def test_the_cache_version_changes_when_a_static_file_changes(
    client: FlaskClient, static_folder: Path
) -> None:
    before = version(client)
    assert version(client) == before, "the same files give the same version"
    (static_folder / "style.css").write_text("body { color: navy; }\n")
    changed = version(client)
    assert changed != before
    (static_folder / "new.js").write_text("")
    assert version(client) not in (before, changed)


@pytest.mark.no_database_queries
def test_the_cache_version_does_not_change_with_hidden_files(
    client: FlaskClient, static_folder: Path
) -> None:
    before = version(client)
    (static_folder / ".DS_Store").write_bytes(b"litter")
    assert version(client) == before


@pytest.mark.no_database_queries
def test_the_worker_leaves_the_api_other_sites_and_other_methods_alone(
    client: FlaskClient,
) -> None:
    source = worker(client)
    assert setting(source, "API_PREFIX") == "/api/"
    assert 'request.method !== "GET"' in source
    assert "url.origin !== self.location.origin" in source


def test_the_worker_keeps_the_rules_page_the_resolver_and_the_scoreboards_it_opened(
    client: FlaskClient, table: Table
) -> None:
    """The two public pages that settle a dispute are kept as last seen (and the new-game
    page, on which a phone with the offline kit starts a game offline), and so is the
    scoreboard of each game this phone opened and its record, mark and correct pages (for
    rounds entered offline), in a cache of its own that a new version of the worker spares,
    with the words of offline play; any other page of a game is never kept."""
    source = worker(client)
    assert listed(source, "KEPT_PAGES") == ["/rules", "/resolve", "/games/new"]
    assert source.count("cache.addAll(") == 1
    # When installing, at each visit of a page, the words of offline play, the blank pages,
    # and the new-game page again once the phone's circles changed.
    assert source.count("cache.put(") == 5
    assert listed(source, "CIRCLE_PAGES") == ["/games/new"]
    assert setting(source, "WORDS_URL") == "/offline/words.json"
    for path in listed(source, "KEPT_PAGES"):
        assert client.get(path).status_code == 200, path
    assert setting(source, "GAMES_CACHE") == "sticheln-games"
    assert "name !== GAMES_CACHE" in source  # the activate step spares it
    found = re.search(r"var GAME_PAGE = new RegExp\((\".*?\")\);", source)
    assert found is not None
    pattern = re.compile(json.loads(found.group(1)))
    game = table.new_game()
    code = game["id"]
    assert client.get(f"/g/{code}").status_code == 200
    kept = [f"/g/{code}", f"/g/{code}/view"]
    never = [f"/g/{code}/share", f"/g/{code}/rounds/record", f"/g/{code}/rounds/1", "/g/x/y"]
    assert [path for path in kept + never if pattern.match(path)] == kept
    found = re.search(r"var ROUND_PAGE = new RegExp\((\".*?\")\);", source)
    assert found is not None
    round_page = re.compile(json.loads(found.group(1)))
    record = [f"/g/{code}/rounds/{page}" for page in ("record", "mark", "1", "12")]
    never = [*kept, f"/g/{code}/rounds/1/live", f"/g/{code}/rounds/1/scores", "/g/x/rounds/x"]
    assert [path for path in record + never if round_page.match(path)] == record


def test_the_worker_keeps_one_shell_for_the_games_only_the_phone_holds(
    client: FlaskClient,
) -> None:
    """A game started or played again offline, of any variant and any number of players, is
    drawn into one kept page, the app's layout with an empty <main> (templates/pwa/
    shell.html): the rules worker draws each of its pages there; no page of another game is
    borrowed."""
    source = worker(client)
    shell = setting(source, "SHELL_URL")
    assert shell == "/offline/shell"
    page = client.get(shell)
    assert page.status_code == 200
    main = read_page(page.get_data(as_text=True)).find("main")
    assert main is not None and main.get("hidden") is not None
    assert main.get("data-game") == "" and main.get("data-offline-frame") is not None
    assert main.words() == ""  # nothing of any game: the worker draws the page
    assert main.get("data-round-script") == static_url("rounds.js")
    assert "FRAMES" not in source and "/games/frame" not in source


def test_a_kept_scoreboard_carries_the_notice_the_worker_shows_offline(
    client: FlaskClient, table: Table
) -> None:
    """The worker unhides it in the copy it shows offline; online it stays hidden."""
    mark = setting(worker(client), "OFFLINE_COPY_MARK")
    code = table.new_game()["id"]
    for path in (f"/g/{code}", f"/g/{code}/view"):
        page = client.get(path).get_data(as_text=True)
        assert page.count(mark) == 1, path
        notice = read_page(page).find("p", **{"data-offline-copy": True})
        assert notice is not None and notice.get("hidden") is not None
        assert notice.words().startswith("This phone is offline: this is the scoreboard as it")


@pytest.mark.no_database_queries
def test_a_page_marked_no_store_is_never_kept(client: FlaskClient) -> None:
    source = worker(client)
    assert "!noStore(response)" in source
    assert 'indexOf("no-store") !== -1' in source


@pytest.mark.no_database_queries
def test_the_worker_serves_the_kept_offline_kit_and_never_deletes_it(
    client: FlaskClient,
) -> None:
    source = worker(client)
    assert setting(source, "KIT_PREFIX") == "/offline-kit/"
    assert setting(source, "KIT_MANIFEST") == "/offline-kit/manifest.json"
    assert setting(source, "KIT_CACHE_PREFIX") == "sticheln-kit-"
    assert "name.indexOf(KIT_CACHE_PREFIX) !== 0" in source  # the activate step spares it
    keep = (ROOT / "static" / "keep.js").read_text()
    assert 'var CACHE_PREFIX = "sticheln-kit-";' in keep  # the caches keep.js fills


def test_under_url_prefix_every_path_of_the_worker_carries_the_prefix(tmp_path: Path) -> None:
    config = {**TEST_CONFIG, "URL_PREFIX": "/sticheln", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    client = create_app(config, instance_path=str(tmp_path)).test_client()
    answer = client.get("/sticheln/sw.js")
    assert answer.status_code == 200
    source = answer.get_data(as_text=True)
    assert setting(source, "API_PREFIX") == "/sticheln/api/"
    assert setting(source, "STATIC_PREFIX") == "/sticheln/static/"
    assert setting(source, "OFFLINE_URL") == "/sticheln/offline"
    assert setting(source, "KIT_PREFIX") == "/sticheln/offline-kit/"
    assert setting(source, "SHELL_URL") == "/sticheln/offline/shell"  # games only kept here
    assert listed(source, "KEPT_PAGES") == [
        "/sticheln/rules",
        "/sticheln/resolve",
        "/sticheln/games/new",
    ]
    urls = listed(source, "PRECACHE")
    assert urls and all(url.startswith("/sticheln/") for url in urls)


@pytest.mark.no_database_queries
def test_the_worker_deletes_the_caches_of_older_versions(client: FlaskClient) -> None:
    source = worker(client)
    assert 'addEventListener("activate"' in source
    assert "caches.delete(name)" in source


def test_the_app_script_registers_the_worker_only_where_browsers_support_it() -> None:
    script = (ROOT / "static" / "app.js").read_text()
    assert '"serviceWorker" in navigator' in script
    # Beside the static folder, wherever the app is served (tests/browser/test_offline_keep.py
    # registers it under URL_PREFIX in a browser).
    assert 'new URL("../sw.js", script.src)' in script
    assert '"/sw.js"' not in script


@pytest.mark.no_database_queries
def test_the_offline_page_tells_what_is_kept_and_what_is_not_and_offers_to_try_again(
    client: FlaskClient,
) -> None:
    answer = client.get("/offline")
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert "<h1>This phone seems to be offline</h1>" in page
    words = words_of_main(page)
    assert "Every round saved before the connection dropped is kept on the server." in words
    assert "A form sent while offline was not saved." in words
    assert "nothing is lost" not in words  # no promise the app does not keep (issue 26)
    links = {a.get("href"): a.text for a in read_page(page).find("main").find_all("a")}
    assert links["/rules"] == "Rules" and links["/resolve"] == "Who takes the trick?"
    # An empty address is the page's own: the one the offline page stands in for.
    assert '<a class="button button--primary" href="">Try again</a>' in page


@pytest.mark.no_database_queries
def test_the_offline_page_has_no_inline_script(client: FlaskClient) -> None:
    page = client.get("/offline").get_data(as_text=True)
    elements = read_page(page).find_all()
    assert all(e.get("src") for e in elements if e.tag == "script")  # every script a file
    assert not [(e.tag, name) for e in elements for name in e.attrs if name.startswith("on")]
