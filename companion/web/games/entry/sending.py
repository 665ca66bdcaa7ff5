"""Sending a round form: read it, submit it through ``services.submit`` (or check it), and
commit only what was saved. The answer is the service's result, or :class:`Unread` when the
form could not even be read; the page turns either into a redirect or the page again
(``entry.page.outcome_of``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from flask import redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlalchemy.orm.exc import StaleDataError

from companion import services
from companion.data.models import Game, Round, db
from companion.rules import Refusal
from companion.web.games.entry.forms import RoundForm
from companion.web.round_saved import Settled, remember

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


def to_scoreboard(game: Game, number: int, settled: Settled) -> ResponseReturnValue:
    """After a save: the scoreboard, which confirms it (post/redirect/get)."""
    remember(game.code, number, settled)
    return redirect(url_for("games.scoreboard", code=game.code))
