"""Errors raised when something asked of the companion cannot be done.

Every refusal of the app, from the rules, the services or the API's reading of a request,
is a :class:`Refusal`: a :class:`Message` (so it can be translated) and, where one is
concerned, the form field and the seat it is about. The rules' own errors also name the
card (the checks of RULES.md section 7 must name the seat and the card).
"""

from __future__ import annotations

from typing import ClassVar, Self

from companion.rules.cards import Card
from companion.rules.text import N_, Message, Plural


class Refusal(Exception):
    """Something asked that cannot be done, said once for every way of showing it: a page
    puts ``message`` beside ``field`` or ``seat`` (else at the top), the API answers it in
    English (``str(refusal)``)."""

    #: The field concerned, when a whole kind of refusal is about one field.
    field: str | None = None

    def __init__(
        self, message: Message, *, field: str | None = None, seat: int | None = None
    ) -> None:
        super().__init__(str(message))
        self.message = message
        self.seat = seat
        if field is not None:
            self.field = field


class RuleError(Refusal, ValueError):
    """Something entered breaks a ruling; nothing based on it may be saved."""

    #: Whether the input names no card, colour or variant of the game at all (a word not
    #: understood, rather than a ruling broken): the API calls that a malformed request.
    names_nothing_known: ClassVar[bool] = False

    def __init__(
        self,
        message: Message,
        seat: int | None = None,
        card: Card | None = None,
        *,
        field: str | None = None,
    ) -> None:
        super().__init__(message, field=field, seat=seat)
        self.card = card

    @classmethod
    def saying(
        cls,
        template: str | Plural,
        *,
        seat: int | None = None,
        card: Card | None = None,
        field: str | None = None,
        **params: object,
    ) -> Self:
        """The refusal ``template`` states; the seat and card it is about are named in it as
        ``%(player)s`` and ``%(card)s``, because a check names both (RULES.md section 7).
        A sentence with a count comes in both its forms (:func:`~companion.rules.text.ngettext`)."""
        about: dict[str, object] = {"player": seat, "card": card}
        named = {key: value for key, value in about.items() if value is not None}
        return cls(Message.of(template, {**named, **params}), seat, card, field=field)


class RoundRefused(RuleError):
    """Every refusal of one round at once (C1-C5, R16), in the order the checks meet them:
    a page shows each beside its seat, so the table fixes the whole round before the next
    send. As one error it is the first of them (its message, seat, card and field: what
    the API answers)."""

    def __init__(self, problems: tuple[RuleError, ...]) -> None:
        first = problems[0]
        super().__init__(first.message, first.seat, first.card, field=first.field)
        self.problems = problems


class UnknownColourError(RuleError):
    """A colour name that is not one of the six (R1)."""

    names_nothing_known = True

    def __init__(self, name: str):
        super().__init__(
            Message(
                N_(
                    "%(name)s is not a colour; the colours are red, blue, green, yellow, "
                    "brown and violet."
                ),
                {"name": repr(name)},
            )
        )


class UnknownVariantError(RuleError):
    """A variant name or setting that does not exist (RULES.md section 5)."""

    field = "variant"
    names_nothing_known = True


class PlayerCountError(RuleError):
    """A player count the game cannot be played with (R2, R17)."""

    field = "players"


class CardError(RuleError):
    """A card outside the deck in use or named twice (C1)."""


class IndicatorError(RuleError):
    """Indicator cards that do not mark the player's colours (C2, R4, R14)."""


class TrickCountError(RuleError):
    """Trick counts or capture counts that do not add up (C3)."""


class MarkedCaptureError(RuleError):
    """A quick entry's marked-colour captures that cannot be right (C4)."""


class HatTrickError(RuleError):
    """A Hat Trick play or count the rules do not allow (R19, C5)."""


class TrickError(RuleError):
    """A trick that cannot be resolved: no card, too many cards, a card twice (R8, C1)."""


class ChoiceError(RuleError):
    """A delayed colour choice the rules do not allow (R16)."""
