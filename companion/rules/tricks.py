"""Who takes a trick in the classic family (R7, R8, R13), and why, in one sentence.

The same function answers for a partial trick: the card that would take it if the trick
ended now, i.e. who is winning so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules.cards import Card
from companion.rules.deck import Deck, in_box
from companion.rules.errors import CardError, RuleError, TrickError
from companion.rules.text import N_, Message
from companion.rules.variants import Scoring, TrumpOrder

MAX_TRICK_CARDS = 8


@dataclass(frozen=True)
class TrickOutcome:
    """The card taking the trick (``winner`` indexes the cards in play order) and why."""

    winner: int
    card: Card
    reason: Message

    def as_json(self) -> dict[str, object]:
        """The shape of ``POST /api/v1/tricks/resolve``, the reason in the API's English."""
        return {"winner": self.winner, "card": self.card.as_json(), "reason": str(self.reason)}


def is_trump(card: Card, lead: Card) -> bool:
    """R7: any card of another colour than the lead is trump, except a 0."""
    return card.colour != lead.colour and card.value != 0


def check_trick_size(count: int, limit: int, error: type[RuleError], too_many: str) -> None:
    """R2, R19: a trick holds at least one card, and at most one play per player; the
    Hat Trick says plays where the classic trick says cards, so the caller names them."""
    if not count:
        raise error.saying(N_("A trick needs at least one card."))
    if count > limit:
        raise error.saying(too_many, limit=limit, count=count)


def check_trick_cards(cards: Sequence[Card], deck: Deck | None, players: int | None) -> None:
    """Refuse a trick that cannot have been played: no cards, too many, a card not in the
    deck in use (or not in the box), or a card twice (R2, C1)."""
    check_trick_size(
        len(cards),
        players if players is not None else MAX_TRICK_CARDS,
        TrickError,
        N_("A trick holds one card per player: at most %(limit)s cards, not %(count)s."),
    )
    seen: set[Card] = set()
    for card in cards:
        check_card_once(card, deck, seen)
        if deck is None and not in_box(card):
            raise CardError.saying(
                N_(
                    "%(card)s does not exist: the box has red, blue and green 0-20 "
                    "and yellow, brown and violet 0-18."
                ),
                card=card,
            )


def check_card_once(card: Card, deck: Deck | None, seen: set[Card]) -> None:
    """C1: a card of the deck in use (when it is known), in the trick once; ``seen`` holds
    the trick's cards so far and takes ``card``."""
    if deck is not None and card not in deck:
        raise CardError(deck_message(card, deck), card=card)
    if card in seen:
        raise CardError.saying(N_("%(card)s is in the trick twice."), card=card)
    seen.add(card)


def deck_message(card: Card, deck: Deck, seat: int | None = None) -> Message:
    """C1: the sentence for a card outside the deck in use, naming the seat if known."""
    params: dict[str, object] = {
        "card": card,
        "colours": deck.colours,
        "low": deck.min_value,
        "high": deck.max_value,
    }
    if seat is None:
        return Message(
            N_("%(card)s is not in the deck in use (%(colours)s; values %(low)s to %(high)s)."),
            params,
        )
    params["player"] = seat
    return Message(
        N_(
            "%(player)s names %(card)s, which is not in the deck in use "
            "(%(colours)s; values %(low)s to %(high)s)."
        ),
        params,
    )


def trick_winner(cards: Sequence[Card], scoring: Scoring) -> TrickOutcome:
    """R7, R8, R13: the card taking the trick so far, with the reason.

    With at least one trump, the highest trump wins (the lowest in Reverse); otherwise the
    highest card of the lead colour. Ties go to the card played first. ``cards`` must be
    valid (see :func:`check_trick_cards`).
    """
    lead = cards[0]
    trumps = [i for i, card in enumerate(cards) if is_trump(card, lead)]
    if not trumps:
        return _no_trump(cards)
    pick = min if scoring.trump_order is TrumpOrder.LOWEST else max
    best = pick(cards[i].value for i in trumps)
    tied = [i for i in trumps if cards[i].value == best]
    winner = tied[0]  # R8: ties go to the card played first
    params: dict[str, object] = {"card": cards[winner], "lead": lead.colour}
    if len(tied) > 1:
        params["other"] = cards[tied[1]]
        template = (
            N_("%(card)s and %(other)s tie as the lowest trump; the one played first wins (R13).")
            if scoring.trump_order is TrumpOrder.LOWEST
            else N_(
                "%(card)s and %(other)s tie as the highest trump; the one played first wins (R8)."
            )
        )
    elif len(trumps) == 1 and scoring.trump_order is TrumpOrder.LOWEST:
        template = N_(
            "%(card)s is the only trump: every colour but the lead colour %(lead)s "
            "is trump, except a 0, and in Reverse the lowest trump wins (R7, R13)."
        )
    elif len(trumps) == 1:
        template = N_(
            "%(card)s is the only trump: every colour but the lead colour %(lead)s "
            "is trump, except a 0 (R7, R8)."
        )
    elif scoring.trump_order is TrumpOrder.LOWEST:
        template = N_(
            "%(card)s is the lowest trump, and in Reverse the lowest trump wins; "
            "a 0 is never a trump (R7, R13)."
        )
    else:
        template = N_(
            "%(card)s is the highest trump: every colour but the lead colour "
            "%(lead)s is trump, except a 0 (R7, R8)."
        )
    return TrickOutcome(winner, cards[winner], Message(template, params))


def _no_trump(cards: Sequence[Card]) -> TrickOutcome:
    """R8 without trumps: the highest card of the lead colour, the lead itself included."""
    lead = cards[0]
    winner = max(
        (i for i, card in enumerate(cards) if card.colour == lead.colour),
        key=lambda i: cards[i].value,
    )
    params: dict[str, object] = {"card": cards[winner], "lead": lead.colour}
    off_colour_zeros = any(card.colour != lead.colour for card in cards)
    if len(cards) == 1:
        template = N_("%(card)s was led and is the only card so far (R8).")
    elif all(card.value == 0 for card in cards):
        template = N_(
            "Every card is a 0 and zeros are never trumps, so the lead card "
            "%(card)s takes the trick (R7, R8)."
        )
    elif off_colour_zeros:
        template = N_(
            "No trump was played (a 0 is never a trump), so the highest card of "
            "the lead colour %(lead)s wins: %(card)s (R7, R8)."
        )
    else:
        template = N_(
            "Every card is of the lead colour %(lead)s, so the highest one wins: %(card)s (R8)."
        )
    return TrickOutcome(winner, cards[winner], Message(template, params))
