"""Every save confirmed: after a round is saved or corrected, the scoreboard says so once.

The note travels through the redirect in this phone's session, never in the URL, so it is
shown only on the phone that saved, only on the page the redirect opens: the scoreboard
takes it from the session as it shows it, and that page is neither kept by the browser nor
shared through the scoreboard's cache, so a reload shows the game without it.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import session
from flask_babel import gettext

#: The session key of the note: one at a time, of the last save on this phone.
SESSION_KEY = "round_saved"


@dataclass(frozen=True)
class SavedRound:
    """A round this phone just saved (or corrected), to confirm on the scoreboard."""

    number: int
    corrected: bool

    @property
    def message(self) -> str:
        """The confirmation, in the page's language."""
        if self.corrected:
            return gettext("Round %(number)s corrected.", number=self.number)
        return gettext("Round %(number)s saved.", number=self.number)


def remember_saved(code: str, number: int, *, corrected: bool) -> None:
    """Note that round ``number`` of game ``code`` was just saved from this phone."""
    session[SESSION_KEY] = [code, number, corrected]


def saved_pending(code: str) -> bool:
    """Whether the scoreboard of ``code`` has a save to confirm on this phone."""
    note = session.get(SESSION_KEY)
    return isinstance(note, list) and len(note) == 3 and note[0] == code


def take_saved(code: str) -> SavedRound | None:
    """The save to confirm on the scoreboard of ``code``, forgotten once taken."""
    if not saved_pending(code):
        return None
    _code, number, corrected = session.pop(SESSION_KEY)
    return SavedRound(int(number), bool(corrected))
