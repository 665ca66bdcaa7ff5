"""The history and statistics endpoints (DESIGN.md): a page of games, a player's numbers.

Both read stored rows at request time with a fixed number of SQL statements
(``companion.data.stats``): a recorded, corrected, deleted or excluded game shows at once.
Both are of one circle, named by its invite key or the phone's own pages
(``circle_keys.circle_to_read``); on a club server, of the whole server.
"""

from __future__ import annotations

from dataclasses import replace

from flask import request
from flask.typing import ResponseReturnValue

from companion.data import stats
from companion.data.history import HistoryGame, PageOutOfRange, history_page
from companion.data.models import utcnow
from companion.play_state.parse import ApiError
from companion.rules.text import N_
from companion.services import NotFound
from companion.web.api import bp
from companion.web.api.circle_keys import circle_to_read
from companion.web.history_filters import read_filters, read_page


def game_summary(game: HistoryGame) -> dict[str, object]:
    """One game as the history lists it: totals so far, winners once it is finished."""
    return {
        "id": game.code,
        "players": game.players,
        "variant": game.variant.as_json(),
        "status": game.status,
        "totals": game.totals,
        "winners": game.winners,
        "created_at": game.created_at.isoformat(),
    }


@bp.get("/games")
def list_games() -> ResponseReturnValue:
    """A circle's games newest first, 20 a page: ``?player=<name>&page=<k>`` (also
    ``variant``, ``period``, ``from`` and ``to``, as on the history page)."""
    circle_id = circle_to_read()
    read = read_filters(request.args, utcnow())
    if read.problems:
        name, problem = next(iter(read.problems.items()))
        raise ApiError(f'The query parameter "{name}": {problem}')
    page = read_page(request.args.get("page"))
    if page is None:
        raise ApiError('The query parameter "page" must be a whole number from 1.')
    try:
        listing = history_page(replace(read.filters, circle_id=circle_id), page)
    except PageOutOfRange as error:
        raise ApiError(
            f"There is no page {error.page}: the pages run from 1 to {error.pages}."
        ) from None
    return {
        "games": [game_summary(game) for game in listing.games],
        "page": listing.page,
        "pages": listing.pages,
        "total": listing.total,
    }


@bp.get("/players/<path:name>")
def show_player(name: str) -> ResponseReturnValue:
    """A player of the circle, with their statistics over the games that count (excluded
    games do not): a name is matched within its circle only."""
    player = stats.find_player(name, circle_to_read())
    if player is None:
        raise NotFound(N_("There is no player called %(name)s."), name=name)
    numbers = stats.player_stats(player)
    return {
        "name": numbers.name,
        "games": numbers.games,
        "finished_games": numbers.finished_games,
        "wins": numbers.wins,
        "win_rate": numbers.win_rate,
        "rounds": numbers.rounds,
        "average_round_score": numbers.average_round_score,
        "best_round": numbers.best_round,
        "worst_round": numbers.worst_round,
        "live_rounds": numbers.live_rounds,
        "live_tricks": numbers.live_tricks,
        "colours": {count.colour: count.rounds for count in numbers.colours},
        "excluded_games": numbers.excluded_games,
        "head_to_head": [
            {
                "opponent": rival.opponent,
                "games": rival.games,
                "finished_games": rival.finished_games,
                "wins": rival.wins,
                "opponent_wins": rival.opponent_wins,
            }
            for rival in stats.head_to_head(player)
        ],
    }
