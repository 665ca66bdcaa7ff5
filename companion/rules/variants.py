"""The games and variants (RULES.md sections 5 and 6), as values found by name.

A classic-family game is three independent settings: how a round is scored (a registered
:class:`Scoring`), how many colours each player marks, and when they are revealed. Hat Trick
is a different game with the same box. Presets name common combinations. Adding a scoring is
one new registered class; nothing else branches on its name.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.rules.cards import Card
from companion.rules.deck import CLASSIC_DECKS, HAT_TRICK_COLOURS, HAT_TRICK_DECKS, Deck
from companion.rules.errors import PlayerCountError, UnknownVariantError
from companion.rules.text import N_

#: R2: the classic family seats 3 to 8 players.
MIN_PLAYERS = 3
MAX_PLAYERS = 8
#: R17: Hat Trick seats 4 to 7 players.
HAT_TRICK_MIN_PLAYERS = 4
HAT_TRICK_MAX_PLAYERS = 7
#: R2: with 8 players each hand holds one card fewer.
FULL_TABLE_HAND = 14
HAND = 15
#: The family keys a game is stored, shown and sent under (``Game.family``, the API's
#: ``variant.game``); Hat Trick's is also its preset name.
CLASSIC = "classic"
HAT_TRICK = "hat-trick"


class TrumpOrder(enum.Enum):
    """Which trump takes a trick: the highest (R8) or, in Reverse, the lowest (R13)."""

    HIGHEST = "highest"
    LOWEST = "lowest"


class Scoring(abc.ABC):
    """How a classic-family round is scored and which trump wins a trick.

    ``marked_card`` scores one card of a player's marked colour (indicator included);
    ``other_card`` is what every other card they hold is worth.
    """

    name: ClassVar[str]
    trump_order: ClassVar[TrumpOrder] = TrumpOrder.HIGHEST
    other_card: ClassVar[int] = 1
    #: The ruling the scoring follows, for reasons and help texts.
    ruling: ClassVar[str]

    @abc.abstractmethod
    def marked_card(self, card: Card) -> int:
        """Score of one card of the player's marked colour(s)."""

    def score(self, marked_cards: Sequence[Card], other_cards: int) -> int:
        """A player's round score from their marked-colour cards and the count of the rest."""
        return sum(self.marked_card(card) for card in marked_cards) + other_cards * self.other_card

    def __repr__(self) -> str:
        return f"<Scoring {self.name}>"


SCORINGS: dict[str, Scoring] = {}


def register_scoring(cls: type[Scoring]) -> type[Scoring]:
    """Class decorator: make a scoring available by its name."""
    SCORINGS[cls.name] = cls()
    return cls


@register_scoring
class ClassicScoring(Scoring):
    """R10: +1 per card, minus the value of each card of the cursed colour."""

    name = "classic"
    ruling = "R10"

    def marked_card(self, card: Card) -> int:
        return -card.value


@register_scoring
class MildScoring(Scoring):
    """R12: +1 per card, -5 for each card of the cursed colour, a 0 included."""

    name = "mild"
    ruling = "R12"

    def marked_card(self, card: Card) -> int:
        return -5


@register_scoring
class ReverseScoring(Scoring):
    """R13: lucky colour scores its values, every other card -1; the lowest trump wins."""

    name = "reverse"
    ruling = "R13"
    trump_order = TrumpOrder.LOWEST
    other_card = -1

    def marked_card(self, card: Card) -> int:
        return card.value


class Reveal(enum.Enum):
    """When the marked colours are shown (R4), kept hidden (R15) or chosen at the end (R16)."""

    OPEN = "open"
    HAZY = "hazy"
    DELAYED = "delayed"

    @property
    def lays_out_indicators(self) -> bool:
        """Delayed lays nothing out (R16); the others lay one card per marked colour."""
        return self is not Reveal.DELAYED

    @property
    def hides_marks_until_scored(self) -> bool:
        """Hazy indicators stay face down until the round is scored (R15)."""
        return self is Reveal.HAZY


class Family(abc.ABC):
    """What every game of the box answers, whichever family it belongs to."""

    game: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    @abc.abstractmethod
    def tricks_per_round(self, players: int) -> int:
        """R5 / R18: tricks each round has at this table."""

    @property
    def player_range(self) -> range:
        """R2 / R17: the player counts the game is played with."""
        return range(self.min_players, self.max_players + 1)

    def can_seat(self, players: int) -> bool:
        """R2 / R17: whether the game is played by this many players."""
        return players in self.player_range

    def cards_per_round(self, players: int) -> int:
        """C3 / C5: each trick gives one card per player (face down for a pass in Hat
        Trick), so a round's captures number tricks x players."""
        return self.tricks_per_round(players) * players


@dataclass(frozen=True)
class ClassicVariant(Family):
    """A classic-family game: the three settings of RULES.md section 5."""

    scoring: Scoring
    colours: int = 1
    reveal: Reveal = Reveal.OPEN

    game: ClassVar[str] = CLASSIC
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    #: R19: only Hat Trick has passes.
    has_passes: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if type(self.colours) is not int or self.colours not in (1, 2):
            raise UnknownVariantError.saying(
                N_("Players mark 1 or 2 colours, not %(colours)s."), colours=self.colours
            )

    @property
    def cards_laid_out(self) -> int:
        """Indicator cards each player lays out: 1 or 2 (R4, R14), none when delayed (R16)."""
        return self.colours if self.reveal.lays_out_indicators else 0

    @property
    def colours_marked(self) -> int:
        """How many colours each player marks: 1, or 2 in Aggravated (R4, R14)."""
        return self.colours

    @property
    def hides_marks(self) -> bool:
        """Whether the marked colours stay hidden until the round is scored (Hazy, R15)."""
        return self.reveal.hides_marks_until_scored

    @property
    def settings(self) -> ClassicVariant:
        """The three settings of RULES.md section 5: scoring, colours and reveal."""
        return self

    def deck(self, players: int) -> Deck:
        """R2: the colours and values used for this many players."""
        colours, top = CLASSIC_DECKS[check_players(self, players)]
        return Deck(colours, 0, top)

    def hand_size(self, players: int) -> int:
        """R2: 15 cards each, 14 with 8 players."""
        return FULL_TABLE_HAND if check_players(self, players) == MAX_PLAYERS else HAND

    def tricks_per_round(self, players: int) -> int:
        """R5, R14, R16: hand size minus the cards laid out."""
        return self.hand_size(players) - self.cards_laid_out

    @property
    def preset(self) -> str | None:
        """The preset name this combination has, if any."""
        return next((name for name, variant in PRESETS.items() if variant == self), None)

    def as_json(self) -> dict[str, object]:
        """The API's shape of a variant."""
        return {
            "game": self.game,
            "scoring": self.scoring.name,
            "colours": self.colours,
            "reveal": self.reveal.value,
        }


@dataclass(frozen=True)
class HatTrickVariant(Family):
    """Hat Trick (R17-R22): three colours, double tricks, passes, no marked colour."""

    game: ClassVar[str] = HAT_TRICK
    min_players: ClassVar[int] = HAT_TRICK_MIN_PLAYERS
    max_players: ClassVar[int] = HAT_TRICK_MAX_PLAYERS
    cards_laid_out: ClassVar[int] = 0
    #: R17: no colour is marked, so none is hidden either (R15 does not apply).
    colours_marked: ClassVar[int] = 0
    hides_marks: ClassVar[bool] = False
    #: R19: a player may pass once two colours are in the trick.
    has_passes: ClassVar[bool] = True

    @property
    def settings(self) -> None:
        """Hat Trick has none of the three settings of RULES.md section 5."""
        return None

    def deck(self, players: int) -> Deck:
        """R17: red, blue and green, 1-20 (0-20 with 7 players)."""
        low, _hand = HAT_TRICK_DECKS[check_players(self, players)]
        return Deck(HAT_TRICK_COLOURS, low, 20)

    def hand_size(self, players: int) -> int:
        """R17: 15, 12, 10 or 9 cards."""
        return HAT_TRICK_DECKS[check_players(self, players)][1]

    def tricks_per_round(self, players: int) -> int:
        """R18: every card but the last is played."""
        return self.hand_size(players) - 1

    @property
    def preset(self) -> str:
        return HAT_TRICK

    def as_json(self) -> dict[str, object]:
        """The API's shape of the Hat Trick variant."""
        return {"game": self.game}


Variant = ClassicVariant | HatTrickVariant

PRESETS: dict[str, Variant] = {
    "classic": ClassicVariant(SCORINGS["classic"]),
    "mild": ClassicVariant(SCORINGS["mild"]),
    "reverse": ClassicVariant(SCORINGS["reverse"]),
    "aggravated": ClassicVariant(SCORINGS["classic"], colours=2),
    "hazy": ClassicVariant(SCORINGS["classic"], reveal=Reveal.HAZY),
    "delayed": ClassicVariant(SCORINGS["classic"], reveal=Reveal.DELAYED),
    HAT_TRICK: HatTrickVariant(),
}


def variant_named(name: str) -> Variant:
    """The preset called ``name`` (section 5 table, or Hat Trick)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownVariantError.saying(
            N_("%(name)s is not a variant; the presets are %(presets)s."),
            name=repr(name),
            presets=", ".join(PRESETS),
        ) from None


def variant_from_settings(scoring: str, colours: int, reveal: str) -> ClassicVariant:
    """A classic-family variant from its three settings (any combination is allowed)."""
    if scoring not in SCORINGS:
        raise UnknownVariantError.saying(
            N_("%(name)s is not a scoring; use %(choices)s."),
            name=repr(scoring),
            choices=", ".join(SCORINGS),
        )
    try:
        how = Reveal(reveal)
    except ValueError:
        raise UnknownVariantError.saying(
            N_("%(name)s is not a reveal; use %(choices)s."),
            name=repr(reveal),
            choices=", ".join(r.value for r in Reveal),
        ) from None
    return ClassicVariant(SCORINGS[scoring], colours, how)


def check_players(variant: Variant, players: int) -> int:
    """R2 / R17: refuse a player count the game is not played with."""
    if not variant.can_seat(players):
        template = (
            N_("Hat Trick is played by 4 to 7 players, not %(players)s.")
            if variant.game == HAT_TRICK
            else N_("Sticheln is played by 3 to 8 players, not %(players)s.")
        )
        raise PlayerCountError.saying(template, players=players)
    return players
