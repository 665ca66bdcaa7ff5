"""A round page: who may open it to change the game, its seat parts (the seats clockwise
from the leader with their values and refusals, drawn by the page model
companion/pages/record.py), the game as it is now after a conflict, the links between entry
modes, and the status code that says how the post went."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion import services
from companion.data import queries
from companion.data.models import Game, db
from companion.data.states import RoundStatus
from companion.formats.game_json import game_state
from companion.pages import record
from companion.pages.record import MODE_LABELS, Problems, kinds_of, round_context, round_page
from companion.read_models.messages import page_reader, signed_number
from companion.rules import RoundScore, TableSetup
from companion.web.edit_rights import game_to_change
from companion.web.games.entry.forms import ChoiceField, CountField, Kind, RoundForm
from companion.web.games.entry.sending import Sent, Unread

#: The ``action`` of the indicators step's button: show the seats whose indicator is chosen.
CONTINUE = record.CONTINUE


def editable_game(code: str) -> Game:
    """The game ``code`` (locked while a change is made), if this device may change it:
    otherwise a 403 page saying how to get the right (the game pages' error handler)."""
    return game_to_change(
        code,
        gettext(
            "This phone may only look at this game, so it cannot enter rounds. Open the "
            "game's edit link on this phone (the phone keeping the score can show it) to "
            "enter and correct rounds here."
        ),
        lock=request.method == "POST",
    )


def names_of(game: Game) -> list[str]:
    """The players' names in seat order."""
    return [seat.player.name for seat in game.seats]


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
            outcome.problems.add(problem, names_of(game), page_reader())
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


def form_values(form: RoundForm) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The round form's seat fields as the page model takes them (companion/pages/record.py):
    each field's values as sent (or filled in) and what it refused."""
    values: dict[str, list[str]] = {}
    errors: dict[str, list[str]] = {}
    for seat in form.seats:
        for seat_field in seat:
            if isinstance(seat_field, CountField):
                shown = seat_field.shown
                sent = [shown] if shown else []
            elif isinstance(seat_field, ChoiceField):
                sent = [seat_field.data] if seat_field.data else []
            else:
                sent = [str(token) for token in seat_field.data or ()]
            if sent:
                values[seat_field.name] = sent
            if seat_field.errors:
                errors[seat_field.name] = [str(error) for error in seat_field.errors]
    return values, errors


def hidden_fields(form: RoundForm) -> list[tuple[str, str]]:
    """The form's hidden fields as they are drawn: the CSRF token, the game's version and the
    round the form was opened for (and, for a correction, the digest of the round shown)."""
    stamp = form.stamp
    return [
        (stamp.csrf_token.name, str(stamp.csrf_token.current_token or "")),
        ("version", stamp.version._value()),
        ("number", stamp.number._value()),
        ("digest", stamp.digest._value()),
    ]


def render_round_page(
    template: str,
    game: Game,
    form: RoundForm,
    sent: Sent | None,
    number: int | None = None,
    **extra: Any,
) -> ResponseReturnValue:
    """A round page: the seats clockwise from the leader, each with its refusals (what
    ``sent`` came to, if anything was sent), drawn by the round pages' model from the game's
    state as the phone draws it offline. Without ``number``, the round to record next, as
    the game stands now (after a conflict, the round another phone left to record)."""
    outcome = outcome_of(sent, form, game)
    if outcome.conflict:
        db.session.refresh(game)
    if number is None:
        number = queries.number_to_record(game)
    values, errors = form_values(form)
    page = round_page(
        game_state(game, "", ""),
        form.kind,
        number,
        values,
        page_reader(),
        errors=errors,
        problems=outcome.problems,
        implied=form.implied,
        zero_passes=form.zero_passes,
        scores=[seat.score for seat in outcome.scored.seats] if outcome.scored else None,
        conflict=outcome.conflict,
    )
    hidden = hidden_fields(form)
    if form.kind is Kind.MARK:
        hidden = hidden[:3]
    context = round_context(
        page,
        url_for,
        hidden,
        correcting=bool(extra.pop("correcting", False)),
        modes=extra.pop("modes", ()),
        switched=extra.pop("switched", None),
    )
    html = render_template(template, game=game, form=form, **context, **extra)
    return html, status_of(outcome, form)


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
    kinds = kinds_of(setup)
    if len(kinds) < 2:
        return []
    return [
        (
            gettext(MODE_LABELS[other.mode]),
            url_for(endpoint, mode=other.mode, **values),
            other is kind,
        )
        for other in kinds
    ]
