"""Pages of one round: mark colours, record a round, correct a past round.

Each page reads the table's input into rules entries (``round_forms``), lets
``companion.rules`` judge it (C1-C5, each refusal shown next to the seat it names) and
saves only through ``companion.services``, then redirects to the scoreboard. A page sent
from an older state of the game (another phone saved meanwhile) saves nothing, shows the
game as it is now and keeps the table's input, ready to be sent again.

The routes are here; a post is read and saved by ``round_sending``, and what the pages
show is built in ``round_views`` and ``round_rendering``.
"""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion import services
from companion.data import queries
from companion.data.models import Game
from companion.data.states import GameStatus, RoundStatus
from companion.web.games import bp
from companion.web.games.round_clash import (
    clash_page,
    correction_clash,
    marks_clash,
    round_digest,
    round_numbered,
    what_happened,
)
from companion.web.games.round_forms import Kind, RoundForm, kind_for
from companion.web.games.round_rendering import CONTINUE, mode_links, render_round_page
from companion.web.games.round_sending import (
    Outcome,
    handle_mark_post,
    handle_post,
    readable,
    saved,
    to_scoreboard,
)
from companion.web.games.round_state import (
    editable_game,
    names_of,
    notice_page,
    number_to_record,
    round_gone,
    why_no_round_to_record,
)
from companion.web.games.round_switch import form_to_show, is_switch
from companion.web.round_saved import remember_marked
from companion.web.security import csrf

# --------------------------------------------------------------------------------------------
# The pages


@bp.route("/g/<code>/rounds/mark", methods=["GET", "POST"], endpoint="mark_colours")
def mark_colours(code: str) -> ResponseReturnValue:
    """Each seat's indicator card(s) at the start of a round (R4, R14; hidden if hazy, R15)."""
    game = editable_game(code)
    setup = queries.setup_of(game)
    form = RoundForm.build(Kind.MARK, setup, game.version, number=number_to_record(game))
    meant = form.top.meant if request.method == "POST" else None
    if setup.cards_laid_out and meant is not None:
        taken = marked_elsewhere(game, form, meant)
        if taken is not None:
            return taken
    if setup.cards_laid_out == 0 or queries.playing_round(game) is not None:
        return redirect(url_for("games.record_round", code=game.code))
    blocked = why_no_round_to_record(game)
    if blocked:
        return notice_page(game, gettext("Mark colours"), blocked)
    outcome = Outcome()
    if request.method == "POST":
        outcome = handle_mark_post(game, form)
        if outcome.saved is not None:
            return to_scoreboard(game)
        taken = marked_elsewhere(game, form, meant) if outcome.conflict and meant else None
        if taken is not None:
            return taken
    return render_round_page("games/round_mark.html", game, form, outcome)


def marked_elsewhere(game: Game, form: RoundForm, meant: int) -> ResponseReturnValue | None:
    """The mark form of round ``meant`` when that round was marked, started or recorded
    elsewhere: the conflict view, or (sent again from it, on the current version) mine in
    place of theirs. ``None`` while the round is still to be marked."""
    round_ = round_numbered(game, meant)
    if round_ is None:
        return round_gone(game, form)
    if form.version == game.version and what_happened(round_) == "marked":
        return replace_marks(game, form, meant)
    title = gettext("Mark colours, round %(number)s", number=meant)
    return clash_page(game, marks_clash(game, form, round_, title))


def replace_marks(game: Game, form: RoundForm, number: int) -> ResponseReturnValue | None:
    """Mine in place of theirs, chosen on the conflict view: the scoreboard, or the mark
    page with the refusal (a stale version: the conflict view again)."""
    outcome = Outcome()
    if readable(form, outcome) and saved(
        game,
        form,
        outcome,
        lambda: services.replace_marks(game, form.version, number, form.marked()),
    ):
        remember_marked(game)
        return to_scoreboard(game)
    if outcome.conflict:
        return marked_elsewhere(game, form, number)
    return render_round_page("games/round_mark.html", game, form, outcome, number)


@bp.route("/g/<code>/rounds/record", methods=["GET", "POST"], endpoint="record_round")
def record_round(code: str) -> ResponseReturnValue:
    """Record and score the round being played (or the next one) (R10, R12-R16, R22)."""
    game = editable_game(code)
    setup = queries.setup_of(game)
    mode = request.args.get("mode")
    if request.method == "POST":
        gone = round_gone(game, RoundForm.build(kind_for(setup, mode), setup, game.version))
        if gone is not None:
            return gone
    blocked = why_no_round_to_record(game)
    if blocked:
        return notice_page(game, gettext("Record a round"), blocked)
    playing = queries.playing_round(game)
    if (
        request.method == "GET"
        and playing is not None
        and setup.variant.hides_marks
        and not request.args.get("reveal")
    ):
        return render_hazy_gate(game, playing.number, mode)
    kind = kind_for(setup, mode)
    form, switch = form_to_show(
        kind,
        setup,
        lambda: RoundForm.build(
            kind,
            setup,
            game.version,
            playing.entries if playing else None,
            number=number_to_record(game),
        ),
    )
    outcome = Outcome()
    if is_entering():
        outcome = handle_post(
            game, form, lambda version, entries: services.record_round(game, version, entries)
        )
        if outcome.saved is not None:
            return to_scoreboard(game)
        if outcome.conflict:  # another phone saved first: the round may be gone by now
            gone = round_gone(game, form)
            if gone is not None:
                return gone
    return render_round_page(
        "games/round_record.html",
        game,
        form,
        outcome,
        correcting=False,
        switched=switch.notice(names_of(game)) if switch else None,
        modes=mode_links(
            setup,
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


def render_hazy_gate(game: Game, number: int, mode: str | None) -> ResponseReturnValue:
    """R15: the indicators stay face down until the round ends, so the record page asks
    before it shows them."""
    page = render_template(
        "games/round_hazy_gate.html",
        game=game,
        number=number,
        reveal_url=url_for("games.record_round", code=game.code, reveal=1, mode=mode),
        scoreboard_url=url_for("games.scoreboard", code=game.code),
    )
    return page


@bp.route("/g/<code>/rounds/<int:number>", methods=["GET", "POST"], endpoint="correct_round")
def correct_round(code: str, number: int) -> ResponseReturnValue:
    """Correct a scored round; its scores and every total after it are computed again."""
    game = editable_game(code)
    round_ = services.round_of(game, number)
    if round_.status != RoundStatus.SCORED:
        return redirect(url_for("games.record_round", code=game.code))
    if game.status == GameStatus.ABANDONED:
        return notice_page(
            game,
            gettext("Correct round %(number)s", number=number),
            gettext("This game was abandoned, so its rounds can no longer be changed."),
        )
    setup = queries.setup_of(game)
    kind = kind_for(setup, request.args.get("mode"), round_.entries)
    form, switch = form_to_show(
        kind,
        setup,
        lambda: RoundForm.build(
            kind, setup, game.version, round_.entries, number=number, seen=round_digest(round_)
        ),
    )
    title = gettext("Correct round %(number)s", number=number)
    outcome = Outcome()
    if is_entering():
        clash = correction_clash(game, form, round_, title)
        if clash is not None:
            return clash_page(game, clash)
        outcome = handle_post(
            game,
            form,
            lambda version, entries: services.correct_round(game, number, version, entries),
            corrected=True,
        )
        if outcome.saved is not None:
            return to_scoreboard(game)
        clash = correction_clash(game, form, round_, title) if outcome.conflict else None
        if clash is not None:
            return clash_page(game, clash)
    return render_round_page(
        "games/round_record.html",
        game,
        form,
        outcome,
        number,
        correcting=True,
        switched=switch.notice(names_of(game)) if switch else None,
        modes=mode_links(setup, form.kind, "games.correct_round", code=game.code, number=number),
    )


# The round forms check their CSRF token themselves (``VersionForm``, in ``readable``) before
# anything is checked or saved, instead of the app-wide check: an expired token then keeps the
# table's entries on the page, with a fresh token, rather than losing a whole round's input.
for _round_view in (mark_colours, record_round, correct_round):
    csrf.exempt(_round_view)
