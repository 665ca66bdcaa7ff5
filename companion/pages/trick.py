"""A trick as the pages show it, complete or so far: one place per player in play order from
the leader, who takes it and why (R7, R8, R13), or, for Hat Trick, each pile's taker, the
passes and who leads next (R19-R21), every word in the reader's language.

The rules decide; this module only puts their answer into words and chips, from plain cards,
so that the server and the phone's rules worker draw the same trick (companion/pages).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.rules import Card, Colour, Play, TableSetup, resolve_hat_trick, trick_winner
from companion.rules.cards import TOKEN_SEPARATOR
from companion.rules.wording import COLOUR_SYMBOLS, Reader, colour_words, say


class CardWords:
    """What a chip says of its card, however it comes by its colour's name: the card in
    words and in a form. The pages' chips and the server's (companion/read_models/chips.py)
    both say it this way."""

    colour: str
    value: int | None
    name: str

    @property
    def label(self) -> str:
        """The card in words, as rules messages name it: "red 7" ("red" for a colour)."""
        return self.name if self.value is None else f"{self.name} {self.value}"

    @property
    def token(self) -> str:
        """How the card travels in a form: ``red-7``."""
        return f"{self.colour}{TOKEN_SEPARATOR}{self.value}"


@dataclass(frozen=True)
class Chip(CardWords):
    """A card (or, with no value, a colour) as drawn, named in the reader's language: its
    colour is the API name, ``symbol`` its shape (colour-blind players). On the scoreboard it
    is a marked card or a colour scored with; on the live page, ``out`` says why the card
    cannot be played ("played", "laid-out", "in-trick") and ``refused`` marks the card the
    rules just turned down."""

    colour: str
    value: int | None
    name: str
    symbol: str
    out: str = ""
    refused: bool = False

    @property
    def disabled(self) -> bool:
        """Whether the chip cannot be tapped: its card is out of every hand (C6)."""
        return bool(self.out)


def card_chip(card: Card, reader: Reader, out: str = "", refused: bool = False) -> Chip:
    """The chip drawing ``card``."""
    colour = card.colour
    return Chip(
        colour.value, card.value, colour_words(colour, reader), COLOUR_SYMBOLS[colour], out, refused
    )


def colour_chip(colour: Colour, reader: Reader) -> Chip:
    """A colour drawn without a value (a colour scored with)."""
    return Chip(colour.value, None, colour_words(colour, reader), COLOUR_SYMBOLS[colour])


class ChipRange:
    """A group's chips of one colour, lowest first (as the deck's rows): the values it spans.
    The pages' groups and the server's (companion/read_models/chips.py) both span them so."""

    chips: Sequence[CardWords]

    @property
    def low(self) -> int | None:
        """The lowest value in the group."""
        return self.chips[0].value

    @property
    def high(self) -> int | None:
        """The highest value in the group."""
        return self.chips[-1].value


@dataclass(frozen=True)
class ChipGroup(ChipRange):
    """The chips of one colour: a Hat Trick pile, or a row of the live page's deck, where
    ``in_trick`` marks one of a Hat Trick trick's two colours and ``passes`` the third,
    whose cards are passes (R19)."""

    colour: str
    name: str
    symbol: str
    chips: tuple[Chip, ...]
    in_trick: bool = False
    passes: bool = False


def colour_group(
    colour: Colour,
    chips: Sequence[Chip],
    reader: Reader,
    in_trick: bool = False,
    passes: bool = False,
) -> ChipGroup:
    """``chips``, all of ``colour``."""
    name = colour_words(colour, reader)
    return ChipGroup(colour.value, name, COLOUR_SYMBOLS[colour], tuple(chips), in_trick, passes)


@dataclass(frozen=True)
class PileView:
    """A Hat Trick pile: one colour's cards in play order, and who takes it with which card
    (its highest, R20)."""

    group: ChipGroup
    taker: str
    card: Chip


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
    reader: Reader,
    seats: Sequence[int | None] = (),
    number: int = 0,
) -> TrickView:
    """The trick with ``plays`` so far, resolved by the rules. ``players`` names its places
    in play order from the leader (``seats``: their seats in a game)."""
    places = [
        PlayedCard(
            player,
            seats[index] if seats else None,
            card_chip(plays[index].card, reader) if index < len(plays) else None,
            passed=index < len(plays) and plays[index].passed,
            is_next=index == len(plays),
        )
        for index, player in enumerate(players)
    ]
    hat_trick = setup.variant.has_passes
    if not plays:
        return TrickView(tuple(places), hat_trick, number)
    if hat_trick:
        return _hat_trick_view(plays, places, players, number, reader)
    settings = setup.variant.settings
    assert settings is not None  # a trick without passes is of the classic family
    outcome = trick_winner([play.card for play in plays], settings.scoring)
    places[outcome.winner] = replace(places[outcome.winner], takes=True)
    return TrickView(
        tuple(places),
        hat_trick,
        number,
        winner=places[outcome.winner],
        reason=say(outcome.reason, reader, players),
    )


def _hat_trick_view(
    plays: Sequence[Play],
    places: list[PlayedCard],
    players: Sequence[str],
    number: int,
    reader: Reader,
) -> TrickView:
    """R20, R21: each pile's taker, the passes, and whose card decides the next lead. The
    rules' sentence names a player by their place in the trick, so the names go in play
    order."""
    outcome = resolve_hat_trick(plays)
    for pile in outcome.piles:
        places[pile.winner] = replace(places[pile.winner], takes=True)
    leader = outcome.next_leader
    places[leader] = replace(places[leader], leads_next=True)
    piles = tuple(
        PileView(
            colour_group(pile.colour, [card_chip(card, reader) for card in pile.cards], reader),
            taker=places[pile.winner].player,
            card=card_chip(plays[pile.winner].card, reader),
        )
        for pile in outcome.piles
    )
    return TrickView(
        tuple(places),
        True,
        number,
        winner=places[leader],
        reason=say(outcome.reason, reader, players),
        piles=piles,
        passes=tuple(places[index] for index in outcome.passes),
    )
