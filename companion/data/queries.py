"""Questions about one stored game that the services, the read models and the formats all ask.

They read the rows as stored and answer in the rules' terms (R2, R3, R11, R15, R23); they
never write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.data.models import Game, Round
from companion.data.states import GameStatus, RoundStatus
from companion.rules import RuleError, TableSetup, table_setup, winners
from companion.rules.cards import Card, Colour
from companion.rules.hat_trick import Play
from companion.rules.live import LiveRound


def setup_of(game: Game) -> TableSetup:
    """The table setup of a stored game (R2, R17)."""
    return table_setup(len(game.seats), game.variant)


def playing_round(game: Game) -> Round | None:
    """The round being played (colours marked, not yet scored), if any."""
    last = game.rounds[-1] if game.rounds else None
    return last if last is not None and last.status == RoundStatus.PLAYING else None


def number_to_record(game: Game) -> int:
    """The round recorded next: the one being played, else the one after the last."""
    playing = playing_round(game)
    return playing.number if playing is not None else len(game.rounds) + 1


def round_at_table(game: Game) -> int | None:
    """The number of the round being played, or of the next one to deal (R3, R23);
    ``None`` once the game is over or no planned round is left."""
    if game.status != GameStatus.IN_PROGRESS:
        return None
    playing = playing_round(game)
    number = playing.number if playing is not None else len(game.rounds) + 1
    return number if number <= game.rounds_planned else None


@dataclass(frozen=True)
class Totals:
    """Running totals per round and the winners once the game is over (R11)."""

    per_round: list[list[int]]
    totals: list[int]
    winners: list[int]


def totals_of(game: Game) -> Totals:
    """R11 from the stored scores."""
    seats = len(game.seats)
    current = [0] * seats
    per_round = []
    for round_ in game.rounds:
        if round_.status == RoundStatus.SCORED:
            scores = [result.score for result in round_.results]
            current = [total + score for total, score in zip(current, scores, strict=True)]
        per_round.append(list(current))
    return Totals(
        per_round, current, winners(current) if game.status == GameStatus.FINISHED else []
    )


def marked_of(game: Game, round_: Round) -> list[list[dict[str, object]]] | None:
    """Each seat's indicator cards; ``None`` while a hazy round is unscored (R15)."""
    if game.variant.hides_marks and round_.status != RoundStatus.SCORED:
        return None
    return [list(entry.get("marked", [])) for entry in round_.entries or []]


def play_of(data: dict[str, Any]) -> Play:
    return Play(Card(Colour(data["colour"]), int(data["value"])), bool(data.get("pass", False)))


def live_round_of(game: Game, round_: Round) -> LiveRound:
    """Rebuild a live round's state from its stored indicators and tricks."""
    marked = tuple(
        tuple(Card(Colour(c["colour"]), int(c["value"])) for c in entry.get("marked", []))
        for entry in round_.entries
    )
    live = LiveRound(setup_of(game), round_.leader, marked)
    for trick in round_.tricks or []:
        live.follow_recorded_lead(int(trick.get("leader", live.leader)))
        live.play_trick([play_of(play) for play in trick["plays"]])
    return live


#: The key of a seat's stored entry that holds its card in a live round's unfinished trick:
#: the phone entering the trick publishes it, so that the phones following the round see it
#: card by card (a trick is stored in ``Round.tricks`` only once complete, C6).
IN_TRICK = "in_trick"


def laid_out_entries(round_: Round) -> list[dict[str, Any]]:
    """A round's stored entries without the cards of its unfinished trick (what an export
    keeps: the trick is saved once complete)."""
    return [
        {key: value for key, value in entry.items() if key != IN_TRICK}
        for entry in round_.entries or []
    ]


def unfinished_plays(round_: Round, live: LiveRound) -> tuple[Play, ...]:
    """The plays of a live round's unfinished trick as last published, in order from its
    leader (R9, R21); empty when there are none, or they were published for an earlier trick
    or no longer fit the round (C6)."""
    entries = round_.entries or []
    number = len(live.tricks) + 1
    plays = []
    for seat in live.seat_order():
        stored = entries[seat].get(IN_TRICK) if seat < len(entries) else None
        if not isinstance(stored, dict) or stored.get("trick") != number:
            break
        try:
            plays.append(play_of(stored))
        except (KeyError, TypeError, ValueError):
            return ()
    if not plays:
        return ()
    try:
        live.check_partial_trick(plays)
    except RuleError:
        return ()
    return tuple(plays)
