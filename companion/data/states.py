"""The named states a stored game and its rounds go through.

Each is a ``StrEnum``: its members are the very strings the database, the JSON API and the
backup format hold, so a member compares equal to the stored text and is written as it.
"""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    """Where a game stands: played on, every planned round scored, or given up (R11)."""

    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class RoundStatus(StrEnum):
    """A round still at the table, or scored and counted in the totals."""

    PLAYING = "playing"
    SCORED = "scored"


class RoundMode(StrEnum):
    """How a round was entered: results only, results with the cards laid out and marked,
    or trick by trick as it is played."""

    QUICK = "quick"
    FULL = "full"
    LIVE = "live"
