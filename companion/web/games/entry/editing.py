"""Where the game stands for a round page: who may change it, and the notice a page shows
instead of its form when no round can be entered now."""

from __future__ import annotations

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion.data import queries
from companion.data.models import Game
from companion.data.states import GameStatus, RoundMode
from companion.web.edit_rights import game_to_change


def editable_game(code: str) -> Game:
    """The game ``code`` (locked while a change is made), if this device may change it:
    otherwise a 403 page saying how to get the right (the game pages' error handler)."""
    return game_to_change(
        code,
        gettext(
            "This phone may only look at this game, so it cannot enter rounds. Open the "
            "game's edit link on this phone (the phone keeping the score can show it) to "
            "enter and correct rounds here."
        ),
        lock=request.method == "POST",
    )


def names_of(game: Game) -> list[str]:
    """The players' names in seat order."""
    return [seat.player.name for seat in game.seats]


def why_no_round_to_record(game: Game) -> str | None:
    """Why no round can be recorded now, in the player's words; ``None`` if one can."""
    if game.status == GameStatus.ABANDONED:
        return gettext("This game was abandoned, so it takes no more rounds.")
    playing = queries.playing_round(game)
    if playing is not None and playing.mode == RoundMode.LIVE:
        return gettext(
            "Round %(number)s is being played trick by trick; finish it on the live page.",
            number=playing.number,
        )
    if playing is None and len(game.rounds) >= game.rounds_planned:
        return gettext(
            "All %(rounds)s rounds of this game are recorded. To change one, open it from "
            "the scoreboard.",
            rounds=game.rounds_planned,
        )
    return None


def notice_page(game: Game, title: str, message: str) -> ResponseReturnValue:
    """A page that says why the round page cannot be used now (409: the game's state)."""
    page = render_template(
        "games/round_notice.html",
        game=game,
        title=title,
        message=message,
        scoreboard_url=url_for("games.scoreboard", code=game.code),
    )
    return page, 409


def not_next_notice(game: Game, opened_for: int, title: str) -> ResponseReturnValue:
    """A form for a round that is neither there nor next (not a page of this game's now)."""
    message = gettext(
        "This page was for round %(number)s, which is not the round to record now. "
        "Nothing was saved.",
        number=opened_for,
    )
    return notice_page(game, title, message)
