"""Who plays what, when: the group of players and the plan of every demo game.

Real history has structure, so the statistics pages have something to show: about 200
players, most of them in one or two circles of friends (a circle mostly speaks one of the
app's languages), some far keener than others; each circle has favourite variants, a usual
table size and a usual way of entering rounds; games happen mostly in the evening, more
often at the weekend, over the last two years. Everything is drawn from one seeded
generator, so the same seed plans the same games.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TypeVar

from companion.cli.demo.names import FIRST_NAMES
from companion.data.models import name_key
from companion.data.states import RoundMode
from companion.rules import HAT_TRICK, PRESETS, Variant, variant_from_settings
from companion.rules.table import MAX_ROUNDS, MIN_ROUNDS
from companion.services.keys import CODE_ALPHABET, CODE_LENGTH

T = TypeVar("T")

GROUP_SIZE = 200
CIRCLES = 28
DAYS = 730

#: How often each preset is played overall (a circle multiplies some of them, see below).
PRESET_WEIGHTS: dict[str, float] = {
    "classic": 50,
    "mild": 9,
    "reverse": 9,
    "aggravated": 8,
    "hazy": 7,
    "delayed": 7,
    HAT_TRICK: 14,
}
#: Now and then a table combines settings no preset names (RULES.md section 5).
COMBINED_CHANCE = 0.03
COMBINATIONS = (("mild", 1, "hazy"), ("reverse", 2, "open"), ("mild", 2, "open"))
#: Table sizes, before the variant's limits (R2, R17) and the circle's size cut them.
PLAYER_WEIGHTS: dict[int, float] = {3: 12, 4: 30, 5: 28, 6: 16, 7: 9, 8: 5}
#: Planned rounds (R11): five by default, four is a known option, any of 1-10 now and then.
ROUND_WEIGHTS: dict[int, float] = {
    5: 80,
    4: 11,
    3: 3,
    6: 3,
    1: 0.5,
    2: 0.7,
    7: 0.6,
    8: 0.6,
    9: 0.3,
    10: 0.3,
}
#: How rounds are entered: quick entry most, the full list of captures or trick by trick less.
MODE_WEIGHTS: dict[str, float] = {RoundMode.QUICK: 55, RoundMode.FULL: 25, RoundMode.LIVE: 20}
#: How likely a guest from outside the circle takes one seat.
GUEST_CHANCE = 0.12


@dataclass(frozen=True)
class DemoPlayer:
    """One member of the demo group."""

    name: str
    language: str
    activity: float


@dataclass(frozen=True)
class Circle:
    """Friends who play together: members, how often they meet, their habits."""

    members: tuple[int, ...]
    activity: float
    presets: dict[str, float]
    modes: dict[str, float]
    table: int


@dataclass(frozen=True)
class GamePlan:
    """One game to play: everything but the rounds, which the rules play (``play.py``)."""

    seats: tuple[int, ...]  #: indexes into the group, in seat order
    variant: Variant
    rounds: int
    first_leader: int
    modes: tuple[str, ...]  #: how each round is entered
    marks_first: tuple[bool, ...]  #: colours marked on their own page before scoring
    created_at: datetime
    seed: int  #: the seed of the game's deals and plays
    code: str
    edit_key: str


def _weighted(rng: random.Random, weights: Mapping[T, float]) -> T:
    """One key of ``weights``, drawn in proportion to its weight."""
    keys = list(weights)
    return rng.choices(keys, weights=[weights[key] for key in keys])[0]


def make_group(rng: random.Random, size: int = GROUP_SIZE) -> list[DemoPlayer]:
    """``size`` players with different first names (matched case-insensitively), from the
    five languages, each with an activity: a few play very often, most now and then."""
    pool = [(name, language) for language, names in FIRST_NAMES.items() for name in names]
    rng.shuffle(pool)
    seen: set[str] = set()
    group = []
    for name, language in pool:
        if name_key(name) in seen:
            continue
        seen.add(name_key(name))
        group.append(DemoPlayer(name, language, rng.paretovariate(2.2)))
        if len(group) == size:
            break
    return group


def make_circles(rng: random.Random, group: Sequence[DemoPlayer]) -> list[Circle]:
    """Circles of 4 to 12 friends, mostly of one language; keen players join several."""
    by_language: dict[str, list[int]] = {}
    for index, player in enumerate(group):
        by_language.setdefault(player.language, []).append(index)
    everyone = list(range(len(group)))
    weights = [player.activity for player in group]
    circles = []
    for number in range(CIRCLES):
        language = list(FIRST_NAMES)[number % len(FIRST_NAMES)]
        home = by_language[language]
        size = rng.randint(4, 12)
        members: list[int] = []
        while len(members) < size:
            if rng.random() < 0.8:
                pick = rng.choices(home, weights=[weights[i] for i in home])[0]
            else:
                pick = rng.choices(everyone, weights=weights)[0]
            if pick not in members:
                members.append(pick)
        presets = {
            name: weight * (rng.choice((1, 1, 1, 2, 4)) if name != "classic" else 1)
            for name, weight in PRESET_WEIGHTS.items()
        }
        modes = {mode: weight * rng.choice((0.3, 1, 1, 4)) for mode, weight in MODE_WEIGHTS.items()}
        circles.append(
            Circle(
                tuple(members), rng.paretovariate(1.8), presets, modes, rng.choice((4, 4, 5, 5, 6))
            )
        )
    # Nobody is left out of every circle: a player no circle picked joins one at random.
    seated = {member for circle in circles for member in circle.members}
    for index in everyone:
        if index not in seated:
            number = rng.randrange(len(circles))
            circle = circles[number]
            circles[number] = Circle(
                (*circle.members, index),
                circle.activity,
                circle.presets,
                circle.modes,
                circle.table,
            )
    return circles


def _variant(rng: random.Random, circle: Circle) -> Variant:
    if rng.random() < COMBINED_CHANCE:
        scoring, colours, reveal = COMBINATIONS[rng.randrange(len(COMBINATIONS))]
        return variant_from_settings(scoring, colours, reveal)
    return PRESETS[_weighted(rng, circle.presets)]


def _table_size(rng: random.Random, variant: Variant, circle: Circle) -> int:
    most = min(variant.max_players, len(circle.members) + 1)
    sizes = {
        size: weight * (3 if size == circle.table else 1)
        for size, weight in PLAYER_WEIGHTS.items()
        if variant.min_players <= size <= most
    }
    return _weighted(rng, sizes)


def _sample(
    rng: random.Random, items: Sequence[int], weights: Sequence[float], count: int
) -> list[int]:
    """``count`` different items, each draw weighted (without replacement)."""
    items, weights = list(items), list(weights)
    chosen = []
    for _ in range(count):
        index = rng.choices(range(len(items)), weights=weights)[0]
        chosen.append(items.pop(index))
        weights.pop(index)
    return chosen


def _seats(
    rng: random.Random, circle: Circle, players: int, group: Sequence[DemoPlayer]
) -> tuple[int, ...]:
    """``players`` different players, the circle's keen members more often, maybe a guest
    from the rest of the group (always one when the circle is too small for the table)."""
    guests = 1 if rng.random() < GUEST_CHANCE or players > len(circle.members) else 0
    members = circle.members
    chosen = _sample(rng, members, [group[i].activity for i in members], players - guests)
    while len(chosen) < players:
        pick = rng.randrange(len(group))
        if pick not in chosen:
            chosen.append(pick)
    rng.shuffle(chosen)
    return tuple(chosen)


def game_times(rng: random.Random, count: int, end: date, days: int = DAYS) -> list[datetime]:
    """``count`` start times over the ``days`` before ``end``, oldest first: more games as
    the app caught on, more at the weekend, mostly in the evening (UTC)."""
    start = datetime.combine(end - timedelta(days=days), time(), UTC)
    times: list[datetime] = []
    while len(times) < count:
        day = int(days * rng.random() ** 0.75)
        moment = start + timedelta(days=day)
        weekend = moment.weekday() >= 4
        if not weekend and rng.random() < 0.45:
            continue
        hour = rng.choice((14, 15, 16, 17, 17, 18, 18, 19, 19, 19, 20, 20)) if weekend else 0
        hour = hour or rng.choice((17, 18, 18, 19, 19, 19, 20, 20, 21))
        times.append(
            moment
            + timedelta(
                hours=hour, seconds=rng.randrange(3600), microseconds=rng.randrange(1_000_000)
            )
        )
    times.sort()
    return times


def new_code(rng: random.Random, taken: set[str]) -> str:
    """A game code as ``services.keys.new_code`` makes them, drawn from ``rng``; never one that
    is already ``taken`` (the code is the game's unique public id)."""
    while True:
        code = "".join(rng.choices(CODE_ALPHABET, k=CODE_LENGTH))
        if code not in taken:
            taken.add(code)
            return code


def new_edit_key(rng: random.Random) -> str:
    """An edit key of the shape ``services.keys.new_edit_key`` gives (18 random bytes, URL-safe
    base64), drawn from ``rng``."""
    return base64.urlsafe_b64encode(rng.randbytes(18)).rstrip(b"=").decode("ascii")


def plan_games(
    rng: random.Random,
    count: int,
    group: Sequence[DemoPlayer],
    circles: Sequence[Circle],
    end: date,
    taken_codes: set[str],
    ids: random.Random,
) -> list[GamePlan]:
    """``count`` games, oldest first. Codes and edit keys come from ``ids``, a generator of
    their own, so a code redrawn because it is taken changes nothing else."""
    circle_weights = [circle.activity for circle in circles]
    plans = []
    for created_at in game_times(rng, count, end):
        circle = rng.choices(circles, weights=circle_weights)[0]
        variant = _variant(rng, circle)
        players = _table_size(rng, variant, circle)
        rounds = _weighted(rng, ROUND_WEIGHTS)
        assert MIN_ROUNDS <= rounds <= MAX_ROUNDS
        usual = _weighted(rng, circle.modes)
        modes = tuple(
            usual if rng.random() < 0.9 else _weighted(rng, MODE_WEIGHTS) for _ in range(rounds)
        )
        marks_first = tuple(
            mode == RoundMode.QUICK and bool(variant.cards_laid_out) and rng.random() < 0.5
            for mode in modes
        )
        plans.append(
            GamePlan(
                seats=_seats(rng, circle, players, group),
                variant=variant,
                rounds=rounds,
                first_leader=rng.randrange(players),
                modes=modes,
                marks_first=marks_first,
                created_at=created_at,
                seed=rng.getrandbits(64),
                code=new_code(ids, taken_codes),
                edit_key=new_edit_key(ids),
            )
        )
    return plans
