"""The refusals a service raises: one sentence for the person who made the request.

Pages render ``text`` in the player's language; the API answers ``message`` with ``status``.
"""

from __future__ import annotations

from companion.rules.text import N_, Message


class ServiceError(Exception):
    """A request the game cannot take, in one sentence for the person who made it.

    ``text`` is translatable (pages render it in the player's language, with names);
    ``message`` is its English form, as the API answers it.
    """

    status = 400

    def __init__(self, template: str, **params: object):
        self.text = Message(template, params)
        self.message = str(self.text)
        super().__init__(self.message)


class NotFound(ServiceError):
    """No such game or round."""

    status = 404


class StaleVersion(ServiceError):
    """The change was based on an older state of the game (another phone changed it)."""

    status = 409

    def __init__(self, current: int):
        super().__init__(
            N_(
                "This game changed on another phone (now at version %(version)s); reload it "
                "and apply your change again."
            ),
            version=current,
        )
        self.current = current
