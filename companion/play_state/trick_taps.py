"""The trick resolver's trick: its hidden field and a tap on it.

The resolver page (companion/web/tools) and the offline rules worker (its page
``pages/resolver``) read the trick field and apply a tap with these same functions, then
draw the page with the same page model (companion/pages/resolver.py), so a forged field or
a refused card is refused offline with the words the server's page uses. The field travels
as ``red-7 blue-9 pass:green-3`` and is checked again with ``companion.rules`` at every tap
(C1, R19): it is never believed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.play_state import parse
from companion.play_state.parse import ApiError
from companion.rules import (
    Card,
    Message,
    Play,
    RuleError,
    TableSetup,
    check_hat_trick_plays,
    check_trick_cards,
    only_a_pass,
    table_setup,
)
from companion.rules.cards import card_of_token, card_token
from companion.rules.text import N_
from companion.rules.variants import HAT_TRICK, variant_named
from companion.rules.wording import Reader, colour_words

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


@dataclass(frozen=True)
class Tapped:
    """The trick after a tap: ``cleared`` says why the trick sent back was dropped (it no
    longer fits the table), ``refusal`` why the tapped card ``refused`` was not added (the
    trick is then as it was)."""

    plays: tuple[Play, ...]
    cleared: Message | None = None
    refusal: Message | None = None
    refused: str | None = None

    @property
    def field(self) -> str:
        """The hidden field's text after the tap."""
        return write_trick(self.plays)


def tap(
    setup: TableSetup,
    text: str | None,
    add: str | None = None,
    undo: bool = False,
    clear: bool = False,
    passing: bool = False,
) -> Tapped:
    """Read the trick sent back, then clear it, undo its last card or add the tapped card
    (a pass if it shows the third colour, R19); no tap at all only reads it (the settings
    changed). A refused card leaves the trick as it was."""
    try:
        plays, cleared = read_trick(text, setup), None
    except RuleError as error:
        plays, cleared = (), error.message
    if clear:
        return Tapped((), cleared)
    if undo:
        return Tapped(plays[:-1], cleared)
    if not add:
        return Tapped(plays, cleared)
    try:
        return Tapped(add_play(plays, add, passing, setup), cleared)
    except RuleError as error:
        return Tapped(plays, cleared, error.message, add)


def card_words(card: Card, reader: Reader) -> str:
    """A card as the pages name it: "red 7"."""
    return f"{colour_words(card.colour, reader)} {card.value}"


# --------------------------------------------------------------------------------------------
# The table, as the phone's worker is asked for it


@dataclass(frozen=True)
class TrickTable:
    """Where the trick is played: the setup in use and, inside a game, the seats' names in
    seating order and the seat leading this trick."""

    setup: TableSetup
    names: tuple[str, ...] = ()
    leader: int = 0


def asked_table(body: Mapping[str, Any]) -> TrickTable:
    """``{"rule": "classic" | "reverse" | "hat-trick", "players": 4}`` outside a game, or
    ``{"variant": <the API's variant>, "names": [...], "leader": 0}`` for a game's table.
    Settings the rules refuse (Hat Trick for 3, R17) raise, as the page's field errors do."""
    if "names" in body:
        names = [parse.string(name, "names") for name in parse.listing(body["names"], "names", 8)]
        setup = table_setup(len(names), parse.variant(body.get("variant")))
        leader = parse.integer(body.get("leader", 0), "leader", 0, len(names) - 1)
        return TrickTable(setup, tuple(names), leader)
    rule = body.get("rule")
    if rule not in TRICK_RULES:
        raise ApiError(f'"rule" must be one of {", ".join(TRICK_RULES)}.')
    return TrickTable(
        table_setup(parse.player_count(body.get("players")), variant_named(str(rule)))
    )
