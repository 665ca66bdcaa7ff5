"""The live round: a round entered card by card as it is played (C6, R9, R19-R22).

A trick is saved when its last card is entered (``services.play_live_trick``), and the round
is scored by itself after the last trick. The cards of the unfinished trick are kept in this
phone's session, keyed by game and round and tied to the game's version they were entered
on: if another phone changes the game meanwhile, they are set aside (and the page says so)
rather than added to a trick that has moved on. Every card is checked by the rules as it is
entered, so a wrong card is refused at once, naming the player and the card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import (
    flash,
    get_flashed_messages,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlalchemy.orm.exc import StaleDataError
from wtforms import BooleanField, StringField

from companion import services
from companion.data import queries
from companion.data.models import Game, Round, db
from companion.data.states import GameStatus, RoundMode, RoundStatus
from companion.read_models.chips import Chip as ColourChip
from companion.read_models.messages import colour_name, colour_symbol, render_message, signed_number
from companion.read_models.scoreboard import chips_of_colours
from companion.rules import RuleError, TableSetup, can_pass, round_leader, seat_order
from companion.rules.hat_trick import Play, resolve_hat_trick
from companion.rules.live import LiveRound, PlayedTrick
from companion.rules.tricks import trick_winner
from companion.web.games import bp
from companion.web.games.round_clash import (
    clash_page,
    marks_clash,
    round_numbered,
    start_clash,
    what_happened,
)
from companion.web.games.round_forms import (
    Kind,
    RoundForm,
    VersionForm,
    card_of_token,
    card_token,
)
from companion.web.games.round_pages import (
    CardChip,
    Outcome,
    chip,
    editable_game,
    game_now,
    names_of,
    not_next_notice,
    notice_page,
    number_to_record,
    readable,
    render_round_page,
    saved,
    why_no_round_to_record,
)
from companion.web.security import csrf

#: Where the session keeps the unfinished tricks entered on this phone.
PARTIAL_TRICKS = "live_partial_tricks"
#: A phone follows one live round at a time; a few more are kept, the oldest dropped first.
MAX_PARTIAL_TRICKS = 4
#: The flashed notes of the live page (a card or a trick taken back).
FLASH_CATEGORY = "live"


class LiveCardForm(VersionForm):
    """A tapped chip: the card, whether it is a Hat Trick pass (R19), and the version."""

    card = StringField()
    pass_next = BooleanField()


# --------------------------------------------------------------------------------------------
# The unfinished trick, kept in this phone's session


def _partial_id(game: Game, round_: Round) -> str:
    return f"{game.code}/{round_.number}"


def load_partial(game: Game, round_: Round) -> tuple[list[Play], int]:
    """The plays of the unfinished trick entered on this phone, and how many plays were set
    aside because the game changed since they were entered (another phone saved a trick)."""
    stored = session.get(PARTIAL_TRICKS, {}).get(_partial_id(game, round_))
    if not isinstance(stored, dict):
        return [], 0
    plays = []
    for item in stored.get("plays", []):
        card = card_of_token(str(item[0])) if isinstance(item, list) and item else None
        if card is not None:
            plays.append(Play(card, bool(item[1]) if len(item) > 1 else False))
    if stored.get("version") == game.version and round_.status == RoundStatus.PLAYING:
        return plays, 0
    clear_partial(game, round_)
    return [], len(plays)


def store_partial(game: Game, round_: Round, plays: Sequence[Play]) -> None:
    """Keep the unfinished trick for the next page, tied to the game's current version."""
    partials = dict(session.get(PARTIAL_TRICKS, {}))
    partials.pop(_partial_id(game, round_), None)
    partials[_partial_id(game, round_)] = {
        "version": game.version,
        "plays": [[card_token(play.card), play.passed] for play in plays],
    }
    while len(partials) > MAX_PARTIAL_TRICKS:
        partials.pop(next(iter(partials)))
    session[PARTIAL_TRICKS] = partials


def clear_partial(game: Game, round_: Round) -> None:
    """Forget the unfinished trick (it was saved, taken back or overtaken)."""
    partials = dict(session.get(PARTIAL_TRICKS, {}))
    if partials.pop(_partial_id(game, round_), None) is not None:
        session[PARTIAL_TRICKS] = partials


def check_next_play(live: LiveRound, plays: Sequence[Play]) -> None:
    """The rules' checks of the trick so far, as each card is entered (C1, C6, R19)."""
    live.check_partial_trick(plays)


# --------------------------------------------------------------------------------------------
# What the live page shows


@dataclass(frozen=True)
class Slot:
    """One seat's place in a trick: its card once played, and what that card does."""

    seat: int
    name: str
    chip: CardChip | None
    passed: bool = False
    takes: bool = False  # takes the trick (Hat Trick: a pile), or is winning it so far
    leads_next: bool = False  # Hat Trick: its player leads (or would lead) the next trick
    is_next: bool = False  # whose turn it is


@dataclass(frozen=True)
class PileView:
    """A Hat Trick pile: its colour and who takes it with which card (R20)."""

    colour: str
    name: str
    symbol: str
    taker: str
    card: str
    count: int


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
                colour=pile.colour.value,
                name=colour_name(pile.colour),
                symbol=colour_symbol(pile.colour),
                taker=names[order[pile.winner]],
                card=chip(plays[pile.winner].card, False).label,
                count=len(pile.cards),
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
            chip=chip(plays[index].card, False) if index < len(plays) else None,
            passed=index < len(plays) and plays[index].passed,
            takes=index in takers,
            leads_next=hat_trick and index == leads_next,
            is_next=not complete and index == len(plays),
        )
        for index, seat in enumerate(order)
    )
    if plays:
        extra["winner"] = names[order[leads_next]]
        extra["card"] = chip(plays[leads_next].card, False).label
        extra["passes"] = tuple(slot for slot in slots if slot.passed)
    return TrickView(number, slots, complete, hat_trick, **extra)


def recorded_trick_view(
    setup: TableSetup, names: Sequence[str], number: int, trick: PlayedTrick
) -> TrickView:
    """A trick already saved."""
    return trick_view(setup, names, number, trick.leader, trick.plays, complete=True)


@dataclass(frozen=True)
class LiveChip:
    """A card of the deck as a button: disabled once it is out of every hand (C6)."""

    chip: CardChip
    state: str  # "" (may be played), "played", "laid-out" or "in-trick"
    refused: bool

    @property
    def disabled(self) -> bool:
        """Whether the chip cannot be tapped."""
        return bool(self.state)


@dataclass(frozen=True)
class ChipRow:
    """The chips of one colour of the deck in use."""

    colour: str
    name: str
    symbol: str
    chips: tuple[LiveChip, ...]
    in_trick: bool  # Hat Trick: one of the trick's two colours (a pass shows the third)


def chip_rows(
    setup: TableSetup,
    live: LiveRound,
    plays: Sequence[Play],
    hazy: bool,
    refused: str | None,
) -> tuple[ChipRow, ...]:
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
            chips.append(LiveChip(chip(card, False), state, card_token(card) == refused))
        rows.append(
            ChipRow(
                colour=colour.value,
                name=colour_name(colour),
                symbol=colour_symbol(colour),
                chips=tuple(chips),
                in_trick=two_colours and colour in trick_colours,
            )
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
    marked: tuple[CardChip, ...]
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
                marked=tuple(chip(card, False) for card in live.marked[seat])
                if shows_marks
                else (),
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
    colours: tuple[ColourChip, ...]


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


def live_or_notice(game: Game, round_: Round) -> ResponseReturnValue | None:
    """``None`` if ``round_`` can be followed live now; otherwise the page saying why not."""
    title = gettext("Round %(number)s, live", number=round_.number)
    try:
        services.live_round(game, round_.number)
    except services.ServiceError as error:
        return notice_page(game, title, render_message(error.text, names_of(game)))
    if game.status == GameStatus.ABANDONED:
        return notice_page(
            game, title, gettext("This game was abandoned, so it takes no more rounds.")
        )
    return None


def refused_form(
    game: Game, round_: Round, form: VersionForm, allow_scored: bool = False
) -> ResponseReturnValue | None:
    """``None`` when a posted live form may be acted on. Otherwise the live page saying why
    not, nothing saved: an expired form, a state of the game that is no longer current
    (another phone changed it: the unfinished trick entered here is set aside), or a
    round that is already over."""
    if not form.validate():
        if form.csrf_token.errors:
            return render_live(game, round_, expired=True, status=400)
        message = gettext("This page did not say which state of the game it showed; reload it.")
        return render_live(game, round_, refusal=message, status=400)
    if form.version.data != game.version:
        return conflict_page(game, round_)
    if round_.status == RoundStatus.SCORED and not allow_scored:
        message = gettext(
            "Round %(number)s is over: all its tricks are played.", number=round_.number
        )
        return render_live(game, round_, refusal=message, status=422)
    return None


def conflict_page(game: Game, round_: Round) -> ResponseReturnValue:
    """Another phone changed the game: nothing from this phone was saved; the round is
    shown as it is now (an unfinished trick entered on an older state is set aside)."""
    db.session.rollback()
    return render_live(game, round_, conflict=True, status=409)


# --------------------------------------------------------------------------------------------
# The pages


@bp.route("/g/<code>/rounds/live", methods=["GET", "POST"], endpoint="start_live_round")
def start_live_round(code: str) -> ResponseReturnValue:
    """Start the next round live: with each seat's indicator cards when the variant lays
    them out (R4, R14; hidden if hazy, R15), with the colours already marked on the mark
    page, or with nothing (delayed, Hat Trick)."""
    game = editable_game(code)
    taken = started_elsewhere(game) if request.method == "POST" else None
    if taken is not None:
        return taken
    playing = queries.playing_round(game)
    if playing is not None and playing.mode == RoundMode.LIVE:
        return redirect(live_url(game, playing))
    blocked = why_no_round_to_record(game)
    if blocked:
        return notice_page(game, gettext("Play this round live"), blocked)
    setup = queries.setup_of(game)
    if setup.cards_laid_out and playing is None:
        return start_with_indicators(game, setup)
    return start_without_indicators(game, setup, playing)


def started_elsewhere(game: Game) -> ResponseReturnValue | None:
    """A start form belongs to the round it was opened for. ``None`` while that round can
    still be started here (or the page did not say which); otherwise nothing is saved and
    the conflict view says that the round was marked, started or recorded elsewhere."""
    meant = VersionForm().meant
    if meant is None:
        return None
    round_ = round_numbered(game, meant)
    with_indicators = any(name.endswith("-marked") for name in request.form)
    title = gettext("Play round %(number)s live", number=meant)
    if round_ is None or (what_happened(round_) == "marked" and not with_indicators):
        return None if meant == number_to_record(game) else not_next_notice(game, meant, title)
    if not with_indicators:
        return clash_page(game, start_clash(game, round_, title))
    setup = queries.setup_of(game)
    form = RoundForm.build(Kind.MARK, setup, game.version)
    keep = (gettext("Keep theirs"), url_for("games.start_live_round", code=game.code))
    return clash_page(game, marks_clash(game, form, round_, title, keep))


def start_with_indicators(game: Game, setup: TableSetup) -> ResponseReturnValue:
    """The mark-colours chips, then the live page (C1, C2 checked before anything is saved)."""
    form = RoundForm.build(Kind.MARK, setup, game.version, number=number_to_record(game))
    outcome = Outcome()
    opened: list[Round] = []
    if request.method == "POST" and readable(form, outcome):

        def open_round() -> None:
            opened.append(services.open_live_round(game, form.version, form.marked()))

        if saved(game, form, outcome, open_round):
            return redirect(live_url(game, opened[0]))
        taken = started_elsewhere(game) if outcome.conflict else None
        if taken is not None:
            return taken
    return render_round_page(
        "games/live_start.html", game, form, outcome, with_indicators=True, **now_live(game)
    )


def start_without_indicators(
    game: Game, setup: TableSetup, playing: Round | None
) -> ResponseReturnValue:
    """One button: the round's colours are marked already, or the variant lays none out."""
    shown = {"version": game.version, "number": number_to_record(game)}
    form = VersionForm() if request.method == "POST" else VersionForm(data=shown)
    problems: list[str] = []
    conflict = None
    status = 200
    if request.method == "POST":
        if not form.validate():
            status = 400
            problems.append(
                gettext(
                    "This page was open for a long time or did not come from this app, so "
                    "nothing was saved. Please send it again."
                )
            )
        else:
            try:
                round_ = services.open_live_round(game, form.version.data, None)
                db.session.commit()
                return redirect(live_url(game, round_))
            except (services.StaleVersion, StaleDataError):
                db.session.rollback()
                taken = started_elsewhere(game)
                if taken is not None:
                    return taken
                conflict = game_now(game)
                status = 409
            except RuleError as error:
                db.session.rollback()
                problems.append(render_message(error.message, names_of(game)))
                status = 422
            except services.ServiceError as error:
                db.session.rollback()
                problems.append(render_message(error.text, names_of(game)))
                status = 422
        form.version.data = game.version  # the next try is based on the game as shown
        form.version.raw_data = [str(game.version)]
    playing = queries.playing_round(game)
    number = playing.number if playing is not None else len(game.rounds) + 1
    leader = round_leader(number, game.first_leader, setup.players)
    page = render_template(
        "games/live_start.html",
        game=game,
        form=form,
        with_indicators=False,
        marked_already=playing is not None and setup.cards_laid_out > 0,
        hat_trick=setup.variant.has_passes,
        setup=setup,
        number=number,
        leader_name=names_of(game)[leader],
        hazy=setup.variant.hides_marks,
        conflict=conflict,
        problems=problems,
        scoreboard_url=url_for("games.scoreboard", code=game.code),
        **now_live(game),
    )
    return page, status


def now_live(game: Game) -> dict[str, Any]:
    """After a conflict: the live round another phone started, if any, to continue it."""
    playing = queries.playing_round(game)
    live = playing if playing is not None and playing.mode == RoundMode.LIVE else None
    return {"continue_url": live_url(game, live) if live is not None else None}


@bp.get("/g/<code>/rounds/<int:number>/live", endpoint="live_round")
def live_round(code: str, number: int) -> ResponseReturnValue:
    """The live round: whose turn it is, the trick so far, and the cards left to play."""
    game = editable_game(code)
    round_ = services.round_of(game, number)
    return live_or_notice(game, round_) or render_live(game, round_)


@bp.post("/g/<code>/rounds/<int:number>/live/card", endpoint="play_live_card")
def play_live_card(code: str, number: int) -> ResponseReturnValue:
    """Add the tapped card to the trick (checked at once: C1, C6, R19); the last card of a
    trick saves it (R9, R21), and the last trick scores the round."""
    game = editable_game(code)
    round_ = services.round_of(game, number)
    form = LiveCardForm()
    refused = live_or_notice(game, round_) or refused_form(game, round_, form)
    if refused is not None:
        return refused
    setup = queries.setup_of(game)
    plays, set_aside = load_partial(game, round_)
    card = card_of_token(form.card.data or "")
    if card is None:
        message = gettext("“%(value)s” is not a card.", value=(form.card.data or "")[:20])
        return render_live(
            game, round_, plays=plays, refusal=message, set_aside=set_aside, status=422
        )
    play = Play(card, passed=setup.variant.has_passes and bool(form.pass_next.data))
    live = queries.live_round_of(game, round_)
    try:
        check_next_play(live, [*plays, play])
    except RuleError as error:
        return render_live(
            game,
            round_,
            plays=plays,
            refusal=render_message(error.message, names_of(game)),
            refused=card_token(card),
            set_aside=set_aside,
            status=422,
        )
    plays.append(play)
    if len(plays) < setup.players:
        store_partial(game, round_, plays)
        return redirect(live_url(game, round_))
    try:
        services.play_live_trick(game, number, game.version, plays)
        db.session.commit()
    except (services.StaleVersion, StaleDataError):
        return conflict_page(game, round_)
    except RuleError as error:
        db.session.rollback()
        message = render_message(error.message, names_of(game))
        return render_live(game, round_, plays=plays[:-1], refusal=message, status=422)
    except services.ServiceError as error:
        db.session.rollback()
        message = render_message(error.text, names_of(game))
        return render_live(game, round_, plays=plays[:-1], refusal=message, status=422)
    clear_partial(game, round_)
    return redirect(live_url(game, round_))


@bp.post("/g/<code>/rounds/<int:number>/live/undo-card", endpoint="undo_live_card")
def undo_live_card(code: str, number: int) -> ResponseReturnValue:
    """Take back the last card of the unfinished trick (nothing is saved yet)."""
    game = editable_game(code)
    round_ = services.round_of(game, number)
    form = VersionForm()
    refused = live_or_notice(game, round_) or refused_form(game, round_, form)
    if refused is not None:
        return refused
    plays, set_aside = load_partial(game, round_)
    if not plays:
        message = gettext("This trick has no card yet, so there is no card to take back.")
        return render_live(game, round_, plays=[], refusal=message, set_aside=set_aside, status=422)
    removed = plays.pop()
    store_partial(game, round_, plays)
    flash(
        gettext(
            "Taken back: %(card)s (%(player)s).",
            card=chip(removed.card, False).label,
            player=names_of(game)[queries.live_round_of(game, round_).seat_order()[len(plays)]],
        ),
        FLASH_CATEGORY,
    )
    return redirect(live_url(game, round_))


@bp.post("/g/<code>/rounds/<int:number>/live/undo-trick", endpoint="undo_live_trick")
def undo_live_trick(code: str, number: int) -> ResponseReturnValue:
    """Take back the last saved trick (and any card of the next one entered here); a round
    it had finished is open again."""
    game = editable_game(code)
    round_ = services.round_of(game, number)
    form = VersionForm()
    refused = live_or_notice(game, round_) or refused_form(game, round_, form, allow_scored=True)
    if refused is not None:
        return refused
    taken_back = len(round_.tricks or [])
    try:
        services.undo_live_trick(game, number, game.version)
        db.session.commit()
    except (services.StaleVersion, StaleDataError):
        return conflict_page(game, round_)
    except services.ServiceError as error:
        db.session.rollback()
        message = render_message(error.text, names_of(game))
        return render_live(game, round_, refusal=message, status=422)
    clear_partial(game, round_)
    flash(
        gettext(
            "Trick %(number)s taken back: enter its cards again.",
            number=taken_back,
        ),
        FLASH_CATEGORY,
    )
    return redirect(live_url(game, round_))


@bp.get("/g/<code>/rounds/<int:number>/live/<any(card, 'undo-card', 'undo-trick'):_action>")
def live_action_address(code: str, number: int, _action: str) -> ResponseReturnValue:
    """The address a refused tap leaves in the browser (without JavaScript): reloading or
    sharing it opens the live page instead of an error."""
    return redirect(url_for("games.live_round", code=code, number=number))


# The start page checks its CSRF token itself (through its forms, like the round pages), so
# an expired page keeps the indicators tapped; the live forms do too, to answer with the
# live page (and a fresh token) instead of a bare error page.
for _live_view in (start_live_round, play_live_card, undo_live_card, undo_live_trick):
    csrf.exempt(_live_view)
