"""The live round's page model: what the live page shows of a round played trick by trick,
from the game's state in the JSON API's shape (DESIGN.md, "Games") — the trick so far and
who takes it (R7, R8, R13; Hat Trick piles, R20, R21), the chips of the deck still to play
(C6, R15, R19), each seat's captures (R9, R22), the round's scores once it is over and the
game's result when it ended the game (R11) — and the links and words its template takes from
its context.

The server builds the state from the database (companion/web/games/live/page.py); the phone's
rules worker from the last state the server sent plus the changes queued on the phone, the
cards of the unfinished trick among them (companion/play_state/offline_game.py). Both render
``templates/games/live_round.html`` with :func:`live_context`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from companion.pages.charts import signed_number
from companion.pages.render import link_citations
from companion.pages.scoreboard import (
    FINISHED,
    PLAYING,
    SCORED,
    Url,
    ranked_standings,
    variant_of,
)
from companion.pages.trick import (
    Chip,
    ChipGroup,
    TrickView,
    card_chip,
    colour_chip,
    colour_group,
    trick_view,
)
from companion.rules import Card, Colour, Play, TableSetup, can_pass, score_round, seat_order
from companion.rules.cards import card_token
from companion.rules.live import LiveRound
from companion.rules.table import table_setup
from companion.rules.wording import COLOUR_SYMBOLS, Reader, colour_words

#: A hazy round whose last trick was played on this phone, whose indicators the server
#: holds face down (R15): scored once it is sent (companion/play_state/offline_game.py).
AWAITING_SCORE = "awaiting_score"


# --------------------------------------------------------------------------------------------
# The round as the rules follow it


def card_of(item: Mapping[str, Any]) -> Card:
    """A card of the game state: ``{"colour": "red", "value": 7}``."""
    return Card(Colour.named(str(item["colour"])), int(item["value"]))


def plays_of(items: Sequence[Mapping[str, Any]] | None) -> tuple[Play, ...]:
    """A trick's cards as the game state holds them (Hat Trick's may be passes, R19)."""
    return tuple(Play(card_of(item), passed=bool(item.get("pass"))) for item in items or ())


def live_round_of(round_: Mapping[str, Any], setup: TableSetup) -> LiveRound:
    """The round as the rules follow it: its indicators as the state shows them (none while
    hazy, R15) and its tricks, each from the seat that led it (R9, R21)."""
    marked = tuple(tuple(card_of(card) for card in cards) for cards in round_.get("marked") or ())
    live = LiveRound(setup, int(round_["leader"]), marked)
    field = "plays" if setup.variant.has_passes else "cards"
    for trick in round_.get("tricks") or ():
        live.follow_recorded_lead(int(trick["leader"]))
        live.play_trick(plays_of(trick[field]))
    return live


# --------------------------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class HeldCount:
    """A Hat Trick seat's face-up cards of one colour (R22)."""

    colour: str
    symbol: str
    name: str
    count: int


@dataclass(frozen=True)
class SeatView:
    """One seat's round so far: tricks and cards captured, marked colours if shown."""

    seat: int
    name: str
    leads: bool
    tricks: int
    cards: int
    marked: tuple[Chip, ...]
    held: tuple[HeldCount, ...]
    passes: int


@dataclass(frozen=True)
class ScoreLine:
    """One seat's score of the finished round and its total after it."""

    name: str
    score: str
    total: str
    colours: tuple[Chip, ...]


@dataclass(frozen=True)
class RankedSeat:
    """A seat in the final ranking (R11): equal totals share a rank."""

    rank: int
    name: str
    total: str
    wins: bool


@dataclass(frozen=True)
class GameResult:
    """What the live page shows once its round ended the game: the winners, the final
    ranking, and the way on to the table's next game (started already, or to start)."""

    winner_names: tuple[str, ...]
    winning_total: str
    ranking: tuple[RankedSeat, ...]
    next_game_code: str | None


@dataclass(frozen=True)
class LivePage:
    """Everything the live page shows of round ``number``."""

    code: str
    number: int
    version: int
    tricks_per_round: int
    cards_laid_out: int
    hat_trick: bool
    hazy: bool
    complete: bool
    #: Every trick played on this phone, the round's hidden indicators with the server (R15).
    awaiting_score: bool
    tricks_played: int
    current: TrickView | None
    last: TrickView | None
    rows: tuple[ChipGroup, ...]
    seats: tuple[SeatView, ...]
    scores: tuple[ScoreLine, ...]
    can_pass: bool
    last_trick_of_round: bool
    trick_cards: int
    can_undo_trick: bool
    game_over: bool
    result: GameResult | None


def deck_rows(
    setup: TableSetup,
    live: LiveRound,
    plays: Sequence[Play],
    reader: Reader,
    refused: str | None = None,
) -> tuple[ChipGroup, ...]:
    """The deck in use, a row per colour. Cards played this round, in the trick so far, or
    laid out as indicators are out (C6), except face-down indicators (R15): marking them
    would show them, so the rules refuse them only if they are entered. Once two colours
    are in a Hat Trick trick, a card of the third is a pass (R19)."""
    hazy = setup.variant.hides_marks
    laid_out = {card for cards in live.marked for card in cards}
    out = live.cards_out()
    in_trick = {play.card for play in plays}
    trick_colours = {play.card.colour for play in plays if not play.passed}
    two_colours = can_pass(setup.variant, plays)
    rows = []
    for colour in setup.deck.colours:
        chips = []
        for card in (c for c in setup.deck if c.colour is colour):
            state = ""
            if card in in_trick:
                state = "in-trick"
            elif card in laid_out:
                state = "" if hazy else "laid-out"
            elif card in out:
                state = "played"
            chips.append(card_chip(card, reader, state, refused=card_token(card) == refused))
        played_here = colour in trick_colours
        rows.append(
            colour_group(
                colour, chips, reader, two_colours and played_here, two_colours and not played_here
            )
        )
    return tuple(rows)


def seat_views(
    setup: TableSetup,
    round_: Mapping[str, Any],
    live: LiveRound,
    names: Sequence[str],
    reader: Reader,
) -> tuple[SeatView, ...]:
    """Each seat's capture pile (R9; Hat Trick: face-up cards per colour and passes, R22);
    indicators only where the scoreboard shows them (never while hazy, R15)."""
    piles = live.capture_piles()
    passes = live.pass_cards()
    shows_marks = round_.get("marked") is not None
    playing = round_["status"] == PLAYING and not round_.get(AWAITING_SCORE)
    won = live.tricks_won()
    views = []
    for seat, name in enumerate(names):
        held: tuple[HeldCount, ...] = ()
        if setup.variant.has_passes:
            held = tuple(
                HeldCount(
                    colour.value,
                    COLOUR_SYMBOLS[colour],
                    colour_words(colour, reader),
                    sum(1 for card in piles[seat] if card.colour is colour),
                )
                for colour in setup.deck.colours
            )
        views.append(
            SeatView(
                seat=seat,
                name=name,
                leads=playing and seat == live.leader,
                tricks=won[seat],
                cards=len(piles[seat]),
                marked=tuple(card_chip(card, reader) for card in live.marked[seat])
                if shows_marks
                else (),
                held=held,
                passes=len(passes[seat]),
            )
        )
    return tuple(views)


def score_lines(
    state: Mapping[str, Any],
    setup: TableSetup,
    round_: Mapping[str, Any],
    live: LiveRound,
    names: Sequence[str],
    reader: Reader,
) -> tuple[ScoreLine, ...]:
    """The round's scores, each seat's total after it, and the colours each scored with
    (R10-R16, R22)."""
    number = int(round_["number"])
    totals = [0] * len(names)
    for earlier in state["rounds"]:
        if earlier["status"] == SCORED and int(earlier["number"]) <= number:
            totals = [total + score for total, score in zip(totals, earlier["scores"], strict=True)]
    seats = score_round(setup, live.entries()).seats
    return tuple(
        ScoreLine(
            name=name,
            score=signed_number(int(round_["scores"][seat])),
            total=signed_number(totals[seat]),
            colours=tuple(colour_chip(colour, reader) for colour in seats[seat].colours),
        )
        for seat, name in enumerate(names)
    )


def game_result(
    state: Mapping[str, Any], names: Sequence[str], next_game_code: str | None
) -> GameResult:
    """The game's winners and final ranking (R11): equal totals share a rank."""
    totals = [int(total) for total in state["totals"]]
    winners = sorted(int(seat) for seat in state["winners"])
    return GameResult(
        winner_names=tuple(names[seat] for seat in winners),
        winning_total=signed_number(totals[winners[0]]),
        ranking=tuple(
            RankedSeat(
                rank=standing.rank or 1,
                name=names[standing.seat],
                total=signed_number(totals[standing.seat]),
                wins=standing.seat in winners,
            )
            for standing in ranked_standings(totals)
        ),
        next_game_code=next_game_code,
    )


def live_page_of(
    state: Mapping[str, Any],
    number: int,
    reader: Reader,
    next_game_code: str | None = None,
    plays: Sequence[Play] | None = None,
    refused: str | None = None,
) -> LivePage:
    """The live page of round ``number`` of the game in ``state``, in the reader's words;
    ``plays`` in its unfinished trick (by default the state's own), ``refused`` the card
    the rules just turned down. The table's next game, which the state does not hold, the
    caller gives."""
    names = [str(name) for name in state["players"]]
    setup = table_setup(len(names), variant_of(state["variant"]))
    round_ = state["rounds"][number - 1]
    live = live_round_of(round_, setup)
    scored = round_["status"] == SCORED
    awaiting = bool(round_.get(AWAITING_SCORE))
    complete = scored or awaiting
    if plays is None:
        plays = plays_of(round_.get("trick_so_far")) if not complete else ()
    played = len(live.tricks)
    current = None
    if not complete:
        leader = live.leader
        seats = seat_order(leader, setup.players)
        current = trick_view(
            setup, [names[seat] for seat in seats], plays, reader, seats, played + 1
        )
    last = None
    if live.tricks:
        trick = live.tricks[-1]
        seats = seat_order(trick.leader, setup.players)
        last = trick_view(
            setup, [names[seat] for seat in seats], trick.plays, reader, seats, played
        )
    last_round = int(state["rounds"][-1]["number"]) == number
    finished = state["status"] == FINISHED
    return LivePage(
        code=str(state["id"]),
        number=number,
        version=int(state["version"]),
        tricks_per_round=setup.tricks_per_round,
        cards_laid_out=setup.cards_laid_out,
        hat_trick=setup.variant.has_passes,
        hazy=setup.variant.hides_marks,
        complete=complete,
        awaiting_score=awaiting and not scored,
        tricks_played=played,
        current=current,
        last=last,
        rows=deck_rows(setup, live, plays, reader, refused) if not complete else (),
        seats=seat_views(setup, round_, live, names, reader),
        scores=score_lines(state, setup, round_, live, names, reader) if scored else (),
        can_pass=can_pass(setup.variant, plays),
        last_trick_of_round=played == setup.tricks_per_round - 1,
        trick_cards=len(plays),
        can_undo_trick=bool(live.tricks) and (not complete or last_round),
        game_over=finished,
        result=game_result(state, names, next_game_code)
        if scored and finished and last_round
        else None,
    )


# --------------------------------------------------------------------------------------------
# The links and what the phone is told


def live_context(
    page: LivePage,
    url: Url,
    csrf_token: str,
    notes: Sequence[str] = (),
    refusal: str | None = None,
    conflict: bool = False,
    expired: bool = False,
    etag: str = "",
) -> dict[str, Any]:
    """What ``games/live_round.html`` takes: the page, its links (``url``), the CSRF token
    of its forms, the notes of the last change made here (``notes``), the refusal of the
    last tap, and whether another phone changed the game first (``conflict``) or the form
    sent had expired (``expired``). ``etag``: the page's, for live.js to ask again with."""
    code, number = page.code, page.number
    rules_url = url("rulebook.rules")
    context = {field.name: getattr(page, field.name) for field in fields(page)}
    context.update(
        form_token=csrf_token,
        notes=list(notes),
        refusal=refusal,
        conflict=conflict,
        expired=expired,
        etag=etag,
        rulings=lambda text: link_citations(text, rules_url),
        card_url=url("games.play_live_card", code=code, number=number),
        undo_card_url=url("games.undo_live_card", code=code, number=number),
        undo_trick_url=url("games.undo_live_trick", code=code, number=number),
        scoreboard_url=url("games.scoreboard", code=code),
        poll_url=url("games.live_round", code=code, number=number),
        next_game_url=url("games.next_game", code=code),
        play_again_url=url("games.play_again", code=code),
    )
    return context
