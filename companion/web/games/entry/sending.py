"""Sending a round form, and every answer to it but the page itself.

- **Sending**: read the form, submit it through ``services.submit`` (or check it), and
  commit only what was saved. The answer is the service's result, or :class:`Unread` when
  the form could not even be read; the page turns either into a redirect or the page again
  (``entry.page.outcome_of``).
- **The "saved" note**: after a save, the scoreboard, which confirms it once
  (``companion.web.save_notice``, post/redirect/get).
- **Notices**: the page a round form's address shows instead of its form when no round can
  be entered now (abandoned, being played live, all rounds recorded, or a form for a round
  that is neither there nor next).
- **The conflict view**: a form belongs to the round it was opened for. It carries that
  round's number (and, for a correction, a digest of the round as it was shown). When that
  round was recorded, corrected, marked or started elsewhere in the meantime, nothing is
  saved and the form never moves on to another round by itself. Instead one view, shared by
  the record, correct, mark and live-start pages, sets what the other phone saved next to
  what this phone typed and offers two ways out: keep theirs, or use mine for that same
  round. Its page model is companion/pages/clash.py, its template
  ``games/round_clash_view.html``, which the phone's rules worker draws too (a change queued
  offline that met the same clash when it was sent).

The module is longer than most (over 450 lines) because these are the answers of one post:
a view sends the form here once and gets back either what to redirect to, what to show
instead of the page (a notice or the conflict view), or the result the page shows again.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf
from sqlalchemy.orm.exc import StaleDataError

from companion import services
from companion.data import queries
from companion.data.models import Game, Round, db
from companion.data.states import GameStatus, RoundMode, RoundStatus
from companion.pages.clash import (
    Clash,
    EntryLine,
    UseMine,
    clash_context,
    entry_lines,
    headline,
    seats_of,
)
from companion.read_models.messages import page_reader
from companion.rules import Refusal, RuleError, TableSetup, score_round
from companion.services import Clashed, Refused, RoundChange, RoundNotNext, change_of, round_digest
from companion.web.games.entry.forms import Kind, RoundForm
from companion.web.save_notice import Settled, remember

# --------------------------------------------------------------------------------------------
# Sending

#: The ``action`` of the button that checks a round without saving it.
CHECK = "check"


@dataclass(frozen=True)
class Unread:
    """The form could not be read into entries: what to say at the top (``expired``: an
    old or foreign CSRF token; the input stays, with a fresh token, to send again)."""

    message: str | None
    expired: bool = False


Sent = services.Submitted | Unread


def submit_form(game: Game, form: RoundForm, correcting: int | None = None) -> Sent:
    """Read the form and submit it: record the next round, or correct round ``correcting``.
    A check, or a count the others imply (C3, C5), is only checked: an implied count is
    shown and never saved unseen. An unreadable form is still told when its round is gone."""
    implied = form.fill_implied()
    opened_for = correcting or form.stamp.opened_for
    fixing = correcting is not None
    if not form.validate():
        clash = services.clash_of(game, opened_for, form.stamp.digest.data, correcting=fixing)
        return clash or unread(form)
    sent = replace(form.sent(), opened_for=opened_for)
    if request.form.get("action") == CHECK or implied is not None:
        return services.check(game, sent, correcting=fixing)
    return committed(services.submit(game, sent, correcting=fixing))


def change_form(form: RoundForm, change: Callable[[], Round]) -> Sent:
    """Apply a change made from a round form that is no whole round (marking colours,
    starting a round live): saved and committed, or refused or stale, nothing saved."""
    if not form.validate():
        return unread(form)
    try:
        return committed(services.Saved(change()))
    except services.StaleVersion as stale:
        return committed(services.Stale(stale.current))
    except StaleDataError:  # a lost race on SQLite, found at flush
        return committed(services.Stale(None))
    except Refusal as refusal:
        return committed(services.Refused(refusal))


def committed(result: services.Submitted) -> services.Submitted:
    """Commit a saved round, roll back anything else: one transaction, never half saved.
    On SQLite a lost race shows only here (``StaleDataError``): stale, nothing saved."""
    if not isinstance(result, services.Saved):
        db.session.rollback()
        return result
    try:
        db.session.commit()
    except StaleDataError:
        db.session.rollback()
        return services.Stale(None)
    return result


def unread(form: RoundForm) -> Unread:
    """Why the form could not be read, said at the top; fields' own errors show beside them."""
    if form.stamp.csrf_token.errors:
        return Unread(
            gettext(
                "This page was open for a long time or did not come from this app, so nothing "
                "was saved. Your entries are kept: check them and send them again."
            ),
            expired=True,
        )
    if form.stamp.version.errors:
        message = gettext("This page did not say which state of the game it showed; reload it.")
        return Unread(message)
    return Unread(None)


# --------------------------------------------------------------------------------------------
# The "saved" note


def to_scoreboard(game: Game, number: int, settled: Settled) -> ResponseReturnValue:
    """After a save: the scoreboard, which confirms it (post/redirect/get)."""
    remember(game.code, number, settled)
    return redirect(url_for("games.scoreboard", code=game.code))


# --------------------------------------------------------------------------------------------
# Notices


def why_no_round_to_record(game: Game) -> str | None:
    """Why no round can be recorded now, in the player's words; ``None`` if one can."""
    if game.status == GameStatus.ABANDONED:
        return gettext("This game was abandoned, so it takes no more rounds.")
    playing = queries.playing_round(game)
    if playing is not None and playing.mode == RoundMode.LIVE:
        return gettext(
            "Round %(number)s is being played trick by trick; finish it on the live page.",
            number=playing.number,
        )
    if playing is None and len(game.rounds) >= game.rounds_planned:
        return gettext(
            "All %(rounds)s rounds of this game are recorded. To change one, open it from "
            "the scoreboard.",
            rounds=game.rounds_planned,
        )
    return None


def notice_page(game: Game, title: str, message: str) -> ResponseReturnValue:
    """A page that says why the round page cannot be used now (409: the game's state)."""
    page = render_template(
        "games/round_notice.html",
        game=game,
        title=title,
        message=message,
        scoreboard_url=url_for("games.scoreboard", code=game.code),
    )
    return page, 409


def not_next_notice(game: Game, opened_for: int, title: str) -> ResponseReturnValue:
    """A form for a round that is neither there nor next (not a page of this game's now)."""
    message = gettext(
        "This page was for round %(number)s, which is not the round to record now. "
        "Nothing was saved.",
        number=opened_for,
    )
    return notice_page(game, title, message)


# --------------------------------------------------------------------------------------------
# The conflict view


#: The seat fields of a round form (``s2-tricks``), the input "use mine" sends again.
SEAT_FIELD = re.compile(r"^s\d+-[a-z_]+$")


def theirs_of(game: Game, round_: Round) -> list[tuple[EntryLine, ...]]:
    """Each seat's entry as the other phone saved it, with its score once scored; marks of a
    hazy round stay hidden until it is scored (R15)."""
    scores = {result.seat: result.score for result in round_.results}
    hidden = round_.status != RoundStatus.SCORED and game.variant.hides_marks
    entries = list(round_.entries or ())
    words = page_reader()
    return [
        entry_lines(entries[seat] if seat < len(entries) else {}, scores.get(seat), words, hidden)
        for seat in range(len(game.seats))
    ]


def mine_of(setup: TableSetup, form: RoundForm) -> list[tuple[EntryLine, ...]]:
    """Each seat's entry as this phone typed it, with the score it would get if the rules
    accept the round; marks only for a mark form."""
    words = page_reader()
    if form.kind is Kind.MARK:
        return [
            entry_lines({"marked": [c.as_json() for c in cards]}, None, words)
            for cards in form.marked()
        ]
    readable = form.validate()  # a count left empty or mistyped is shown, but not scored
    entries = form.entries()
    scores: list[int | None] = [None] * len(entries)
    if readable:
        with contextlib.suppress(RuleError):  # mine would be refused (C1-C5): no score
            scores = [seat.score for seat in score_round(setup, entries).seats]
    return [
        entry_lines(entry.as_json(), score, words)
        for entry, score in zip(entries, scores, strict=True)
    ]


# --------------------------------------------------------------------------------------------
# Building and showing the view


def clash_for(
    game: Game,
    round_: Round,
    change: RoundChange,
    title: str,
    mine: Sequence[tuple[EntryLine, ...]],
    use_mine: UseMine | None = None,
    keep: tuple[str, str] | None = None,
) -> Clash:
    """The conflict view of ``round_``: theirs and mine per player, in seat order."""
    names = [seat.player.name for seat in game.seats]
    seats = seats_of(names, theirs_of(game, round_), mine)
    keep_label, keep_url = keep or (
        gettext("Keep theirs"),
        url_for("games.keep_theirs", code=game.code, number=round_.number),
    )
    return Clash(
        number=round_.number,
        title=title,
        headline=headline(change.value, round_.number, page_reader()),
        seats=seats,
        keep_label=keep_label,
        keep_url=keep_url,
        use_mine=use_mine,
    )


def correct_with_mine(game: Game, round_: Round, form: RoundForm) -> UseMine:
    """Send this phone's entries as a correction of the same round, on the current version."""
    return UseMine(
        label=gettext("Correct round %(number)s with mine", number=round_.number),
        url=url_for(
            "games.correct_round", code=game.code, number=round_.number, mode=form.kind.mode
        ),
        fields=again_fields(game, round_),
    )


def mark_with_mine(game: Game, round_: Round) -> UseMine:
    """Send this phone's indicators for the same round, in place of the other phone's."""
    return UseMine(
        label=gettext("Mark round %(number)s with mine", number=round_.number),
        url=url_for("games.mark_colours", code=game.code),
        fields=again_fields(game, round_),
    )


def again_fields(game: Game, round_: Round) -> tuple[tuple[str, str], ...]:
    """The seat fields this phone sent, with the round's number, its digest and the current
    version: sent again, they apply to the round as it is now."""
    seat_fields = tuple(
        (name, value)
        for name, values in request.form.lists()
        if SEAT_FIELD.match(name) and not name.endswith("-tab")
        for value in values
    )
    return seat_fields + (
        ("version", str(game.version)),
        ("number", str(round_.number)),
        ("digest", round_digest(round_)),
    )


def clash_page(game: Game, clash: Clash) -> ResponseReturnValue:
    """The conflict view (409: the game is not as the form knew it; nothing was saved)."""
    page = render_template(
        "games/round_clash.html", game=game, **clash_context(clash, generate_csrf())
    )
    return page, 409


# --------------------------------------------------------------------------------------------
# The clashes of each round form


def continue_live(game: Game, round_: Round) -> tuple[str, str]:
    """Keeping theirs when the round was started live elsewhere: carry on with it there."""
    url = url_for("games.live_round", code=game.code, number=round_.number)
    return gettext("Continue live round"), url


def record_clash(game: Game, form: RoundForm, round_: Round, title: str) -> Clash:
    """The record form of round N met round N recorded (or started live) elsewhere: mine can
    correct that same round, never be filed as the next one."""
    change = change_of(round_)
    use_mine = None
    if change is RoundChange.RECORDED and game.status != GameStatus.ABANDONED:
        use_mine = correct_with_mine(game, round_, form)
    keep = continue_live(game, round_) if change is RoundChange.LIVE else None
    return clash_for(game, round_, change, title, mine_of(form.setup, form), use_mine, keep)


def correction_clash(game: Game, form: RoundForm, round_: Round, title: str) -> Clash:
    """The correction of round N met round N corrected elsewhere since the page showed it."""
    use_mine = (
        correct_with_mine(game, round_, form) if game.status != GameStatus.ABANDONED else None
    )
    mine = mine_of(form.setup, form)
    return clash_for(game, round_, RoundChange.CORRECTED, title, mine, use_mine)


def marks_clash(
    game: Game, form: RoundForm, round_: Round, title: str, keep: tuple[str, str] | None = None
) -> Clash:
    """A mark form (or a live start with indicators) of round N met round N marked, started
    or recorded elsewhere: mine may still replace marks nobody has played on yet."""
    change = change_of(round_)
    use_mine = mark_with_mine(game, round_) if change is RoundChange.MARKED else None
    if change is RoundChange.LIVE:
        keep = continue_live(game, round_)
    elif change is RoundChange.RECORDED:
        keep = None
    return clash_for(game, round_, change, title, mine_of(form.setup, form), use_mine, keep)


def start_clash(game: Game, round_: Round, title: str) -> Clash:
    """A live start without indicators met round N started live or recorded elsewhere."""
    change = change_of(round_)
    keep = continue_live(game, round_) if change is RoundChange.LIVE else None
    return clash_for(game, round_, change, title, [], None, keep)


def sent_elsewhere(
    game: Game, form: RoundForm, sent: Sent, title: str
) -> ResponseReturnValue | None:
    """What a round form's page shows when the round it was opened for is gone: the
    conflict view of that round, or (a round neither there nor next) a notice; ``None``
    when the round sent still belongs where it was opened."""
    if isinstance(sent, Clashed):
        if sent.change is RoundChange.CORRECTED:
            return clash_page(game, correction_clash(game, form, sent.round, title))
        return clash_page(game, record_clash(game, form, sent.round, title))
    if isinstance(sent, Refused) and isinstance(sent.refusal, RoundNotNext):
        return not_next_notice(game, sent.refusal.opened_for, title)
    return None
