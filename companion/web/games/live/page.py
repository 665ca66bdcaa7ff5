"""What the live page shows: the trick so far and who takes it (R7, R8, R13; Hat Trick
piles, R20, R21), the chips of the deck still to play (C6), each seat's captures (R9, R22)
and the round's scores once it is over."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask import get_flashed_messages, make_response, render_template, url_for
from flask.typing import ResponseReturnValue
from werkzeug.http import quote_etag

from companion.data import queries
from companion.data.models import Game, Round
from companion.data.states import GameStatus, RoundStatus
from companion.formats.live_page import deck_rows
from companion.read_models.chips import Chip, ChipGroup, card_token
from companion.read_models.messages import colour_name, colour_symbol, signed_number
from companion.read_models.scoreboard import chips_of_colours, next_game_code, ranked_standings
from companion.read_models.trick import TrickView
from companion.read_models.trick import trick_view as build_trick_view
from companion.rules import TableSetup, can_pass, seat_order
from companion.rules.hat_trick import Play
from companion.rules.live import LiveRound, PlayedTrick
from companion.web.games.entry.editing import names_of
from companion.web.games.live.unfinished_trick import trick_so_far
from companion.web.scoreboard_cache import live_etag

#: The flashed notes of the live page (a card or a trick taken back).
FLASH_CATEGORY = "live"


def trick_view(
    setup: TableSetup, names: Sequence[str], number: int, leader: int, plays: Sequence[Play]
) -> TrickView:
    """The trick led by ``leader`` with ``plays`` so far: one place per seat in play order,
    resolved by the rules (R7, R8, R13; Hat Trick piles and next leader, R20, R21)."""
    seats = seat_order(leader, setup.players)
    return build_trick_view(
        setup, [names[seat] for seat in seats], plays, seats=seats, number=number
    )


def recorded_trick_view(
    setup: TableSetup, names: Sequence[str], number: int, trick: PlayedTrick
) -> TrickView:
    """A trick already saved."""
    return trick_view(setup, names, number, trick.leader, trick.plays)


def chip_rows(
    setup: TableSetup,
    live: LiveRound,
    plays: Sequence[Play],
    hazy: bool,
    refused: str | None,
) -> tuple[ChipGroup, ...]:
    """The deck in use, a row per colour, as ``live_page.deck_rows`` offers it (C6, R15,
    R19): the same rows the phone draws offline."""
    return tuple(
        ChipGroup(
            row.colour.value,
            tuple(
                Chip.of(card, refused=card_token(card) == refused, out=state)
                for card, state in row.cards
            ),
            in_trick=row.in_trick,
            passes=row.passes,
        )
        for row in deck_rows(setup, live, plays, hazy)
    )


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


def seat_views(
    game: Game, round_: Round, live: LiveRound, names: Sequence[str]
) -> tuple[SeatView, ...]:
    """Each seat's capture pile (R9; Hat Trick: face-up cards per colour and passes, R22);
    indicators only where the scoreboard shows them (``queries.marked_of``, R15)."""
    setup = live.setup
    piles = live.capture_piles()
    passes = live.pass_cards()
    shows_marks = queries.marked_of(game, round_) is not None  # never while hazy (R15)
    playing = round_.status == RoundStatus.PLAYING
    won = live.tricks_won()
    views = []
    for seat, name in enumerate(names):
        views.append(
            SeatView(
                seat=seat,
                name=name,
                leads=playing and seat == live.leader,
                tricks=won[seat],
                cards=len(piles[seat]),
                marked=tuple(Chip.of(card) for card in live.marked[seat]) if shows_marks else (),
                held=tuple(
                    HeldCount(
                        colour.value,
                        colour_symbol(colour),
                        colour_name(colour),
                        sum(1 for card in piles[seat] if card.colour is colour),
                    )
                    for colour in setup.deck.colours
                )
                if setup.variant.has_passes
                else (),
                passes=len(passes[seat]),
            )
        )
    return tuple(views)


@dataclass(frozen=True)
class ScoreLine:
    """One seat's score of the finished round and its total after it."""

    name: str
    score: str
    total: str
    colours: tuple[Chip, ...]


def score_lines(game: Game, round_: Round, names: Sequence[str]) -> tuple[ScoreLine, ...]:
    """The round's scores, as stored when its last trick was played."""
    totals = queries.totals_of(game).per_round[round_.number - 1]
    results = {result.seat: result for result in round_.results}
    return tuple(
        ScoreLine(
            name=name,
            score=signed_number(results[seat].score),
            total=signed_number(totals[seat]),
            colours=chips_of_colours(results[seat].colour_names),
        )
        for seat, name in enumerate(names)
        if seat in results
    )


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


def game_result(game: Game, round_: Round, names: Sequence[str]) -> GameResult | None:
    """The game's result when ``round_`` is its last round and the game is finished (R11),
    else ``None``: an earlier round's page, or a game abandoned, shows no result."""
    if game.status != GameStatus.FINISHED or round_ is not game.rounds[-1]:
        return None
    totals = queries.totals_of(game)
    winners = set(totals.winners)
    return GameResult(
        winner_names=tuple(names[seat] for seat in sorted(winners)),
        winning_total=signed_number(totals.totals[min(winners)]),
        ranking=tuple(
            RankedSeat(
                rank=standing.rank or 1,
                name=names[standing.seat],
                total=signed_number(totals.totals[standing.seat]),
                wins=standing.seat in winners,
            )
            for standing in ranked_standings(totals.totals)
        ),
        next_game_code=next_game_code(game),
    )


# --------------------------------------------------------------------------------------------
# Rendering


def live_url(game: Game, round_: Round) -> str:
    """The live page of ``round_``."""
    return url_for("games.live_round", code=game.code, number=round_.number)


def render_live(
    game: Game,
    round_: Round,
    *,
    plays: Sequence[Play] | None = None,
    refusal: str | None = None,
    refused: str | None = None,
    conflict: bool = False,
    expired: bool = False,
    status: int = 200,
    etag: str | None = None,
) -> ResponseReturnValue:
    """The live page: the trick so far and who is winning it, the last trick, the chips of
    the deck, each seat's captures, and the round's scores once it is over.

    The page carries its ETag (``etag``, else the game's as it is now): live.js asks with
    it every few seconds and swaps in the page another phone's card changed."""
    if etag is None:
        etag = live_etag(game.code, round_.number)
    names = names_of(game)
    setup = queries.setup_of(game)
    live = queries.live_round_of(game, round_)
    if plays is None:
        plays = trick_so_far(game, round_)
    hazy = setup.variant.hides_marks
    complete = round_.status == RoundStatus.SCORED
    played = len(live.tricks)
    current = None
    if not complete:
        current = trick_view(setup, names, played + 1, live.leader, plays)
    last = recorded_trick_view(setup, names, played, live.tricks[-1]) if live.tricks else None
    hat_trick = setup.variant.has_passes
    page = render_template(
        "games/live.html",
        game=game,
        number=round_.number,
        setup=setup,
        hat_trick=hat_trick,
        hazy=hazy,
        complete=complete,
        tricks_played=played,
        current=current,
        last=last,
        rows=chip_rows(setup, live, plays, hazy, refused) if not complete else (),
        seats=seat_views(game, round_, live, names),
        scores=score_lines(game, round_, names) if complete else (),
        can_pass=can_pass(setup.variant, plays),
        last_trick_of_round=played == setup.tricks_per_round - 1,
        refusal=refusal,
        conflict=conflict,
        trick_cards=len(plays),
        expired=expired,
        notes=get_flashed_messages(category_filter=[FLASH_CATEGORY]),
        can_undo_trick=bool(live.tricks) and (not complete or round_ is game.rounds[-1]),
        game_over=game.status == GameStatus.FINISHED,
        result=game_result(game, round_, names) if complete else None,
        version=game.version,
        card_url=url_for("games.play_live_card", code=game.code, number=round_.number),
        undo_card_url=url_for("games.undo_live_card", code=game.code, number=round_.number),
        undo_trick_url=url_for("games.undo_live_trick", code=game.code, number=round_.number),
        scoreboard_url=url_for("games.scoreboard", code=game.code),
        poll_url=live_url(game, round_),
        etag=quote_etag(etag) if etag else "",
    )
    response = make_response(page, status)
    if etag and status == 200:
        response.set_etag(etag)
    # Back and forward must show the round as it is now, never a copy from before a trick.
    response.headers["Cache-Control"] = "no-store"
    return response
