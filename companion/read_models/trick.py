"""A trick as the pages show it, complete or so far: one place per player in play order from
the leader, who takes it and why (R7, R8, R13), or, for Hat Trick, each pile's taker, the
passes and who leads next (R19-R21).

The trick resolver and the live round page draw the same view: the rules decide, this module
only puts their answer into words and chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.read_models.chips import Chip, ChipGroup, PileView
from companion.read_models.messages import render_message
from companion.rules import Message, Play, TableSetup, resolve_hat_trick, trick_winner


@dataclass(frozen=True)
class PlayedCard:
    """One place of the trick: who plays there and, once they have, their card and what it
    does. ``seat`` is the player's seat in a game (``None`` at a table the app does not
    know)."""

    player: str
    seat: int | None = None
    chip: Chip | None = None
    passed: bool = False
    takes: bool = False  # takes the trick (Hat Trick: a pile), or is winning it so far
    leads_next: bool = False  # Hat Trick: leads (or would lead) the next trick
    is_next: bool = False  # whose turn it is


@dataclass(frozen=True)
class TrickView:
    """Everything a page says about a trick. ``winner`` is the card taking the trick (or
    winning it so far), or for Hat Trick the card whose player leads next (R21)."""

    places: tuple[PlayedCard, ...]
    hat_trick: bool
    number: int = 0
    winner: PlayedCard | None = None
    reason: str | None = None
    piles: tuple[PileView, ...] = ()
    passes: tuple[PlayedCard, ...] = ()

    @property
    def plays(self) -> tuple[PlayedCard, ...]:
        """The places already played, in play order."""
        return tuple(place for place in self.places if place.chip is not None)

    @property
    def players(self) -> int:
        """One place per player (R8, R19)."""
        return len(self.places)

    @property
    def complete(self) -> bool:
        """Every player has played."""
        return len(self.plays) == self.players

    @property
    def next_place(self) -> PlayedCard | None:
        """The place whose turn it is, if the trick is not full."""
        return next((place for place in self.places if place.is_next), None)

    @property
    def tokens(self) -> frozenset[str]:
        """The cards already in the trick, so a picker can mark them."""
        return frozenset(play.chip.token for play in self.plays if play.chip is not None)


def trick_view(
    setup: TableSetup,
    players: Sequence[str],
    plays: Sequence[Play],
    seats: Sequence[int | None] = (),
    number: int = 0,
) -> TrickView:
    """The trick with ``plays`` so far, resolved by the rules. ``players`` names its places
    in play order from the leader (``seats``: their seats in a game)."""
    places = [
        PlayedCard(
            player,
            seats[index] if seats else None,
            Chip.of(plays[index].card) if index < len(plays) else None,
            passed=index < len(plays) and plays[index].passed,
            is_next=index == len(plays),
        )
        for index, player in enumerate(players)
    ]
    hat_trick = setup.variant.has_passes
    if not plays:
        return TrickView(tuple(places), hat_trick, number)
    if hat_trick:
        return _hat_trick_view(plays, places, players, number)
    settings = setup.variant.settings
    assert settings is not None  # a trick without passes is of the classic family
    outcome = trick_winner([play.card for play in plays], settings.scoring)
    places[outcome.winner] = replace(places[outcome.winner], takes=True)
    return TrickView(
        tuple(places),
        hat_trick,
        number,
        winner=places[outcome.winner],
        reason=_reason(outcome.reason, players),
    )


def _hat_trick_view(
    plays: Sequence[Play], places: list[PlayedCard], players: Sequence[str], number: int
) -> TrickView:
    """R20, R21: each pile's taker, the passes, and whose card decides the next lead."""
    outcome = resolve_hat_trick(plays)
    for pile in outcome.piles:
        places[pile.winner] = replace(places[pile.winner], takes=True)
    leader = outcome.next_leader
    places[leader] = replace(places[leader], leads_next=True)
    piles = tuple(
        PileView(
            ChipGroup(pile.colour.value, tuple(Chip.of(card) for card in pile.cards)),
            taker=places[pile.winner].player,
            card=Chip.of(plays[pile.winner].card),
        )
        for pile in outcome.piles
    )
    return TrickView(
        tuple(places),
        True,
        number,
        winner=places[leader],
        reason=_reason(outcome.reason, players),
        piles=piles,
        passes=tuple(places[index] for index in outcome.passes),
    )


def _reason(reason: Message, players: Sequence[str]) -> str:
    """The rules' sentence; it names a player by their place in the trick (R21: who played
    the card), so the names go in play order."""
    return render_message(reason, players)
