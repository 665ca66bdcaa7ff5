"""The trick resolver's page model: the trick so far (R7, R8, R13; Hat Trick's piles, passes
and next leader, R19-R21), the chips of the deck to tap (R2, R17), and the links and words
its template (``templates/tools/resolver_trick.html``) takes from its context.

The resolver stores nothing: its state is the table (the variant and the players in play
order from the leader) and the cards played so far, read and tapped by
``companion.play_state.trick_taps``. The server builds the model on every post
(companion/web/tools/routes.py); the phone's rules worker offline, from the same state, and
both render the same template with :func:`resolver_context`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup

from companion.pages.render import link_citations
from companion.pages.trick import ChipGroup, TrickView, card_chip, colour_group, trick_view
from companion.rules import Card, Message, Play, TableSetup, can_pass
from companion.rules.text import N_
from companion.rules.wording import Reader, say

#: Outside a game the players are counted from the leader (the code counts them from 0).
PLAYER_WORDS = N_("Player %(number)s")

#: Builds a page's link: an endpoint's name and its values (``url_for``, or the route map).
Url = Callable[..., str]


@dataclass(frozen=True)
class Resolver:
    """The resolver's trick and deck after a tap: ``refusal`` says why a tapped card
    (``refused``) was not added, ``cleared`` why a trick sent back no longer fits."""

    trick: TrickView
    groups: tuple[ChipGroup, ...]
    can_pass: bool
    refusal: str | None = None
    refused: str | None = None
    cleared: str | None = None


def players_in_order(
    setup: TableSetup, reader: Reader, names: Sequence[str] = (), leader: int = 0
) -> list[str]:
    """Who plays the trick's places, clockwise from the leader (R3, R9): the seats' names in
    a game, "Player 1" and on at a table the app does not know."""
    if names:
        return [names[(leader + index) % len(names)] for index in range(len(names))]
    return [reader.gettext(PLAYER_WORDS) % {"number": index + 1} for index in range(setup.players)]


def deck_rows(setup: TableSetup, reader: Reader) -> tuple[ChipGroup, ...]:
    """The chips to tap, a row per colour of the deck in use (R2, R17), lowest first."""
    rows = []
    for colour in setup.deck.colours:
        cards = sorted((card for card in setup.deck if card.colour is colour), key=_value)
        rows.append(colour_group(colour, [card_chip(card, reader) for card in cards], reader))
    return tuple(rows)


def _value(card: Card) -> int:
    return card.value


def resolver_of(
    setup: TableSetup,
    players: Sequence[str],
    plays: Sequence[Play],
    reader: Reader,
    refusal: Message | None = None,
    refused: str | None = None,
    cleared: Message | None = None,
    names: Sequence[str] | None = None,
) -> Resolver:
    """The resolver's trick and deck, in the reader's words; a refusal and a cleared
    trick's reason name players as the table knows them (``names`` in seat order)."""
    return Resolver(
        trick=trick_view(setup, players, plays, reader),
        groups=deck_rows(setup, reader),
        can_pass=can_pass(setup.variant, plays),
        refusal=say(refusal, reader, names) if refusal is not None else None,
        refused=refused if refusal is not None else None,
        cleared=say(cleared, reader, names) if cleared is not None else None,
    )


# --------------------------------------------------------------------------------------------
# The rulings a sentence cites, and the context


def rulings_linked(rules_url: str) -> Callable[[object], Markup]:
    """A sentence HTML-escaped, each ruling it cites ("R7", "C3") a link to its anchor on
    the rules page at ``rules_url`` (numbers that name no ruling stay plain text)."""
    return lambda text: link_citations(text, rules_url)


def resolver_context(page: Resolver, url: Url, notice: str | None = None) -> dict[str, object]:
    """What ``tools/resolver_trick.html`` takes: the trick and deck, the notice above the
    trick (an expired form's, else a cleared trick's), the rulings linked with ``url``."""
    return {
        "resolver": page,
        "view": page.trick,
        "notice": notice,
        "rulings": rulings_linked(url("rulebook.rules")),
    }
