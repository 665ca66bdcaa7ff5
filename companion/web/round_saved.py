"""Every save confirmed: after a round is saved, corrected, marked, or kept as another phone
saved it, the scoreboard says so once.

The note travels through the redirect in this phone's session, never in the URL, so it is
shown only on the phone that saved, only on the page the redirect opens: the scoreboard
takes it from the session as it shows it, and that page is neither kept by the browser nor
shared through the scoreboard's cache, so a reload shows the game without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from flask import session
from flask_babel import gettext

from companion.data import queries
from companion.data.models import Game

#: The session key of the note: one at a time, of the last save on this phone.
SESSION_KEY = "round_saved"


class Settled(StrEnum):
    """How a round was settled from this phone: what the scoreboard confirms."""

    SAVED = "saved"
    CORRECTED = "corrected"
    MARKED = "marked"
    #: The conflict view's "keep theirs": what another phone saved stays, scored or marked.
    KEPT = "kept"
    KEPT_MARKS = "kept_marks"


@dataclass(frozen=True)
class SavedRound:
    """A round this phone just settled, to confirm on the scoreboard."""

    number: int
    settled: Settled

    @property
    def message(self) -> str:
        """The confirmation, in the page's language."""
        number = self.number
        if self.settled == Settled.CORRECTED:
            return gettext("Round %(number)s corrected.", number=number)
        if self.settled == Settled.MARKED:
            return gettext("Colours of round %(number)s marked.", number=number)
        if self.settled == Settled.KEPT:
            return gettext("Round %(number)s kept as saved on the other phone.", number=number)
        if self.settled == Settled.KEPT_MARKS:
            return gettext(
                "Colours of round %(number)s kept as marked on the other phone.", number=number
            )
        return gettext("Round %(number)s saved.", number=number)


def remember_saved(code: str, number: int, *, corrected: bool) -> None:
    """Note that round ``number`` of game ``code`` was just saved (or corrected) here."""
    remember(code, number, Settled.CORRECTED if corrected else Settled.SAVED)


def remember(code: str, number: int, settled: Settled) -> None:
    """Note how round ``number`` of game ``code`` was just settled from this phone."""
    session[SESSION_KEY] = [code, number, settled.value]


def remember_marked(game: Game) -> None:
    """Note that the colours of the round now open were just marked from this phone."""
    round_ = queries.playing_round(game)
    if round_ is not None:
        remember(game.code, round_.number, Settled.MARKED)


def saved_pending(code: str) -> bool:
    """Whether the scoreboard of ``code`` has a save to confirm on this phone."""
    note = session.get(SESSION_KEY)
    return isinstance(note, list) and len(note) == 3 and note[0] == code


def take_saved(code: str) -> SavedRound | None:
    """The save to confirm on the scoreboard of ``code``, forgotten once taken; a note this
    app no longer writes is dropped unshown."""
    if not saved_pending(code):
        return None
    _code, number, settled = session.pop(SESSION_KEY)
    try:
        return SavedRound(int(number), Settled(settled))
    except (TypeError, ValueError):
        return None
