"""The unfinished trick of a live round, kept in this phone's session (C6, R19).

Its cards are keyed by game and round and tied to the game's version they were entered on:
if another phone changes the game meanwhile, they are set aside rather than added to a trick
that has moved on."""

from __future__ import annotations

from collections.abc import Sequence

from flask import session

from companion.data.models import Game, Round
from companion.data.states import RoundStatus
from companion.read_models.chips import card_of_token, card_token
from companion.rules.hat_trick import Play
from companion.rules.live import LiveRound

#: Where the session keeps the unfinished tricks entered on this phone.
PARTIAL_TRICKS = "live_partial_tricks"


#: A phone follows one live round at a time; a few more are kept, the oldest dropped first.
MAX_PARTIAL_TRICKS = 4


def _partial_id(game: Game, round_: Round) -> str:
    return f"{game.code}/{round_.number}"


def load_partial(game: Game, round_: Round) -> tuple[list[Play], int]:
    """The plays of the unfinished trick entered on this phone, and how many plays were set
    aside because the game changed since they were entered (another phone saved a trick)."""
    stored = session.get(PARTIAL_TRICKS, {}).get(_partial_id(game, round_))
    if not isinstance(stored, dict):
        return [], 0
    plays = []
    for item in stored.get("plays", []):
        card = card_of_token(str(item[0])) if isinstance(item, list) and item else None
        if card is not None:
            plays.append(Play(card, bool(item[1]) if len(item) > 1 else False))
    if stored.get("version") == game.version and round_.status == RoundStatus.PLAYING:
        return plays, 0
    clear_partial(game, round_)
    return [], len(plays)


def store_partial(game: Game, round_: Round, plays: Sequence[Play]) -> None:
    """Keep the unfinished trick for the next page, tied to the game's current version."""
    partials = dict(session.get(PARTIAL_TRICKS, {}))
    partials.pop(_partial_id(game, round_), None)
    partials[_partial_id(game, round_)] = {
        "version": game.version,
        "plays": [[card_token(play.card), play.passed] for play in plays],
    }
    while len(partials) > MAX_PARTIAL_TRICKS:
        partials.pop(next(iter(partials)))
    session[PARTIAL_TRICKS] = partials


def clear_partial(game: Game, round_: Round) -> None:
    """Forget the unfinished trick (it was saved, taken back or overtaken)."""
    partials = dict(session.get(PARTIAL_TRICKS, {}))
    if partials.pop(_partial_id(game, round_), None) is not None:
        session[PARTIAL_TRICKS] = partials


def check_next_play(live: LiveRound, plays: Sequence[Play]) -> None:
    """The rules' checks of the trick so far, as each card is entered (C1, C6, R19)."""
    live.check_partial_trick(plays)
