"""The checks on what the table enters (RULES.md section 7, C1-C5).

Each check raises a :class:`RuleError` naming the seat and the card concerned, so nothing
inconsistent is ever scored or saved.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.rules.cards import Card, Colour
from companion.rules.deck import Deck
from companion.rules.errors import (
    CardError,
    HatTrickError,
    IndicatorError,
    MarkedCaptureError,
    TrickCountError,
)
from companion.rules.text import N_, Message, ngettext
from companion.rules.tricks import deck_message


def check_cards_named_once(named: Iterable[tuple[int, Card]], deck: Deck) -> None:
    """C1: every card is in the deck in use and is named at most once in the round.

    ``named`` pairs each card with the seat that names it, in the order entered.
    """
    owner: dict[Card, int] = {}
    for seat, card in named:
        if card not in deck:
            raise CardError(deck_message(card, deck, seat), seat=seat, card=card)
        if card in owner:
            template = (
                N_("%(player)s names %(card)s twice (C1).")
                if owner[card] == seat
                else N_(
                    "%(card)s is named by both %(other)s and %(player)s; each card is in "
                    "one place only (C1)."
                )
            )
            raise CardError.saying(template, seat=seat, card=card, other=owner[card])
        owner[card] = seat


def check_marks(marked: Sequence[Sequence[Card]], deck: Deck, colours: int) -> None:
    """C1 and C2 on the indicator cards laid out at the start of a round (R4, R14): each
    card named once and in the deck, each seat's of ``colours`` different colours (marking
    colours, starting a live round, a backup's marked round, a phone's offline marks)."""
    check_cards_named_once(
        [(seat, card) for seat, cards in enumerate(marked) for card in cards], deck
    )
    for seat, cards in enumerate(marked):
        check_indicators(seat, cards, colours)


def check_indicators(seat: int, indicators: Sequence[Card], colours: int) -> tuple[Colour, ...]:
    """C2, R4, R14: one indicator per marked colour, of different colours; answers the
    seat's marked colours."""
    if len(indicators) != colours:
        raise IndicatorError.saying(
            ngettext(
                "%(player)s must lay out %(colours)s indicator card, one for the marked "
                "colour, not %(count)s (C2).",
                "%(player)s must lay out %(colours)s indicator cards, one for each marked "
                "colour, not %(count)s (C2).",
                colours,
            ),
            seat=seat,
            count=len(indicators),
            colours=colours,
        )
    marked = tuple(card.colour for card in indicators)
    if len(set(marked)) != len(marked):
        raise IndicatorError.saying(
            N_(
                "%(player)s's indicators %(card)s and %(other_card)s are of the same colour; "
                "two marked colours need two different colours (C2)."
            ),
            seat=seat,
            card=indicators[1],
            other_card=indicators[0],
        )
    return marked


def check_tricks_of_seat(seat: int, tricks: int, tricks_per_round: int) -> None:
    """C3: a seat wins between 0 and all the tricks of the round."""
    if not 0 <= tricks <= tricks_per_round:
        raise TrickCountError.saying(
            N_("%(player)s cannot win %(tricks)s tricks: a round has %(total)s (C3)."),
            seat=seat,
            tricks=tricks,
            total=tricks_per_round,
        )


def tricks_from_captures(seat: int, captured: int, players: int) -> int:
    """C3: each trick gives one card per player, so the captures count the tricks."""
    if captured % players:
        raise TrickCountError.saying(
            ngettext(
                "%(player)s captured %(count)s card, which is not a multiple of %(players)s: "
                "each trick gives one card per player (C3).",
                "%(player)s captured %(count)s cards, which is not a multiple of %(players)s: "
                "each trick gives one card per player (C3).",
                captured,
            ),
            seat=seat,
            count=captured,
            players=players,
        )
    return captured // players


def check_trick_total(tricks: Sequence[int], tricks_per_round: int) -> None:
    """C3: the trick counts of all seats add up to the tricks of the round."""
    total = sum(tricks)
    if total != tricks_per_round:
        missing = tricks_per_round - total
        template = (
            ngettext(
                "The trick counts add up to %(total)s, but the round has %(expected)s tricks: "
                "%(missing)s still to assign (C3).",
                "The trick counts add up to %(total)s, but the round has %(expected)s tricks: "
                "%(missing)s still to assign (C3).",
                missing,
            )
            if missing > 0
            else ngettext(
                "The trick counts add up to %(total)s, but the round has only %(expected)s "
                "tricks: %(extra)s too many (C3).",
                "The trick counts add up to %(total)s, but the round has only %(expected)s "
                "tricks: %(extra)s too many (C3).",
                -missing,
            )
        )
        raise TrickCountError.saying(
            template, total=total, expected=tricks_per_round, missing=missing, extra=-missing
        )


def check_marked_captures(
    seat: int, marked: Sequence[Colour], cards: Sequence[Card], tricks: int, players: int
) -> None:
    """C4: quick entry lists only marked-colour cards, and no more than were captured."""
    for card in cards:
        if card.colour not in marked:
            raise MarkedCaptureError.saying(
                N_(
                    "%(player)s lists %(card)s among their marked-colour captures, but "
                    "it is not of their marked colours (%(colours)s) (C4)."
                ),
                seat=seat,
                card=card,
                colours=tuple(marked),
            )
    if cards and not tricks:
        raise MarkedCaptureError.saying(
            N_(
                "%(player)s won no trick, so %(card)s cannot be among their marked-colour "
                "captures (C4)."
            ),
            seat=seat,
            card=cards[0],
        )
    if len(cards) > tricks * players:
        raise MarkedCaptureError.saying(
            ngettext(
                "%(player)s lists %(count)s marked-colour captures, but %(tricks)s trick won "
                "holds at most %(most)s cards: %(card)s is one too many (C4).",
                "%(player)s lists %(count)s marked-colour captures, but %(tricks)s tricks won "
                "hold at most %(most)s cards: %(card)s is one too many (C4).",
                tricks,
            ),
            seat=seat,
            card=cards[-1],
            count=len(cards),
            tricks=tricks,
            most=tricks * players,
        )


def check_hat_trick_holdings(
    holdings: Sequence[tuple[int, int]], tricks_per_round: int, players: int
) -> None:
    """C5: per seat (face-up, face-down) cards; a seat holds at most tricks x players cards
    and passes at most once a trick; the table holds exactly players x tricks."""
    most = tricks_per_round * players
    for seat, (face_up, face_down) in enumerate(holdings):
        if face_up < 0 or face_down < 0:
            raise HatTrickError.saying(
                N_("%(player)s cannot hold a negative number of cards (C5)."), seat=seat
            )
        if face_up + face_down > most:
            raise HatTrickError.saying(
                N_(
                    "%(player)s holds %(count)s cards, but %(tricks)s tricks of %(players)s "
                    "plays give at most %(most)s (C5)."
                ),
                seat=seat,
                count=face_up + face_down,
                tricks=tricks_per_round,
                players=players,
                most=most,
            )
        if face_down > tricks_per_round:
            raise HatTrickError.saying(
                N_(
                    "%(player)s has %(count)s pass cards, but can pass at most once in each "
                    "of the %(tricks)s tricks (C5)."
                ),
                seat=seat,
                count=face_down,
                tricks=tricks_per_round,
            )
    total = sum(up + down for up, down in holdings)
    if total != most:
        raise HatTrickError.saying(
            ngettext(
                "The table holds %(total)s card, but %(tricks)s tricks of %(players)s plays "
                "make exactly %(expected)s (C5).",
                "The table holds %(total)s cards, but %(tricks)s tricks of %(players)s plays "
                "make exactly %(expected)s (C5).",
                total,
            ),
            total=total,
            tricks=tricks_per_round,
            players=players,
            expected=most,
        )


def check_hat_trick_playable(
    holdings: Sequence[tuple[int, int]], tricks_per_round: int, players: int
) -> None:
    """C5's two limits from R19 and R20, per seat (face-up, face-down) cards of holdings that
    already add up: a seat takes at most one pile a trick, only in a trick it played a card in,
    so it holds at most (tricks - its passes) x players face-up cards; and two cards are
    played in a trick before anyone may pass, so the table passes at most tricks x
    (players - 2) times. Counts that break them could not have been played."""
    for seat, (face_up, face_down) in enumerate(holdings):
        played = max(tricks_per_round - face_down, 0)
        most = played * players
        if face_up and not played:
            raise HatTrickError.saying(
                ngettext(
                    "%(player)s has %(count)s face-up card, but passed in all %(tricks)s "
                    "tricks: a player takes a pile only in a trick they played a card in (C5).",
                    "%(player)s has %(count)s face-up cards, but passed in all %(tricks)s "
                    "tricks: a player takes a pile only in a trick they played a card in (C5).",
                    face_up,
                ),
                seat=seat,
                count=face_up,
                tricks=tricks_per_round,
            )
        if face_up > most:
            raise HatTrickError.saying(
                ngettext(
                    "%(player)s has %(count)s face-up card, but passed in %(passed)s of the "
                    "%(tricks)s tricks and takes at most one pile of %(players)s cards in "
                    "each of the other %(played)s: at most %(most)s (C5).",
                    "%(player)s has %(count)s face-up cards, but passed in %(passed)s of the "
                    "%(tricks)s tricks and takes at most one pile of %(players)s cards in "
                    "each of the other %(played)s: at most %(most)s (C5).",
                    face_up,
                ),
                seat=seat,
                count=face_up,
                passed=face_down,
                tricks=tricks_per_round,
                players=players,
                played=played,
                most=most,
            )
    passes = sum(down for _, down in holdings)
    most_passes = tricks_per_round * max(players - 2, 0)
    if passes > most_passes:
        passers = tuple(seat for seat, (_, down) in enumerate(holdings) if down)
        busiest = max(passers, key=lambda seat: holdings[seat][1])
        raise HatTrickError(
            Message.of(
                N_(
                    "%(player)s pass %(count)s times in all, but %(tricks)s tricks of "
                    "%(players)s players allow at most %(most)s passes: two cards are "
                    "played in a trick before anyone may pass (C5)."
                ),
                {
                    "player": passers,
                    "count": passes,
                    "tricks": tricks_per_round,
                    "players": players,
                    "most": most_passes,
                },
            ),
            seat=busiest,
        )
