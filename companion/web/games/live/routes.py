"""The live round's pages: a round entered card by card as it is played (C6, R9, R19-R22).

A trick is saved when its last card is entered (``services.play_live_trick``), and the round
is scored by itself after the last trick. The cards of the unfinished trick are stored on
the round as they are entered, one trick for every phone (``unfinished_trick``); what the
page shows is built in ``live.page``. Every card is checked by the rules as it is entered,
so a wrong card is refused at once, naming the player and the card.

It is a little over 400 lines: the routes of live play (start, card, undo card, undo trick)
and the refusals they share; what the page shows is ``live.page``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion import services
from companion.data import queries
from companion.data.models import Game, Round, db
from companion.data.states import GameStatus, RoundMode, RoundStatus
from companion.read_models.chips import Chip, card_of_token, card_token
from companion.read_models.messages import render_message
from companion.rules import RuleError, TableSetup, only_a_pass, round_leader
from companion.rules.hat_trick import Play
from companion.web.errors import Guarded, refusals
from companion.web.games.blueprint import bp
from companion.web.games.entry.forms import (
    Kind,
    LiveCardForm,
    LiveTrickForm,
    RoundForm,
    VersionForm,
)
from companion.web.games.entry.page import editable_game, game_now, names_of, render_round_page
from companion.web.games.entry.sending import (
    change_form,
    clash_page,
    marks_clash,
    not_next_notice,
    notice_page,
    start_clash,
    why_no_round_to_record,
)
from companion.web.games.live.page import FLASH_CATEGORY, live_url, render_live
from companion.web.games.live.unfinished_trick import check_next_play, missed_cards, trick_so_far
from companion.web.round_page_cache import keep_page, kept_page
from companion.web.scoreboard_cache import live_etag
from companion.web.security import csrf

# --------------------------------------------------------------------------------------------
# Refusing what cannot be done


def live_or_notice(game: Game, round_: Round) -> ResponseReturnValue | None:
    """``None`` if ``round_`` can be followed live now; otherwise the page saying why not."""
    title = gettext("Round %(number)s, live", number=round_.number)
    try:
        services.live_round(game, round_.number)
    except services.ServiceError as error:
        return notice_page(game, title, render_message(error.message, names_of(game)))
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


def posted_live(
    code: str, number: int, form: VersionForm, allow_scored: bool = False
) -> tuple[Game, Round, ResponseReturnValue | None]:
    """The game and round a live form was posted to, and the page refusing the form
    (``live_or_notice``, then ``refused_form``), or ``None`` when it may be acted on."""
    game = editable_game(code)
    round_ = services.round_of(game, number)
    refused = live_or_notice(game, round_) or refused_form(game, round_, form, allow_scored)
    return game, round_, refused


def refused_change_page(
    game: Game, round_: Round, refused: Guarded, plays: Sequence[Play] | None = None
) -> ResponseReturnValue:
    """A trick saved or taken back that was refused (nothing saved): the round as it is now
    after a conflict, else the live page with the refusal and the trick as it was."""
    if refused.stale or refused.refusal is None:
        return conflict_page(game, round_)
    message = render_message(refused.refusal.message, names_of(game))
    return render_live(game, round_, plays=plays, refusal=message, status=422)


def conflict_page(game: Game, round_: Round) -> ResponseReturnValue:
    """Another phone changed the game: nothing from this phone was saved; the round is
    shown as it is now."""
    db.session.rollback()
    return render_live(game, round_, conflict=True, status=409)


def missed_page(game: Game, round_: Round) -> ResponseReturnValue:
    """The page tapped on had missed a card entered (or taken back) on another phone since:
    nothing is changed, and the trick is shown as it is now, to tap again if still needed."""
    db.session.rollback()
    message = gettext(
        "Another phone changed this trick meanwhile, so your tap was not used. The trick is "
        "shown as it is now: tap again if your card is still missing."
    )
    return render_live(game, round_, refusal=message, status=409)


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
    opened_for = VersionForm().opened_for
    clash = services.opening_clash(game, opened_for)
    with_indicators = any(name.endswith("-marked") for name in request.form)
    title = gettext("Play round %(number)s live", number=opened_for)
    if isinstance(clash, services.Refused) and opened_for is not None:
        return not_next_notice(game, opened_for, title)
    if not isinstance(clash, services.Clashed):
        return None
    if clash.change is services.RoundChange.MARKED and not with_indicators:
        return None  # the colours marked on the mark page: this start plays them
    round_ = clash.round
    if not with_indicators:
        return clash_page(game, start_clash(game, round_, title))
    setup = queries.setup_of(game)
    form = RoundForm.build(Kind.MARK, setup, game.version)
    keep = (gettext("Keep theirs"), url_for("games.start_live_round", code=game.code))
    return clash_page(game, marks_clash(game, form, round_, title, keep))


def start_with_indicators(game: Game, setup: TableSetup) -> ResponseReturnValue:
    """The mark-colours chips, then the live page (C1, C2 checked before anything is saved)."""
    form = RoundForm.build(Kind.MARK, setup, game.version, number=queries.number_to_record(game))
    sent = None
    if request.method == "POST":
        sent = change_form(
            form, lambda: services.open_live_round(game, form.version, form.marked())
        )
        if isinstance(sent, services.Saved):
            return redirect(live_url(game, sent.round))
        taken = started_elsewhere(game) if isinstance(sent, services.Stale) else None
        if taken is not None:
            return taken
    return render_round_page(
        "games/live_start.html", game, form, sent, with_indicators=True, **now_live(game)
    )


def start_without_indicators(
    game: Game, setup: TableSetup, playing: Round | None
) -> ResponseReturnValue:
    """One button: the round's colours are marked already, or the variant lays none out."""
    shown = {"version": game.version, "number": queries.number_to_record(game)}
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
            with refusals() as refused:
                round_ = services.open_live_round(game, form.version.data, None)
                db.session.commit()
            if not refused.failed:
                return redirect(live_url(game, round_))
            if refused.stale:
                taken = started_elsewhere(game)
                if taken is not None:
                    return taken
                conflict = game_now(game)
                status = 409
            elif refused.refusal is not None:
                problems.append(render_message(refused.refusal.message, names_of(game)))
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
        hidden=[
            ("csrf_token", str(form.csrf_token.current_token or "")),
            ("version", form.version._value()),
            ("number", form.number._value()),
        ],
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
    """The live round: whose turn it is, the trick so far, and the cards left to play.
    Asked again every few seconds by live.js with the page's ETag: ``304`` while nothing
    changed, else the page as it is now, a card entered on another phone in it."""
    tag = live_etag(code, number, editing_only=True)  # None: no game, or no rights here
    if tag is not None and request.if_none_match.contains_weak(tag):
        response = current_app.response_class(status=304)
        response.set_etag(tag)
        response.headers["Cache-Control"] = "no-store"
        return response
    kept = kept_page(tag) if tag is not None else None
    if kept is not None:
        kept.headers["Cache-Control"] = "no-store"
        return kept
    game = editable_game(code)
    round_ = services.round_of(game, number)
    answer = live_or_notice(game, round_) or render_live(game, round_, etag=tag)
    return keep_page(tag, answer) if tag is not None else answer


@bp.post("/g/<code>/rounds/<int:number>/live/card", endpoint="play_live_card")
def play_live_card(code: str, number: int) -> ResponseReturnValue:
    """Add the tapped card to the trick (checked at once: C1, C6, R19); the last card of a
    trick saves it (R9, R21), and the last trick scores the round."""
    form = LiveCardForm()
    game, round_, refused = posted_live(code, number, form)
    if refused is not None:
        return refused
    setup = queries.setup_of(game)
    plays = trick_so_far(game, round_)
    if missed_cards(form.cards.data, plays):
        return missed_page(game, round_)
    card = card_of_token(form.card.data or "")
    if card is None:
        message = gettext("“%(value)s” is not a card.", value=(form.card.data or "")[:20])
        return render_live(game, round_, plays=plays, refusal=message, status=422)
    # R19: a card of the third colour, once two colours are in the trick, is a pass.
    passed = bool(form.pass_next.data) or only_a_pass(setup.variant, plays, card)
    play = Play(card, passed=setup.variant.has_passes and passed)
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
            status=422,
        )
    plays.append(play)
    if len(plays) < setup.players:
        return keep_unfinished(game, round_, plays)
    with refusals() as refused:
        services.play_live_trick(game, number, game.version, plays)
        db.session.commit()
    if refused.failed:
        return refused_change_page(game, round_, refused, plays[:-1])
    return redirect(live_url(game, round_))


@bp.post("/g/<code>/rounds/<int:number>/live/undo-card", endpoint="undo_live_card")
def undo_live_card(code: str, number: int) -> ResponseReturnValue:
    """Take back the last card entered: one of the unfinished trick (nothing is saved yet),
    or else the card that completed the last trick, which opens that trick again with its
    other cards (and a round it had scored)."""
    form = LiveTrickForm()
    game, round_, refused = posted_live(code, number, form, allow_scored=True)
    if refused is not None:
        return refused
    plays = trick_so_far(game, round_)
    if missed_cards(form.cards.data, plays):
        return missed_page(game, round_)
    if not plays and round_.tricks:
        return reopen_last_trick(game, round_)
    if not plays:
        message = gettext("This trick has no card yet, so there is no card to take back.")
        return render_live(game, round_, plays=[], refusal=message, status=422)
    removed = plays.pop()
    note = gettext(
        "Taken back: %(card)s (%(player)s).",
        card=Chip.of(removed.card).label,
        player=names_of(game)[queries.live_round_of(game, round_).seat_order()[len(plays)]],
    )
    return keep_unfinished(game, round_, plays, note)


def keep_unfinished(
    game: Game, round_: Round, plays: Sequence[Play], note: str | None = None
) -> ResponseReturnValue:
    """Store the unfinished trick on its round, for every phone at the table (the live
    pages and the scoreboards), then go back to the live page (with ``note`` once kept)."""
    with refusals() as refused:
        services.show_unfinished_trick(game, round_.number, plays)
        db.session.commit()
    if refused.failed:
        return refused_change_page(game, round_, refused, plays)
    if note:
        flash(note, FLASH_CATEGORY)
    return redirect(live_url(game, round_))


def reopen_last_trick(game: Game, round_: Round) -> ResponseReturnValue:
    """Take back the card that completed the last trick, in one version-checked change: the
    trick is open again, for every phone, with its other cards, waiting for its last one."""
    scored = round_.status == RoundStatus.SCORED
    with refusals() as refused:
        reopened = services.take_back_last_card(game, round_.number, game.version)
        db.session.commit()
    if refused.failed:
        return refused_change_page(game, round_, refused)
    note = gettext(
        "Taken back: %(card)s (%(player)s). Trick %(number)s is open again: enter its last card.",
        card=Chip.of(reopened.taken_back.card).label,
        player=names_of(game)[reopened.seat],
        number=len(round_.tricks or []) + 1,
    )
    if scored:
        note += " " + gettext("The round’s scores are withdrawn until its last trick is complete.")
    flash(note, FLASH_CATEGORY)
    return redirect(live_url(game, round_))


@bp.post("/g/<code>/rounds/<int:number>/live/undo-trick", endpoint="undo_live_trick")
def undo_live_trick(code: str, number: int) -> ResponseReturnValue:
    """Take back the last saved trick (offered while the next trick has no card yet); a round
    it had finished is open again."""
    form = LiveTrickForm()
    game, round_, refused = posted_live(code, number, form, allow_scored=True)
    if refused is not None:
        return refused
    if missed_cards(form.cards.data, trick_so_far(game, round_)):
        return missed_page(game, round_)
    taken_back = len(round_.tricks or [])
    with refusals() as refused:
        services.undo_live_trick(game, number, game.version)
        db.session.commit()
    if refused.failed:
        return refused_change_page(game, round_, refused)
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
