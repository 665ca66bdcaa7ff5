"""One game's export for download from its scoreboard: JSON (which the import command reads
back) and CSV (for spreadsheets). Public like the read-only scoreboard: anyone with the
game's link may download it.

The CSV comes in two flavours: ``export.csv`` for programs (English, commas, the same bytes
in every language) and ``export.csv?lang=de`` for a spreadsheet in that language (see
``companion.formats.game_csv``). A page links the flavour of its own language: every
``url_for`` of the CSV export on a page in another language than English carries it.
"""

from __future__ import annotations

from typing import Any

from flask import Response, abort, current_app, request
from flask_babel import force_locale, get_locale

from companion.formats import backup
from companion.web.games.blueprint import bp

#: The language of the plain CSV export, for programs.
PLAIN_CSV_LANGUAGE = "en"


def download(body: str, mimetype: str, filename: str) -> Response:
    """``body`` as a file to save, not a page to show."""
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.get("/g/<code>/export.json")
def export_json(code: str) -> Response:
    """The game as a JSON document of the backup format."""
    game = backup.game_for_export(code)
    return download(backup.game_json(game), "application/json", f"sticheln-{game.code}.json")


@bp.get("/g/<code>/export.csv")
def export_csv(code: str) -> Response:
    """The game as CSV: one row per scored round and seat; with ``?lang=`` one of the app's
    languages other than English, in that language for its spreadsheets."""
    language = csv_language()
    game = backup.game_for_export(code)
    if language == PLAIN_CSV_LANGUAGE:
        return download(backup.game_csv(game), "text/csv", f"sticheln-{game.code}.csv")
    with force_locale(language):
        body = backup.game_csv(game, localized=True)
    return download(body, "text/csv", f"sticheln-{game.code}-{language}.csv")


def csv_language() -> str:
    """The export's language: ``?lang=`` if the app speaks it, English without it; a
    language the app does not speak has no export (404)."""
    language = request.args.get("lang", PLAIN_CSV_LANGUAGE)
    if language not in current_app.config["LANGUAGES"]:
        abort(404)
    return language


@bp.app_url_defaults
def csv_in_page_language(endpoint: str, values: dict[str, Any]) -> None:
    """A page's CSV link gives the export in the page's language (English: the plain one)."""
    if endpoint != "games.export_csv" or "lang" in values:
        return
    language = str(get_locale() or PLAIN_CSV_LANGUAGE)
    if language != PLAIN_CSV_LANGUAGE:
        values["lang"] = language
