"""What a finished game's scoreboard offers after the game: its play for BG Stats (a link,
companion/formats/bg_stats.py) and the data of the picture of its result, which the phone
draws and shares by itself (static/result_image.js), with no request to any server.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import format_date, gettext, ngettext

from companion.data.circles import circle_name_of
from companion.data.models import Game
from companion.data.states import GameStatus
from companion.formats import bg_stats
from companion.pages.charts import signed_number
from companion.pages.scoreboard import Scoreboard, ranked_standings


@dataclass(frozen=True)
class FinishedGameOffer:
    """The BG Stats link and the picture's data of a finished game."""

    bg_stats_url: str
    result_image: dict[str, object]


def finished_game_offer_of(game: Game, board: Scoreboard) -> FinishedGameOffer | None:
    """What the scoreboard of ``game`` offers once it is finished; ``None`` before."""
    if game.status != GameStatus.FINISHED:
        return None
    circle = circle_name_of(game)
    url = bg_stats.play_url(bg_stats.play_of(bg_stats.facts_of(game, circle)))
    return FinishedGameOffer(url, result_image_of(game, board, circle))


def result_image_of(game: Game, board: Scoreboard, circle: str) -> dict[str, object]:
    """What the picture of the result shows, every word in the page's language: the final
    standings by rank (a shared rank twice) with the totals and the winners marked (R11),
    the variant, the date the game started and the circle's name."""
    if len(board.winners) == 1:
        summary = gettext(
            "%(name)s wins with %(total)s points.",
            name=board.winner_names[0],
            total=signed_number(board.winning_total or 0),
        )
    else:
        summary = gettext(
            "Shared win: %(names)s, with %(total)s points each.",
            names=", ".join(board.winner_names),
            total=signed_number(board.winning_total or 0),
        )
    started = bg_stats.utc(game.created_at)
    return {
        "game": bg_stats.GAME_NAME,
        "title": gettext("Result"),
        "variant": board.variant_label,
        "rounds": ngettext(
            "Finished after %(num)s round", "Finished after %(num)s rounds", board.scored_rounds
        ),
        "date": format_date(started, format="long"),
        "circle": circle,
        "winner": gettext("winner"),
        "app": gettext("Sticheln companion"),
        "summary": summary,
        "rows": [
            {
                "rank": standing.rank,
                "name": board.names[standing.seat],
                "total": signed_number(board.totals[standing.seat]),
                "winner": standing.seat in board.winners,
            }
            for standing in ranked_standings(board.totals)
        ],
        "file": f"sticheln-{started:%Y-%m-%d}-{game.code}.png",
    }
