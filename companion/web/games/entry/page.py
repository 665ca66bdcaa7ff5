"""Rendering a round page: the seats clockwise from the leader with their refusals, the game
as it is now after a conflict, and the status code that says how the post went."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion import services
from companion.data import queries
from companion.data.models import Game, db
from companion.data.states import RoundMode, RoundStatus
from companion.read_models.messages import signed_number
from companion.rules import RoundScore, TableSetup, round_leader, seat_order
from companion.web.games.entry.editing import names_of
from companion.web.games.entry.forms import Kind, RoundForm, kinds_for
from companion.web.games.entry.seat_parts import Problems, progress_of, seat_part
from companion.web.games.entry.sending import Sent, Unread
from companion.web.games.entry.switch import SWITCH, losses

#: The ``action`` of the indicators step's button: show the seats whose indicator is chosen.
CONTINUE = "continue"

# --------------------------------------------------------------------------------------------
# What a post came to, as the page shows it


@dataclass
class Outcome:
    """What the page shows of a post that saved nothing: the refusals (at the top or beside
    their seat), a conflict (the game as it is now), an expired form, or a checked score."""

    problems: Problems = field(default_factory=Problems)
    conflict: bool = False
    expired: bool = False
    scored: RoundScore | None = None


def outcome_of(sent: Sent | None, form: RoundForm, game: Game) -> Outcome:
    """The page's view of a post (``None``: nothing was sent). After a conflict the input
    stays, moved onto the game's current version, ready to be sent again."""
    outcome = Outcome()
    if isinstance(sent, Unread):
        outcome.expired = sent.expired
        if sent.message:
            outcome.problems.top.append(sent.message)
    elif isinstance(sent, services.Checked):
        outcome.scored = sent.score
    elif isinstance(sent, services.Refused):
        for problem in sent.problems:
            outcome.problems.add(problem, names_of(game))
    elif isinstance(sent, services.Stale):
        if sent.current is None:  # a lost race found at commit: read the version again
            db.session.refresh(game)
        form.move_to_version(game.version if sent.current is None else sent.current)
        outcome.conflict = True
    return outcome


# --------------------------------------------------------------------------------------------
# The current state, shown after a conflict


@dataclass(frozen=True)
class GameNow:
    """The game as it is now: rounds scored, the round being played, each seat's total."""

    scored: int
    planned: int
    playing: int | None
    totals: tuple[tuple[str, str], ...]


def game_now(game: Game) -> GameNow:
    """What another phone's change left: enough to decide whether to send the input again."""
    db.session.refresh(game)
    totals = queries.totals_of(game)
    playing = queries.playing_round(game)
    return GameNow(
        scored=sum(1 for round_ in game.rounds if round_.status == RoundStatus.SCORED),
        planned=game.rounds_planned,
        playing=playing.number if playing is not None else None,
        totals=tuple(
            (name, signed_number(total))
            for name, total in zip(names_of(game), totals.totals, strict=True)
        ),
    )


# --------------------------------------------------------------------------------------------
# Rendering


def render_round_page(
    template: str,
    game: Game,
    form: RoundForm,
    sent: Sent | None,
    number: int | None = None,
    **extra: Any,
) -> ResponseReturnValue:
    """A round page: the seats clockwise from the leader, each with its refusals (what
    ``sent`` came to, if anything was sent). Without ``number``, the round to record next,
    as the game stands now (after a conflict, the round another phone left to record)."""
    outcome = outcome_of(sent, form, game)
    conflict = game_now(game) if outcome.conflict else None
    if number is None:
        number = queries.number_to_record(game)
    leader = round_leader(number, game.first_leader, form.setup.players)
    names = names_of(game)
    problems = outcome.problems
    parts = [
        seat_part(form, seat, names, leader, problems)
        for seat in seat_order(leader, form.setup.players)
    ]
    if outcome.scored is not None:
        for part in parts:
            part.preview = signed_number(outcome.scored.seats[part.seat].score)
    page = render_template(
        template,
        game=game,
        names=names,
        form=form,
        kind=form.kind,
        setup=form.setup,
        parts=parts,
        problems=problems,
        progress=progress_of(form),
        conflict=conflict,
        seats_to_fix=[part.seat for part in parts if part.problems or form.seats[part.seat].errors],
        checked=outcome.scored is not None and not problems,
        indicators_first=any(part.waiting for part in parts),
        switch_losses=losses(form),
        switch_action=SWITCH,
        continue_action=CONTINUE,
        number=number,
        leader_name=names[leader],
        hazy=form.setup.variant.hides_marks,
        scoreboard_url=url_for("games.scoreboard", code=game.code),
        **extra,
    )
    return page, status_of(outcome, form)


def status_of(outcome: Outcome, form: RoundForm) -> int:
    """409 after a conflict, 400 for an expired form, 422 for a refused round, else 200."""
    if outcome.conflict:
        return 409
    if outcome.expired:
        return 400
    if outcome.problems or any(seat.errors for seat in form.seats):
        return 422
    return 200


def mode_links(
    setup: TableSetup, kind: Kind, endpoint: str, **values: Any
) -> list[tuple[str, str, bool]]:
    """Links between quick and full entry, when the game offers both: (label, url, current)."""
    kinds = kinds_for(setup)
    if len(kinds) < 2:
        return []
    labels = {RoundMode.QUICK: gettext("Quick entry"), RoundMode.FULL: gettext("Every card")}
    return [
        (labels[other.mode], url_for(endpoint, mode=other.mode, **values), other is kind)
        for other in kinds
    ]
