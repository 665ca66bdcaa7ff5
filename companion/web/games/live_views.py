"""What the live page shows: the trick so far and who takes it (R7, R8, R13; Hat Trick
piles, R20, R21), the chips of the deck still to play (C6), each seat's captures (R9, R22)
and the round's scores once it is over."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import get_flashed_messages, make_response, render_template, url_for
from flask.typing import ResponseReturnValue

from companion.data import queries
from companion.data.models import Game, Round
from companion.data.states import GameStatus, RoundStatus
from companion.read_models.chips import Chip, ChipGroup, PileView, card_token
from companion.read_models.messages import colour_name, colour_symbol, render_message, signed_number
from companion.read_models.scoreboard import chips_of_colours
from companion.rules import TableSetup, can_pass, seat_order
from companion.rules.hat_trick import Play, resolve_hat_trick
from companion.rules.live import LiveRound, PlayedTrick
from companion.rules.tricks import trick_winner
from companion.web.games.round_state import names_of
from companion.web.games.unfinished_trick import load_partial

#: The flashed notes of the live page (a card or a trick taken back).
FLASH_CATEGORY = "live"


@dataclass(frozen=True)
class Slot:
    """One seat's place in a trick: its card once played, and what that card does."""

    seat: int
    name: str
    chip: Chip | None
    passed: bool = False
    takes: bool = False  # takes the trick (Hat Trick: a pile), or is winning it so far
    leads_next: bool = False  # Hat Trick: its player leads (or would lead) the next trick
    is_next: bool = False  # whose turn it is


@dataclass(frozen=True)
class TrickView:
    """A trick, complete or so far: the plays in order from its leader, and who takes it."""

    number: int
    slots: tuple[Slot, ...]
    complete: bool
    hat_trick: bool
    winner: str | None = None  # classic: who takes (or is winning); Hat Trick: who leads next
    card: str | None = None  # the card that does it
    reason: str | None = None
    piles: tuple[PileView, ...] = ()
    passes: tuple[Slot, ...] = ()

    @property
    def played(self) -> int:
        """How many players have played."""
        return sum(1 for slot in self.slots if slot.chip is not None)

    @property
    def next_slot(self) -> Slot | None:
        """The player whose turn it is, if the trick is not full."""
        return next((slot for slot in self.slots if slot.is_next), None)


def trick_view(
    setup: TableSetup,
    names: Sequence[str],
    number: int,
    leader: int,
    plays: Sequence[Play],
    complete: bool,
) -> TrickView:
    """The trick led by ``leader`` with ``plays`` so far, resolved by the rules: the trick
    winner (R7, R8, R13) or, for Hat Trick, each pile's taker and the next leader (R20, R21)."""
    players = setup.players
    order = seat_order(leader, players)
    hat_trick = setup.variant.has_passes
    takers: set[int] = set()
    leads_next = -1
    extra: dict[str, Any] = {}
    if plays and hat_trick:
        outcome = resolve_hat_trick(plays)
        takers = {pile.winner for pile in outcome.piles}
        leads_next = outcome.next_leader
        extra["piles"] = tuple(
            PileView(
                ChipGroup(pile.colour.value, tuple(Chip.of(card) for card in pile.cards)),
                taker=names[order[pile.winner]],
                card=Chip.of(plays[pile.winner].card),
            )
            for pile in outcome.piles
        )
        # The reason names players by their place in the trick (R21: who played the card).
        extra["reason"] = render_message(outcome.reason, [names[seat] for seat in order])
    elif plays:
        classic = setup.variant.settings
        assert classic is not None  # a trick without passes is of the classic family
        won = trick_winner([play.card for play in plays], classic.scoring)
        takers = {won.winner}
        leads_next = won.winner
        extra["reason"] = render_message(won.reason, names)
    slots = tuple(
        Slot(
            seat=seat,
            name=names[seat],
            chip=Chip.of(plays[index].card) if index < len(plays) else None,
            passed=index < len(plays) and plays[index].passed,
            takes=index in takers,
            leads_next=hat_trick and index == leads_next,
            is_next=not complete and index == len(plays),
        )
        for index, seat in enumerate(order)
    )
    if plays:
        extra["winner"] = names[order[leads_next]]
        extra["card"] = Chip.of(plays[leads_next].card).label
        extra["passes"] = tuple(slot for slot in slots if slot.passed)
    return TrickView(number, slots, complete, hat_trick, **extra)


def recorded_trick_view(
    setup: TableSetup, names: Sequence[str], number: int, trick: PlayedTrick
) -> TrickView:
    """A trick already saved."""
    return trick_view(setup, names, number, trick.leader, trick.plays, complete=True)


def chip_rows(
    setup: TableSetup,
    live: LiveRound,
    plays: Sequence[Play],
    hazy: bool,
    refused: str | None,
) -> tuple[ChipGroup, ...]:
    """The deck in use, a row per colour. Cards played this round, in the trick so far, or
    laid out as indicators are disabled, except face-down indicators (R15): disabling them
    would show them, so the rules refuse them only if they are entered (C6)."""
    laid_out = {card for cards in live.marked for card in cards}
    out = live.cards_out()
    in_trick = {play.card for play in plays}
    trick_colours = {play.card.colour for play in plays if not play.passed}
    two_colours = can_pass(setup.variant, plays)
    rows = []
    for colour in setup.deck.colours:
        chips = []
        for card in setup.deck:
            if card.colour is not colour:
                continue
            state = ""
            if card in in_trick:
                state = "in-trick"
            elif card in laid_out:
                state = "" if hazy else "laid-out"
            elif card in out:
                state = "played"
            chips.append(Chip.of(card, refused=card_token(card) == refused, out=state))
        rows.append(
            ChipGroup(colour.value, tuple(chips), in_trick=two_colours and colour in trick_colours)
        )
    return tuple(rows)


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
    views = []
    for seat, name in enumerate(names):
        won = sum(1 for trick in live.tricks if trick.winners == (seat,))
        views.append(
            SeatView(
                seat=seat,
                name=name,
                leads=playing and seat == live.leader,
                tricks=won,
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
    set_aside: int = 0,
    expired: bool = False,
    status: int = 200,
) -> ResponseReturnValue:
    """The live page: the trick so far and who is winning it, the last trick, the chips of
    the deck, each seat's captures, and the round's scores once it is over."""
    names = names_of(game)
    setup = queries.setup_of(game)
    live = queries.live_round_of(game, round_)
    if plays is None:
        plays, dropped = load_partial(game, round_)
        set_aside += dropped
    hazy = setup.variant.hides_marks
    complete = round_.status == RoundStatus.SCORED
    played = len(live.tricks)
    current = None
    if not complete:
        current = trick_view(setup, names, played + 1, live.leader, plays, complete=False)
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
        set_aside=set_aside,
        expired=expired,
        notes=get_flashed_messages(category_filter=[FLASH_CATEGORY]),
        can_undo_trick=bool(live.tricks) and (not complete or round_ is game.rounds[-1]),
        game_over=game.status == GameStatus.FINISHED,
        version=game.version,
        card_url=url_for("games.play_live_card", code=game.code, number=round_.number),
        undo_card_url=url_for("games.undo_live_card", code=game.code, number=round_.number),
        undo_trick_url=url_for("games.undo_live_trick", code=game.code, number=round_.number),
        scoreboard_url=url_for("games.scoreboard", code=game.code),
    )
    response = make_response(page, status)
    # Back and forward must show the round as it is now, never a copy from before a trick.
    response.headers["Cache-Control"] = "no-store"
    return response
