"""What the pages read of a stored game's scoreboard without drawing it: the round at the
table (who deals and leads it, R3), which the table setup page shows, and the game the table
started next.

The scoreboard itself (seats, rounds, marked colours hidden while hazy (R15), running totals,
winners (R11)) is drawn by the page model of companion/pages/scoreboard.py from the game's
state, for the scoreboard page, the table display and the confirmations alike
(companion/web/scoreboard_page.py, ``game_scoreboard``), as the phone draws it offline.
"""

from __future__ import annotations

from companion.data import queries
from companion.data.models import Game, Round
from companion.pages.scoreboard import NextRound
from companion.rules import round_dealer, round_leader


def next_round_of(game: Game, playing: Round | None) -> NextRound | None:
    """The round being played (``playing``, its colours marked), or the next one to play;
    ``None`` once no round is left.

    Round n is the one being played, else the number of rounds recorded + 1 (R3, R23).
    """
    number = queries.round_at_table(game)
    if number is None:
        return None
    players = len(game.seats)
    return NextRound(
        number=number,
        planned=game.rounds_planned,
        dealer=round_dealer(number, game.first_leader, players),
        leader=round_leader(number, game.first_leader, players),
        colours_marked=playing is not None,
        lays_out_indicators=queries.setup_of(game).cards_laid_out > 0,
    )


def next_game_code(game: Game) -> str | None:
    """The public id of the game started after ``game``; no query while there is none."""
    return game.next_game.code if game.next_game is not None else None
