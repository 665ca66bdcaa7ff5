"""The trick resolver's trick: its hidden field, a tap on it, and, for the phone offline, the
trick in the table's words.

The resolver page (companion/web/tools) and the offline rules worker read the trick field and
apply a tap with these same functions, so a forged field or a refused card is refused offline
with the words the server's page uses. The field travels as ``red-7 blue-9 pass:green-3`` and
is checked again with ``companion.rules`` at every tap (C1, R19): it is never believed.

``tap_answer`` is the worker's call ``tricks/tap``: the resolver's settings, its trick and
one tap in, and out what the page shows after it (each place of the trick, who takes it and
why, the Hat Trick piles and passes, whose turn it is, the chips of the deck), every sentence
already said in the reader's language with the same templates as the page
(templates/tools/resolver.html), so the page's script only puts the words in place. A test
holds these words against the server's page for random tricks in every language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.formats import parse
from companion.formats.parse import ApiError
from companion.rules import (
    Card,
    Message,
    Play,
    RuleError,
    TableSetup,
    can_pass,
    check_hat_trick_plays,
    check_trick_cards,
    only_a_pass,
    resolve_hat_trick,
    seat_order,
    table_setup,
    trick_winner,
)
from companion.rules.cards import card_of_token, card_token
from companion.rules.names_in_sentences import before_names
from companion.rules.text import N_
from companion.rules.variants import HAT_TRICK, variant_named
from companion.rules.wording import COLOUR_SYMBOLS, Reader, colour_words, say

#: More plays than any game seats (R2): a longer hidden field is not even read.
MOST_PLAYS = 8
#: A pass in the trick's hidden field: ``pass:green-3`` (R19).
PASS_PREFIX = "pass:"
#: The resolver's trick rules outside a game (the trump order decides, R8 or R13, or the
#: game, R19-R21): each is the preset whose rule it is.
TRICK_RULES = ("classic", "reverse", HAT_TRICK)


class TrickFieldError(RuleError):
    """A card or trick sent back by the page that cannot be used: not a card name (a forged
    form), or a pass after the trick rule changed from Hat Trick."""


def card_of_field(token: str) -> Card:
    """The card a chip of the resolver sent; anything else is refused in one sentence."""
    card = card_of_token(token)
    if card is None:
        raise TrickFieldError(
            Message(
                N_("%(token)s is not a card; cards are named like red-7."), {"token": token[:20]}
            )
        )
    return card


def write_trick(plays: Sequence[Play]) -> str:
    """The hidden field's text for ``plays``."""
    return " ".join((PASS_PREFIX if play.passed else "") + card_token(play.card) for play in plays)


def read_trick(text: str | None, setup: TableSetup) -> tuple[Play, ...]:
    """The plays in the hidden field, checked against the table's rules (raises RuleError)."""
    tokens = (text or "").split()
    if len(tokens) > MOST_PLAYS:
        raise TrickFieldError(Message(N_("A trick holds one card per player.")))
    plays = tuple(
        Play(card_of_field(token.removeprefix(PASS_PREFIX)), token.startswith(PASS_PREFIX))
        for token in tokens
    )
    check_plays(plays, setup)
    return plays


def check_plays(plays: Sequence[Play], setup: TableSetup) -> None:
    """C1, R2, R17, R19: refuse a card not in the deck in use, a card twice, too many plays,
    a third colour or a pass out of place. An empty trick is simply not started yet."""
    if not plays:
        return
    if setup.variant.has_passes:
        check_hat_trick_plays(plays, setup.deck, setup.players)
        return
    if any(play.passed for play in plays):
        raise TrickFieldError(
            Message(N_("Only Hat Trick has passes: in Sticheln every player plays a card (R6)."))
        )
    check_trick_cards([play.card for play in plays], setup.deck, setup.players)


def add_play(
    plays: Sequence[Play], token: str, passed: bool, setup: TableSetup
) -> tuple[Play, ...]:
    """The trick with one more play; a refused play raises RuleError and changes nothing.

    R19, as on the live page: once two colours are in a Hat Trick trick, a card of the third
    colour is a pass (``only_a_pass``). ``passed`` asks for a pass with any other card, which
    the rules then refuse; a pass is a Hat Trick play only.
    """
    card = card_of_field(token)
    passed = passed or only_a_pass(setup.variant, plays, card)
    played = (*plays, Play(card, passed and setup.variant.has_passes))
    check_plays(played, setup)
    return played


# --------------------------------------------------------------------------------------------
# The worker's call: one tap, and the trick in the table's words

#: The page's sentences (templates/tools/resolver.html and the trick macros of
#: templates/macros.html), looked up in the same catalogue.
WORDS = {
    "count": N_("%(played)s of %(players)s cards"),
    "empty": N_(
        "No card yet. Tap the cards below in the order they were played, starting with the "
        "lead card."
    ),
    "led": N_("led"),
    "passed": N_("passed, face down"),
    "takes_pile": N_("takes the pile"),
    "takes": N_("takes"),
    "winning": N_("winning"),
    "leads_next": N_("leads next"),
    "taken": N_("%(player)s takes the trick with %(card)s."),
    "taking": N_("Winning so far: %(player)s with %(card)s."),
    "pile": N_("%(player)s takes this pile with %(card)s (R20)."),
    "passes": N_("Passed (R19):"),
    "pass": N_("%(player)s, showing %(card)s"),
    "pass_hint": N_(
        "Two colours are in the trick: a card of the third colour is a pass, put face down "
        "(R19). Tap the card the player shows."
    ),
    "pass_cost": N_(
        "Each pass card stays face down in front of its player and costs 2 points (R22)."
    ),
    "will_lead": N_("%(player)s leads the next trick."),
    "would_lead": N_("So far %(player)s would lead the next trick."),
    "next": N_("Next to play: %(player)s."),
    "complete": N_("The trick is complete: one card per player."),
    "bar_leads": N_("Leads next: %(player)s"),
    "bar_would_lead": N_("Would lead next: %(player)s"),
    "bar_takes": N_("Takes the trick: %(player)s"),
    "bar_winning": N_("Winning so far: %(player)s"),
    "in_trick": N_("%(card)s (in the trick)"),
    "cleared": N_("The trick was cleared: %(reason)s"),
    "player": N_("Player %(number)s"),
}


def tap_answer(raw: Mapping[str, Any], reader: Reader) -> dict[str, object]:
    """``tricks/tap``: the trick after one tap, as the resolver page would show it.

    In: ``{"rule": "classic" | "reverse" | "hat-trick", "players": 4}`` outside a game, or
    ``{"variant": <the API's variant>, "names": [...], "leader": 0}`` for a game's table; then
    ``"trick"`` (the hidden field), ``"pass_next"`` (a pass asked for; a card of the third
    colour is a pass without it, R19) and ``"tap"``:
    ``{"add": "red-7"}``, ``{"undo": true}``, ``{"clear": true}`` or ``{}`` (the settings
    only).
    Settings the rules refuse (Hat Trick for 3, R17) raise, as the page's field errors do.
    """
    body = parse.fields(
        raw,
        "The request",
        ("trick", "tap"),
        ("pass_next", "rule", "players", "variant", "names", "leader"),
    )
    setup, players = _table(body, reader)
    tap = body["tap"]
    if not isinstance(tap, dict):
        raise ApiError('"tap" must be an object.')
    text = body["trick"] if isinstance(body["trick"], str) else ""
    try:
        plays, notice = read_trick(text, setup), None
    except RuleError as error:
        plays = ()
        notice = _word(reader, "cleared", reason=say(error.message, reader, _seat_names(body)))
    refusal = refused = None
    passing = body.get("pass_next") is True
    if tap.get("clear"):
        plays = ()
    elif tap.get("undo"):
        plays = plays[:-1]
    elif isinstance(tap.get("add"), str):
        try:
            plays = add_play(plays, tap["add"], passing, setup)
        except RuleError as error:
            refusal = say(error.message, reader, _seat_names(body))
            refused = tap["add"]
    return {
        "trick": write_trick(plays),
        "notice": notice,
        "refusal": refusal,
        "refused": refused,
        "hat_trick": setup.variant.has_passes,
        "pass_hint": _word(reader, "pass_hint") if can_pass(setup.variant, plays) else None,
        "deck": _deck(setup, reader),
        **_told(setup, players, plays, reader),
    }


def _table(body: Mapping[str, Any], reader: Reader) -> tuple[TableSetup, list[str]]:
    """The setup and the players in play order from the leader (R3, R9): the seats' names in
    a game, "Player 1" and on at a table the app does not know."""
    if "names" in body:
        names = [parse.string(name, "names") for name in parse.listing(body["names"], "names", 8)]
        setup = table_setup(len(names), parse.variant(body.get("variant")))
        leader = parse.integer(body.get("leader", 0), "leader", 0, len(names) - 1)
        return setup, [names[seat] for seat in seat_order(leader, len(names))]
    rule = body.get("rule")
    if rule not in TRICK_RULES:
        raise ApiError(f'"rule" must be one of {", ".join(TRICK_RULES)}.')
    setup = table_setup(parse.player_count(body.get("players")), variant_named(str(rule)))
    return setup, [_word(reader, "player", number=index + 1) for index in range(setup.players)]


def _seat_names(body: Mapping[str, Any]) -> list[str] | None:
    """The seats' names a refusal may name (a game's), else None: seats are then counted."""
    names = body.get("names")
    return [str(name) for name in names] if isinstance(names, list) else None


def _word(reader: Reader, key: str, **values: object) -> str:
    """One of the page's sentences, with the word before a name written as the reader's
    language writes it ("Tocca ad Ann"), as the page's templates write it."""
    text = reader.gettext(WORDS[key])
    return before_names(text, values, reader.language) % values if values else text


def _badge(reader: Reader, key: str, kind: str) -> dict[str, str]:
    """A badge beside a play: its words, and its kind for the page's colours."""
    return {"text": _word(reader, key), "kind": kind}


def card_words(card: Card, reader: Reader) -> str:
    """A card as the pages name it: "red 7"."""
    return f"{colour_words(card.colour, reader)} {card.value}"


def _deck(setup: TableSetup, reader: Reader) -> list[dict[str, object]]:
    """The chips to tap, a row per colour of the deck in use (R2, R17)."""
    rows: list[dict[str, object]] = []
    for colour in setup.deck.colours:
        cards = sorted(
            (card for card in setup.deck if card.colour == colour), key=lambda c: c.value
        )
        rows.append(
            {
                "colour": colour.value,
                "name": colour_words(colour, reader),
                "symbol": COLOUR_SYMBOLS[colour],
                "cards": [
                    {
                        "token": card_token(card),
                        "value": card.value,
                        "label": card_words(card, reader),
                    }
                    for card in cards
                ],
            }
        )
    return rows


def _told(
    setup: TableSetup, players: Sequence[str], plays: Sequence[Play], reader: Reader
) -> dict[str, object]:
    """Each place of the trick and what the page says of the trick (R7, R8, R13, R19-R21)."""
    places: list[dict[str, Any]] = [
        {"player": player, "badges": []} for player in players[: len(plays)]
    ]
    for index, play in enumerate(plays):
        places[index].update(
            token=card_token(play.card), label=card_words(play.card, reader), passed=play.passed
        )
    told: dict[str, object] = {
        "count": _word(reader, "count", played=len(plays), players=setup.players),
        "empty": _word(reader, "empty"),
        "complete": len(plays) == setup.players,
        "next": (
            _word(reader, "next", player=players[len(plays)])
            if len(plays) < setup.players
            else _word(reader, "complete")
        ),
        "in_trick": [_word(reader, "in_trick", card=card_words(p.card, reader)) for p in plays],
    }
    if plays:
        told.update(
            _hat_trick(players, plays, places, reader)
            if setup.variant.has_passes
            else _classic(setup, players, plays, places, reader)
        )
    if places:
        places[0]["badges"] = [_badge(reader, "led", "leads"), *places[0]["badges"]]
    told["plays"] = places
    return told


def _classic(
    setup: TableSetup,
    players: Sequence[str],
    plays: Sequence[Play],
    places: list[dict[str, Any]],
    reader: Reader,
) -> dict[str, object]:
    settings = setup.variant.settings
    assert settings is not None  # a trick without passes is of the classic family
    outcome = trick_winner([play.card for play in plays], settings.scoring)
    complete = len(plays) == setup.players
    winner = players[outcome.winner]
    card = card_words(outcome.card, reader)
    places[outcome.winner]["takes"] = True
    places[outcome.winner]["badges"] = [_badge(reader, "takes" if complete else "winning", "takes")]
    return {
        "winner": outcome.winner,
        "main": _word(reader, "taken" if complete else "taking", player=winner, card=card),
        "reason": say(outcome.reason, reader, players),
        "bar": _word(reader, "bar_takes" if complete else "bar_winning", player=winner),
    }


def _hat_trick(
    players: Sequence[str], plays: Sequence[Play], places: list[dict[str, Any]], reader: Reader
) -> dict[str, object]:
    """R20, R21: each pile's taker, the passes, and whose card decides the next lead."""
    outcome = resolve_hat_trick(plays)
    complete = len(plays) == len(players)
    for index, play in enumerate(plays):
        badges: list[dict[str, str]] = []
        if play.passed:
            badges.append(_badge(reader, "passed", ""))
        if any(pile.winner == index for pile in outcome.piles):
            places[index]["takes"] = True
            badges.append(_badge(reader, "takes_pile", "takes"))
        if index == outcome.next_leader:
            places[index]["leads_next"] = True
            badges.append(_badge(reader, "leads_next", "next"))
        places[index]["badges"] = badges
    leader = players[outcome.next_leader]
    passes = "; ".join(
        _word(reader, "pass", player=players[i], card=card_words(plays[i].card, reader))
        for i in outcome.passes
    )
    return {
        "winner": outcome.next_leader,
        "piles": [
            {
                "colour": pile.colour.value,
                "tokens": [card_token(card) for card in pile.cards],
                "taker": _word(
                    reader,
                    "pile",
                    player=players[pile.winner],
                    card=card_words(plays[pile.winner].card, reader),
                ),
            }
            for pile in outcome.piles
        ],
        "passes": f"{_word(reader, 'passes')} {passes}." if outcome.passes else None,
        "pass_cost": _word(reader, "pass_cost") if outcome.passes else None,
        "main": _word(reader, "will_lead" if complete else "would_lead", player=leader),
        "reason": say(outcome.reason, reader, players),
        "bar": _word(reader, "bar_leads" if complete else "bar_would_lead", player=leader),
    }
