"""Why each player scored what they did in a round: the rules' terms, and one line in the
reader's language ("+9 for 9 cards of other colours; −19 for red 4 (indicator), red 7, red 8":
a semicolon between terms, since a term's cards are listed with commas).

The terms come from ``companion.rules.explain_round``, run again on the entries stored with
the round, so the page, the API and the export explain a score exactly as the rules give it.
A stored round the rules would no longer score as stored has no explanation rather than a
wrong one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from babel.lists import format_list
from flask_babel import get_locale, gettext, ngettext

from companion.data.models import Game, Round
from companion.data.queries import setup_of
from companion.data.states import RoundStatus
from companion.read_models.messages import colour_name, render_message, signed_number
from companion.rules import (
    Choice,
    Colour,
    CountedCard,
    DelayedChoice,
    Entry,
    MalformedEntry,
    RuleError,
    SeatExplanation,
    TableSetup,
    Term,
    TermKind,
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
# One line in the reader's language


def explanation_line(explanation: SeatExplanation) -> str:
    """The terms of a score, then (delayed rounds, R16) why those colours were scored."""
    line = "; ".join(_term_words(term) for term in explanation.terms)
    if explanation.choice is not None:
        line = gettext(
            "%(terms)s. %(choice)s", terms=line, choice=_choice_words(explanation.choice)
        )
    return line


def _term_words(term: Term) -> str:
    return TERM_WORDS[term.kind](term, signed_number(term.points))


def _other_cards(term: Term, points: str) -> str:
    return ngettext(
        "%(points)s for %(num)d card of another colour",
        "%(points)s for %(num)d cards of other colours",
        term.count,
        points=points,
    )


def _marked_cards(term: Term, points: str) -> str:
    cards = ", ".join(_card_words(counted) for counted in term.cards or ())
    return gettext("%(points)s for %(cards)s", points=points, cards=cards)


def _card_words(counted: CountedCard) -> str:
    card = f"{colour_name(counted.card.colour)} {counted.card.value}"
    return gettext("%(card)s (indicator)", card=card) if counted.indicator else card


def _nothing(term: Term, points: str) -> str:
    return gettext("%(points)s: captured nothing", points=points)


def _colour_count(term: Term, points: str) -> str:
    assert term.colour is not None
    return gettext("%(points)s %(colour)s", points=points, colour=colour_name(term.colour))


def _pass_cards(term: Term, points: str) -> str:
    return ngettext(
        "%(points)s for %(num)d pass card",
        "%(points)s for %(num)d pass cards",
        term.count,
        points=points,
    )


TERM_WORDS: dict[TermKind, Callable[[Term, str], str]] = {
    TermKind.OTHER_CARDS: _other_cards,
    TermKind.MARKED_CARDS: _marked_cards,
    TermKind.NOTHING_CAPTURED: _nothing,
    TermKind.BEST_COLOUR: _colour_count,
    TermKind.OTHER_COLOUR: _colour_count,
    TermKind.PASS_CARDS: _pass_cards,
}


def _choice_words(choice: DelayedChoice) -> str:
    """R16: the colours scored, and why: the best (against the next best), one of choices
    that score the same ("blue or red, equally good"), the only legal choice, or the table's
    override (against what the proposal would have scored)."""
    colours = _colours_words(choice.colours)
    if choice.by_table:
        return gettext(
            "Chosen by the table: %(colours)s, over the proposal %(proposed)s, "
            "which would have scored %(score)s.",
            colours=colours,
            proposed=_colours_words(choice.proposed.colours),
            score=signed_number(choice.proposed.score),
        )
    runner_up: Choice | None = choice.next_best
    if runner_up is None:
        return gettext("Chosen: %(colours)s, the only choice.", colours=colours)
    if choice.equally_good:
        tied = [choice.colours, *(other.colours for other in choice.equally_good)]
        return gettext(
            "Chosen: %(colours)s (%(choices)s, equally good: %(score)s).",
            colours=colours,
            choices=format_list(
                [_colours_words(c) for c in tied], style="or", locale=get_locale() or "en"
            ),
            score=signed_number(choice.proposed.score),
        )
    return gettext(
        "Chosen: %(colours)s, the best choice (next best: %(other)s, %(score)s).",
        colours=colours,
        other=_colours_words(runner_up.colours),
        score=signed_number(runner_up.score),
    )


def _colours_words(colours: Sequence[Colour]) -> str:
    return " + ".join(colour_name(colour) for colour in colours)


# --------------------------------------------------------------------------------------------
# The round page


@dataclass(frozen=True)
class SeatLine:
    """One player on the round page: their score and why."""

    seat: int
    name: str
    score: int
    line: str


@dataclass(frozen=True)
class ExplainedRound:
    """A scored round as its page shows it: every player's score and its line."""

    code: str
    number: int
    seats: tuple[SeatLine, ...]
    #: The scored rounds before and after this one, for stepping through a game's rounds.
    previous: int | None
    next: int | None
    #: What the round breaks of the limits checked since it was stored (C5), in words.
    breaks: tuple[str, ...] = ()


def explained_round(game: Game, round_: Round) -> ExplainedRound | None:
    """The round page of a scored round; ``None`` when the round has no explanation."""
    explained = round_explanations(game, round_)
    if explained is None:
        return None
    seats = tuple(
        SeatLine(seat, place.player.name, mine.score, explanation_line(mine))
        for seat, (place, mine) in enumerate(zip(game.seats, explained, strict=True))
    )
    scored = [r.number for r in game.rounds if r.status == RoundStatus.SCORED]
    earlier = [number for number in scored if number < round_.number]
    later = [number for number in scored if number > round_.number]
    return ExplainedRound(
        game.code,
        round_.number,
        seats,
        earlier[-1] if earlier else None,
        later[0] if later else None,
        round_breaks(game, round_),
    )


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
