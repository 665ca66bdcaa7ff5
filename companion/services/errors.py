"""The refusals a service raises: one sentence for the person who made the request.

Pages render ``message`` in the player's language; the API answers its English form with
``status``. They share the one base of every refusal (``companion.rules.Refusal``).
"""

from __future__ import annotations

from companion.rules import Refusal
from companion.rules.text import N_, Message


class ServiceError(Refusal):
    """A request the game cannot take, in one sentence for the person who made it: pages
    render ``message`` in the player's language, with names; the API answers its English
    form (``str(error)``)."""

    status = 400
    #: The sentence of a kind of refusal that always says the same (filled in by ``params``).
    template = ""

    def __init__(
        self,
        template: str | None = None,
        *,
        field: str | None = None,
        seat: int | None = None,
        **params: object,
    ):
        super().__init__(Message(template or self.template, params), field=field, seat=seat)


class NotFound(ServiceError):
    """No such game or round."""

    status = 404


class RoundNotNext(ServiceError):
    """A round was sent for another round than the one to record now (another phone
    recorded it meanwhile): it is never filed under another number."""

    status = 409
    template = N_(
        "Round %(number)s is not the round to record: round %(next)s is next (another "
        "phone may have recorded it). Nothing was saved."
    )

    def __init__(self, opened_for: int, next_number: int):
        super().__init__(number=opened_for, next=next_number)
        self.opened_for = opened_for
        self.next_number = next_number


class StaleVersion(ServiceError):
    """The change was based on an older state of the game (another phone changed it)."""

    status = 409
    template = N_(
        "This game changed on another phone (now at version %(version)s); reload it "
        "and apply your change again."
    )

    def __init__(self, current: int):
        super().__init__(version=current)
        self.current = current
