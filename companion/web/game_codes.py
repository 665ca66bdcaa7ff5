"""The game code in an address, refused before any view runs when no game can have it.

Every route names a game's code ``code`` (``/g/<code>``, ``/api/v1/games/<code>``...). A
code that cannot be one, such as ``/g/%00``, is answered as an unknown game is, by every
route and on every method, before a form check or a query: PostgreSQL refuses a NUL byte
even in a value it is only asked to compare, where SQLite simply finds no game.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from companion import services


def refuse_impossible_codes(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Refuse the request, as for an unknown game, if its address holds a game code that
    no game can have (``services.check_game_code``)."""
    code = (values or {}).get("code")
    if code is not None:
        services.check_game_code(str(code))


def init_app(app: Flask) -> None:
    """Check the code of every address, whatever its blueprint."""
    app.url_value_preprocessor(refuse_impossible_codes)
