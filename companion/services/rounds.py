"""Rounds entered whole: colours marked first or not, scored through ``companion.rules``,
stored with their results, and corrected later (totals follow).

:func:`submit` is the one way a whole round comes in, from a page, the API or the offline
outbox: it owns the rule that a round sent belongs to the round it was opened for, and
answers one result (saved, checked, refused, stale, or clashed with another phone's round)
instead of an exception to catch."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.data.models import Game, Round, RoundResult
from companion.data.queries import number_to_record, playing_round, setup_of
from companion.data.states import RoundMode, RoundStatus
from companion.rules import (
    Entry,
    Refusal,
    RoundRefused,
    RoundScore,
    round_leader,
    score_checked,
)
from companion.rules.cards import Card
from companion.rules.checks import check_marks
from companion.rules.text import N_
from companion.services.errors import NotFound, RoundNotNext, ServiceError, StaleVersion
from companion.services.games import after_change, check_open, check_version


def entry_mode(entries: Sequence[Entry]) -> RoundMode:
    """``quick`` when any seat was entered in short, ``full`` otherwise."""
    return RoundMode.QUICK if any(entry.is_quick for entry in entries) else RoundMode.FULL


def open_next_round(game: Game, mode: RoundMode) -> Round:
    """A new round after the last, led by the seat R3 names; refused past the planned count."""
    check_open(game)
    if playing_round(game) is not None:
        raise ServiceError(N_("A round is already being played; record it first."))
    number = len(game.rounds) + 1
    if number > game.rounds_planned:
        raise ServiceError(
            N_("All %(rounds)s rounds of this game are recorded."), rounds=game.rounds_planned
        )
    round_ = Round(
        number=number,
        leader=round_leader(number, game.first_leader, len(game.seats)),
        mode=mode,
        status=RoundStatus.PLAYING,
        entries=[],
    )
    game.rounds.append(round_)
    return round_


def mark_colours(game: Game, version: int, marked: Sequence[Sequence[Card]]) -> Round:
    """Open the next round with each seat's indicator cards (R4, R14; hidden if hazy, R15).

    The checks C1 and C2 run now, so the table learns of a wrong indicator at once.
    """
    check_version(game, version)
    round_ = open_marked_round(game, marked, RoundMode.QUICK)
    after_change(game)
    return round_


def replace_marks(game: Game, version: int, number: int, marked: Sequence[Sequence[Card]]) -> Round:
    """Put other indicator cards on round ``number``, marked but not yet played on: the
    table chose one phone's marks over another's (C1, C2 first)."""
    check_version(game, version)
    check_open(game)
    round_ = playing_round(game)
    if round_ is None or round_.number != number or round_.mode == RoundMode.LIVE:
        raise ServiceError(
            N_("The colours of round %(number)s can no longer be changed here."), number=number
        )
    _check_marks(game, marked)
    round_.entries = [{"marked": [card.as_json() for card in cards]} for cards in marked]
    after_change(game)
    return round_


def open_marked_round(game: Game, marked: Sequence[Sequence[Card]], mode: RoundMode) -> Round:
    """The next round, opened with checked indicator cards (C1, C2)."""
    _check_marks(game, marked)
    round_ = open_next_round(game, mode)
    round_.entries = [{"marked": [card.as_json() for card in cards]} for cards in marked]
    return round_


def _check_marks(game: Game, marked: Sequence[Sequence[Card]]) -> None:
    """Every seat's indicator cards, each named once (C1), of its own colours (C2)."""
    setup = setup_of(game)
    if not setup.variant.colours_marked or not setup.cards_laid_out:
        raise ServiceError(N_("Colours are marked only in classic-family games that lay them out."))
    if len(marked) != setup.players:
        raise ServiceError(
            N_("Give the indicator cards of all %(players)s players."), players=setup.players
        )
    check_marks(marked, setup.deck, setup.variant.colours_marked)


# --------------------------------------------------------------------------------------------
# One way to submit a round: pages, the API and the offline outbox


class RoundChange(StrEnum):
    """What another phone did to a round since a sender opened it."""

    RECORDED = "recorded"
    CORRECTED = "corrected"
    LIVE = "live"  # started trick by trick
    MARKED = "marked"  # its colours marked, nothing played yet


@dataclass(frozen=True)
class RoundSent:
    """A round as a page, an API client or an outbox sends it: the entries, the version of
    the game the sender saw, and the round it was opened for (its number; for a
    correction, the digest of the round as shown). ``None``: the sender did not say."""

    version: int
    entries: tuple[Entry, ...]
    opened_for: int | None = None
    digest: str | None = None


@dataclass(frozen=True)
class Saved:
    """The round is scored and stored (the caller commits)."""

    round: Round


@dataclass(frozen=True)
class Checked:
    """The rules accept the round and this is its score; nothing is stored."""

    score: RoundScore


@dataclass(frozen=True)
class Refused:
    """The round cannot be taken: every problem at once (C1-C5), or the service's one."""

    refusal: Refusal

    @property
    def problems(self) -> tuple[Refusal, ...]:
        """Each problem, to show beside the seat it names."""
        if isinstance(self.refusal, RoundRefused):
            return self.refusal.problems
        return (self.refusal,)


@dataclass(frozen=True)
class Stale:
    """Another phone changed the game since the sender saw it: now at ``current`` (``None``
    when only the commit found out, a lost race on SQLite)."""

    current: int | None


@dataclass(frozen=True)
class Clashed:
    """The round the sender opened was recorded, corrected, marked or started elsewhere
    meanwhile: never filed under another number, never overwritten unseen."""

    round: Round
    change: RoundChange


Submitted = Saved | Checked | Refused | Stale | Clashed


def submit(game: Game, sent: RoundSent, *, correcting: bool = False) -> Submitted:
    """Record the next round, or correct round ``sent.opened_for`` (``correcting``), from
    the entries sent: a clash first (the round the sender opened is no longer as it was),
    then the version, then the rules (C1-C5, run once). Nothing is stored unless saved."""
    clash = clash_of(game, sent.opened_for, sent.digest, correcting=correcting)
    if clash is not None:
        return clash
    try:
        if correcting:
            assert sent.opened_for is not None
            saved = correct_round(game, sent.opened_for, sent.version, sent.entries)
        else:
            saved = record_round(game, sent.version, sent.entries)
    except StaleVersion as stale:
        return Stale(stale.current)
    except Refusal as refusal:
        return Refused(refusal)
    return Saved(saved)


def check(game: Game, sent: RoundSent, *, correcting: bool = False) -> Submitted:
    """What :func:`submit` would say of the round, without storing it: the table checks a
    round (or confirms a count the others imply) before saving it. The version is not
    asked: nothing is saved on it."""
    clash = clash_of(game, sent.opened_for, sent.digest, correcting=correcting)
    if clash is not None:
        return clash
    try:
        return Checked(score_checked(setup_of(game), sent.entries))
    except Refusal as refusal:
        return Refused(refusal)


def clash_of(
    game: Game, opened_for: int | None, digest: str | None, *, correcting: bool = False
) -> Clashed | Refused | None:
    """Whether a round sent for round ``opened_for`` still belongs to it: a record form to
    the round to record now, a correction to the round as it showed it (``digest``).
    ``None`` while it does (or the sender did not say); otherwise what became of that
    round, or a refusal when it is neither there nor next."""
    if opened_for is None:
        return None
    round_ = find_round(game, opened_for)
    if correcting:
        if round_ is None or not digest or digest == round_digest(round_):
            return None
        return Clashed(round_, RoundChange.CORRECTED)
    next_number = number_to_record(game)
    if opened_for == next_number:
        return None
    if round_ is None:
        return Refused(RoundNotNext(opened_for, next_number))
    return Clashed(round_, change_of(round_))


def opening_clash(game: Game, opened_for: int | None) -> Clashed | Refused | None:
    """Whether a form that opens round ``opened_for`` (marking its colours, starting it
    live) may still open it: ``None`` while nobody has (or the sender did not say);
    otherwise what another phone did to it, or a refusal when it is not the next round."""
    if opened_for is None:
        return None
    round_ = find_round(game, opened_for)
    if round_ is not None:
        return Clashed(round_, change_of(round_))
    next_number = number_to_record(game)
    return None if opened_for == next_number else Refused(RoundNotNext(opened_for, next_number))


def change_of(round_: Round) -> RoundChange:
    """What the other phone did to a round: recorded, started live or marked it."""
    if round_.status == RoundStatus.SCORED:
        return RoundChange.RECORDED
    if round_.mode == RoundMode.LIVE:
        return RoundChange.LIVE
    return RoundChange.MARKED


def round_digest(round_: Round) -> str:
    """A short fingerprint of a round's stored entries: a correction carries the one of
    the round it showed, so a correction made elsewhere meanwhile is noticed."""
    text = json.dumps(round_.entries, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --------------------------------------------------------------------------------------------
# Recording and correcting


def record_round(game: Game, version: int, entries: Sequence[Entry]) -> Round:
    """Score and store the next round, or the one whose colours are marked (C1-C5 first,
    each run once: nothing is stored if they fail, and every refusal is said at once)."""
    check_version(game, version)
    check_open(game)
    scored = score_checked(setup_of(game), entries)
    round_ = playing_round(game) or open_next_round(game, entry_mode(entries))
    if round_.mode == RoundMode.LIVE:
        raise ServiceError(N_("This round is being played trick by trick; finish it live."))
    round_.mode = entry_mode(entries)
    round_.status = RoundStatus.SCORED
    store_score(game, round_, entries, scored)
    after_change(game)
    return round_


def correct_round(game: Game, number: int, version: int, entries: Sequence[Entry]) -> Round:
    """Score a past round again from corrected entries (C1-C5 once, every refusal at once);
    totals follow."""
    check_version(game, version)
    check_open(game)
    round_ = round_of(game, number)
    if round_.status != RoundStatus.SCORED:
        raise ServiceError(
            N_("Round %(number)s is not scored yet; record it instead."), number=number
        )
    scored = score_checked(setup_of(game), entries)
    round_.mode = entry_mode(entries)
    round_.status = RoundStatus.SCORED
    store_score(game, round_, entries, scored)
    after_change(game)
    return round_


def round_of(game: Game, number: int) -> Round:
    """Round ``number`` (1-based) of ``game``; refused (404) if there is none."""
    round_ = find_round(game, number)
    if round_ is None:
        raise NotFound(N_("This game has no round %(number)s."), number=number)
    return round_


def find_round(game: Game, number: int) -> Round | None:
    """Round ``number`` (1-based) of ``game``, if it exists by now."""
    return game.rounds[number - 1] if 1 <= number <= len(game.rounds) else None


def store_score(game: Game, round_: Round, entries: Sequence[Entry], scored: RoundScore) -> None:
    """Keep the entries and each seat's score with the round: history and statistics read
    stored numbers, and a correction reuses the seats' result rows."""
    round_.entries = [entry.as_json() for entry in entries]
    old = {result.seat: result for result in round_.results}
    results = []
    for seat, (seat_score, place) in enumerate(zip(scored.seats, game.seats, strict=True)):
        result = old.get(seat) or RoundResult(seat=seat)
        result.player_id = place.player_id
        result.score = seat_score.score
        result.tricks = seat_score.tricks
        result.colour_names = ",".join(colour.value for colour in seat_score.colours)
        results.append(result)
    round_.results = results
