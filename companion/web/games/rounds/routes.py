"""Pages of one round: mark colours, record a round, correct a past round, keep another
phone's round, and a scored round's reasons.

Each page reads the table's input into rules entries (``entry.forms``), lets
``companion.rules`` judge it (C1-C5, each refusal shown next to the seat it names) and
saves only through ``companion.services``, then redirects to the scoreboard. A page sent
from an older state of the game (another phone saved meanwhile) saves nothing, shows the
game as it is now and keeps the table's input, ready to be sent again.

Each view reads like the API's: it reads the form (``entry.forms``, a switch of modes
included), sends it once (``entry.sending``, through ``services.submit`` as the API does, or
the marking service the API calls), and redirects to the scoreboard or shows the page again
(``entry.page``; a notice or the conflict view from ``entry.sending`` when the round it was
opened for is gone).
"""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion import services
from companion.data import queries
from companion.data.models import Game, Round
from companion.data.states import GameStatus, RoundStatus
from companion.pages.record import kind_of
from companion.pages.round_scores import round_context, round_scores_of
from companion.read_models.explanations import round_breaks
from companion.read_models.messages import page_reader
from companion.rules.text import N_
from companion.web.games.blueprint import bp
from companion.web.games.entry.forms import (
    Kind,
    RoundForm,
    Switch,
    form_to_show,
    is_switch,
)
from companion.web.games.entry.page import (
    CONTINUE,
    editable_game,
    mode_links,
    names_of,
    render_round_page,
)
from companion.web.games.entry.sending import (
    Sent,
    change_form,
    clash_page,
    marks_clash,
    not_next_notice,
    notice_page,
    sent_elsewhere,
    submit_form,
    to_scoreboard,
    why_no_round_to_record,
)
from companion.web.round_page_cache import kept_round_page
from companion.web.save_notice import Settled, remember
from companion.web.scoreboard_page import board_state
from companion.web.security import csrf

# --------------------------------------------------------------------------------------------
# Marking colours


@bp.route("/g/<code>/rounds/mark", methods=["GET", "POST"], endpoint="mark_colours")
@kept_round_page("mark")
def mark_colours(code: str) -> ResponseReturnValue:
    """Each seat's indicator card(s) at the start of a round (R4, R14; hidden if hazy, R15)."""
    game = editable_game(code)
    setup = queries.setup_of(game)
    form = RoundForm.build(Kind.MARK, setup, game.version, number=queries.number_to_record(game))
    opened_for = form.stamp.opened_for if request.method == "POST" else None
    taken = marked_elsewhere(game, form, opened_for) if setup.cards_laid_out else None
    if taken is not None:
        return taken
    if setup.cards_laid_out == 0 or queries.playing_round(game) is not None:
        return redirect(url_for("games.record_round", code=game.code))
    blocked = why_no_round_to_record(game)
    if blocked:
        return notice_page(game, gettext("Mark colours"), blocked)
    if request.method == "GET":
        return render_round_page("games/round_mark.html", game, form, None)
    sent = change_form(form, lambda: services.mark_colours(game, form.version, form.marked()))
    if isinstance(sent, services.Saved):
        return to_scoreboard(game, sent.round.number, Settled.MARKED)
    taken = marked_elsewhere(game, form, opened_for) if isinstance(sent, services.Stale) else None
    return taken or render_round_page("games/round_mark.html", game, form, sent)


def marked_elsewhere(
    game: Game, form: RoundForm, opened_for: int | None
) -> ResponseReturnValue | None:
    """The mark form of round ``opened_for`` when that round was marked, started or
    recorded elsewhere: the conflict view, or (sent again from it, on the current version)
    mine in place of theirs. ``None`` while the round is still to be marked."""
    clash = services.opening_clash(game, opened_for)
    title = gettext("Mark colours, round %(number)s", number=opened_for)
    if isinstance(clash, services.Refused) and opened_for is not None:
        return not_next_notice(game, opened_for, title)
    if not isinstance(clash, services.Clashed):
        return None
    if form.version == game.version and clash.change is services.RoundChange.MARKED:
        return replace_marks(game, form, clash.round.number)
    return clash_page(game, marks_clash(game, form, clash.round, title))


def replace_marks(game: Game, form: RoundForm, number: int) -> ResponseReturnValue | None:
    """Mine in place of theirs, chosen on the conflict view: the scoreboard, or the mark
    page with the refusal (a stale version: the conflict view again)."""
    sent = change_form(
        form, lambda: services.replace_marks(game, form.version, number, form.marked())
    )
    if isinstance(sent, services.Saved):
        return to_scoreboard(game, number, Settled.MARKED)
    if isinstance(sent, services.Stale):
        return marked_elsewhere(game, form, number)
    return render_round_page("games/round_mark.html", game, form, sent, number)


# --------------------------------------------------------------------------------------------
# Recording and correcting a round


@bp.route("/g/<code>/rounds/record", methods=["GET", "POST"], endpoint="record_round")
@kept_round_page("record")
def record_round(code: str) -> ResponseReturnValue:
    """Record and score the round being played (or the next one) (R10, R12-R16, R22)."""
    game = editable_game(code)
    form, switch = record_form(game)
    sent = submit_form(game, form) if is_entering() else None
    if isinstance(sent, services.Saved):
        return to_scoreboard(game, sent.round.number, Settled.SAVED)
    return record_page_again(game, form, sent, switch)


def record_form(game: Game) -> tuple[RoundForm, Switch | None]:
    """The record form in the mode asked for: as posted, carried over from the other mode,
    or filled from the round being played (its indicators)."""
    setup = queries.setup_of(game)
    kind = kind_of(setup, request.args.get("mode"))
    playing = queries.playing_round(game)
    return form_to_show(
        kind,
        setup,
        lambda: RoundForm.build(
            kind,
            setup,
            game.version,
            playing.entries if playing else None,
            queries.number_to_record(game),
        ),
    )


def record_page_again(
    game: Game, form: RoundForm, sent: Sent | None, switch: Switch | None
) -> ResponseReturnValue:
    """What the record page shows when nothing was saved: the conflict view or a notice if
    the round it was opened for is gone or none can be recorded, the hazy round's question
    first (R15), else the page with the input and what ``sent`` came to."""
    title = gettext("Record round %(number)s", number=form.stamp.opened_for)
    elsewhere = sent_elsewhere(game, form, sent, title) if sent is not None else None
    if elsewhere is not None:
        return elsewhere
    blocked = why_no_round_to_record(game)
    if blocked:
        return notice_page(game, gettext("Record a round"), blocked)
    mode = request.args.get("mode")
    marked = queries.playing_round(game) is not None
    if hazy_gate_first(form.setup.variant.hides_marks, marked):
        return render_hazy_gate(game, queries.number_to_record(game), mode)
    return render_round_page(
        "games/round_record.html",
        game,
        form,
        sent,
        correcting=False,
        switched=switch.notice(names_of(game)) if switch else None,
        modes=mode_links(
            form.setup,
            form.kind,
            "games.record_round",
            code=game.code,
            reveal=request.args.get("reveal"),
        ),
    )


def is_entering() -> bool:
    """Whether the post checks or saves the round: not a switch of modes, and not the
    Continue of the indicators step (both only show the entries again, in full)."""
    return request.method == "POST" and not is_switch() and request.form.get("action") != CONTINUE


def hazy_gate_first(hides_marks: bool, marked: bool) -> bool:
    """R15: the indicators of a marked round stay face down until it ends, so opening the
    record page asks first (unless the table already said to reveal them)."""
    return request.method == "GET" and marked and hides_marks and not request.args.get("reveal")


def render_hazy_gate(game: Game, number: int, mode: str | None) -> ResponseReturnValue:
    """The question before a hazy round's indicators are shown (R15)."""
    page = render_template(
        "games/round_hazy_gate.html",
        game=game,
        number=number,
        reveal_url=url_for("games.record_round", code=game.code, reveal=1, mode=mode),
        scoreboard_url=url_for("games.scoreboard", code=game.code),
    )
    return page


@bp.route("/g/<code>/rounds/<int:number>", methods=["GET", "POST"], endpoint="correct_round")
@kept_round_page("correct")
def correct_round(code: str, number: int) -> ResponseReturnValue:
    """Correct a scored round; its scores and every total after it are computed again."""
    game = editable_game(code)
    round_ = services.round_of(game, number)
    closed = closed_to_correction(game, round_)
    if closed is not None:
        return closed
    form, switch = correction_form(game, round_)
    sent = submit_form(game, form, correcting=number) if is_entering() else None
    if isinstance(sent, services.Saved):
        return to_scoreboard(game, number, Settled.CORRECTED)
    title = gettext("Correct round %(number)s", number=number)
    elsewhere = sent_elsewhere(game, form, sent, title) if sent is not None else None
    return elsewhere or render_round_page(
        "games/round_record.html",
        game,
        form,
        sent,
        number,
        correcting=True,
        switched=switch.notice(names_of(game)) if switch else None,
        modes=mode_links(
            form.setup, form.kind, "games.correct_round", code=game.code, number=number
        ),
    )


def closed_to_correction(game: Game, round_: Round) -> ResponseReturnValue | None:
    """A round not scored yet is recorded, not corrected; an abandoned game's rounds stay
    as they are (a notice). ``None`` when the round may be corrected."""
    if round_.status != RoundStatus.SCORED:
        return redirect(url_for("games.record_round", code=game.code))
    if game.status == GameStatus.ABANDONED:
        return notice_page(
            game,
            gettext("Correct round %(number)s", number=round_.number),
            gettext("This game was abandoned, so its rounds can no longer be changed."),
        )
    return None


def correction_form(game: Game, round_: Round) -> tuple[RoundForm, Switch | None]:
    """The correction form in the mode asked for (else the one the round was entered in):
    as posted, carried over from the other mode, or filled from the round as stored, with
    its digest."""
    setup = queries.setup_of(game)
    kind = kind_of(setup, request.args.get("mode"), round_.entries)
    digest = services.round_digest(round_)
    return form_to_show(
        kind,
        setup,
        lambda: RoundForm.build(kind, setup, game.version, round_.entries, round_.number, digest),
    )


# --------------------------------------------------------------------------------------------
# Keeping another phone's round, and a scored round's reasons


@bp.get("/g/<code>/rounds/<int:number>/keep-theirs", endpoint="keep_theirs")
def keep_theirs(code: str, number: int) -> ResponseReturnValue:
    """Keep round ``number`` as the other phone saved it (the conflict view's other way
    out). It changes nothing in the game, yet settles the round for the table: the
    scoreboard says the round stays as the other phone saved it and tints its row, as after
    any save (a round that does not exist is not confirmed)."""
    game = editable_game(code)
    round_ = services.find_round(game, number)
    if round_ is not None:
        scored = round_.status == RoundStatus.SCORED
        remember(game.code, number, Settled.KEPT if scored else Settled.KEPT_MARKS)
    return redirect(url_for("games.scoreboard", code=game.code))


@bp.get("/g/<code>/rounds/<int:number>/scores")
def round_scores(code: str, number: int) -> ResponseReturnValue:
    """Round ``number``'s scores and, in one line each, why (R10, R12-R16, R22); 404 for a
    round not scored. Public like the read-only scoreboard, which links each scored round
    here and, with JavaScript, shows one player's line from it (static/score_reasons.js)."""
    game = services.get_game(code)
    round_ = services.round_of(game, number)
    page = round_scores_of(board_state(game), number, page_reader(), round_breaks(game, round_))
    if page is None:
        raise services.NotFound(N_("Round %(number)s has no scores yet."), number=number)
    return render_template("games/round_scores.html", **round_context(page, url_for))


# The round forms check their CSRF token themselves (``VersionForm``, in ``readable``) before
# anything is checked or saved, instead of the app-wide check: an expired token then keeps the
# table's entries on the page, with a fresh token, rather than losing a whole round's input.
for _round_view in (mark_colours, record_round, correct_round):
    csrf.exempt(_round_view)
