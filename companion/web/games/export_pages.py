"""One game's export for download from its scoreboard: JSON (which the import command reads
back) and CSV (for spreadsheets). Public like the read-only scoreboard: anyone with the
game's link may download it."""

from __future__ import annotations

from flask import Response

from companion.formats import backup
from companion.web.games import bp


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
    """The game as CSV: one row per scored round and seat."""
    game = backup.game_for_export(code)
    return download(backup.game_csv(game), "text/csv", f"sticheln-{game.code}.csv")
