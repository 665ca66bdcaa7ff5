"""Live rounds: entered trick by trick (C6), scored by themselves after the last trick."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import CursorResult

from companion.data.models import Game, Round, db, utcnow
from companion.data.queries import (
    IN_TRICK,
    live_round_of,
    play_of,
    playing_round,
    setup_of,
    unfinished_plays,
)
from companion.data.states import RoundMode, RoundStatus
from companion.rules import score_round
from companion.rules.cards import Card
from companion.rules.hat_trick import Play
from companion.rules.live import PlayedTrick
from companion.rules.text import N_
from companion.services.errors import ServiceError, StaleVersion
from companion.services.games import after_change, check_open, check_version
from companion.services.rounds import open_marked_round, open_next_round, round_of, store_score


def open_live_round(game: Game, version: int, marked: Sequence[Sequence[Card]] | None) -> Round:
    """Start the next round to be followed trick by trick.

    Classic games that lay out indicators give them here (C1, C2); delayed and Hat Trick
    games lay out nothing. A round whose colours were already marked on the page becomes
    live without giving them again.
    """
    check_version(game, version)
    check_open(game)
    setup = setup_of(game)
    current = playing_round(game)
    if current is not None and marked is None and not current.tricks:
        current.mode = RoundMode.LIVE
        current.tricks = []
        after_change(game)
        return current
    lays_out = setup.cards_laid_out > 0
    if lays_out and marked is None:
        raise ServiceError(
            N_("Give the indicator cards of all %(players)s players."), players=setup.players
        )
    if not lays_out and marked:
        raise ServiceError(N_("This variant lays out no indicator cards."))
    if lays_out and marked is not None:
        round_ = open_marked_round(game, marked, RoundMode.LIVE)
    else:
        round_ = open_next_round(game, RoundMode.LIVE)
        round_.entries = [{} for _ in range(setup.players)]
    round_.mode = RoundMode.LIVE
    round_.tricks = []
    after_change(game)
    return round_


def live_round(game: Game, number: int) -> Round:
    """Round ``number``, which must be followed live."""
    round_ = round_of(game, number)
    if round_.mode != RoundMode.LIVE:
        raise ServiceError(N_("Round %(number)s is not played trick by trick."), number=number)
    return round_


def _round_in_play(game: Game, number: int) -> Round:
    """Live round ``number`` of a game still taking changes, while it has tricks to play."""
    check_open(game)
    round_ = live_round(game, number)
    if round_.status == RoundStatus.SCORED:
        raise ServiceError(
            N_("Round %(number)s is over: all its tricks are played."), number=number
        )
    return round_


def play_live_trick(
    game: Game, number: int, version: int, plays: Sequence[Play]
) -> tuple[PlayedTrick, Round]:
    """Record the next trick (C6); after the last one the round is scored (R10-R16, R22)."""
    check_version(game, version)
    round_ = _round_in_play(game, number)
    live = live_round_of(game, round_)
    trick = live.play_trick(plays)
    round_.tricks = [
        *(round_.tricks or []),
        {"leader": trick.leader, "plays": [play.as_json() for play in plays]},
    ]
    if not live.is_complete:
        round_.entries = _marked_entries(round_)  # the trick is saved: none is unfinished
    else:
        entries = live.entries()
        round_.status = RoundStatus.SCORED
        store_score(game, round_, entries, score_round(setup_of(game), entries))
    after_change(game)
    return trick, round_


def _marked_entries(round_: Round) -> list[dict[str, Any]]:
    """The indicator part of a round's stored entries (what was laid out)."""
    return [{"marked": entry["marked"]} if "marked" in entry else {} for entry in round_.entries]


def _entries_with_trick(
    round_: Round, order: Sequence[int], plays: Sequence[Play]
) -> list[dict[str, Any]]:
    """The round's indicators, and each seat's card in the unfinished trick (``plays`` in
    ``order`` from the leader), with the trick's number: a card published for a trick that
    another phone has saved meanwhile is then no card of the next one."""
    entries = _marked_entries(round_)
    number = len(round_.tricks or []) + 1
    for seat, play in zip(order, plays, strict=False):
        entries[seat][IN_TRICK] = {**play.as_json(), "trick": number}
    return entries


def show_unfinished_trick(game: Game, number: int, plays: Sequence[Play]) -> None:
    """Store the unfinished trick on its round (C6, R19): one trick for the table, which
    every live page carries on from and every scoreboard follows. The game's version stays
    (no trick is saved; the scoreboards' ETag covers the round's row), so the row is changed
    only as it was read: when another phone stored a card of the trick in between (two taps
    at the same moment), nothing is stored and the change is refused as stale, so no card
    is lost or put in another's place."""
    round_ = _round_in_play(game, number)
    live = live_round_of(game, round_)
    if plays:
        live.check_partial_trick(plays)
    stored = db.session.execute(
        sa.update(Round)
        .where(Round.id == round_.id, Round.updated_at == round_.updated_at)
        .values(entries=_entries_with_trick(round_, live.seat_order(), plays), updated_at=utcnow())
        .execution_options(synchronize_session="fetch")
    )
    if cast(CursorResult[Any], stored).rowcount != 1:
        raise StaleVersion(game.version)


class TrickChanged(ServiceError):
    """The unfinished trick is no longer the one a change was entered on (another phone
    changed it meanwhile), said as the live page says it."""

    status = 409
    template = N_(
        "Another phone changed this trick meanwhile, so your tap was not used. The trick is "
        "shown as it is now: tap again if your card is still missing."
    )


def replace_unfinished_trick(
    game: Game, number: int, version: int, was: Sequence[Play], plays: Sequence[Play]
) -> Round:
    """The unfinished trick as a phone entered it with no network (C6, R19), in place of the
    trick ``was`` it was entered on; refused as stale (409) when the trick changed on
    another phone meanwhile, so no card is lost or put in another's place."""
    check_version(game, version)
    round_ = _round_in_play(game, number)
    if list(unfinished_plays(round_, live_round_of(game, round_))) != list(was):
        raise TrickChanged()
    show_unfinished_trick(game, number, plays)
    return round_


def undo_live_trick(game: Game, number: int, version: int) -> Round:
    """Take back the last trick of a live round; a round scored by it is open again."""
    round_, _ = _take_back_trick(game, number, version)
    after_change(game)
    return round_


@dataclass(frozen=True)
class ReopenedTrick:
    """The last trick of a round, open again without its last card: its leader, the plays
    it keeps (in order from the leader), the play taken back and the seat that had made it."""

    round: Round
    leader: int
    kept: tuple[Play, ...]
    taken_back: Play
    seat: int


def take_back_last_card(game: Game, number: int, version: int) -> ReopenedTrick:
    """Take back the card that completed the last trick (C6): the trick is no longer saved
    and waits for its last card again, with its other cards kept by the caller (a phone's
    unfinished trick, an API client). A round that trick had scored is open again, as
    long as it is still the game's last round: nothing happened since but that trick."""
    round_, trick = _take_back_trick(game, number, version)
    reopened = live_round_of(game, round_)
    # A trick stored without its leader was led from the seat the rules give (R9, R21).
    leader = int(trick.get("leader", reopened.leader))
    plays = [play_of(play) for play in trick["plays"]]
    kept, taken_back = reopened.reopen(leader, plays)
    round_.entries = _entries_with_trick(round_, reopened.seat_order(), kept)
    after_change(game)
    seat = (leader + len(kept)) % setup_of(game).players
    return ReopenedTrick(round_, leader, kept, taken_back, seat)


def _take_back_trick(game: Game, number: int, version: int) -> tuple[Round, dict[str, Any]]:
    """Remove the last trick of a live round (not yet flushed) and answer it as stored; a
    round scored by it is open again. Only in the game's last round, so that no later
    round was started on its scores."""
    check_version(game, version)
    check_open(game)
    round_ = live_round(game, number)
    if not round_.tricks:
        raise ServiceError(N_("No trick has been played yet in round %(number)s."), number=number)
    if round_.status == RoundStatus.SCORED and round_ is not game.rounds[-1]:
        raise ServiceError(N_("Only the last round's last trick can be taken back."))
    *kept, taken_back = round_.tricks
    round_.tricks = kept
    round_.entries = _marked_entries(round_)  # no trick is unfinished after it
    if round_.status == RoundStatus.SCORED:
        round_.status = RoundStatus.PLAYING
        round_.entries = _marked_entries(round_)
        round_.results = []
    return round_, taken_back
