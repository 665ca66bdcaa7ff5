"""A live round as the other phones at the table follow it on the scoreboard: the trick being
played, card by card, and who is winning it (R7, R8, R13; Hat Trick piles and passes, R19-R21),
the trick before it once the new one is empty, who leads (R9, R21) and whose turn it is, and
what each seat has taken so far.

The rules decide every answer; the cards of the unfinished trick are those the phone entering
them published (``queries.unfinished_plays``). Nothing here is hidden by the rules: the cards
of a trick are played face up, and a pass card is shown to everyone before it is put face
down (R19); the indicators of a hazy round are not part of it (R15).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.data import queries
from companion.data.models import Game, Round
from companion.data.states import RoundMode, RoundStatus
from companion.pages.trick import TrickView, trick_view
from companion.read_models.messages import page_reader
from companion.rules import Play, seat_order
from companion.rules.live import LiveRound


@dataclass(frozen=True)
class SeatTally:
    """What one seat has taken so far this round: tricks (R9) or, in Hat Trick, face-up
    cards and passes (R20, R19)."""

    tricks: int
    cards: int
    passes: int


@dataclass(frozen=True)
class FollowedRound:
    """The live round as a follower sees it. ``current`` is the trick being played (perhaps
    still empty), ``last`` the trick completed before it."""

    trick_number: int
    tricks_per_round: int
    leader: int
    hat_trick: bool
    current: TrickView
    last: TrickView | None
    tallies: tuple[SeatTally, ...]

    @property
    def shows_last(self) -> bool:
        """Whether the last trick is worth showing: the new one has no card yet, so the
        table glances up at the trick just taken."""
        return self.last is not None and not self.current.plays


def followed_round(game: Game, round_: Round | None, names: Sequence[str]) -> FollowedRound | None:
    """The live round being played, as the phones following it see it; ``None`` when no
    round is being played live."""
    if round_ is None or round_.mode != RoundMode.LIVE or round_.status != RoundStatus.PLAYING:
        return None
    live = queries.live_round_of(game, round_)
    played = len(live.tricks)
    current = _view(live, names, played + 1, live.leader, queries.unfinished_plays(round_, live))
    last = None
    if live.tricks:
        trick = live.tricks[-1]
        last = _view(live, names, played, trick.leader, trick.plays)
    return FollowedRound(
        trick_number=played + 1,
        tricks_per_round=live.setup.tricks_per_round,
        leader=live.leader,
        hat_trick=live.setup.variant.has_passes,
        current=current,
        last=last,
        tallies=_tallies(live),
    )


def _view(
    live: LiveRound, names: Sequence[str], number: int, leader: int, plays: Sequence[Play]
) -> TrickView:
    """A trick led by ``leader``, resolved by the rules, its places named in play order and
    its words in the page's language (the trick view the live page draws, pages/trick)."""
    seats = seat_order(leader, live.setup.players)
    players = [names[seat] for seat in seats]
    return trick_view(live.setup, players, plays, page_reader(), seats, number)


def _tallies(live: LiveRound) -> tuple[SeatTally, ...]:
    """Each seat's tricks taken (R9), face-up cards captured (R20) and passes (R19)."""
    piles = live.capture_piles()
    passes = live.pass_cards()
    won = live.tricks_won()
    return tuple(
        SeatTally(
            tricks=won[seat],
            cards=len(piles[seat]),
            passes=len(passes[seat]),
        )
        for seat in range(live.setup.players)
    )
