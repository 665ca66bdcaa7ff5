"""Requests to the rules endpoints from random legal play, in every variant, for comparing the
offline rules worker with the server: rounds played out card by card by the rules tests'
random players (tests/rules/helpers.py), entered in every shape the API takes (full, quick,
delayed with and without a choice, Hat Trick in full and in counts), a few of them broken the
way a table's entry goes wrong; and tricks taken from those rounds, whole and partial."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from companion.rules.cards import Card
from companion.rules.entries import (
    DelayedEntry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
)
from companion.rules.table import TableSetup, table_setup
from companion.rules.variants import Reveal, Variant, variant_from_settings, variant_named
from tests.rules.helpers import (
    legal_delayed_choices,
    play_classic_round,
    play_hat_trick_round,
)

#: Every variant of the box: each combination of the classic family's three settings (as the
#: API's settings object) and Hat Trick; the named presets are among them and are also sent
#: by name now and then.
CLASSIC_SETTINGS = list(
    itertools.product(["classic", "mild", "reverse"], [1, 2], ["open", "hazy", "delayed"])
)
PRESETS = ["classic", "mild", "reverse", "aggravated", "hazy", "delayed"]
HAT_TRICK = "hat-trick"


@dataclass(frozen=True)
class Call:
    """One request of the rules endpoints: the API path under /api/v1/ and the body."""

    path: str
    body: dict[str, Any]
    #: Whether the body was made legal (the server must answer 200) or broken on purpose.
    legal: bool = True


def cards_json(cards: tuple[Card, ...] | list[Card]) -> list[dict[str, Any]]:
    return [card.as_json() for card in cards]


def classic_variant(rng: random.Random, settings: tuple[str, int, str]) -> tuple[Any, TableSetup]:
    """The variant of the classic family with these settings in the API's shape (sometimes by
    its preset's name), and a table of a random size that plays it."""
    scoring, colours, reveal = settings
    variant = variant_from_settings(scoring, colours, reveal)
    players = rng.choice(list(variant.player_range))
    named = [name for name in PRESETS if variant_named(name) == variant]
    shown: Any = {"scoring": scoring, "colours": colours, "reveal": reveal}
    if named and rng.random() < 0.5:
        shown = named[0]
    return shown, table_setup(players, variant)


def classic_round(
    rng: random.Random, settings: tuple[str, int, str]
) -> tuple[list[Call], list[Call]]:
    """A classic-family round played at random, as a rounds/score request (each seat in full
    or quick entry, or delayed with or without a choice), and its tricks."""
    shown, setup = classic_variant(rng, settings)
    played = play_classic_round(setup, rng)
    variant = setup.variant
    entries = []
    for seat in range(setup.players):
        captured = tuple(played.captured[seat])
        marked = played.indicators[seat]
        if variant.reveal is Reveal.DELAYED:
            choices = legal_delayed_choices(captured, variant.colours)
            choose = None
            if choices and rng.random() < 0.3:
                picked = rng.choice(choices)
                choose = tuple(sorted(picked, key=lambda colour: colour.value))
            entries.append(DelayedEntry(captured, choose).as_json())
        elif rng.random() < 0.5:
            entries.append(FullEntry(marked, captured).as_json())
        else:
            colours = {card.colour for card in marked}
            in_marked = tuple(card for card in captured if card.colour in colours)
            entries.append(QuickEntry(marked, played.tricks[seat], in_marked).as_json())
    body = {"variant": shown, "players": setup.players, "entries": entries}
    tricks = []
    for _leader, cards, _winner in rng.sample(played.trick_log, 2):
        shown_cards = list(cards[: rng.randint(1, len(cards))])
        trick: dict[str, Any] = {"variant": shown, "cards": cards_json(shown_cards)}
        if rng.random() < 0.7:
            trick["players"] = setup.players
        tricks.append(Call("tricks/resolve", trick))
    return [Call("rounds/score", body)], tricks


def hat_trick_round(rng: random.Random) -> tuple[list[Call], list[Call]]:
    """A Hat Trick round played at random (passing now and then), as a rounds/score request
    with each seat in full or in counts, and its tricks."""
    variant = variant_named(HAT_TRICK)
    setup = table_setup(rng.choice(list(variant.player_range)), variant)
    played = play_hat_trick_round(setup, rng, pass_often=rng.choice([0.0, 0.3]))
    entries = []
    for seat in range(setup.players):
        face_up, face_down = tuple(played.face_up[seat]), tuple(played.face_down[seat])
        full = HatTrickFullEntry(face_up, face_down)
        if rng.random() < 0.5:
            entries.append(full.as_json())
        else:
            entries.append(HatTrickQuickEntry(full.face_up_counts(), len(face_down)).as_json())
    shown: Any = HAT_TRICK if rng.random() < 0.7 else {"game": HAT_TRICK}
    body = {"variant": shown, "players": setup.players, "entries": entries}
    tricks = []
    for _leader, plays in rng.sample(played.tricks, 2):
        shown_plays = [play.as_json() for play in plays[: rng.randint(1, len(plays))]]
        trick: dict[str, Any] = {"variant": shown, "plays": shown_plays}
        if rng.random() < 0.7:
            trick["players"] = setup.players
        tricks.append(Call("tricks/resolve", trick))
    return [Call("rounds/score", body)], tricks


def broken(call: Call, rng: random.Random) -> Call:
    """The round with one mistake a table makes: a card moved to the wrong seat (the counts
    no longer add up), a card named twice, a value the deck does not hold, or a field
    misspelt."""
    body: dict[str, Any] = {**call.body, "entries": [dict(e) for e in call.body["entries"]]}
    entries = body["entries"]
    holders = [e for e in entries if e.get("captured")]
    mistake = rng.choice(["moved", "twice", "value", "field"] if holders else ["field"])
    if mistake == "moved":
        giver, taker = rng.sample(range(len(entries)), 2)
        if entries[giver].get("captured"):
            card = entries[giver]["captured"][0]
            entries[giver]["captured"] = entries[giver]["captured"][1:]
            entries[taker]["captured"] = [*entries[taker].get("captured", []), card]
        else:
            mistake = "field"
    if mistake == "twice":
        first = holders[0]
        first["captured"] = [*first["captured"], first["captured"][0]]
    if mistake == "value":
        first = holders[0]
        first["captured"] = [{**first["captured"][0], "value": 99}, *first["captured"][1:]]
    if mistake == "field":
        entries[0] = {**entries[0], "taken": 3}
    return Call(call.path, body, legal=False)


def random_calls(seed: int, rounds: int, broken_share: float = 0.1) -> list[Call]:
    """``rounds`` rounds/score calls, the variants in turn (each setting of the classic
    family, then Hat Trick; a share of the rounds broken), followed by two tricks/resolve
    calls per round."""
    rng = random.Random(seed)
    scores: list[Call] = []
    tricks: list[Call] = []
    for number in range(rounds):
        turn = number % (len(CLASSIC_SETTINGS) + 1)
        if turn == len(CLASSIC_SETTINGS):
            round_calls, trick_calls = hat_trick_round(rng)
        else:
            round_calls, trick_calls = classic_round(rng, CLASSIC_SETTINGS[turn])
        scores += [broken(c, rng) if rng.random() < broken_share else c for c in round_calls]
        tricks += trick_calls
    return scores + tricks


def every_variant(seed: str) -> list[tuple[Any, Variant, int]]:
    """Every variant of the box, as a game's ``variant`` field shows it with its variant and
    a table size: the presets and Hat Trick at every size they allow, and the classic
    family's other settings each at one size, picked by ``seed``."""
    others = random.Random(seed)
    cases: list[tuple[Any, Variant, int]] = [
        (name, variant_named(name), players)
        for name in [*PRESETS, HAT_TRICK]
        for players in sorted(variant_named(name).player_range)
    ]
    return cases + [
        (
            {"scoring": scoring, "colours": colours, "reveal": reveal},
            variant,
            others.choice(sorted(variant.player_range)),
        )
        for scoring, colours, reveal in CLASSIC_SETTINGS
        for variant in [variant_from_settings(scoring, colours, reveal)]
        if variant.preset is None
    ]
