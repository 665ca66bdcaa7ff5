"""The live round page in words, for the phone offline (``live_taps``): everything
templates/games/live.html shows of a round played trick by trick, said in the reader's
language with the page's own sentences, from the game as the phone shows it offline.

The server's page builds the same from the database (companion/web/games/live/page.py and
companion/read_models/trick.py); this one reads the API's game state, so it runs on the
phone with nothing but the rules. A test holds the two pages' words against each other.
The page's script (static/offline_live.js) only puts the words in place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.formats.live_over import over_words
from companion.formats.live_words import PILE_CARDS, chip, colour_chip, word
from companion.formats.offline_game import (
    AWAITING_SCORE,
    PLAYING,
    SCORED,
    live_of,
)
from companion.formats.trick_taps import card_words
from companion.rules import (
    Card,
    Colour,
    Play,
    TableSetup,
    can_pass,
    resolve_hat_trick,
    seat_order,
    trick_winner,
)
from companion.rules.cards import card_token
from companion.rules.live import LiveRound
from companion.rules.wording import COLOUR_SYMBOLS, Reader, colour_words, say


def page_words(
    game: Mapping[str, Any],
    setup: TableSetup,
    round_: Mapping[str, Any],
    plays: Sequence[Play],
    reader: Reader,
    refusal: str | None = None,
    refused: str | None = None,
    notes: Sequence[str] = (),
) -> dict[str, object]:
    """Everything the live page of ``round_`` shows, with ``plays`` in its unfinished trick."""
    names = [str(name) for name in game["players"]]
    live = live_of(round_, setup)
    number = int(round_["number"])
    scored = round_["status"] == SCORED
    complete = scored or bool(round_.get(AWAITING_SCORE))
    played = len(live.tricks)
    hazy = setup.variant.hides_marks and not scored
    last_round = int(game["rounds"][-1]["number"]) == number
    can_undo_trick = bool(live.tricks) and (not scored or last_round)
    current = None if complete else trick_words(setup, live, names, played + 1, plays, reader)
    last = None
    if live.tricks and (complete or not plays):
        trick = live.tricks[-1]
        last = trick_words(setup, live, names, played, trick.plays, reader, trick.leader)
    title = word(reader, "title", number=number)
    return {
        "title": title,
        "count": word(reader, "count", played=played, total=setup.tricks_per_round),
        "scoreboard": word(reader, "scoreboard"),
        "notes": list(notes),
        "refusal": refusal,
        "not_added": word(reader, "not_added"),
        "hat_trick": setup.variant.has_passes,
        "current": current,
        "last": last,
        "undo_card": word(reader, "undo_card"),
        "can_undo_card": bool(plays) or can_undo_trick,
        "last_trick": (
            word(reader, "last_trick")
            if setup.variant.has_passes and played == setup.tricks_per_round - 1 and not complete
            else None
        ),
        "over": over_words(game, setup, round_, live, names, reader) if complete else None,
        "picker": None
        if complete
        else picker_words(setup, live, plays, hazy, refused, current, last, reader),
        "seats": seat_words(setup, round_, live, names, reader, hazy and not complete),
        "corrections": word(reader, "corrections"),
        "undo_trick": (
            word(reader, "undo_trick", number=played)
            if can_undo_trick and (complete or not plays)
            else None
        ),
        "footer": None if complete else word(reader, "footer"),
    }


def trick_words(
    setup: TableSetup,
    live: LiveRound,
    names: Sequence[str],
    number: int,
    plays: Sequence[Play],
    reader: Reader,
    leader: int | None = None,
) -> dict[str, object]:
    """A trick, the unfinished one (led by the round's leader now) or the last one saved:
    each place, who takes it (or is winning it) and why (R7, R8, R13; R19-R21)."""
    seats = seat_order(live.leader if leader is None else leader, setup.players)
    players = [names[seat] for seat in seats]
    complete = len(plays) == setup.players
    places: list[dict[str, Any]] = [
        {"seat": seat, "player": players[index], "passed": False, "takes": False}
        for index, seat in enumerate(seats)
    ]
    for index, play in enumerate(plays):
        places[index].update(chip=chip(play.card, reader), passed=play.passed)
    if len(plays) < len(places):
        places[len(plays)]["is_next"] = True
    told: dict[str, Any] = {
        "number": number,
        "title": word(reader, "trick", number=number)
        if complete
        else word(reader, "trick_of", number=number, total=setup.tricks_per_round),
        "places": places,
        "turn": None,
    }
    if not complete:
        player = players[len(plays)]
        told["turn"] = word(reader, "next_to_play" if plays else "leads_tap", player=player)
    if plays:
        told.update(
            hat_trick_result(players, plays, places, complete, reader)
            if setup.variant.has_passes
            else classic_result(setup, players, plays, places, complete, reader)
        )
    for place in places:
        place["badge"] = badge(place, complete, reader)
    return told


def badge(place: Mapping[str, Any], complete: bool, reader: Reader) -> str | None:
    """The word under a place (templates/games/live_macros.html, ``slot``)."""
    if place["passed"]:
        return word(reader, "pass")
    if place["takes"]:
        return word(reader, "takes" if complete else "winning")
    return word(reader, "next") if place.get("is_next") else None


def classic_result(
    setup: TableSetup,
    players: Sequence[str],
    plays: Sequence[Play],
    places: list[dict[str, Any]],
    complete: bool,
    reader: Reader,
) -> dict[str, object]:
    """R7, R8, R13: who takes the trick, or is winning it so far, and why."""
    settings = setup.variant.settings
    assert settings is not None  # a trick without passes is of the classic family
    outcome = trick_winner([play.card for play in plays], settings.scoring)
    places[outcome.winner]["takes"] = True
    winner = players[outcome.winner]
    card = card_words(outcome.card, reader)
    return {
        "winner": winner,
        "main": word(reader, "taken" if complete else "taking", player=winner, card=card),
        "reason": say(outcome.reason, reader, players),
        "bar": word(reader, "bar_winning", player=winner),
    }


def hat_trick_result(
    players: Sequence[str],
    plays: Sequence[Play],
    places: list[dict[str, Any]],
    complete: bool,
    reader: Reader,
) -> dict[str, object]:
    """R20, R21: each pile's taker, the passes, and whose card decides the next lead."""
    outcome = resolve_hat_trick(plays)
    piles = []
    for pile in outcome.piles:
        places[pile.winner]["takes"] = True
        taker = players[pile.winner]
        card = card_words(plays[pile.winner].card, reader)
        piles.append(
            {
                "colour": pile.colour.value,
                "symbol": COLOUR_SYMBOLS[pile.colour],
                "name": colour_words(pile.colour, reader),
                "taker": word(
                    reader, "pile_taken" if complete else "pile_taking", player=taker, card=card
                ),
                "count": reader.ngettext(*PILE_CARDS, len(pile.cards)) % {"num": len(pile.cards)},
            }
        )
    passes = "; ".join(
        word(reader, "pass_card", player=players[i], card=card_words(plays[i].card, reader))
        for i in outcome.passes
    )
    leader = players[outcome.next_leader]
    return {
        "winner": leader,
        "piles": piles,
        "passes": f"{word(reader, 'passed')} {passes}." if outcome.passes else None,
        "main": word(reader, "will_lead" if complete else "would_lead", player=leader),
        "reason": say(outcome.reason, reader, players),
        "bar": word(reader, "bar_would_lead", player=leader),
    }


@dataclass(frozen=True)
class DeckRow:
    """One colour of the deck on the live page: each card and why it cannot be tapped
    ("in-trick", "laid-out", "played", or "" when it can); ``in_trick`` for one of a Hat
    Trick trick's two colours, ``passes`` for the third, whose cards are passes (R19)."""

    colour: Colour
    cards: tuple[tuple[Card, str], ...]
    in_trick: bool
    passes: bool


def deck_rows(
    setup: TableSetup, live: LiveRound, plays: Sequence[Play], hazy: bool
) -> tuple[DeckRow, ...]:
    """The deck in use, a row per colour, as the live page offers it, online and offline.
    Cards played this round, in the trick so far, or laid out as indicators are out (C6),
    except face-down indicators (R15): marking them would show them, so the rules refuse
    them only if they are entered."""
    laid_out = {card for cards in live.marked for card in cards}
    out = live.cards_out()
    in_trick = {play.card for play in plays}
    trick_colours = {play.card.colour for play in plays if not play.passed}
    two_colours = can_pass(setup.variant, plays)
    rows = []
    for colour in setup.deck.colours:
        cards = []
        for card in (c for c in setup.deck if c.colour is colour):
            state = ""
            if card in in_trick:
                state = "in-trick"
            elif card in laid_out:
                state = "" if hazy else "laid-out"
            elif card in out:
                state = "played"
            cards.append((card, state))
        played_here = colour in trick_colours
        row = DeckRow(
            colour, tuple(cards), two_colours and played_here, two_colours and not played_here
        )
        rows.append(row)
    return tuple(rows)


def picker_words(
    setup: TableSetup,
    live: LiveRound,
    plays: Sequence[Play],
    hazy: bool,
    refused: str | None,
    current: Mapping[str, Any] | None,
    last: Mapping[str, Any] | None,
    reader: Reader,
) -> dict[str, object]:
    """The chips of the deck, a row per colour (C6: cards out of every hand cannot be
    tapped; face-down indicators can, R15), the bar and the hint of what grey means."""
    rows = []
    for row in deck_rows(setup, live, plays, hazy):
        chips = []
        for card, state in row.cards:
            label = card_words(card, reader)
            if state or row.passes:
                label = word(reader, state or "as_pass", card=label)
            chips.append(
                {
                    **chip(card, reader),
                    "out": state,
                    "aria": label,
                    "refused": refused == card_token(card),
                }
            )
        name = colour_words(row.colour, reader)
        rows.append(
            {
                "colour": row.colour.value,
                "symbol": COLOUR_SYMBOLS[row.colour],
                "group": f"{name}: {word(reader, 'a_pass')}" if row.passes else name,
                "in_trick": row.in_trick,
                "passes": row.passes,
                "chips": chips,
            }
        )
    return {
        "title": word(reader, "deck"),
        "pass_hint": word(reader, "pass_hint") if can_pass(setup.variant, plays) else None,
        "rows": rows,
        "bar": bar_words(current, last, reader),
        "hint": grey_words(setup, bool(plays), hazy, reader),
    }


def bar_words(
    current: Mapping[str, Any] | None, last: Mapping[str, Any] | None, reader: Reader
) -> dict[str, object] | None:
    """The bar at the bottom: the trick so far (or the last one) and whose turn it is."""
    if current is None:
        return None
    plays = [place for place in current["places"] if "chip" in place]
    shown = current if plays or last is None else last
    text = ""
    if plays:
        text = str(current["bar"])
    elif last is not None:
        text = word(reader, "bar_trick", number=last["number"], player=last["winner"])
    turn = next((p for p in current["places"] if p.get("is_next")), None)
    return {
        "chips": [
            {**place["chip"], "takes": place["takes"], "passed": place["passed"]}
            for place in shown["places"]
            if "chip" in place
        ],
        "text": text,
        "next": word(reader, "bar_next", player=turn["player"]) if turn else None,
    }


def grey_words(setup: TableSetup, in_trick: bool, hazy: bool, reader: Reader) -> str:
    """What grey means on the chips now (templates/games/live.html)."""
    if hazy:
        return word(reader, "grey_trick_hazy" if in_trick else "grey_hazy")
    if setup.cards_laid_out:
        return word(reader, "grey_trick_laid_out" if in_trick else "grey_laid_out")
    return word(reader, "grey_trick" if in_trick else "grey")


def seat_words(
    setup: TableSetup,
    round_: Mapping[str, Any],
    live: LiveRound,
    names: Sequence[str],
    reader: Reader,
    hazy_hint: bool,
) -> dict[str, object]:
    """Each seat's captures so far (R9; Hat Trick: face-up cards per colour and passes,
    R22), its indicators where the scoreboard shows them (never while hazy, R15)."""
    piles = live.capture_piles()
    passes = live.pass_cards()
    won = live.tricks_won()
    playing = round_["status"] == PLAYING and not round_.get(AWAITING_SCORE)
    shows_marks = round_.get("marked") is not None
    hat_trick = setup.variant.has_passes
    colours = [colour_chip(colour, reader) for colour in setup.deck.colours]
    rows = []
    for seat, name in enumerate(names):
        if hat_trick:
            cells = [
                str(sum(1 for card in piles[seat] if card.colour.value == colour["colour"]))
                for colour in colours
            ]
            cells.append(str(len(passes[seat])))
        else:
            cells = [str(won[seat]), str(len(piles[seat]))]
        rows.append(
            {
                "name": name,
                "leads": playing and seat == live.leader,
                "marked": [chip(card, reader) for card in live.marked[seat]] if shows_marks else [],
                "cells": cells,
            }
        )
    return {
        "title": word(reader, "captured"),
        "player": word(reader, "player"),
        "colours": colours if hat_trick else [],
        "headers": [word(reader, "passes")]
        if hat_trick
        else [word(reader, "tricks"), word(reader, "cards")],
        "leads": word(reader, "leads"),
        "rows": rows,
        "hazy": word(reader, "hazy") if hazy_hint else None,
    }
