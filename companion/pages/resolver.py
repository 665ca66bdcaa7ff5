"""The trick resolver's page model: the trick so far (R7, R8, R13; Hat Trick's piles, passes
and next leader, R19-R21), the chips of the deck to tap (R2, R17), and the links and words
its template (``templates/tools/resolver_trick.html``) takes from its context.

The resolver stores nothing: its state is the table (the variant and the players in play
order from the leader) and the cards played so far, read and tapped by
``companion.formats.trick_taps``. The server builds the model on every post
(companion/web/tools/routes.py); the phone's rules worker offline, from the same state, and
both render the same template with :func:`resolver_context`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup

from companion.pages.render import link_citations
from companion.rules import (
    Card,
    Colour,
    Message,
    Play,
    TableSetup,
    can_pass,
    resolve_hat_trick,
    trick_winner,
)
from companion.rules.cards import card_token
from companion.rules.text import N_
from companion.rules.wording import COLOUR_SYMBOLS, Reader, colour_words, say

#: Outside a game the players are counted from the leader (the code counts them from 0).
PLAYER_WORDS = N_("Player %(number)s")

#: Builds a page's link: an endpoint's name and its values (``url_for``, or the route map).
Url = Callable[..., str]


@dataclass(frozen=True)
class CardChip:
    """A card as the chip macro of templates/macros.html draws it, named in the reader's
    language; ``token`` is how it travels in the form (``red-7``)."""

    colour: str
    value: int
    name: str
    symbol: str

    @property
    def label(self) -> str:
        """The card in words, as rules messages name it: "red 7"."""
        return f"{self.name} {self.value}"

    @property
    def token(self) -> str:
        return card_token(Card(Colour.named(self.colour), self.value))


def card_chip(card: Card, reader: Reader) -> CardChip:
    """The chip of ``card``, named in the reader's language."""
    return CardChip(
        card.colour.value,
        card.value,
        colour_words(card.colour, reader),
        COLOUR_SYMBOLS[card.colour],
    )


@dataclass(frozen=True)
class ColourRow:
    """One colour's chips (the deck's, or a Hat Trick pile's), with the colour's words."""

    colour: str
    name: str
    symbol: str
    chips: tuple[CardChip, ...]

    @property
    def low(self) -> int:
        return self.chips[0].value

    @property
    def high(self) -> int:
        return self.chips[-1].value


@dataclass(frozen=True)
class Place:
    """One place of the trick: who plays there and, once they have, their card and what it
    does."""

    player: str
    chip: CardChip | None = None
    passed: bool = False
    takes: bool = False  # takes the trick (Hat Trick: a pile), or is winning it so far
    leads_next: bool = False  # Hat Trick: leads (or would lead) the next trick


@dataclass(frozen=True)
class Pile:
    """A Hat Trick pile: one colour's cards in play order, who takes it and with which card
    (its highest, R20)."""

    group: ColourRow
    taker: str
    card: CardChip


@dataclass(frozen=True)
class TrickShown:
    """Everything the page says of the trick. ``winner`` is the place taking the trick (or
    winning it so far), for Hat Trick the place whose player leads next (R21)."""

    places: tuple[Place, ...]
    hat_trick: bool
    winner: Place | None = None
    reason: str | None = None
    piles: tuple[Pile, ...] = ()
    passes: tuple[Place, ...] = ()

    @property
    def plays(self) -> tuple[Place, ...]:
        return tuple(place for place in self.places if place.chip is not None)

    @property
    def players(self) -> int:
        return len(self.places)

    @property
    def complete(self) -> bool:
        return len(self.plays) == self.players

    @property
    def next_place(self) -> Place | None:
        """The place whose turn it is, if the trick is not full."""
        played = len(self.plays)
        return self.places[played] if played < self.players else None

    @property
    def tokens(self) -> frozenset[str]:
        return frozenset(play.chip.token for play in self.plays if play.chip is not None)


@dataclass(frozen=True)
class Resolver:
    """The resolver's trick and deck after a tap: ``refusal`` says why a tapped card
    (``refused``) was not added, ``cleared`` why a trick sent back no longer fits."""

    trick: TrickShown
    groups: tuple[ColourRow, ...]
    can_pass: bool
    refusal: str | None = None
    refused: str | None = None
    cleared: str | None = None


def players_in_order(
    setup: TableSetup, reader: Reader, names: Sequence[str] = (), leader: int = 0
) -> list[str]:
    """Who plays the trick's places, clockwise from the leader (R3, R9): the seats' names in
    a game, "Player 1" and on at a table the app does not know."""
    if names:
        return [names[(leader + index) % len(names)] for index in range(len(names))]
    return [reader.gettext(PLAYER_WORDS) % {"number": index + 1} for index in range(setup.players)]


def deck_rows(setup: TableSetup, reader: Reader) -> tuple[ColourRow, ...]:
    """The chips to tap, a row per colour of the deck in use (R2, R17), lowest first."""
    rows = []
    for colour in setup.deck.colours:
        cards = sorted((card for card in setup.deck if card.colour is colour), key=_value)
        rows.append(
            ColourRow(
                colour.value,
                colour_words(colour, reader),
                COLOUR_SYMBOLS[colour],
                tuple(card_chip(card, reader) for card in cards),
            )
        )
    return tuple(rows)


def _value(card: Card) -> int:
    return card.value


def trick_shown(
    setup: TableSetup, players: Sequence[str], plays: Sequence[Play], reader: Reader
) -> TrickShown:
    """The trick with ``plays`` so far, resolved by the rules; ``players`` names its places
    in play order. The rules' reason names a player by their place (R21)."""
    places = [
        Place(
            player,
            card_chip(plays[index].card, reader) if index < len(plays) else None,
            passed=index < len(plays) and plays[index].passed,
        )
        for index, player in enumerate(players)
    ]
    hat_trick = setup.variant.has_passes
    if not plays:
        return TrickShown(tuple(places), hat_trick)
    if hat_trick:
        return _hat_trick(plays, places, players, reader)
    settings = setup.variant.settings
    assert settings is not None  # a trick without passes is of the classic family
    outcome = trick_winner([play.card for play in plays], settings.scoring)
    places[outcome.winner] = _with(places[outcome.winner], takes=True)
    return TrickShown(
        tuple(places),
        False,
        winner=places[outcome.winner],
        reason=say(outcome.reason, reader, players),
    )


def _with(place: Place, takes: bool = False, leads_next: bool = False) -> Place:
    return Place(
        place.player,
        place.chip,
        place.passed,
        takes or place.takes,
        leads_next or place.leads_next,
    )


def _hat_trick(
    plays: Sequence[Play], places: list[Place], players: Sequence[str], reader: Reader
) -> TrickShown:
    """R20, R21: each pile's taker, the passes, and whose card decides the next lead."""
    outcome = resolve_hat_trick(plays)
    for pile in outcome.piles:
        places[pile.winner] = _with(places[pile.winner], takes=True)
    leader = outcome.next_leader
    places[leader] = _with(places[leader], leads_next=True)
    piles = []
    for pile in outcome.piles:
        chips = tuple(card_chip(card, reader) for card in pile.cards)
        colour = pile.colour
        row = ColourRow(colour.value, colour_words(colour, reader), COLOUR_SYMBOLS[colour], chips)
        piles.append(
            Pile(row, places[pile.winner].player, card_chip(plays[pile.winner].card, reader))
        )
    return TrickShown(
        tuple(places),
        True,
        winner=places[leader],
        reason=say(outcome.reason, reader, players),
        piles=tuple(piles),
        passes=tuple(places[index] for index in outcome.passes),
    )


def resolver_of(
    setup: TableSetup,
    players: Sequence[str],
    plays: Sequence[Play],
    reader: Reader,
    refusal: Message | None = None,
    refused: str | None = None,
    cleared: Message | None = None,
    names: Sequence[str] | None = None,
) -> Resolver:
    """The resolver's trick and deck, in the reader's words; a refusal and a cleared
    trick's reason name players as the table knows them (``names`` in seat order)."""
    return Resolver(
        trick=trick_shown(setup, players, plays, reader),
        groups=deck_rows(setup, reader),
        can_pass=can_pass(setup.variant, plays),
        refusal=say(refusal, reader, names) if refusal is not None else None,
        refused=refused if refusal is not None else None,
        cleared=say(cleared, reader, names) if cleared is not None else None,
    )


# --------------------------------------------------------------------------------------------
# The rulings a sentence cites, and the context


def rulings_linked(rules_url: str) -> Callable[[object], Markup]:
    """A sentence HTML-escaped, each ruling it cites ("R7", "C3") a link to its anchor on
    the rules page at ``rules_url`` (numbers that name no ruling stay plain text)."""
    return lambda text: link_citations(text, rules_url)


def resolver_context(page: Resolver, url: Url, notice: str | None = None) -> dict[str, object]:
    """What ``tools/resolver_trick.html`` takes: the trick and deck, the notice above the
    trick (an expired form's, else a cleared trick's), the rulings linked with ``url``."""
    return {
        "resolver": page,
        "view": page.trick,
        "notice": notice,
        "rulings": rulings_linked(url("rulebook.rules")),
    }
