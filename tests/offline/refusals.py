"""Requests to the rules endpoints that the rules refuse, one of each kind a table meets: the
round checks C1-C5 (one C2 in each of its forms, counts in the plural and in the singular),
R16's choice, and tricks that cannot be resolved. The offline tests compare the words of the
rules worker, in every language, with those of the server's pages for each of them."""

from __future__ import annotations

from typing import Any

from companion.play_state import rules_answers
from companion.rules import Refusal, table_setup, variant_named


def card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def quick(marked: list[dict[str, Any]], tricks: int, marked_captured: tuple[Any, ...] = ()) -> Any:
    """A quick entry (indicators, tricks won, marked-colour captures) in the API's shape."""
    return {"marked": marked, "tricks": tricks, "marked_captured": list(marked_captured)}


def whole_deck(variant: str, players: int) -> list[dict[str, Any]]:
    """Every card of the deck a table of ``players`` plays ``variant`` with."""
    deck = table_setup(players, variant_named(variant)).deck
    values = range(deck.min_value, deck.max_value + 1)
    return [card(colour.value, value) for colour in deck.colours for value in values]


def classic_round(*entries: Any, variant: str = "classic") -> tuple[str, dict[str, Any]]:
    return "rounds/score", {"variant": variant, "players": len(entries), "entries": list(entries)}


#: By what the API's English says (up to a "|"): (call, request body).
REFUSED: dict[str, tuple[str, dict[str, Any]]] = {
    "(C1)": classic_round(*[quick([card("red", 1)], 14)] * 4),
    "which is not in the deck in use|named by a seat": classic_round(
        quick([card("red", 1)], 5),
        quick([card("violet", 5)], 5),
        *[quick([card("red", v)], t) for v, t in ((3, 4), (4, 0))],
    ),
    "(C2)|plural": classic_round(
        quick([card("red", 1)], 5),
        *[quick([card("red", v), card("blue", v)], 3) for v in (2, 3, 4)],
        variant="aggravated",
    ),
    "(C2)|singular": classic_round(
        quick([card("red", 1), card("blue", 1)], 5),
        *[quick([card("red", v)], t) for v, t in ((2, 5), (3, 4), (4, 0))],
    ),
    "are of the same colour": classic_round(
        quick([card("red", 1), card("blue", 1)], 5),
        quick([card("red", 2), card("red", 3)], 5),
        *[quick([card("red", v), card("blue", v)], t) for v, t in ((4, 4), (5, 0))],
        variant="aggravated",
    ),
    "(C3)": classic_round(*[quick([card("red", seat)], 1) for seat in range(4)]),
    "(C4)": classic_round(
        quick([card("red", 1)], 5, (card("blue", 5),)),
        *[quick([card("red", v)], t) for v, t in ((2, 5), (3, 4), (4, 0))],
    ),
    "(C5)": (
        "rounds/score",
        {
            "variant": "hat-trick",
            "players": 4,
            "entries": [{"counts": {"red": 0, "blue": 0, "green": 0}, "passed": 0}] * 4,
        },
    ),
    "(C5)|passed in every trick": (
        "rounds/score",
        {
            "variant": "hat-trick",
            "players": 4,
            "entries": [
                {"counts": {"red": 1, "blue": 0, "green": 0}, "passed": 14},
                {"counts": {"red": 13, "blue": 1, "green": 0}, "passed": 0},
                {"counts": {"red": 0, "blue": 14, "green": 0}, "passed": 0},
                {"counts": {"red": 0, "blue": 0, "green": 13}, "passed": 0},
            ],
        },
    ),
    "(R16)": classic_round(
        {"captured": whole_deck("delayed", 4)},
        {"captured": [], "choose": ["red"]},
        {"captured": []},
        {"captured": []},
        variant="delayed",
    ),
    "is not in the deck in use|played": (
        "tricks/resolve",
        {"variant": "classic", "players": 3, "cards": [card("red", 3), card("violet", 18)]},
    ),
    "is in the trick twice": (
        "tricks/resolve",
        {"variant": "classic", "cards": [card("red", 3), card("red", 3)]},
    ),
}


def refusal(call: str, body: dict[str, Any]) -> Refusal:
    """The refusal the rules give for ``body``, as the API's route meets it."""
    answer = {
        "rounds/score": rules_answers.score_round,
        "tricks/resolve": rules_answers.resolve_trick,
    }
    try:
        answer[call](body)
    except Refusal as error:
        return error
    raise AssertionError(f"{call} takes {body}")
