"""Rounds entered whole: colours marked first or not, scored through ``companion.rules``,
stored with their results, and corrected later (totals follow)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.data.models import Game, Round, RoundResult
from companion.data.queries import number_to_record, playing_round, setup_of
from companion.data.states import RoundMode, RoundStatus
from companion.rules import (
    Entry,
    RoundScore,
    round_leader,
    score_checked,
)
from companion.rules.cards import Card
from companion.rules.checks import check_cards_named_once, check_indicators
from companion.rules.text import N_
from companion.services.errors import NotFound, RoundNotNext, ServiceError
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
    check_cards_named_once(
        [(seat, card) for seat, cards in enumerate(marked) for card in cards], setup.deck
    )
    for seat, cards in enumerate(marked):
        check_indicators(seat, cards, setup.variant.colours_marked)


def check_round_meant(game: Game, meant: int | None) -> None:
    """A round form, an API client or an outbox names the round it was opened for; it
    belongs to that round and is never filed under another number: refused when that
    round is no longer the one to record (:class:`RoundNotNext`). ``None``, a sender that
    did not say, passes."""
    if meant is None:
        return
    next_number = number_to_record(game)
    if meant != next_number:
        raise RoundNotNext(meant, next_number)


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
    """Round ``number`` (1-based) of ``game``."""
    if not 1 <= number <= len(game.rounds):
        raise NotFound(N_("This game has no round %(number)s."), number=number)
    return game.rounds[number - 1]


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
