"""Sending a round form: check the round, or save it. Nothing is saved
unless the form is readable, the rules agree and the game is still at the version the page
showed; every refusal rolls back and says where to show why."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from flask import redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion import services
from companion.data.models import Game, Round, db
from companion.rules import Entry, RoundRefused, RoundScore, score_checked
from companion.web.errors import refusals
from companion.web.games.round_forms import RoundForm
from companion.web.games.round_state import names_of
from companion.web.games.round_views import Problems
from companion.web.round_saved import remember_marked, remember_saved


@dataclass
class Outcome:
    """What a post of a round form came to: the round saved (its number; the page then
    goes to the scoreboard, :func:`to_scoreboard`), or what to show on the page again."""

    problems: Problems = field(default_factory=Problems)
    conflict: bool = False
    expired: bool = False
    scored: RoundScore | None = None
    saved: int | None = None


def handle_post(
    game: Game,
    form: RoundForm,
    save: Callable[[int, list[Entry]], Round],
    *,
    corrected: bool = False,
) -> Outcome:
    """Check the round, or save it and note it for the scoreboard, which confirms the save
    after the redirect (post/redirect/get). Nothing is saved unless the rules and the
    version both agree. A count the others imply (C3, C5) is filled in and shown, never
    saved unseen: that post checks, and the next save confirms. The rules check the round
    once, in the service that saves it (or here, for a check that saves nothing)."""
    outcome = Outcome()
    implied = form.fill_implied()
    if not readable(form, outcome):
        return outcome
    entries = form.entries()
    checking = request.form.get("action") == "check" or implied is not None
    saved_round: list[int] = []

    def score_and_save() -> None:
        if checking:
            outcome.scored = score_checked(form.setup, entries)
        else:
            saved_round.append(save(form.version, entries).number)

    if not saved(game, form, outcome, score_and_save):
        outcome.scored = None
        return outcome
    if checking:
        return outcome
    outcome.saved = saved_round[0]
    remember_saved(game.code, outcome.saved, corrected=corrected)
    return outcome


def handle_mark_post(game: Game, form: RoundForm) -> Outcome:
    """Save the indicators of the next round (C1, C2 first), noted for the scoreboard."""
    outcome = Outcome()
    if not readable(form, outcome):
        return outcome
    marked: list[Round] = []
    if not saved(
        game,
        form,
        outcome,
        lambda: marked.append(services.mark_colours(game, form.version, form.marked())),
    ):
        return outcome
    outcome.saved = marked[0].number
    remember_marked(game)
    return outcome


def to_scoreboard(game: Game) -> ResponseReturnValue:
    """After a save: the scoreboard, which confirms it."""
    return redirect(url_for("games.scoreboard", code=game.code))


def readable(form: RoundForm, outcome: Outcome) -> bool:
    """Whether the form can be read into entries. An expired or foreign CSRF token is said
    at the top and the input stays, with a fresh token, so the table just sends it again."""
    if form.validate():
        return True
    if form.top.csrf_token.errors:
        outcome.expired = True
        outcome.problems.top.append(
            gettext(
                "This page was open for a long time or did not come from this app, so nothing "
                "was saved. Your entries are kept: check them and send them again."
            )
        )
    elif form.top.version.errors:
        outcome.problems.top.append(
            gettext("This page did not say which state of the game it showed; reload it.")
        )
    return False


def saved(game: Game, form: RoundForm, outcome: Outcome, attempt: Callable[[], object]) -> bool:
    """Run ``attempt`` (rules, then a service) and commit; on any refusal roll back, so
    nothing is saved, and note where to show why."""
    with refusals() as refused:
        attempt()
        db.session.commit()
    if refused.stale:
        form.move_to_version(refused.current or game.version)
        outcome.conflict = True
    elif isinstance(refused.refusal, RoundRefused):
        for problem in refused.refusal.problems:
            outcome.problems.add(problem, names_of(game))
    elif refused.refusal is not None:
        outcome.problems.add(refused.refusal, names_of(game))
    return not refused
