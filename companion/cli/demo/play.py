"""One demo round, dealt and played through ``companion.rules``.

The deck is shuffled and dealt by :func:`companion.rules.deal` (R2, R17); each player marks
their colour(s) with cards of their hand (R4, R14; nothing with Delayed, R16); every trick is
played with random legal cards from the hands (R6, R19) and taken as :func:`trick_winner`
(R7, R8, R13) or :func:`resolve_hat_trick` (R20, R21) says; the captures become the entries
the table would type (full, quick) or the tricks the app would follow (live), and
:func:`score_round` scores them (R10-R16, R22, with the checks C1-C5). Nothing here decides
a rule.

Speed matters (10,000 games are 50,000 rounds and 3.5 million cards played), so a table
(:class:`DemoTable`) makes its deck once and the hands hold card positions in it, small
integers, turned into the rules' :class:`Card` values for every rules call.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from companion import rules
from companion.data.states import RoundMode
from companion.rules.cards import Card
from companion.rules.deck import HAT_TRICK_COLOURS, Deck
from companion.rules.hat_trick import Play
from companion.rules.variants import TrumpOrder

#: How often a Hat Trick player who could follow passes anyway (R19; a pass costs 2, R22).
PASS_CHANCE = 0.08
#: How often a player marks the colour they hold most of, rather than any card of the hand.
MOST_HELD_CHANCE = 0.6
#: How often a player who still holds cards of their cursed colour plays one: rarely when
#: leading (they would likely take it back), often on another's lead (to get rid of it).
CURSED_PLAY = {True: 0.1, False: 0.55}
#: How often a player plays a card of their lucky colour (Reverse, R13): they keep them back.
LUCKY_PLAY = 0.2

Json = dict[str, Any]


@dataclass(frozen=True)
class PlayedRound:
    """A round as the app stores it: entries (and a live round's tricks) in the API's shape,
    as the JSON text the database holds, and each seat's ``(score, tricks, colours)`` as
    ``round_results`` holds them."""

    mode: str
    entries: str
    tricks: str | None
    results: list[tuple[int, int | None, str]]
    tricks_played: int


class DemoRandom(random.Random):
    """A seeded generator whose shuffle sorts by random keys: a uniformly random order, as
    :meth:`random.Random.shuffle` gives, in a fraction of its time."""

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        draw = self.random
        keyed = sorted([(draw(), i) for i in range(len(x))])
        x[:] = [x[i] for _, i in keyed]


class _CachedDeck(Deck):
    """The deck in use with its cards made once: the cards :class:`Deck` yields, in its order."""

    cards: tuple[Card, ...]

    def __init__(self, deck: Deck):
        super().__init__(deck.colours, deck.min_value, deck.max_value)
        object.__setattr__(self, "cards", tuple(Deck.__iter__(deck)))

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)


class DemoSetup(rules.TableSetup):
    """A :class:`TableSetup` that works out its deck, hands and tricks once (R2, R5, R17,
    R18) rather than at every call: one table plays thousands of rounds."""

    @functools.cached_property
    def deck(self) -> Deck:
        return _CachedDeck(self.variant.deck(self.players))

    @functools.cached_property
    def hand_size(self) -> int:
        return self.variant.hand_size(self.players)

    @functools.cached_property
    def tricks_per_round(self) -> int:
        return self.variant.tricks_per_round(self.players)


class DemoTable:
    """A player count at a variant, and its deck as positions: position ``p`` is
    ``cards[p]``, in the order the app's card chips list the deck (colour by colour as the
    rulebook names them, values rising), the order full and quick entries name cards in."""

    def __init__(self, players: int, variant: rules.Variant):
        rules.table_setup(players, variant)  # refuses a player count the game is not played with
        self.setup = DemoSetup(players, variant)
        self.players = players
        self.variant = variant
        deck = self.setup.deck
        assert isinstance(deck, _CachedDeck)
        self.cards = deck.cards
        self.position = {id(card): index for index, card in enumerate(self.cards)}
        self.json = tuple(card.as_json() for card in self.cards)
        self.colour = tuple(deck.colours.index(card.colour) for card in self.cards)
        self.value = tuple(card.value for card in self.cards)
        #: Each card played, and passed with (R19), as a Hat Trick play and as stored.
        self.hat_trick_plays = (
            tuple(Play(card) for card in self.cards),
            tuple(Play(card, passed=True) for card in self.cards),
            tuple({**card.as_json(), "pass": True} for card in self.cards),
        )
        #: The seats in playing order from each leader (R3, R9).
        self.orders = tuple(tuple(rules.seat_order(leader, players)) for leader in range(players))

    def deal(self, rng: random.Random) -> list[list[int]]:
        """R2, R17: the rules shuffle and deal the deck; the hands as positions."""
        position = self.position
        return [[position[id(card)] for card in hand] for hand in rules.deal(self.setup, rng).hands]

    def cards_of(self, positions: Sequence[int]) -> tuple[Card, ...]:
        cards = self.cards
        return tuple(cards[p] for p in positions)

    def json_of(self, positions: Sequence[int]) -> list[Json]:
        card_json = self.json
        return [card_json[p] for p in positions]


def play_round(table: DemoTable, leader: int, mode: str, rng: random.Random) -> PlayedRound:
    """Deal, mark, play every trick and score one round; ``mode`` is ``full``, ``quick`` or
    ``live`` (Delayed has no quick entry: its quick rounds are entered in full)."""
    settings = table.variant.settings
    if settings is None:
        return _hat_trick_round(table, table.deal(rng), leader, mode, rng)
    return _classic_round(table, settings, table.deal(rng), leader, mode, rng)


def _take(hand: list[int], index: int) -> int:
    """Remove and answer ``hand[index]`` (the order of a hand does not matter)."""
    card = hand[index]
    last = hand.pop()
    if index < len(hand):
        hand[index] = last
    return card


def _indicators(
    table: DemoTable, hand: list[int], colours: int, lucky: bool, rng: random.Random
) -> list[int]:
    """R4, R14: one card per marked colour, of different colours, laid out from the hand.

    A player marks the colour(s) they hold most of, with their lowest card of it (their
    highest when the colour is lucky, R13), or else just any card of their hand.
    """
    colour_of, value_of = table.colour, table.value
    if rng.random() < MOST_HELD_CHANCE:
        by_colour: dict[int, list[int]] = {}
        for p in hand:
            by_colour.setdefault(colour_of[p], []).append(p)
        ranked = sorted(by_colour.values(), key=len, reverse=True)[:colours]
        pick = max if lucky else min
        chosen = [pick(cards, key=value_of.__getitem__) for cards in ranked]
    else:
        first = hand[int(rng.random() * len(hand))]
        chosen = [first]
        if colours == 2:
            others = [p for p in hand if colour_of[p] != colour_of[first]]
            chosen.append(others[int(rng.random() * len(others))])
    for p in chosen:
        hand.remove(p)
    return sorted(chosen)


def _classic_round(
    table: DemoTable,
    variant: rules.ClassicVariant,
    hands: list[list[int]],
    leader: int,
    mode: str,
    rng: random.Random,
) -> PlayedRound:
    players, cards, card_json, orders = table.players, table.cards, table.json, table.orders
    lucky = variant.scoring.trump_order is TrumpOrder.LOWEST
    lays_out = variant.cards_laid_out > 0
    marked = [
        _indicators(table, hand, variant.colours, lucky, rng) if lays_out else [] for hand in hands
    ]
    # Each hand in two parts: cards of the player's marked colours, and the others.
    colour_of = table.colour
    own: list[list[int]] = []
    for seat, marks in enumerate(marked):
        colours = {colour_of[p] for p in marks}
        own.append([p for p in hands[seat] if colour_of[p] in colours])
        hands[seat] = [p for p in hands[seat] if colour_of[p] not in colours]
    piles: list[list[int]] = [[] for _ in range(players)]
    tricks: list[Json] | None = [] if mode == RoundMode.LIVE else None
    scoring = variant.scoring
    random_ = rng.random
    for _ in range(table.setup.tricks_per_round):
        seats = orders[leader]
        plays = []
        for seat in seats:  # R6: any card of the hand may be played
            # The deal shuffled the hands: their last card is a random one of them.
            mine = own[seat]
            if mine and (
                not hands[seat]
                or random_() < (LUCKY_PLAY if lucky else CURSED_PLAY[seat == leader])
            ):
                plays.append(mine.pop())
            else:
                plays.append(hands[seat].pop())
        winner = seats[rules.trick_winner([cards[p] for p in plays], scoring).winner]  # R7, R8, R13
        piles[winner].extend(plays)  # R9: the winner takes the trick and leads the next
        if tricks is not None:
            tricks.append({"leader": leader, "plays": [card_json[p] for p in plays]})
        leader = winner
    if mode != RoundMode.LIVE:
        for pile in piles:
            pile.sort()  # the chips' order
    entries: list[rules.Entry]
    shapes: list[Json]
    if not lays_out:  # R16: the colours are chosen when the round is scored
        entries = [rules.DelayedEntry(table.cards_of(pile)) for pile in piles]
        shapes = [{"captured": table.json_of(pile)} for pile in piles]
        mode = RoundMode.LIVE if tricks is not None else RoundMode.FULL
    elif mode in (RoundMode.LIVE, RoundMode.FULL):
        entries = [
            rules.FullEntry(table.cards_of(marks), table.cards_of(pile))
            for marks, pile in zip(marked, piles, strict=True)
        ]
        shapes = [
            {"marked": table.json_of(marks), "captured": table.json_of(pile)}
            for marks, pile in zip(marked, piles, strict=True)
        ]
    else:
        entries = []
        shapes = []
        for marks, pile in zip(marked, piles, strict=True):
            colours = {colour_of[p] for p in marks}
            held = [p for p in pile if colour_of[p] in colours]
            tricks_won = len(pile) // players
            entries.append(
                rules.QuickEntry(table.cards_of(marks), tricks_won, table.cards_of(held))
            )
            shapes.append(
                {
                    "marked": table.json_of(marks),
                    "tricks": tricks_won,
                    "marked_captured": table.json_of(held),
                }
            )
    return _scored(table, mode, entries, shapes, tricks)


def _hat_trick_round(
    table: DemoTable, hands: list[list[int]], leader: int, mode: str, rng: random.Random
) -> PlayedRound:
    players, orders, colour_of = table.players, table.orders, table.colour
    card_json = table.json
    position, plays_, passes_, passes_json = table.position, *table.hat_trick_plays
    piles: list[list[int]] = [[] for _ in range(players)]
    passed: list[list[int]] = [[] for _ in range(players)]
    tricks: list[Json] | None = [] if mode == RoundMode.LIVE else None
    random_ = rng.random
    for _ in range(table.setup.tricks_per_round):  # R18: each hand's last card is set aside
        seats = orders[leader]
        plays: list[Play] = []
        shown: list[Json] = []
        colours: list[int] = []
        for seat in seats:
            hand = hands[seat]
            passes = False
            if len(colours) < 2:  # R19: any card while the trick holds fewer than 2 colours
                index = int(random_() * len(hand))
            else:  # then one of those two colours, or a pass showing the third colour
                follow = [i for i, p in enumerate(hand) if colour_of[p] in colours]
                if follow and (len(follow) == len(hand) or random_() >= PASS_CHANCE):
                    index = follow[int(random_() * len(follow))]
                else:
                    third = [i for i, p in enumerate(hand) if colour_of[p] not in colours]
                    index = third[int(random_() * len(third))]
                    passes = True
            p = _take(hand, index)
            if passes:
                plays.append(passes_[p])
                shown.append(passes_json[p])
                passed[seat].append(p)
            else:
                plays.append(plays_[p])
                shown.append(card_json[p])
                if colour_of[p] not in colours:
                    colours.append(colour_of[p])
        outcome = rules.resolve_hat_trick(plays)  # R20, R21
        for taken in outcome.piles:
            piles[seats[taken.winner]].extend(position[id(card)] for card in taken.cards)
        if tricks is not None:
            tricks.append({"leader": leader, "plays": shown})
        leader = seats[outcome.next_leader]
    entries: list[rules.Entry] = []
    shapes: list[Json] = []
    for pile, down in zip(piles, passed, strict=True):
        if mode == RoundMode.QUICK:
            counts = [0, 0, 0]
            for p in pile:
                counts[colour_of[p]] += 1
            entries.append(
                rules.HatTrickQuickEntry(
                    dict(zip(HAT_TRICK_COLOURS, counts, strict=True)), len(down)
                )
            )
            names = [colour.value for colour in HAT_TRICK_COLOURS]
            shapes.append({"counts": dict(zip(names, counts, strict=True)), "passed": len(down)})
            continue
        if mode == RoundMode.FULL:
            pile.sort()
            down.sort()
        entries.append(rules.HatTrickFullEntry(table.cards_of(pile), table.cards_of(down)))
        shapes.append({"captured": table.json_of(pile), "passed": table.json_of(down)})
    return _scored(table, mode, entries, shapes, tricks)


def _scored(
    table: DemoTable,
    mode: str,
    entries: list[rules.Entry],
    shapes: list[Json],
    tricks: list[Json] | None,
) -> PlayedRound:
    """R10-R16, R22 (after the checks C1-C5): the rules score the round.

    ``shapes`` are the entries' ``as_json()``, built from the table's card dictionaries
    rather than a new dictionary per card (tests hold them equal). They are written as JSON
    here, as the database's JSON columns write them (``json.dumps``), so that the process
    storing the rows has less to do.
    """
    scored = rules.score_round(table.setup, entries)
    return PlayedRound(
        mode=mode,
        entries=json.dumps(shapes),
        tricks=None if tricks is None else json.dumps(tricks),
        results=[
            (seat.score, seat.tricks, ",".join(colour.value for colour in seat.colours))
            for seat in scored.seats
        ],
        tricks_played=table.setup.tricks_per_round,
    )
