"""Hat Trick tricks (R19-R21) and scoring (R22, C5).

A trick holds at most two colours; each colour forms its own pile, taken by its highest
card. The piles are compared rank by rank, and the card that decides gives the next lead:
with equal top cards its player may take no pile at all (000: "quello che ha giocato la 2°
(o 3, o 4, ecc.) carta più elevata comincia la presa seguente"). A player who cannot or
will not play one of the two colours passes by laying a card of the third colour face down.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.rules.cards import Card, Colour
from companion.rules.deck import HAT_TRICK_COLOURS, Deck
from companion.rules.errors import CardError, HatTrickError
from companion.rules.text import N_, Message
from companion.rules.tricks import check_card_once, check_trick_size
from companion.rules.variants import Variant

#: R21: on a complete tie red beats blue beats green.
COLOUR_PRECEDENCE = {Colour.RED: 0, Colour.BLUE: 1, Colour.GREEN: 2}
PASS_PENALTY = -2


@dataclass(frozen=True)
class Play:
    """One player's play in a Hat Trick trick: a card, or a pass showing ``card`` (R19)."""

    card: Card
    passed: bool = False

    def as_json(self) -> dict[str, str | int | bool]:
        """The stored shape of a play: the card, with ``"pass": true`` when passed (R19)."""
        data: dict[str, str | int | bool] = {**self.card.as_json()}
        if self.passed:
            data["pass"] = True
        return data


@dataclass(frozen=True)
class Pile:
    """The cards of one colour in a trick and the index of the play that takes them (R20)."""

    colour: Colour
    winner: int
    cards: tuple[Card, ...]

    def as_json(self) -> dict[str, object]:
        """The API's shape of a pile."""
        return {
            "colour": self.colour.value,
            "winner": self.winner,
            "cards": [card.as_json() for card in self.cards],
        }


@dataclass(frozen=True)
class HatTrickOutcome:
    """A resolved Hat Trick trick; every index points into the plays in order."""

    piles: tuple[Pile, ...]
    passes: tuple[int, ...]
    #: The play that takes the deciding pile (R20, R21): the API's ``winner``.
    winner: int
    #: The play whose card decides (R21); its player leads next, pile or no pile.
    next_leader: int
    reason: Message

    def as_json(self) -> dict[str, object]:
        """The shape of ``POST /api/v1/tricks/resolve`` for a Hat Trick trick, the reason in
        the API's English."""
        return {
            "piles": [pile.as_json() for pile in self.piles],
            "passes": list(self.passes),
            "winner": self.winner,
            "next_leader": self.next_leader,
            "reason": str(self.reason),
        }


def check_hat_trick_plays(plays: Sequence[Play], deck: Deck | None, players: int | None) -> None:
    """R19 and C1: at most one play per player, known cards once each, no third colour,
    and passes only once two colours are in the trick, showing a third-colour card."""
    check_trick_size(
        len(plays),
        players if players is not None else 7,
        HatTrickError,
        N_("A trick holds one play per player: at most %(limit)s plays, not %(count)s."),
    )
    seen: set[Card] = set()
    colours: list[Colour] = []
    for index, play in enumerate(plays):
        card = play.card
        check_card_once(card, deck, seen)
        if card.colour not in HAT_TRICK_COLOURS or not 0 <= card.value <= 20:
            raise CardError.saying(
                N_(
                    "%(card)s is not a Hat Trick card: only red, blue and green "
                    "0-20 are used (R17)."
                ),
                card=card,
            )
        if play.passed:
            _check_pass(index, card, colours)
        elif card.colour not in colours:
            if len(colours) == 2:
                raise HatTrickError.saying(
                    N_(
                        "%(card)s would bring a third colour into a trick of %(colours)s; "
                        "play one of those colours or pass (R19)."
                    ),
                    card=card,
                    colours=tuple(colours),
                )
            colours.append(card.colour)


def can_pass(variant: Variant, plays: Sequence[Play]) -> bool:
    """R19: whether the next player may pass now: only in a game with passes, and only once
    two colours are in the trick (so never the leader)."""
    return variant.has_passes and len(_trick_colours(plays)) == 2


def only_a_pass(variant: Variant, plays: Sequence[Play], card: Card) -> bool:
    """R19: whether ``card``, shown next, can only be a pass: once two colours are in the
    trick, a card of the third colour may not be played onto it, only shown face down (a
    card of the trick's colours stays a play: a pass always shows the third colour)."""
    return can_pass(variant, plays) and card.colour not in _trick_colours(plays)


def _trick_colours(plays: Sequence[Play]) -> set[Colour]:
    """The colours played face up so far (a pass shows a third colour, not a trick's)."""
    return {play.card.colour for play in plays if not play.passed}


def _check_pass(index: int, card: Card, colours: list[Colour]) -> None:
    """R19: a pass needs two colours already in the trick and shows the third colour."""
    if index == 0:
        raise HatTrickError.saying(
            N_("The leader cannot pass with %(card)s: the first play of a trick is a card (R19)."),
            card=card,
        )
    if len(colours) < 2:
        raise HatTrickError.saying(
            N_(
                "Passing with %(card)s is not allowed yet: a player may pass only once two "
                "colours are in the trick (R19)."
            ),
            card=card,
        )
    if card.colour in colours:
        raise HatTrickError.saying(
            N_(
                "A pass shows a card of the third colour, but %(card)s is of a colour "
                "already in the trick (R19)."
            ),
            card=card,
        )


def resolve_hat_trick(plays: Sequence[Play]) -> HatTrickOutcome:
    """R20, R21: the piles of a (possibly partial) trick, its passes, the taker of the
    deciding pile and the next leader: the player of the card that decides.

    ``plays`` must be valid (see :func:`check_hat_trick_plays`).
    """
    piles: list[Pile] = []
    for colour in dict.fromkeys(play.card.colour for play in plays if not play.passed):
        indexes = [
            i for i, play in enumerate(plays) if not play.passed and play.card.colour == colour
        ]
        winner = max(indexes, key=lambda i: plays[i].card.value)
        piles.append(Pile(colour, winner, tuple(plays[i].card for i in indexes)))
    passes = tuple(i for i, play in enumerate(plays) if play.passed)
    leading = min(piles, key=_pile_strength)
    other = next((pile for pile in piles if pile is not leading), None)
    deciding = _deciding_card(leading, other)
    next_leader = next(
        i for i, play in enumerate(plays) if not play.passed and play.card == deciding
    )
    reason = _reason(plays, leading, other, deciding, next_leader)
    return HatTrickOutcome(tuple(piles), passes, leading.winner, next_leader, reason)


def _pile_strength(pile: Pile) -> tuple[tuple[int, ...], int]:
    """A sort key, smallest first, for R21: values high to low, where a pile that runs out
    of cards first loses (the end marker 1 sorts after any negated value), then red before
    blue before green."""
    return ((*(-card.value for card in _high_to_low(pile)), 1), COLOUR_PRECEDENCE[pile.colour])


def _high_to_low(pile: Pile) -> list[Card]:
    """A pile's cards in the order R21 compares them: highest first."""
    return sorted(pile.cards, key=lambda card: card.value, reverse=True)


def _deciding_card(leading: Pile, other: Pile | None) -> Card:
    """R21: the stronger pile's card at the first rank where the two piles differ; where the
    other pile has run out, the stronger pile's next card. With one pile, or two piles equal
    card for card (colour decides), the stronger pile's top card."""
    high = _high_to_low(leading)
    low = [card.value for card in _high_to_low(other)] if other is not None else []
    if not low:
        return high[0]
    for rank, card in enumerate(high):
        if rank >= len(low) or card.value != low[rank]:
            return card
    return high[0]


def _reason(
    plays: Sequence[Play], leading: Pile, other: Pile | None, deciding: Card, next_leader: int
) -> Message:
    """The sentence saying which step of R21 decided, naming the deciding card and the
    player (by index into ``plays``) who played it and leads next."""
    params: dict[str, object] = {
        "card": plays[leading.winner].card,
        "deciding": deciding,
        "player": next_leader,
    }
    if other is None:
        return Message(
            N_(
                "%(card)s is the highest card of the only pile: %(player)s takes the pile "
                "and leads next (R20, R21)."
            ),
            params,
        )
    params["other"] = plays[other.winner].card
    return Message(_comparison_template(leading, other, deciding), params)


def _comparison_template(leading: Pile, other: Pile, deciding: Card) -> str:
    """Which step of R21 decided between the two piles."""
    high = [card.value for card in _high_to_low(leading)]
    low = [card.value for card in _high_to_low(other)]
    if high[0] != low[0]:
        return N_(
            "%(card)s and %(other)s each take their colour's pile; %(card)s is the "
            "higher top card, so %(player)s, who played it, leads next (R20, R21)."
        )
    if high == low:
        return N_(
            "%(card)s and %(other)s each take their colour's pile; the piles are equal card "
            "for card, and red beats blue beats green, so %(player)s, who played %(card)s, "
            "leads next (R21)."
        )
    if len(low) < len(high) and high[: len(low)] == low:
        return N_(
            "%(card)s and %(other)s each take their colour's pile; the top cards are equal "
            "and the pile of %(other)s runs out first, so the next card of the longer pile, "
            "%(deciding)s, decides: %(player)s played it and leads next, though taking no "
            "pile (R21)."
        )
    return N_(
        "%(card)s and %(other)s each take their colour's pile; the top cards are equal, and "
        "at the first rank where the piles differ %(deciding)s is the higher card: "
        "%(player)s played it and leads next, though taking no pile (R21)."
    )


@dataclass(frozen=True)
class HatTrickCounts:
    """What a player holds at the end of a Hat Trick round: face-up cards per colour and
    the number of face-down pass cards."""

    counts: Mapping[Colour, int]
    passed: int

    @property
    def cards(self) -> int:
        """Face-up plus face-down cards (C5)."""
        return sum(self.counts.values()) + self.passed


def best_hat_trick_colour(counts: Mapping[Colour, int]) -> Colour:
    """R22: the colour with the most face-up cards (on a tie any gives the same score;
    red, blue, green order picks one)."""
    return max(
        HAT_TRICK_COLOURS, key=lambda colour: (counts.get(colour, 0), -COLOUR_PRECEDENCE[colour])
    )


def hat_trick_score(holding: HatTrickCounts) -> int:
    """R22: +1 per card of the best colour, -1 per other face-up card, -2 per pass card."""
    best = best_hat_trick_colour(holding.counts)
    up = holding.counts
    return (
        up.get(best, 0)
        - sum(count for colour, count in up.items() if colour != best)
        + PASS_PENALTY * holding.passed
    )
