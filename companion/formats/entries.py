"""Round entries in the JSON shapes of DESIGN.md (rounds/score), for the API and backups."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion import rules
from companion.formats import parse
from companion.formats.parse import ApiError
from companion.rules.cards import Colour
from companion.rules.deck import HAT_TRICK_COLOURS
from companion.rules.variants import Reveal


def read_entries(value: object, setup: rules.TableSetup) -> list[rules.Entry]:
    """One entry per seat, in the shape the variant takes (DESIGN.md, rounds/score)."""
    items = parse.listing(value, "entries", most=rules.MAX_PLAYERS)
    if len(items) != setup.players:
        raise ApiError(
            f"entries holds {len(items)} entries, but there are {setup.players} players: "
            "give one entry per seat, in seat order."
        )
    return [read_entry(item, f"entries[{seat}]", setup) for seat, item in enumerate(items)]


def read_entry(value: object, where: str, setup: rules.TableSetup) -> rules.Entry:
    """A full, quick, delayed or Hat Trick entry, told apart by its fields."""
    if not isinstance(value, dict):
        raise ApiError(f"{where} must be a JSON object.")
    variant = setup.variant.settings
    if variant is None:
        return _hat_trick_entry(value, where)
    if variant.reveal is Reveal.DELAYED:
        obj = parse.fields(value, where, ("captured",), ("choose",))
        choose = None
        if "choose" in obj:
            names = parse.listing(obj["choose"], f"{where}.choose", 2)
            choose = tuple(
                parse.colour(name, f"{where}.choose[{i}]") for i, name in enumerate(names)
            )
        return rules.DelayedEntry(parse.cards(obj["captured"], f"{where}.captured"), choose)
    if "tricks" in value or "marked_captured" in value:
        obj = parse.fields(value, where, ("marked", "tricks", "marked_captured"))
        return rules.QuickEntry(
            parse.cards(obj["marked"], f"{where}.marked", 2),
            parse.integer(obj["tricks"], f"{where}.tricks"),
            parse.cards(obj["marked_captured"], f"{where}.marked_captured"),
        )
    obj = parse.fields(value, where, ("marked", "captured"))
    return rules.FullEntry(
        parse.cards(obj["marked"], f"{where}.marked", 2),
        parse.cards(obj["captured"], f"{where}.captured"),
    )


def _hat_trick_entry(value: Mapping[str, Any], where: str) -> rules.Entry:
    if "counts" in value:
        obj = parse.fields(value, where, ("counts", "passed"))
        counts = parse.fields(
            obj["counts"], f"{where}.counts", tuple(c.value for c in HAT_TRICK_COLOURS)
        )
        return rules.HatTrickQuickEntry(
            {
                Colour(name): parse.integer(n, f"{where}.counts.{name}")
                for name, n in counts.items()
            },
            parse.integer(obj["passed"], f"{where}.passed"),
        )
    obj = parse.fields(value, where, ("captured", "passed"))
    return rules.HatTrickFullEntry(
        parse.cards(obj["captured"], f"{where}.captured"),
        parse.cards(obj["passed"], f"{where}.passed"),
    )
