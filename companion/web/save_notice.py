"""Every save confirmed: after a round is saved, corrected, marked, or kept as another phone
saved it, the scoreboard says so once; so too when an edit link has just given this phone
the game to keep (its "round" is then 0: no row is tinted).

The note is one of Flask's flashed messages (in this phone's session, never in the URL), in
the category ``round-saved <game code> <round>``: the sentence is said in the language of
the phone that saved, and the scoreboard of that game tints the round's row. It is shown
only on the phone that saved, on the page the redirect opens: the scoreboard takes it as it
shows it, and that page is neither kept by the browser nor shared through the scoreboard's
cache, so a reload shows the game without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from flask import flash, get_flashed_messages
from flask_babel import gettext

from companion.data import queries
from companion.data.models import Game

#: The first word of the category of a flashed save note.
CATEGORY = "round-saved"


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
    message: str


def confirmation(number: int, settled: Settled) -> str:
    """What the scoreboard says of round ``number``, in the page's language."""
    if settled == Settled.CORRECTED:
        return gettext("Round %(number)s corrected.", number=number)
    if settled == Settled.MARKED:
        return gettext("Colours of round %(number)s marked.", number=number)
    if settled == Settled.KEPT:
        return gettext("Round %(number)s kept as saved on the other phone.", number=number)
    if settled == Settled.KEPT_MARKS:
        return gettext(
            "Colours of round %(number)s kept as marked on the other phone.", number=number
        )
    return gettext("Round %(number)s saved.", number=number)


def remember(code: str, number: int, settled: Settled) -> None:
    """Note how round ``number`` of game ``code`` was just settled from this phone."""
    flash(confirmation(number, settled), f"{CATEGORY} {code} {number}")


def remember_edit_rights(code: str) -> None:
    """Note that this phone just opened the edit link of game ``code``: it keeps the score now."""
    message = gettext(
        "This phone can now keep the score: it may enter and correct the rounds of this game."
    )
    flash(message, f"{CATEGORY} {code} 0")


def remember_marked(game: Game) -> None:
    """Note that the colours of the round now open were just marked from this phone."""
    round_ = queries.playing_round(game)
    if round_ is not None:
        remember(game.code, round_.number, Settled.MARKED)


def take_saved(code: str) -> SavedRound | None:
    """The last save to confirm on the scoreboard of ``code``; ``None`` if there is none.
    Flashed messages are taken once: a reload no longer has it. The notes of other pages
    are flashed again, for them."""
    found = None
    for category, message in get_flashed_messages(with_categories=True):
        word, _, rest = str(category).partition(" ")
        game_code, _, number = rest.partition(" ")
        if word == CATEGORY and game_code == code and number.isdigit():
            found = SavedRound(int(number), str(message))
        else:
            flash(message, category)  # another page's: it stays for that page
    return found
