"""Shared helpers of the rules tests: card shorthands, oracles written from the rulings (not from
the code under test), a filler for complete rounds, and random legal play for property tests.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.rules.cards import Card, Colour
from companion.rules.entries import DelayedEntry, Entry, FullEntry, QuickEntry
from companion.rules.hat_trick import Play, check_hat_trick_plays, resolve_hat_trick
from companion.rules.table import Deal, TableSetup, deal
from companion.rules.tricks import trick_winner
from companion.rules.variants import ClassicVariant, Reveal

RED, BLUE, GREEN = Colour.RED, Colour.BLUE, Colour.GREEN
YELLOW, BROWN, VIOLET = Colour.YELLOW, Colour.BROWN, Colour.VIOLET

# --------------------------------------------------------------------------------------------
# Card shorthands


def c(text: str) -> Card:
    """``c("red 4")`` is the red 4."""
    colour, value = text.split()
    return Card(Colour(colour), int(value))


def cs(text: str) -> tuple[Card, ...]:
    """``cs("red 4, blue 0")``: several cards, in order; ``cs("")`` is no card."""
    return tuple(c(part) for part in text.split(",") if part.strip())


def mentions(text: str, words: str) -> bool:
    """Whether ``words`` (a card "red 12", a seat "seat 3") occurs in ``text``; a sentence
    starts with a capital, so "Seat 3 names ..." mentions "seat 3"."""
    return words.lower() in text.lower()


def box() -> list[Card]:
    """R1, written out by hand: red, blue, green 0-20 and brown, violet, yellow 0-18."""
    long = [Card(colour, v) for colour in (RED, BLUE, GREEN) for v in range(21)]
    short = [Card(colour, v) for colour in (BROWN, VIOLET, YELLOW) for v in range(19)]
    return long + short


# --------------------------------------------------------------------------------------------
# Oracles, straight from the rulings


def is_trump(card: Card, lead: Card) -> bool:
    """R7: another colour than the lead, and not a 0."""
    return card.colour != lead.colour and card.value != 0


def expected_winner(cards: Sequence[Card], reverse: bool = False) -> int:
    """R8 / R13: index of the card that takes the trick (so far)."""
    lead = cards[0]
    trumps = [i for i, card in enumerate(cards) if is_trump(card, lead)]
    if trumps:
        if reverse:
            best = min(cards[i].value for i in trumps)
        else:
            best = max(cards[i].value for i in trumps)
        return next(i for i in trumps if cards[i].value == best)
    best = max(card.value for card in cards if card.colour == lead.colour)
    return next(
        i for i, card in enumerate(cards) if card.colour == lead.colour and card.value == best
    )


#: R10, R12, R13: (score of a marked-colour card, score of any other card) per scoring.
CARD_SCORES = {
    "classic": (lambda card: -card.value, 1),
    "mild": (lambda card: -5, 1),
    "reverse": (lambda card: card.value, -1),
}


def expected_score(scoring: str, marked: Iterable[Colour], held: Iterable[Card]) -> int:
    """R10 / R12 / R13: the round score of every card held (indicators and captures)."""
    marked_card, other = CARD_SCORES[scoring]
    colours = set(marked)
    return sum(marked_card(card) if card.colour in colours else other for card in held)


def legal_delayed_choices(captured: Sequence[Card], colours: int) -> list[frozenset[Colour]]:
    """R16: ``colours`` colours among those captured (the one, if only one was captured)."""
    seen = sorted({card.colour for card in captured}, key=lambda colour: colour.value)
    return [frozenset(choice) for choice in itertools.combinations(seen, min(colours, len(seen)))]


def expected_delayed_best(scoring: str, captured: Sequence[Card], colours: int) -> int:
    """R16: the best score among the legal choices; 0 for a player who captured nothing."""
    if not captured:
        return 0
    return max(
        expected_score(scoring, choice, captured)
        for choice in legal_delayed_choices(captured, colours)
    )


def expected_hat_trick_score(counts: Mapping[Colour, int], passed: int) -> int:
    """R22: +1 per card of the fullest colour, -1 per other face-up card, -2 per pass."""
    values = [counts.get(colour, 0) for colour in (RED, BLUE, GREEN)]
    best = max(values)
    return best - (sum(values) - best) - 2 * passed


COLOUR_RANK = {RED: 2, BLUE: 1, GREEN: 0}


def expected_next_leader(plays: Sequence[Play]) -> int:
    """R20 / R21: index of the play whose player leads next. Python compares lists the R21 way:
    value by value from the top, and a list that runs out first is the smaller one. The card
    that decides is the stronger pile's card at the first rank where the piles differ (000:
    "quello che ha giocato la 2° (o 3, o 4, ecc.) carta più elevata comincia"), or its top
    card when there is one pile or the piles are equal throughout."""
    piles: dict[Colour, list[int]] = {}
    for play in plays:
        if not play.passed:
            piles.setdefault(play.card.colour, []).append(play.card.value)
    colour = max(piles, key=lambda col: (sorted(piles[col], reverse=True), COLOUR_RANK[col]))
    high = sorted(piles[colour], reverse=True)
    low = next((sorted(v, reverse=True) for col, v in piles.items() if col != colour), high)
    ranks = [rank for rank, value in enumerate(high) if rank >= len(low) or value != low[rank]]
    value = high[ranks[0]] if ranks else high[0]
    return next(
        i for i, play in enumerate(plays) if not play.passed and play.card == Card(colour, value)
    )


def expected_pile_taker(plays: Sequence[Play]) -> int:
    """R20 / R21: index of the play taking the stronger pile: its highest card."""
    piles: dict[Colour, list[int]] = {}
    for play in plays:
        if not play.passed:
            piles.setdefault(play.card.colour, []).append(play.card.value)
    colour = max(piles, key=lambda col: (sorted(piles[col], reverse=True), COLOUR_RANK[col]))
    return next(
        i
        for i, play in enumerate(plays)
        if not play.passed and play.card == Card(colour, max(piles[colour]))
    )


def legal_hat_trick_play(plays: Sequence[Play], play: Play) -> bool:
    """R19: may ``play`` follow ``plays``? The leader plays any card; passing needs two
    colours in the trick and shows the third; no play brings in a third colour."""
    colours = list(dict.fromkeys(p.card.colour for p in plays if not p.passed))
    if play.passed:
        return len(colours) == 2 and play.card.colour not in colours
    return len(colours) < 2 or play.card.colour in colours


# --------------------------------------------------------------------------------------------
# Complete rounds


def entry_cards(entry: Entry) -> tuple[Card, ...]:
    """The cards an entry names."""
    if isinstance(entry, FullEntry):
        return entry.marked + entry.captured
    if isinstance(entry, QuickEntry):
        return entry.marked + entry.marked_captured
    if isinstance(entry, DelayedEntry):
        return entry.captured
    raise TypeError(entry)


def entry_tricks(entry: Entry, players: int) -> int:
    if isinstance(entry, QuickEntry):
        return entry.tricks
    if isinstance(entry, FullEntry | DelayedEntry):
        return len(entry.captured) // players
    raise TypeError(entry)


def complete_round(setup: TableSetup, given: Mapping[int, Entry]) -> list[Entry]:
    """A full table for ``score_round``: the ``given`` seats as they are; every other seat
    gets unused indicator cards (one per marked colour, different colours) and the tricks
    still unassigned go to the first of them, with no marked-colour capture (quick entry) or,
    when delayed, with unused cards."""
    variant = setup.variant
    assert isinstance(variant, ClassicVariant)
    named = {card for entry in given.values() for card in entry_cards(entry)}
    pool = [card for card in setup.deck if card not in named]
    remaining = setup.tricks_per_round - sum(
        entry_tricks(entry, setup.players) for entry in given.values()
    )
    assert remaining >= 0
    entries: list[Entry] = []
    for seat in range(setup.players):
        if seat in given:
            entries.append(given[seat])
            continue
        tricks, remaining = remaining, 0
        if variant.reveal is Reveal.DELAYED:
            captured = tuple(pool[: tricks * setup.players])
            del pool[: tricks * setup.players]
            entries.append(DelayedEntry(captured))
            continue
        marked: list[Card] = []
        for card in list(pool):
            if len(marked) < variant.colours and card.colour not in {m.colour for m in marked}:
                marked.append(card)
                pool.remove(card)
        entries.append(QuickEntry(tuple(marked), tricks, ()))
    assert remaining == 0, "the given seats leave no seat to take the remaining tricks"
    return entries


# --------------------------------------------------------------------------------------------
# Random legal play


@dataclass
class ClassicRound:
    """A classic-family round played out at random."""

    dealt: Deal
    indicators: list[tuple[Card, ...]]
    captured: list[list[Card]]
    tricks: list[int]
    trick_log: list[tuple[int, tuple[Card, ...], int]]  # (leader, cards, winning seat)


def play_classic_round(setup: TableSetup, rng: random.Random) -> ClassicRound:
    """Deal, lay out indicators (one card of each of ``colours`` different colours, none
    when delayed) and play every trick with random legal cards (R6: any card is legal),
    the winner given by ``trick_winner`` leading the next trick (R9)."""
    variant = setup.variant
    assert isinstance(variant, ClassicVariant)
    players = setup.players
    dealt = deal(setup, rng)
    hands = [list(hand) for hand in dealt.hands]
    indicators: list[tuple[Card, ...]] = []
    for hand in hands:
        colours = sorted({card.colour for card in hand}, key=lambda colour: colour.value)
        chosen = rng.sample(colours, variant.cards_laid_out)
        laid = tuple(rng.choice([card for card in hand if card.colour == col]) for col in chosen)
        for card in laid:
            hand.remove(card)
        indicators.append(laid)
    captured: list[list[Card]] = [[] for _ in range(players)]
    tricks = [0] * players
    log = []
    leader = rng.randrange(players)
    for _ in range(setup.tricks_per_round):
        cards = []
        for offset in range(players):
            hand = hands[(leader + offset) % players]
            cards.append(hand.pop(rng.randrange(len(hand))))
        outcome = trick_winner(cards, variant.scoring)
        winner = (leader + outcome.winner) % players
        captured[winner].extend(cards)
        tricks[winner] += 1
        log.append((leader, tuple(cards), winner))
        leader = winner
    assert all(not hand for hand in hands), "every card of every hand is laid out or played"
    return ClassicRound(dealt, indicators, captured, tricks, log)


@dataclass
class HatTrickRound:
    """A Hat Trick round played out at random."""

    dealt: Deal
    face_up: list[list[Card]]
    face_down: list[list[Card]]
    set_aside: list[Card]
    tricks: list[tuple[int, tuple[Play, ...]]]  # (leader, plays)


def hat_trick_options(hand: Sequence[Card], plays: Sequence[Play]) -> list[Play]:
    """R19: the legal plays from ``hand`` after ``plays``."""
    options = [Play(card) for card in hand] + [Play(card, passed=True) for card in hand]
    return [play for play in options if legal_hat_trick_play(plays, play)]


def play_hat_trick_round(
    setup: TableSetup,
    rng: random.Random,
    check_every_option: bool = False,
    pass_often: float = 0.0,
) -> HatTrickRound:
    """Deal and play every trick with random legal plays (R19), piles and next leader from
    ``resolve_hat_trick`` (R20, R21); the last card of each hand is set aside (R18).

    With ``check_every_option``, every card of the hand played or passed at every turn is
    put to ``check_hat_trick_plays`` first, which must accept exactly the legal ones. With
    ``pass_often``, a player who may pass does so with that chance (R19 allows it whenever
    two colours are in the trick), to reach the table's most passes (C5)."""
    players = setup.players
    dealt = deal(setup, rng)
    hands = [list(hand) for hand in dealt.hands]
    face_up: list[list[Card]] = [[] for _ in range(players)]
    face_down: list[list[Card]] = [[] for _ in range(players)]
    log = []
    leader = rng.randrange(players)
    for _ in range(setup.tricks_per_round):
        plays: list[Play] = []
        for offset in range(players):
            hand = hands[(leader + offset) % players]
            if check_every_option:
                assert_options_checked(hand, plays, setup)
            options = hat_trick_options(hand, plays)
            passes = [option for option in options if option.passed]
            if pass_often and passes and rng.random() < pass_often:
                options = passes
            play = rng.choice(options)
            hand.remove(play.card)
            plays.append(play)
        check_hat_trick_plays(plays, setup.deck, players)
        outcome = resolve_hat_trick(plays)
        for pile in outcome.piles:
            face_up[(leader + pile.winner) % players].extend(pile.cards)
        for index in outcome.passes:
            face_down[(leader + index) % players].append(plays[index].card)
        log.append((leader, tuple(plays)))
        leader = (leader + outcome.next_leader) % players
    assert all(len(hand) == 1 for hand in hands), "one card is left in every hand (R18)"
    return HatTrickRound(dealt, face_up, face_down, [hand[0] for hand in hands], log)


def assert_options_checked(hand: Sequence[Card], plays: Sequence[Play], setup: TableSetup) -> None:
    """``check_hat_trick_plays`` accepts a play from ``hand`` exactly when R19 allows it."""
    from companion.rules.errors import HatTrickError

    for card in hand:
        for passed in (False, True):
            play = Play(card, passed)
            legal = legal_hat_trick_play(plays, play)
            try:
                check_hat_trick_plays([*plays, play], setup.deck, setup.players)
            except HatTrickError:
                assert not legal, f"{play} refused after {plays}"
            else:
                assert legal, f"{play} accepted after {plays}"
