"""The trick resolver's state: the plays so far, what a tap does to them, and what the page
shows about them (who is winning and why, or the Hat Trick piles, passes and next leader).

The resolver stores nothing: the trick travels in a hidden field as ``red-7 blue-9
pass:green-3`` and every request checks it again with ``companion.rules`` (C1, R19), so a
forged or stale field can only be refused, never believed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from flask_babel import gettext

from companion.read_models.chips import (
    Chip,
    ChipGroup,
    PileView,
    card_of_token,
    card_token,
    deck_groups,
)
from companion.read_models.messages import render_message
from companion.rules import (
    Card,
    Message,
    Play,
    RuleError,
    TableSetup,
    check_hat_trick_plays,
    check_trick_cards,
    resolve_hat_trick,
    seat_order,
    trick_winner,
)
from companion.rules.text import N_

#: More plays than any game seats (R2): a longer hidden field is not even read.
MOST_PLAYS = 8
#: A pass in the trick's hidden field: ``pass:green-3`` (R19).
PASS_PREFIX = "pass:"


class TrickFieldError(RuleError):
    """A card or trick sent back by the page that cannot be used: not a card name (a forged
    form), or a pass after the trick rule changed from Hat Trick."""


def card_of_field(token: str) -> Card:
    """The card a chip of the resolver sent; anything else is refused in one sentence."""
    card = card_of_token(token)
    if card is None:
        raise TrickFieldError(
            Message(
                N_("%(token)s is not a card; cards are named like red-7."), {"token": token[:20]}
            )
        )
    return card


@dataclass(frozen=True)
class TrickTable:
    """Where the trick is played: the setup in use and, inside a game, the seats' names in
    seating order and the seat leading this trick."""

    setup: TableSetup
    names: tuple[str, ...] = ()
    leader: int = 0

    @property
    def is_hat_trick(self) -> bool:
        """Hat Trick tricks have passes and piles (R19-R21)."""
        return self.setup.variant.has_passes

    def player(self, index: int) -> str:
        """Who plays the trick's ``index``-th card: play goes clockwise from the leader (R3,
        R9), so in a game that is a seat's name; outside one, players count from the leader."""
        if self.names:
            return self.names[seat_order(self.leader, len(self.names))[index]]
        return str(gettext("Player %(number)s", number=index + 1))


@dataclass(frozen=True)
class PlayedCard:
    """One play of the trick as the page shows it."""

    index: int
    chip: Chip
    player: str
    passed: bool = False
    takes: bool = False
    leads_next: bool = False


@dataclass(frozen=True)
class TrickView:
    """Everything the page says about the trick so far. ``winner`` is the card taking the
    trick (classic family) or the card whose player leads next (Hat Trick, R21)."""

    plays: tuple[PlayedCard, ...]
    players: int
    next_player: str | None
    winner: PlayedCard | None = None
    reason: str | None = None
    piles: tuple[PileView, ...] = ()
    passes: tuple[PlayedCard, ...] = ()

    @property
    def complete(self) -> bool:
        """One play per player (R8, R19)."""
        return len(self.plays) == self.players

    @property
    def tokens(self) -> frozenset[str]:
        """The cards already in the trick, so the picker can mark them."""
        return frozenset(play.chip.token for play in self.plays)


def write_trick(plays: Sequence[Play]) -> str:
    """The hidden field's text for ``plays``."""
    return " ".join((PASS_PREFIX if play.passed else "") + card_token(play.card) for play in plays)


def read_trick(text: str | None, table: TrickTable) -> tuple[Play, ...]:
    """The plays in the hidden field, checked against the table's rules (raises RuleError)."""
    tokens = (text or "").split()
    if len(tokens) > MOST_PLAYS:
        raise TrickFieldError(Message(N_("A trick holds one card per player.")))
    plays = tuple(
        Play(card_of_field(token.removeprefix(PASS_PREFIX)), token.startswith(PASS_PREFIX))
        for token in tokens
    )
    check_plays(plays, table)
    return plays


def check_plays(plays: Sequence[Play], table: TrickTable) -> None:
    """C1, R2, R17, R19: refuse a card not in the deck in use, a card twice, too many plays,
    a third colour or a pass out of place. An empty trick is simply not started yet."""
    if not plays:
        return
    setup = table.setup
    if table.is_hat_trick:
        check_hat_trick_plays(plays, setup.deck, setup.players)
        return
    if any(play.passed for play in plays):
        raise TrickFieldError(
            Message(N_("Only Hat Trick has passes: in Sticheln every player plays a card (R6)."))
        )
    check_trick_cards([play.card for play in plays], setup.deck, setup.players)


def add_play(
    plays: Sequence[Play], token: str, passed: bool, table: TrickTable
) -> tuple[Play, ...]:
    """The trick with one more play; a refused play raises RuleError and changes nothing.

    A pass is a Hat Trick play only (R19); the pass toggle is not offered otherwise.
    """
    played = (*plays, Play(card_of_field(token), passed and table.is_hat_trick))
    check_plays(played, table)
    return played


def trick_view(plays: Sequence[Play], table: TrickTable) -> TrickView:
    """Who is winning so far and why (R7, R8, R13), or the piles, passes and next leader of a
    Hat Trick trick (R19-R21)."""
    players = table.setup.players
    next_player = table.player(len(plays)) if len(plays) < players else None
    shown = [
        PlayedCard(i, Chip.of(play.card), table.player(i), play.passed)
        for i, play in enumerate(plays)
    ]
    if not plays:
        return TrickView((), players, next_player)
    if table.is_hat_trick:
        return _hat_trick_view(plays, shown, players, next_player, table)
    settings = table.setup.variant.settings
    assert settings is not None  # a trick without passes is of the classic family
    outcome = trick_winner([play.card for play in plays], settings.scoring)
    shown[outcome.winner] = replace(shown[outcome.winner], takes=True)
    return TrickView(
        tuple(shown),
        players,
        next_player,
        winner=shown[outcome.winner],
        reason=render_message(outcome.reason, table.names or None),
    )


def _hat_trick_view(
    plays: Sequence[Play],
    shown: list[PlayedCard],
    players: int,
    next_player: str | None,
    table: TrickTable,
) -> TrickView:
    """R20, R21: each pile's taker, the passes, and whose card decides the next lead."""
    outcome = resolve_hat_trick(plays)
    for pile in outcome.piles:
        shown[pile.winner] = replace(shown[pile.winner], takes=True)
    shown[outcome.next_leader] = replace(shown[outcome.next_leader], leads_next=True)
    piles = tuple(
        PileView(
            ChipGroup(pile.colour.value, tuple(Chip.of(card) for card in pile.cards)),
            taker=shown[pile.winner].player,
            card=shown[pile.winner].chip,
        )
        for pile in outcome.piles
    )
    return TrickView(
        tuple(shown),
        players,
        next_player,
        winner=shown[outcome.next_leader],
        reason=render_message(outcome.reason, [play.player for play in shown]),
        piles=piles,
        passes=tuple(shown[i] for i in outcome.passes),
    )


def picker_groups(table: TrickTable) -> list[ChipGroup]:
    """The chips to tap: every card of the deck in use (R2, R17), a row per colour."""
    return deck_groups(table.setup.deck)
