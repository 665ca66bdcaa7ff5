"""Every page at a phone's size, and what is measured on it: the pages (``PAGES``) and the
checks that test_pages_accessible.py (axe-core, WCAG 2.1 A and AA, in the light and the dark
colour scheme) and test_pages_languages.py (no horizontal scrolling in any of the five
languages) run on each, in files of their own so that two workers share them; no request to
any host but the app's own.

The pages are those of games set up once through the JSON API (``site`` in conftest.py);
``test_every_page_reachable_from_home_is_checked`` makes sure a new page joins the list.
Set ``SCREENSHOTS_DIR`` to keep a full-page screenshot of each page in each scheme.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from playwright.sync_api import expect

from tests.browser.support import AXE_TAGS, PHONE, Phone, PhoneFactory, Site

LANGUAGES = ["en", "de", "it", "fr", "hu"]
#: The widths every page must fit in every language: the phone of the other tests (390 px)
#: and the narrowest common one (many Android phones are 360 px wide).
NARROW_PHONES = [PHONE["viewport"]["width"], 360]


@dataclass(frozen=True)
class Page:
    """A page to check: its name (for reports and screenshots), its path, its status and
    an element that shows the page is in the state meant (a trick under way, a winner)."""

    name: str
    path: str  # with {main}, {finished}, {live}, {hat} for the games' codes
    shows: str = "main h1"
    status: int = 200
    #: Boxes that may scroll sideways but must not need to: their content fits the phone.
    unscrolled: str | None = None


#: A trick of four players: blue 9 is the highest trump (R7, R8), the red 0 no trump at all.
FULL_TRICK = "yellow-3+green-3+blue-9+red-0"

PAGES = [
    # This phone's games: "main" in progress, and the finished one with its winner.
    Page("home", "/", "[data-home-games='finished'] .home-list__winner"),
    Page("new-game", "/games/new", "#new-game-form"),
    Page("scoreboard", "/g/{main}", ".current-round .actions .button"),  # with edit controls
    Page("view-finished", "/g/{finished}/view", ".winners"),
    Page("finished", "/g/{finished}", ".play-again form"),  # by rank, with Play again
    Page("share", "/g/{main}/share", ".qr--large"),
    Page("mark-colours", "/g/{main}/rounds/mark", "form.round-form[data-kind='mark']"),
    # Before marking: each seat's indicator only, the rest opens once it is chosen.
    Page("record-round", "/g/{main}/rounds/record", "[data-seat-rest][hidden]"),
    Page("record-every-card", "/g/{main}/rounds/record?mode=full",
         "form.round-form[data-kind='full']"),
    Page("record-hat-trick", "/g/{hat}/rounds/record", "form.round-form[data-kind='hat-quick']"),
    Page("correct-round", "/g/{main}/rounds/1", ".round-form .card-chips input:checked"),
    Page("round-scores", "/g/{main}/rounds/2/scores", ".round-reason__line[data-explanation]"),
    Page("live-start", "/g/{main}/rounds/live", "form.round-form[data-kind='mark']"),
    Page("live-round", "/g/{live}/rounds/1/live", "#live-trick .live-slot--played"),
    # Another phone follows that trick on the read-only view: the card entered, its taker.
    Page("view-live", "/g/{live}/view", ".follow .trick-cards .takes"),
    # The phone propped up on the table: the same trick in large type (issue 24).
    Page("table-display", "/g/{live}/table", ".table-cards .takes"),
    Page("setup", "/setup", ".box-rows"),
    Page("game-setup", "/g/{main}/setup", ".table-seats"),
    Page("resolver", "/resolve", ".trick-empty"),
    Page("resolver-trick", f"/resolve?variant=classic&players=4&trick={FULL_TRICK}",
         ".trick-result--complete"),
    Page("game-resolver", "/g/{main}/resolve", ".trick-empty"),
    Page("game-resolver-trick", "/g/{main}/resolve?leader=1&trick=yellow-3+green-3",
         ".trick-play--takes"),
    Page("history", "/history", ".history-list .history-game"),
    # This phone's circle (through its games' edit keys): its card, a new invite, a new name.
    Page("circles", "/circles", ".share-card .circle-form"),
    Page("player", "/players/Ann", ".stat-grid", unscrolled=".table-scroll"),
    # A long name, in the head-to-head table's column head and in the opponents' rows.
    Page("player-long-name", "/players/Bartholomäus", "a[data-versus]",
         unscrolled=".table-scroll"),
    Page("head-to-head", "/players/Ann/vs/Bartholomäus", ".versus-games tbody tr"),
    # Only the finished game seats Bartholomäus, and this phone keeps its score; Ann sits in
    # other test files' games too, which makes her rename page a 403 (every game's rights).
    Page("player-rename", "/players/Bartholomäus/rename", "form.game-form"),
    Page("rules", "/rules", ".rules-table"),
    Page("offline", "/offline", ".error-page"),
    Page("abandon", "/g/{main}/abandon", ".confirm-form"),
    Page("delete", "/g/{main}/delete", ".confirm-form"),
    Page("not-found", "/no-such-page", ".error-page", 404),
    Page("game-not-found", "/g/nosuchgame", ".error-page", 404),
]  # fmt: skip
PAGE_IDS = [page.name for page in PAGES]

#: What the crawl from home follows but is no page to check: files, the API, the language
#: switch (a redirect, checked in test_journeys.py) and the edit link (a redirect).
NOT_PAGES = re.compile(
    r"^/(api/|static/|lang/|manifest\.webmanifest$|g/[^/]+/export\.(json|csv)$|g/[^/]+/edit/)"
)


# --------------------------------------------------------------------------------------------
# What is measured on a page


def axe_violations(phone: Phone, axe_source: str) -> list[dict[str, Any]]:
    """Run axe-core on the page (WCAG 2.1 A and AA rules); answer its violations."""
    phone.page.evaluate(axe_source)
    return phone.page.evaluate(
        """async (tags) => {
            const results = await axe.run(document, {
                runOnly: {type: "tag", values: tags},
                resultTypes: ["violations"],
            });
            return results.violations.map((v) => ({
                id: v.id,
                impact: v.impact,
                help: v.help,
                nodes: v.nodes.map((n) => ({
                    target: n.target.join(" "),
                    summary: n.failureSummary,
                })),
            }));
        }""",
        AXE_TAGS,
    )


def describe_violations(violations: list[dict[str, Any]], where: str) -> list[str]:
    """One line per element: rule, page and scheme, selector, what is wrong."""
    lines = []
    for violation in violations:
        for node in violation["nodes"]:
            summary = " ".join((node["summary"] or violation["help"]).split())
            lines.append(f"axe {violation['id']} ({violation['impact']}) on {where}: "
                         f"{node['target']}: {summary}")  # fmt: skip
    return lines


OVERFLOW_SCRIPT = """(phoneWidth) => {
    const width = window.innerWidth;
    const scroll = document.documentElement.scrollWidth;
    const wide = [];
    if (Math.max(width, scroll) > phoneWidth) {
        for (const element of document.body.querySelectorAll("*")) {
            const box = element.getBoundingClientRect();
            const parent = element.parentElement.getBoundingClientRect();
            if (box.width > 0 && box.right > phoneWidth + 0.5 && parent.right <= phoneWidth + 0.5) {
                let name = element.tagName.toLowerCase();
                if (element.id) name += "#" + element.id;
                for (const c of element.classList) name += "." + c;
                const text = (element.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40);
                wide.push(`${name} (to ${Math.round(box.right)}px) "${text}"`);
            }
        }
    }
    return {width, scroll, wide: wide.slice(0, 6)};
}"""


def overflow_problems(phone: Phone, where: str) -> list[str]:
    """Horizontal scrolling: the page is wider than the phone (which a phone's browser may
    also show by zooming out, widening the window), with the outermost elements that stick
    out."""
    phone_width = phone.page.viewport_size["width"]
    found = phone.page.evaluate(OVERFLOW_SCRIPT, phone_width)
    if found["scroll"] <= found["width"] == phone_width:
        return []
    return [
        f"overflow on {where}: the page is {found['scroll']}px wide (window "
        f"{found['width']}px) on a {phone_width}px phone; sticking out: "
        + ("; ".join(found["wide"]) or "?")
    ]


#: Boxes whose own text is wider than they are and spills over whatever stands beside them
#: (a scrolling or clipping box is left alone: it shows its text on purpose that way).
SPILLED_TEXT_SCRIPT = """() => {
    const spilled = [];
    for (const element of document.body.querySelectorAll("*")) {
        if (!(element instanceof HTMLElement) || element.clientWidth === 0) continue;
        if (getComputedStyle(element).overflowX !== "visible") continue;
        const ownText = [...element.childNodes].some(
            (node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim()
        );
        if (ownText && element.scrollWidth > element.clientWidth + 1) {
            const text = element.textContent.trim().replace(/\\s+/g, " ").slice(0, 40);
            spilled.push(`${element.tagName.toLowerCase()}.${[...element.classList].join(".")}`
                + ` "${text}" (${element.scrollWidth}px in ${element.clientWidth}px)`);
        }
    }
    return spilled.slice(0, 6);
}"""


def spilled_text_problems(phone: Phone, where: str) -> list[str]:
    """Text wider than its box, which a phone shows running over its neighbours (a long
    word of one language, say) even when the page as a whole fits."""
    spilled = phone.page.evaluate(SPILLED_TEXT_SCRIPT)
    return [f"text spills out of its box on {where}: " + "; ".join(spilled)] if spilled else []


SCROLLED_BOXES_SCRIPT = """(selector) => [...document.querySelectorAll(selector)]
    .filter((box) => box.scrollWidth > box.clientWidth + 1)
    .map((box) => `${box.getAttribute("aria-labelledby") || box.className}`
        + ` (${box.scrollWidth}px in ${box.clientWidth}px)`)"""


def scrolled_box_problems(phone: Phone, where: str, selector: str | None) -> list[str]:
    """A table in a box that scrolls sideways, where the page means it to fit the phone: the
    player page's head-to-head table with a long name, or a language's longer words."""
    if selector is None:
        return []
    scrolled = phone.page.evaluate(SCROLLED_BOXES_SCRIPT, selector)
    return [f"{where}: scrolls sideways: " + "; ".join(scrolled)] if scrolled else []


def foreign_request_problems(phone: Phone, where: str) -> list[str]:
    """Requests to any host but the app's own (DESIGN: no third-party request at all)."""
    return [f"{where}: request to another host: {url}" for url in phone.foreign_requests()]


def open_page(phone: Phone, site: Site, page: Page, where: str) -> list[str]:
    """Open the page and check its status and state; answer the problems found."""
    response = phone.goto(site.path(page.path))
    problems = []
    status = response.status if response else None
    if status != page.status:
        problems.append(f"{where}: status {status}, expected {page.status}")
    if not phone.page.locator(page.shows).count():
        problems.append(f"{where}: nothing matches {page.shows!r}: not the page meant")
    return problems


def save_screenshot(phone: Phone, name: str) -> None:
    """Keep a full-page screenshot when SCREENSHOTS_DIR says where."""
    folder = os.environ.get("SCREENSHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        phone.page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


# --------------------------------------------------------------------------------------------
# The checks of the checks, and of what no list of pages covers


def test_axe_reports_what_it_finds(phone: Phone, axe_source: str) -> None:
    """The axe-core run of the page checks does find violations: an image without a text
    alternative and grey on white text fail it (so zero violations there means something)."""
    phone.goto("/offline")
    phone.page.evaluate(
        """() => {
            document.querySelector("main").insertAdjacentHTML("beforeend",
                '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20">' +
                '<p style="color:#ccc;background:#fff">faint</p>');
        }"""
    )
    found = {violation["id"] for violation in axe_violations(phone, axe_source)}
    assert {"image-alt", "color-contrast"} <= found


def test_requests_to_other_hosts_are_seen(phone: Phone) -> None:
    """The request check of the page checks does see a request to another host (stopped
    before it leaves the machine)."""
    phone.context.route("http://other-host.test/**", lambda route: route.abort())
    phone.goto("/offline")
    with phone.page.expect_event("requestfailed"):
        phone.page.evaluate(
            """() => document.body.insertAdjacentHTML("beforeend",
                '<img alt="" src="http://other-host.test/pixel.png">')"""
        )
    assert phone.foreign_requests() == ["http://other-host.test/pixel.png"]


class LinkReader(HTMLParser):
    """The href of every link of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.links.append(href)


def page_pattern(path: str) -> str:
    """The kind of page a path is: game codes, round numbers and names as placeholders."""
    path = re.sub(r"^/g/[^/]+", "/g/<game>", path)
    path = re.sub(r"/rounds/\d+", "/rounds/<n>", path)
    path = re.sub(r"^/players/[^/]+/vs/[^/]+$", "/players/<name>/vs/<name>", path)
    return re.sub(r"^/players/[^/]+", "/players/<name>", path)


def test_every_page_reachable_from_home_is_checked(new_phone: PhoneFactory, site: Site) -> None:
    """Follow the links from home (as the phone keeping the games' score) and find each kind
    of page among PAGES, so that a new page cannot escape the page checks. A few pages of
    each kind are followed (a finished game links elsewhere than one in progress), not all."""
    phone = new_phone(storage_state=site.state)
    checked = {page_pattern(urlsplit(site.path(p.path)).path) for p in PAGES}
    queue, queued = ["/"], {"/"}
    per_kind: dict[str, int] = {}
    unchecked: dict[str, str] = {}
    while queue:
        path = queue.pop(0)
        response = phone.context.request.get(site.base_url + path, max_redirects=0)
        if not response.headers.get("content-type", "").startswith("text/html"):
            continue
        reader = LinkReader()
        reader.feed(response.text())
        for href in reader.links:
            url = urlsplit(urljoin(site.base_url + path, href))
            if f"{url.scheme}://{url.netloc}" != site.base_url or NOT_PAGES.match(url.path):
                continue
            pattern = page_pattern(url.path)
            if pattern not in checked:
                unchecked.setdefault(pattern, path)
            if url.path not in queued and per_kind.get(pattern, 0) < 3:
                per_kind[pattern] = per_kind.get(pattern, 0) + 1
                queued.add(url.path)
                queue.append(url.path)
    assert not unchecked, "pages reachable from home but not in PAGES: " + ", ".join(
        f"{pattern} (linked from {source})" for pattern, source in unchecked.items()
    )
    assert per_kind.keys() >= {"/g/<game>", "/g/<game>/rounds/record", "/players/<name>"}


def worker_controlled_phone(new_phone: PhoneFactory) -> Phone:
    """A phone that opened home and whose page the service worker now controls (it has
    fetched every static file and the offline page ahead)."""
    phone = new_phone(service_workers="allow")
    phone.goto("/")
    phone.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return phone


def test_service_worker_stays_on_the_app_host(new_phone: PhoneFactory) -> None:
    """With its service worker installed, the app still asks no other host for anything."""
    phone = worker_controlled_phone(new_phone)
    phone.goto("/rules")  # a page fetched through the worker
    expect(phone.page.get_by_role("heading", level=1)).to_be_visible()
    assert phone.base_url + "/offline" in phone.requests  # the worker's own requests count
    assert not phone.foreign_requests()


def test_offline_a_page_shows_the_offline_page_and_try_again_opens_it_once_back(
    new_phone: PhoneFactory,
) -> None:
    """A phone that loses the network while following a link gets the offline page, styled
    from the worker's cache, at the address it asked for; back online, "Try again" opens
    that page, not home. (The table setup: the rules page and the resolver are kept, see
    tests/browser/test_offline_keep.py.)"""
    phone = worker_controlled_phone(new_phone)
    phone.set_offline(True)
    phone.goto("/setup")
    expect(phone.page.get_by_role("heading", level=1)).to_have_text(
        "This phone seems to be offline"
    )
    assert urlsplit(phone.page.url).path == "/setup"
    again = phone.page.get_by_role("link", name="Try again")
    assert again.evaluate("link => getComputedStyle(link).minHeight") == "44px"  # style.css

    phone.set_offline(False)
    again.click()
    expect(phone.page.get_by_role("heading", level=1)).to_have_text("Table setup")
    assert urlsplit(phone.page.url).path == "/setup"


def test_manifest_names_only_the_apps_own_files(phone: Phone) -> None:
    """The web app manifest that every page links to: its start page and every icon are on
    the app's own host, and each of them loads."""
    phone.goto("/")
    href = phone.page.locator("link[rel='manifest']").get_attribute("href")
    assert href
    manifest_url = urljoin(phone.page.url, href)
    response = phone.context.request.get(manifest_url)
    assert response.ok
    manifest = response.json()
    urls = [manifest["start_url"], *(icon["src"] for icon in manifest.get("icons", []))]
    for url in (urljoin(manifest_url, url) for url in urls):
        assert url.startswith(phone.base_url + "/"), f"the manifest names another host: {url}"
        assert phone.context.request.get(url).ok, f"the manifest names a missing file: {url}"
