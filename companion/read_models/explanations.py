"""Why each player scored what they did in a stored round: the rules' terms.

The terms come from ``companion.rules.explain_round``, run again on the entries stored with
the round, so the page, the API and the export explain a score exactly as the rules give it
(the round's page says them in words: companion/pages/round_scores.py). A stored round the
rules would no longer score as stored has no explanation rather than a wrong one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.data.models import Game, Round
from companion.data.queries import setup_of
from companion.data.states import RoundStatus
from companion.read_models.messages import render_message
from companion.rules import (
    Entry,
    MalformedEntry,
    RuleError,
    SeatExplanation,
    TableSetup,
    entry_from_json,
    explain_round,
    unplayable_problems,
)

# --------------------------------------------------------------------------------------------
# The terms of a stored round


def round_explanations(game: Game, round_: Round) -> tuple[SeatExplanation, ...] | None:
    """Each seat's explained score for a scored round, in seat order; ``None`` for a round
    not scored, or one whose stored entries the rules no longer score as stored."""
    if round_.status != RoundStatus.SCORED:
        return None
    setup = setup_of(game)
    try:
        explained = explain_round(setup, stored_entries(setup, round_.entries), stored=True)
    except (RuleError, MalformedEntry):
        return None
    stored = [result.score for result in round_.results]
    if [seat.score for seat in explained] != stored:
        return None
    return explained


def stored_entries(setup: TableSetup, entries: Sequence[Mapping[str, Any]]) -> list[Entry]:
    """The rules' entries back from a scored round's stored JSON (the shapes of
    ``Entry.as_json``), read as the API reads them (``rules.entry_from_json``)."""
    return [entry_from_json(setup, entry) for entry in entries]


# --------------------------------------------------------------------------------------------
# What a stored round breaks


def round_breaks(game: Game, round_: Round) -> tuple[str, ...]:
    """What a stored Hat Trick round breaks of C5's limits from R19 and R20, checked since it
    was saved: it still reads back as scored, and its page says so."""
    setup = setup_of(game)
    names = [place.player.name for place in game.seats]
    try:
        problems = unplayable_problems(setup, stored_entries(setup, round_.entries))
    except MalformedEntry:
        return ()
    return tuple(render_message(problem.message, names) for problem in problems)
