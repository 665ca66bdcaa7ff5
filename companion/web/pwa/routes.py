"""Routes that make the companion installable on a phone's home screen.

- ``/manifest.webmanifest`` describes the app (name, colours, icons) in the visitor's language.
- ``/sw.js`` is the service worker, served from the app's root (under ``URL_PREFIX`` if set) so
  that it covers every page. It is rendered from templates/pwa/sw.js with the files to keep at
  hand (every static file, under the fingerprinted name ``url_for`` gives it, see
  companion/web/assets.py; the offline page; the manifest), the pages it keeps as last seen
  (resolver, rules), where the offline kit is, and a cache version that changes with their
  contents.
- ``/offline`` is the page the worker shows when a page cannot be fetched.
- ``/offline/words.json`` holds, in one language, the words static/offline_play.js shows
  about rounds entered on a phone with no network (kept by the worker for that use).
- ``/favicon.ico`` answers the browsers that ask for it without reading the page's links.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from flask import (
    current_app,
    jsonify,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import force_locale, get_locale, ngettext
from flask_babel import gettext as _

from companion.web.circle_rights import CIRCLES_HEADER
from companion.web.pwa import bp

BACKGROUND_COLOUR = "#fbfaf7"
"""The light theme's page background (``--bg`` in static/style.css), shown while the app starts."""

WORKER_TEMPLATE = "pwa/sw.js"
OFFLINE_TEMPLATE = "pwa/offline.html"
SHELL_TEMPLATE = "pwa/shell.html"
VERSIONED_TEMPLATES = ("base.html", OFFLINE_TEMPLATE, WORKER_TEMPLATE, SHELL_TEMPLATE)
"""Templates whose source goes into the cache version besides the static files: the offline page
and the shell of games only a phone holds are cached too, so a change to them (or to the
worker) must also replace the cache."""

CACHE_VERSION_LENGTH = 12

API_PREFIX = "/api/"
"""Requests under this path (the JSON API, every version), below the app's own, are never
touched by the worker."""

KIT_CACHE_PREFIX = "sticheln-kit-"
"""The caches that hold a kept offline kit, one per kit fingerprint (static/keep.js fills
them, the worker reads them and leaves them when its own version changes)."""

KEPT_PAGES = ("rulebook.rules", "tools.resolver", "games.new_game")
"""The pages the worker keeps for offline use: public, and the same for every game (the
new-game page too: offline, a phone that kept the offline kit starts a game on it)."""

CIRCLE_PAGES = ("games.new_game",)
"""The kept pages that show the phone's circles (the new-game page: the circles it offers,
their players' names): kept again, or dropped, when an answer says the phone's circles
changed (``circle_rights.CIRCLES_HEADER``), so a phone that left a circle never shows its
names offline."""

GAMES_CACHE = "sticheln-games"
"""The cache of the scoreboards this phone opened, each as it last saw it, shown when the
network fails (never a page marked ``no-store``: a save's note, a conflict)."""

OFFLINE_COPY_MARK = "data-offline-copy hidden"
#: The stylesheets of the round pages: a live round played offline on the kept scoreboard
#: of its game (no round page of it kept) is drawn with them.
FRAME_STYLES = ("chips.css", "play.css")
"""What the worker unhides in a kept scoreboard it shows offline (templates/games/
scoreboard.html): the notice that the page is the copy this phone last saw."""


def static_files(folder: str | Path) -> list[str]:
    """Every file in the static folder, as sorted paths relative to it, leaving out any file or
    folder whose name starts with a dot (``.gitkeep``, editors' and systems' litter)."""
    root = Path(folder)
    if not root.is_dir():
        return []
    return sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(root).parts)
    )


def cache_version(folder: str | Path, files: list[str], extra: list[str]) -> str:
    """A short hash of the files' names and contents and of the ``extra`` texts: a new
    deployment whose static files differ gets a new version, hence a fresh cache."""
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0")
        digest.update((Path(folder) / name).read_bytes())
        digest.update(b"\0")
    for text in extra:
        digest.update(text.encode() + b"\0")
    return digest.hexdigest()[:CACHE_VERSION_LENGTH]


def game_page_pattern() -> str:
    """The paths of a game's scoreboards (editing and read-only) and of its trick resolver
    (which a phone with the offline kit answers offline), as a JavaScript pattern."""
    board = url_for("games.scoreboard", code="CODE")
    prefix, _code, _rest = board.partition("CODE")
    return "^" + re.escape(prefix) + "[A-Za-z0-9]+(?:/view|/resolve)?$"


def round_page_pattern() -> str:
    """The paths of a game's record and mark pages, of its page starting a round live and of
    its pages correcting a round, as a JavaScript pattern: kept (with their query, which says
    the entry mode) for a phone that enters rounds offline."""
    record = url_for("games.record_round", code="CODE")
    prefix, _code, rest = record.partition("CODE")
    rounds = re.escape(rest.rsplit("/", 1)[0] + "/")
    return "^" + re.escape(prefix) + "[A-Za-z0-9]+" + rounds + "(?:record|mark|live|[0-9]+)$"


def live_page_pattern() -> str:
    """The paths of a game's live round pages, as a JavaScript pattern (the game's code is
    its first group): offline, a phone with the offline kit plays the round on a kept page of
    the game (static/offline_live.js); the live page itself is never kept (no-store)."""
    live = url_for("games.live_round", code="CODE", number=1)
    prefix, _code, rest = live.partition("CODE")
    rounds, _number, end = rest.partition("/1/")
    code, number = "([A-Za-z0-9]+)", "/[0-9]+/"
    return "^" + re.escape(prefix) + code + re.escape(rounds) + number + re.escape(end) + "$"


def new_page_pattern() -> str:
    """The addresses a phone gives a game it started with no network until the server has
    it (static/offline_new_game.js): its scoreboard and round pages under ``/games/new/``
    and the key its start is sent with. Groups: the key, then the round page, if any ("3/live":
    the live page of round 3)."""
    board = url_for("games.started_offline", key="KEY")
    prefix, _key, rest = board.partition("KEY")
    pages = "(?:/rounds/(record|mark|live|[0-9]+/live))?"
    return "^" + re.escape(prefix) + "([A-Za-z0-9_-]+)" + re.escape(rest) + pages + "$"


def next_page_pattern() -> str:
    """The addresses of the table's next game that a phone gives it while the server does
    not have it yet (offline play again): its scoreboard and round pages under the old
    game's ``/next``. Groups: the old game's code, then the round page, if any ("3/live":
    the live page of round 3)."""
    board = url_for("games.next_game", code="CODE")
    prefix, _code, rest = board.partition("CODE")
    pages = "(?:/rounds/(record|mark|live|[0-9]+/live))?"
    return "^" + re.escape(prefix) + "([A-Za-z0-9]+)" + re.escape(rest) + pages + "$"


def template_source(name: str) -> str:
    """The source text of one of the app's templates."""
    env = current_app.jinja_env
    assert env.loader is not None
    source, _filename, _uptodate = env.loader.get_source(env, name)
    return source


@bp.route("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    """Describe the app to the phone so it can be added to the home screen."""

    def icon(filename: str, sizes: str, kind: str, purpose: str = "any") -> dict[str, str]:
        return {
            "src": url_for("static", filename=f"icons/{filename}"),
            "sizes": sizes,
            "type": kind,
            "purpose": purpose,
        }

    home = url_for("main.index")
    response = jsonify(
        {
            "id": home,
            "name": _("Sticheln companion"),
            "short_name": "Sticheln",
            "description": _(
                "Score keeper, trick resolver and game history for the card game Sticheln."
            ),
            "lang": str(get_locale()),
            "dir": "ltr",
            "start_url": home,
            "scope": home,
            "display": "standalone",
            "background_color": BACKGROUND_COLOUR,
            "theme_color": BACKGROUND_COLOUR,
            "categories": ["games", "utilities"],
            "icons": [
                icon("icon.svg", "any", "image/svg+xml"),
                icon("icon-192.png", "192x192", "image/png"),
                icon("icon-512.png", "512x512", "image/png"),
                icon("icon-maskable-512.png", "512x512", "image/png", "maskable"),
            ],
        }
    )
    response.mimetype = "application/manifest+json"
    return response


@bp.route("/sw.js")
def service_worker() -> ResponseReturnValue:
    """The service worker, from the site root so that its scope is the whole site."""
    folder = current_app.static_folder or ""
    files = static_files(folder)
    offline_url = url_for("pwa.offline")
    manifest_url = url_for("pwa.manifest")
    kit_manifest = url_for("offline.manifest")
    body = render_template(
        WORKER_TEMPLATE,
        version=cache_version(folder, files, [template_source(t) for t in VERSIONED_TEMPLATES]),
        offline_url=offline_url,
        manifest_url=manifest_url,
        static_prefix=url_for("static", filename=""),
        api_prefix=request.script_root + API_PREFIX,
        precache=[offline_url, manifest_url, *(url_for("static", filename=f) for f in files)],
        kept_pages=[url_for(endpoint) for endpoint in KEPT_PAGES],
        circle_pages=[url_for(endpoint) for endpoint in CIRCLE_PAGES],
        circles_header=CIRCLES_HEADER,
        kit_manifest=kit_manifest,
        kit_prefix=kit_manifest.rsplit("/", 1)[0] + "/",
        kit_cache_prefix=KIT_CACHE_PREFIX,
        games_cache=GAMES_CACHE,
        game_page=game_page_pattern(),
        round_page=round_page_pattern(),
        live_page=live_page_pattern(),
        next_page=next_page_pattern(),
        new_page=new_page_pattern(),
        frame_styles=[url_for("static", filename=name) for name in FRAME_STYLES],
        shell_url=url_for("pwa.shell"),
        words_url=url_for("pwa.offline_words"),
        offline_copy_mark=OFFLINE_COPY_MARK,
        outbox_url=url_for("static", filename="outbox.js"),
        # A game's API address is this and its code (static/outbox.js sends to it).
        games_api=url_for("api.show_game", code="CODE").rsplit("/", 1)[0],
    )
    response = current_app.response_class(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.route("/offline")
def offline() -> ResponseReturnValue:
    """The page the service worker shows when the phone has no connection."""
    return render_template(OFFLINE_TEMPLATE)


@bp.route("/offline/shell")
def shell() -> ResponseReturnValue:
    """The page a game only this phone holds is drawn in offline (templates/pwa/shell.html):
    the service worker keeps it once, in the phone's language."""
    return render_template(SHELL_TEMPLATE)


@bp.route("/favicon.ico")
def favicon() -> ResponseReturnValue:
    """The icon for browsers that ask for /favicon.ico instead of reading the page's links."""
    return send_from_directory(
        Path(current_app.static_folder or "", "icons"),
        "favicon.ico",
        mimetype="image/x-icon",
    )


@bp.route("/offline/words.json")
def offline_words() -> ResponseReturnValue:
    """What static/offline_play.js says, in the language ``lang`` (else the visitor's): the
    phone keeps it to speak its language with no network. ``{count}``, ``{number}``,
    ``{error}`` are filled in there; ``waiting`` has the language's plural forms by
    ``Intl.PluralRules`` category."""
    language = request.args.get("lang", "")
    if language not in current_app.config["LANGUAGES"]:
        language = str(get_locale())
    with force_locale(language):
        words = offline_play_words()
    response = jsonify(words)
    response.headers["Cache-Control"] = "no-cache"
    return response


def offline_play_words() -> dict[str, object]:
    """The words of offline play in the current language."""
    return {
        "lang": str(get_locale()),
        "offline": _(
            "This phone is offline. Rounds entered on it are kept on this phone and sent "
            "by themselves when the connection is back."
        ),
        "copy": _(
            "This phone is offline: this is the scoreboard as it last saw it, with the rounds "
            "entered on this phone since."
        ),
        "waiting": {
            category: ngettext(
                "%(count)s change entered on this phone is waiting to be sent.",
                "%(count)s changes entered on this phone are waiting to be sent.",
                number,
                count="{count}",
            )
            for category, number in (("one", 1), ("other", 2))
        },
        # The readiness of an editing scoreboard (static/keep.js): the kit's size given.
        "ready_offer": _("Ready this phone for offline play, %(size)s", size="{size}"),
        "ready_kept": _("Ready offline"),
        "forget": _("Forget this phone’s copies"),
        "progress": _("Download progress"),
        "kit_downloading": _("Downloading about %(size)s…", size="{size}"),
        "kit_refused": _(
            "A downloaded file did not match its checksum, so it was not kept. Tap to try again."
        ),
        "kit_failed": _(
            "The download stopped, perhaps the connection dropped. The files already checked "
            "are kept: tap to go on."
        ),
        "forgotten": _(
            "This phone forgot its copies of games. Changes still waiting are kept until they "
            "are sent."
        ),
        "unready": _(
            "This phone is not ready for offline play: rounds can be entered once the "
            "connection is back."
        ),
        "sending": _("Sending the rounds entered on this phone…"),
        "sent": _("Every round entered on this phone is saved."),
        "kept": _(
            "Round %(number)s is kept on this phone. It is sent by itself when the connection "
            "is back.",
            number="{number}",
        ),
        "record": _("Record round %(number)s", number="{number}"),
        "correct": _("Correct round %(number)s", number="{number}"),
        "save_correction": _("Save correction"),
        "enter_again": _(
            "This phone did not keep round %(number)s as it was entered: enter the whole round "
            "again.",
            number="{number}",
        ),
        "mark": _("Mark colours, round %(number)s", number="{number}"),
        # Where the rulings a live round's reasons cite are linked to (link_rulings).
        "rules_url": url_for("rulebook.rules"),
        "live_elsewhere": _(
            "Round %(number)s is being played live on another phone: finish it there, or take "
            "its tricks back, then choose again.",
            number="{number}",
        ),
        "implied": _("Filled in from the other counts: check it, then save again."),
        "loading": _("The rules are starting on this phone; this takes a few seconds."),
        "unkept": _(
            "This phone has no copy of this game to play on offline. Open its scoreboard once "
            "with the connection."
        ),
        "failed": _(
            "The rules could not start on this phone, so nothing was kept: %(error)s",
            error="{error}",
        ),
    }
