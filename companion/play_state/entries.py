"""Round entries in the JSON shapes of DESIGN.md (rounds/score), for the API and backups.

Each field is checked here first, so a refusal names the field it concerns
(``entries[2].tricks must be a whole number``); the checked entry is then read as every
stored entry is read, by ``rules.entry_from_json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion import rules
from companion.play_state import parse
from companion.play_state.parse import ApiError
from companion.rules.deck import HAT_TRICK_COLOURS


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
    check_entry(value, where, setup)
    return rules.entry_from_json(setup, value)


def check_entry(value: Mapping[str, Any], where: str, setup: rules.TableSetup) -> None:
    """Refuse the first field that is not as the entry's kind takes it, by its name; the
    kind is told as ``rules.entry_from_json`` tells it."""
    if setup.variant.has_passes:
        _check_hat_trick_entry(value, where)
    elif not setup.cards_laid_out:
        obj = parse.fields(value, where, ("captured",), ("choose",))
        parse.cards(obj["captured"], f"{where}.captured")
        if "choose" in obj:
            names = parse.listing(obj["choose"], f"{where}.choose", 2)
            for i, name in enumerate(names):
                parse.colour(name, f"{where}.choose[{i}]")
    elif "tricks" in value or "marked_captured" in value:
        obj = parse.fields(value, where, ("marked", "tricks", "marked_captured"))
        parse.cards(obj["marked"], f"{where}.marked", 2)
        parse.integer(obj["tricks"], f"{where}.tricks")
        parse.cards(obj["marked_captured"], f"{where}.marked_captured")
    else:
        obj = parse.fields(value, where, ("marked", "captured"))
        parse.cards(obj["marked"], f"{where}.marked", 2)
        parse.cards(obj["captured"], f"{where}.captured")


def _check_hat_trick_entry(value: Mapping[str, Any], where: str) -> None:
    if "counts" in value:
        obj = parse.fields(value, where, ("counts", "passed"))
        counts = parse.fields(
            obj["counts"], f"{where}.counts", tuple(c.value for c in HAT_TRICK_COLOURS)
        )
        for name, count in counts.items():
            parse.integer(count, f"{where}.counts.{name}")
        parse.integer(obj["passed"], f"{where}.passed")
    else:
        obj = parse.fields(value, where, ("captured", "passed"))
        parse.cards(obj["captured"], f"{where}.captured")
        parse.cards(obj["passed"], f"{where}.passed")
