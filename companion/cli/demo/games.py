"""A whole demo game played round by round, with the times and version the app would give it.

This part runs in worker processes: it gets a small picklable :class:`GameTask` and answers
a :class:`PlayedGame`, both free of database ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from companion.cli.demo.play import DemoRandom, DemoTable, PlayedRound, play_round
from companion.data.states import RoundMode
from companion.rules import HAT_TRICK, Variant, round_leader, variant_from_settings, variant_named


class GameTask(NamedTuple):
    """What a worker needs to play one game."""

    seed: int
    players: int
    variant: dict[str, object]  #: ``Variant.as_json()``: a variant is rebuilt, not pickled
    first_leader: int
    modes: tuple[str, ...]
    marks_first: tuple[bool, ...]
    created_at: datetime


@dataclass(frozen=True)
class TimedRound:
    """A played round and when the app would have created and last changed its row."""

    played: PlayedRound
    number: int
    leader: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class PlayedGame:
    """Every round of a game, its last change and its version (one step per change)."""

    rounds: tuple[TimedRound, ...]
    updated_at: datetime
    version: int


def variant_of_json(data: dict[str, Any]) -> Variant:
    """The variant ``Variant.as_json()`` describes."""
    if data["game"] == HAT_TRICK:
        return variant_named(HAT_TRICK)
    return variant_from_settings(data["scoring"], data["colours"], data["reveal"])


_TABLES: dict[tuple[object, ...], DemoTable] = {}


def _table(players: int, variant: dict[str, Any]) -> DemoTable:
    """The table of a player count and variant, made once per process."""
    key = (players, *variant.values())
    if key not in _TABLES:
        _TABLES[key] = DemoTable(players, variant_of_json(variant))
    return _TABLES[key]


def _seconds(rng: DemoRandom, low: float, high: float) -> timedelta:
    return timedelta(seconds=low + (high - low) * rng.random())


def play_game(task: GameTask) -> PlayedGame:
    """Play every planned round (R3: the lead moves one seat each round) and time it.

    The app's versions move on every change (``services.games.after_change``): one for creating
    the game, one per recorded round, one more when its colours were marked first, and for
    a live round one to open it and one per trick.
    """
    rng = DemoRandom(task.seed)
    table = _table(task.players, task.variant)
    moment = task.created_at + _seconds(rng, 40, 240)
    version = 1
    rounds = []
    for number, (mode, marks_first) in enumerate(zip(task.modes, task.marks_first, strict=True), 1):
        leader = round_leader(number, task.first_leader, task.players)
        played = play_round(table, leader, mode, rng)
        start = moment
        per_card = _seconds(rng, 6, 11)
        playing = per_card * (played.tricks_played * task.players) + _seconds(rng, 60, 150)
        if played.mode == RoundMode.LIVE:
            playing *= 1.3
            ended = start + playing + _seconds(rng, 2, 20)
            opened = start + _seconds(rng, 20, 90)
            version += 1 + played.tricks_played
        else:
            ended = (
                start + playing + _seconds(rng, 40, 120 if played.mode == RoundMode.QUICK else 300)
            )
            opened = start + _seconds(rng, 20, 90) if marks_first else ended
            version += 2 if marks_first else 1
        rounds.append(TimedRound(played, number, leader, opened, ended))
        moment = ended + _seconds(rng, 30, 300)
    return PlayedGame(tuple(rounds), rounds[-1].updated_at, version)
