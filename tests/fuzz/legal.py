"""Legal requests to start from: a complete round in the API's shape, each seat's
indicators, and the next trick of a live round as the rules accept it."""

from __future__ import annotations

from typing import Any

from flask import Flask

from companion.data import queries
from companion.data.models import db
from companion.pages.record import seat_data
from companion.rules import RuleError, table_setup, variant_named
from companion.rules.hat_trick import Play
from companion.services.games import get_game
from companion.services.rounds import round_of
from companion.web.games.entry.forms import Kind
from tests.fuzz.forms import Pairs


def card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def legal_entries(players: int, variant: str, quick: bool = False) -> list[dict[str, Any]]:
    """A complete legal round in the API's shape: indicators first (seat s marks the deck's
    s-th colour; two with Aggravated), left-out cards unnamed, the rest captured trick by
    trick round-robin."""
    setup = table_setup(players, variant_named(variant))
    pool = [card(c.colour.value, c.value) for c in setup.deck]
    colours = [c.value for c in setup.deck.colours]
    laid = setup.cards_laid_out
    marked = []
    for seat in range(players):
        picks = []
        for k in range(laid):
            pick = next(c for c in pool if c["colour"] == colours[(seat + k) % len(colours)])
            pool.remove(pick)
            picks.append(pick)
        marked.append(picks)
    pool = pool[: setup.tricks_per_round * players]
    captured: list[list[Any]] = [[] for _ in range(players)]
    for trick in range(setup.tricks_per_round):
        captured[trick % players].extend(pool[trick * players : (trick + 1) * players])
    entries: list[dict[str, Any]] = []
    for seat in range(players):
        if variant == "hat-trick":
            passed = [captured[seat].pop()] if seat == 1 else []
            if quick:
                counts = {c: sum(x["colour"] == c for x in captured[seat]) for c in colours}
                entries.append({"counts": counts, "passed": len(passed)})
            else:
                entries.append({"captured": captured[seat], "passed": passed})
        elif laid == 0:
            entries.append({"captured": captured[seat]})
        elif quick:
            own = {c["colour"] for c in marked[seat]}
            entries.append(
                {
                    "marked": marked[seat],
                    "tricks": len(captured[seat]) // players,
                    "marked_captured": [c for c in captured[seat] if c["colour"] in own],
                }
            )
        else:
            entries.append({"marked": marked[seat], "captured": captured[seat]})
    return entries


def legal_marked(players: int, variant: str) -> list[list[dict[str, Any]]]:
    """Each seat's indicator cards of a legal round (empty lists when none are laid out)."""
    return [entry.get("marked", []) for entry in legal_entries(players, variant)]


def next_legal_trick(app: Flask, code: str, number: int) -> list[dict[str, Any]]:
    """Plays for the next trick of a live round that the rules accept (C1, C6, R19): each
    seat in turn plays the first card of the deck that is still in a hand and keeps the
    trick legal so far."""
    with app.app_context():
        game = get_game(code)
        round_ = round_of(game, number)
        live = queries.live_round_of(game, round_)
        out = set(live.cards_out()) | {c for cards in live.marked for c in cards}
        plays: list[Play] = []
        for _seat in range(live.setup.players):
            for candidate in live.setup.deck:
                if candidate in out or any(p.card == candidate for p in plays):
                    continue
                try:
                    live.check_partial_trick([*plays, Play(candidate)])
                except RuleError:  # the rules refuse this card here: try the next one
                    continue
                plays.append(Play(candidate))
                break
        db.session.rollback()
        return [play.card.as_json() for play in plays]


def as_form(kind: Kind, entries: list[dict[str, Any]]) -> Pairs:
    """A round (a stored entry per seat, in the API's shape) as the round form ``kind``
    sends it: ``s<seat>-<field>`` with chip tokens."""
    pairs: Pairs = []
    for seat, entry in enumerate(entries):
        for name, value in seat_data(kind, entry, len(entries)).items():
            values = value if isinstance(value, list) else [value]
            pairs += [(f"s{seat}-{name}", str(item)) for item in values]
    return pairs
