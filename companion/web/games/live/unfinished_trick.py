"""The unfinished trick of a live round, one for the whole table (C6, R19).

Its cards are stored on the round as they are entered (``services.show_unfinished_trick``),
so every phone shows the same trick: the scoreboards that follow the round, and the live page
of any phone with the edit link, which carries on from the cards entered so far. A trick's
cards do not move the game's version (only a saved trick does); instead every live form says
how many cards of the trick its page showed, and a tap from a page that missed a card of
another phone is refused, so no card is ever added in the wrong place or lost.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.data import queries
from companion.data.models import Game, Round
from companion.data.states import RoundStatus
from companion.rules.hat_trick import Play
from companion.rules.live import LiveRound


def trick_so_far(game: Game, round_: Round) -> list[Play]:
    """The cards of the round's unfinished trick, in play order from its leader (R9)."""
    if round_.status != RoundStatus.PLAYING:
        return []
    return list(queries.unfinished_plays(round_, queries.live_round_of(game, round_)))


def missed_cards(shown: int | None, plays: Sequence[Play]) -> bool:
    """Whether a page that showed ``shown`` cards of the trick missed a change made on
    another phone since (a page from before this check says nothing, and is not refused)."""
    return shown is not None and shown != len(plays)


def check_next_play(live: LiveRound, plays: Sequence[Play]) -> None:
    """The rules' checks of the trick so far, as each card is entered (C1, C6, R19)."""
    live.check_partial_trick(plays)
