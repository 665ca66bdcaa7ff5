"""The history pages: every game (filtered, paginated), a player's statistics, two players
head to head, fixing a player's name, and the scoreboard's switch that leaves a game out of
the statistics.

Each page shows one circle, to the phones in it: the one its ``circle`` argument
asks for if this phone is in it, else the one it used last (``circle_rights.shown_circle``);
a name not in that circle is unknown, whoever else has it. A club server shows its one
circle to every phone. Changes follow post/redirect/get, carry a CSRF token, and need
rights: to the game for the exclude switch, to the player's circle for a rename or merge
(``player_names``). Each page reads its numbers with a fixed, small number of SQL statements
(``companion.data.history``, ``companion.data.stats``), however long the history is; the
circles this phone is in are read in the statement each page reads first.

It is over 450 lines because it is one blueprint's area: every history and player route
sits here with the few formatting helpers its templates share. The numbers themselves are
read in ``companion.data`` and the charts drawn in ``companion.pages.charts``; what
stays is routes, rights and rendering.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from typing import Any, NoReturn

from babel.dates import format_skeleton
from flask import abort, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import (
    format_date,
    format_decimal,
    format_percent,
    format_time,
    get_locale,
    gettext,
)
from sqlalchemy.exc import IntegrityError

from companion import services
from companion.data import stats
from companion.data.change_counter import counter_values
from companion.data.circles import CircleRef, circles_in
from companion.data.database import read_once
from companion.data.history import (
    HistoryFilter,
    history_counts,
    history_page,
    page_count,
    read_history_state,
)
from companion.data.models import db, name_key, utcnow
from companion.pages.charts import score_history_chart
from companion.read_models.chips import Chip
from companion.read_models.messages import (
    PRESET_NAMES,
    page_reader,
    render_message,
    signed_number,
    variant_label,
)
from companion.rules import PRESETS
from companion.rules.text import Message
from companion.services.player_changes import (
    PAGE,
    NameTaken,
    NotAllowed,
    check_merge,
    check_new_name,
    find_target,
    merge_players,
    rename_player,
)
from companion.web.circle_rights import (
    circles_condition,
    circles_of_phone,
    club_server,
    note_circles_of_phone,
    shown_circle,
    use_circle,
)
from companion.web.edit_rights import SESSION_KEYS, game_to_change
from companion.web.errors import Link, PageArea, back_to_game, home, register_page_errors
from companion.web.history import bp
from companion.web.history.forms import CONFIRMED, ExcludeForm, MergeForm, RenameForm
from companion.web.history.player_names import (
    may_change_player,
    may_change_players,
    may_touch_games_of,
    player_state,
    players_state,
)
from companion.web.history_cache import history_etag, kept_or_rendered
from companion.web.history_filters import PERIODS, read_filters, read_page
from companion.web.i18n import gettext_with_names
from companion.web.scoreboard_page import game_template_helpers

# --------------------------------------------------------------------------------------------
# Template helpers


def average(value: float | None) -> str:
    """An average score with one decimal, in the page's language ("–" when there is none)."""
    if value is None:
        return "–"
    text = format_decimal(round(value, 1), format="#,##0.0")
    return f"+{text}" if value > 0 else text.replace("-", "\u2212")


def one_decimal(value: float | None) -> str:
    """A count's average with one decimal, in the page's language ("–" when there is none)."""
    return "–" if value is None else format_decimal(round(value, 1), format="#,##0.0")


def rate(value: float | None) -> str:
    """A share as a percentage in the page's language ("–" when there is none)."""
    return "–" if value is None else format_percent(value)


def signed_or_dash(value: int | None) -> str:
    """A round score with its sign, or "–" when there is none."""
    return "–" if value is None else signed_number(value)


def month_label(year: int, month: int) -> str:
    """ "Mar 2025" in the page's language."""
    return format_skeleton("yMMM", date(year, month, 1), locale=get_locale())


def date_and_time(moment: datetime) -> str:
    """ "Nov 25, 2026, 7:42 PM": the day and the time of day, joined as the page's language
    joins them (in the app's time zone, ``BABEL_DEFAULT_TIMEZONE``)."""
    pattern = str(get_locale().datetime_formats["medium"])
    return pattern.replace("{1}", format_date(moment, format="medium")).replace(
        "{0}", format_time(moment, format="short")
    )


def colour_chip(colour: str) -> Chip:
    """A colour as the scoreboard draws it (shape and name, for colour-blind players)."""
    return Chip(colour)


@bp.context_processor
def history_template_helpers() -> dict[str, Any]:
    """Give the history templates their helpers (and the scoreboard's, which the exclude
    switch shows again when another phone changed the game first)."""
    return {
        **game_template_helpers(),
        "average": average,
        "one_decimal": one_decimal,
        "rate": rate,
        "signed": signed_number,
        "signed_or_dash": signed_or_dash,
        "month_label": month_label,
        "variant_label": variant_label,
        "colour_chip": colour_chip,
        "format_date": format_date,
        "date_and_time": date_and_time,
        "circle_args": circle_args,
    }


def message_text(message: Message) -> str:
    """A filter problem or refusal in the page's language."""
    return render_message(message)


# --------------------------------------------------------------------------------------------
# The circle a page shows


def read_circles(statement: Any | None) -> list[Any]:
    """The rows of a page's first statement (``None``: a phone in no circle, no statement),
    telling ``circle_rights`` the circles this phone is in that it read beside the rest."""
    rows = [] if statement is None else list(read_once(statement))
    note_circles_of_phone(circles_in(rows))
    return rows


def circle_shown() -> CircleRef | None:
    """The circle this page shows (``shown_circle`` of its ``circle`` argument); a circle
    asked for by its argument becomes the one this phone used last."""
    asked = request.args.get("circle")
    circle = shown_circle(asked)
    if circle is not None and asked == str(circle.id):
        use_circle(circle.id)
    return circle


def circle_args() -> dict[str, Any]:
    """The ``circle`` argument the links between the history pages carry: the shown
    circle's, when this phone is in more than one (one circle needs none: short URLs)."""
    circles = circles_of_phone()
    shown = shown_circle(request.args.get("circle"))
    return {"circle": shown.id} if len(circles) > 1 and shown is not None else {}


def circle_etag_parts(shown: CircleRef | None) -> list[object]:
    """What the circles change on a page: the one shown, and the phone's others when the
    page names them (the switch, the links' ``circle`` argument)."""
    circles = circles_of_phone()
    listed = [[circle.id, circle.name] for circle in circles] if len(circles) > 1 else []
    return [None if shown is None else [shown.id, shown.name], listed]


def rows_of(rows: list[Any], circle: CircleRef | None) -> list[Any]:
    """The rows of a page's first statement about the shown circle's players."""
    return [row for row in rows if circle is not None and row.circle_id == circle.id]


# --------------------------------------------------------------------------------------------
# History


def device_codes() -> set[str]:
    """The games this device holds edit keys for (read from its cookie, no query): in the
    history they offer "Continue" instead of "Follow"."""
    keys = session.get(SESSION_KEYS, {})
    return set(keys) if isinstance(keys, dict) else set()


def history_rows(filters: HistoryFilter) -> list[Any]:
    """The history's first statement: the circles this phone is in (a club server's one),
    the change counter, and a time-bounded filter's counts per circle."""
    circle = circles_condition()
    rows = [] if circle is None else read_history_state(filters, circle, club_server())
    note_circles_of_phone(circles_in(rows))
    return rows


@bp.get("/history")
def games() -> ResponseReturnValue:
    """The shown circle's games, games in progress first, then newest first, 20 a page,
    filtered by player, variant and period (query parameters kept across pages), with a
    switch to the phone's other circles. Rendered once per change of what it shows, then
    served by ETag (``history_cache``), whose read finds the phone's circles first."""
    read = read_filters(request.args, utcnow())
    page = read_page(request.args.get("page"))
    if page is None:
        abort(404)
    rows = history_rows(read.filters)
    circle = circle_shown()
    if circle is None and not club_server():
        return render_template("history/no_circle.html")
    filters = replace(read.filters, circle_id=None if circle is None else circle.id)

    def render() -> str:
        beside = services.suggestions(None if circle is None else circle.id)
        counts, known_names = history_counts(filters, beside=beside)
        if not 1 <= page <= page_count(counts[0]):
            abort(404)  # nothing kept: the next asking finds out again
        listing = history_page(filters, page, in_progress_first=True, counts=counts)
        filtered: dict[str, Any] = read.args.query()
        query: dict[str, Any] = {**filtered, **circle_args()}
        return render_template(
            "history/games.html",
            listing=listing,
            args=read.args,
            problems={name: message_text(problem) for name, problem in read.problems.items()},
            periods=PERIODS,
            variants=[(name, PRESET_NAMES[name]) for name in PRESETS],
            known_names=known_names,
            editable_codes=editable_codes,
            page_link=lambda number: url_for("history.games", **query, page=number),
            circles=circles_of_phone(),
            circle=circle,
            switch_link=lambda shown: url_for("history.games", **filtered, circle=shown.id),
        )

    editable_codes = device_codes()
    if read.problems:  # a form to fix: shown as it is, kept nowhere
        return render(), 400
    if circle is None:  # a club server before its first game: nothing worth keeping
        return render()
    (state,) = rows_of(rows, circle)
    counts = [state.total, state.in_progress] if "total" in state._fields else []
    tag = history_etag(
        "history/games.html",
        [*counter_values(state), *counts],
        sorted(editable_codes),
        *circle_etag_parts(circle),
    )
    private = bool(editable_codes) or not club_server()
    return kept_or_rendered(tag, render, private=private)


# --------------------------------------------------------------------------------------------
# A player's page


def player_or_404(name: str) -> stats.PlayerRef:
    """The player of the shown circle called ``name`` (case aside), or the not-found page."""
    circle = circle_shown()
    player = None
    if circle is not None or club_server():
        player = stats.find_player(name, None if circle is None else circle.id)
    if player is None:
        no_such_player(name)
    return player


def no_such_player(name: str) -> NoReturn:
    """The not-found page of a name nobody of the shown circle has (a name of another
    circle is as unknown: its page never says it exists)."""
    abort(404, description=gettext("Nobody called %(name)s has played yet.", name=name))


def score_history_svg(player: stats.PlayerRef, points: list[stats.GamePoint]) -> Any:
    """The chart of the player's points per round in each of their latest finished games:
    games of 2, 3 and 5 rounds compare, and the games of one day share its date."""
    values = [point.per_round for point in points if point.per_round is not None]
    if values:
        description = gettext(
            "%(name)s's points per round in each of the last %(count)s finished games, "
            "oldest first: lowest %(lowest)s, highest %(highest)s, latest %(latest)s.",
            name=player.name,
            count=len(values),
            lowest=average(min(values)),
            highest=average(max(values)),
            latest=average(values[-1]),
        )
    else:
        description = gettext("%(name)s has not finished a game yet.", name=player.name)
    return score_history_chart(
        [
            (format_date(point.created_at, format="short"), point.per_round)
            for point in points
            if point.per_round is not None
        ],
        gettext("Points per round in each finished game"),
        description,
        id_prefix="score-history",
        reader=page_reader(),
    )


@bp.get("/players/<path:name>")
def player(name: str) -> ResponseReturnValue:
    """A player's statistics, head-to-head and trends (finished games that are not
    excluded count; shared wins count as wins). Rendered once per change, then served by
    ETag (``history_cache``): one statement finds this phone's circles, the player in each,
    this phone's right to fix the name and the change counter."""
    circles = circles_condition()
    rows = read_circles(None if circles is None else player_state(name, circles))
    circle = circle_shown()
    found_rows = [row for row in rows_of(rows, circle) if row.id is not None]
    if not found_rows:
        no_such_player(name)
    state = found_rows[0]
    found, may_fix = stats.PlayerRef(state.id, state.name), bool(state.may)

    def render() -> str:
        numbers = stats.player_stats(found)
        points = stats.score_history(found)
        opponents = stats.head_to_head(found, most=stats.OPPONENTS_TO_PICK)
        return render_template(
            "history/player.html",
            player=found,
            numbers=numbers,
            rivals=opponents[: stats.HEAD_TO_HEAD_OPPONENTS],
            opponents=sorted((rival.opponent for rival in opponents), key=name_key),
            points=points,
            chart=score_history_svg(found, points),
            months=stats.monthly_trend(found),
            history_games=stats.SCORE_HISTORY_GAMES,
            may_fix=may_fix,
            club=club_server(),
        )

    tag = history_etag(
        "history/player.html",
        counter_values(state),
        may_fix,
        found.id,
        *circle_etag_parts(circle),
    )
    return kept_or_rendered(tag, render, private=may_fix or not club_server())


# --------------------------------------------------------------------------------------------
# Two players head to head


@bp.get("/players/<path:name>/vs")
def pick_opponent(name: str) -> ResponseReturnValue:
    """The player page's "compare with" form (a GET form, no script): on to the
    head-to-head page of the opponent picked, or back to the player page without one."""
    found = player_or_404(name)
    opponent = request.args.get("opponent", "").strip()
    if not opponent:
        return redirect(url_for("history.player", name=found.name, **circle_args()))
    other = player_or_404(opponent)
    return redirect(url_for("history.versus", name=found.name, other=other.name, **circle_args()))


@bp.get("/players/<path:name>/vs/<path:other>")
def versus(name: str, other: str) -> ResponseReturnValue:
    """Two players of one circle compared: games together, each one's wins (a shared win
    counts for both), and the average difference of their points per round. Rendered once
    per change, then served by ETag (``history_cache``): one statement finds this phone's
    circles, both players in each and the change counter."""
    circles = circles_condition()
    rows = read_circles(None if circles is None else players_state(circles, name, other))
    circle = circle_shown()
    found_rows = {row.key: row for row in rows_of(rows, circle) if row.id is not None}
    sought = []
    for asked in (name, other):
        row = found_rows.get(name_key(asked))
        if row is None:
            no_such_player(asked)
        sought.append(stats.PlayerRef(row.id, row.name))
    found, opponent = sought
    if found.id == opponent.id:
        abort(
            404,
            description=gettext("Pick another player to compare %(name)s with.", name=found.name),
        )

    def render() -> str:
        return render_template(
            "history/versus.html",
            player=found,
            other=opponent,
            numbers=stats.versus(found, opponent),
            latest_games=stats.VERSUS_GAMES,
        )

    state = next(iter(found_rows.values()))
    tag = history_etag(
        "history/versus.html",
        counter_values(state),
        found.id,
        opponent.id,
        *circle_etag_parts(circle),
    )
    return kept_or_rendered(tag, render, private=not club_server())


# --------------------------------------------------------------------------------------------
# Rename and merge: a form, a confirmation, then the change


def player_to_fix(name: str) -> tuple[stats.PlayerRef, CircleRef]:
    """The player of the shown circle called ``name`` and that circle, for a rename or
    merge: a phone in no circle is refused (403: it may fix no name), a name its circle
    does not have is unknown (404, whoever else has it)."""
    circle = circle_shown()
    if circle is None and not club_server():
        refuse_name_change()
    found = player_or_404(name)
    assert circle is not None  # a player was found in it
    return found, circle


def require_player_rights(
    circle: CircleRef, player: stats.PlayerRef, target: stats.PlayerRef | None = None
) -> None:
    """Refuse (403) a name change from a phone without the right to it (``player_names``):
    of ``player`` (and of ``target``, for a merge) of the circle ``circle``."""
    players = (player,) if target is None else (player, target)
    if not may_change_players(circle.id, *players):
        refuse_name_change(player, target)


def refuse_name_change(
    player: stats.PlayerRef | None = None, target: stats.PlayerRef | None = None
) -> NoReturn:
    """The 403 page of a rename or merge: why, and who can do it instead (``player``
    ``None``: a phone in no circle)."""
    db.session.rollback()
    if not club_server():
        if player is None:
            reason = gettext(
                "Only a phone in a player's circle may rename or merge them, and this phone "
                "is in no circle yet."
            )
        else:
            reason = gettext(
                "Only a phone in the circle of %(name)s may rename or merge them.",
                name=player.name,
            )
        how_to_join = gettext(
            "To join a circle, open its invite link, or the edit link of one of its games, "
            "from a phone of the table."
        )
        abort(403, description=f"{reason} {how_to_join}")
    assert player is not None  # a club server's phones are all in its one circle
    if target is None:
        reason = gettext(
            "Renaming or merging changes %(name)s in every game they played, so only a phone "
            "that keeps the score of every one of those games may do it.",
            name=player.name,
        )
    else:
        reason = gettext_with_names(
            "Merging %(name)s into %(target)s changes every game either of them played, so "
            "only a phone that keeps the score of every one of those games may do it.",
            name=player.name,
            target=target.name,
        )
    what_to_do = gettext(
        "To change the name anyway, ask whoever runs this server: they can make the change "
        "for every game at once."
    )
    abort(403, description=f"{reason} {what_to_do}")


def render_fix(
    player: stats.PlayerRef,
    rename: RenameForm | None = None,
    merge: MergeForm | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    """The page with the two ways to fix a name, offering the names of the shown circle."""
    circle = shown_circle(request.args.get("circle"))
    return render_template(
        "history/fix_name.html",
        player=player,
        rename=rename or RenameForm(formdata=None),
        merge=merge or MergeForm(formdata=None),
        known_names=[
            known
            for known in services.suggest_players(None if circle is None else circle.id, limit=100)
            if name_key(known) != name_key(player.name)
        ],
    ), status


def render_confirm(player: stats.PlayerRef, action: str, value: str) -> ResponseReturnValue:
    """The "are you sure" page of a rename or merge, sending the value once more."""
    return render_template(
        "history/confirm_name.html",
        player=player,
        action=action,
        value=value,
        confirmed=CONFIRMED,
    )


@bp.route("/players/<path:name>/rename", methods=["GET", "POST"])
def rename(name: str) -> ResponseReturnValue:
    """Give a player another name (a typo fix); their games keep them."""
    found, circle = player_to_fix(name)
    require_player_rights(circle, found)
    if request.method == "GET":
        return render_fix(found)
    form = RenameForm()
    if not form.validate():
        return render_fix(found, rename=form, status=400)
    try:
        new_name = check_new_name(form.new_name.data, found)
        if not form.is_confirmed():
            return render_confirm(found, "rename", new_name)
        new_name = rename_player(found, new_name, PAGE, may_touch_games_of(circle.id)).new_name
    except NotAllowed:
        refuse_name_change(found)
    except services.ServiceError as error:
        db.session.rollback()
        form.new_name.errors = [*form.new_name.errors, render_message(error.message)]
        merge = None
        if isinstance(error, NameTaken):  # the same person under two names: offer the merge
            merge = MergeForm(formdata=None, into=error.other)
        return render_fix(found, rename=form, merge=merge, status=400)
    except IntegrityError:  # another phone gave someone this name a moment ago
        db.session.rollback()
        taken = NameTaken(form.new_name.data)
        form.new_name.errors = [*form.new_name.errors, render_message(taken.message)]
        return render_fix(found, rename=form, status=400)
    db.session.commit()
    return redirect(url_for("history.player", name=new_name, **circle_args()))


@bp.post("/players/<path:name>/merge")
def merge(name: str) -> ResponseReturnValue:
    """Merge a player into the other name of the same person, who keeps both histories."""
    found, circle = player_to_fix(name)
    require_player_rights(circle, found)
    form = MergeForm()
    if not form.validate():
        return render_fix(found, merge=form, status=400)
    try:
        target = find_target(form.into.data, found)
        require_player_rights(circle, found, target)
        check_merge(found, target)
        if not form.is_confirmed():
            return render_confirm(found, "merge", target.name)
        merge_players(found, target, PAGE, may_touch_games_of(circle.id))
    except NotAllowed:
        refuse_name_change(found, target)
    except services.ServiceError as error:
        db.session.rollback()
        form.into.errors = [*form.into.errors, render_message(error.message)]
        return render_fix(found, merge=form, status=400)
    db.session.commit()
    return redirect(url_for("history.player", name=target.name, **circle_args()))


# --------------------------------------------------------------------------------------------
# Exclude a game from the statistics (the switch on the scoreboard)


@bp.post("/g/<code>/exclude")
def exclude_game(code: str) -> ResponseReturnValue:
    """Leave the game out of the statistics, or count it again; it stays in the history."""
    game = game_to_change(code)
    form = ExcludeForm()
    wanted = form.wants_excluded()
    if not form.validate() or wanted is None:
        abort(400)
    services.exclude_game(game, form.seen_version(), wanted)
    db.session.commit()
    return redirect(url_for("games.scoreboard", code=game.code))


# --------------------------------------------------------------------------------------------
# Errors of the history pages (answered by ``companion.web.errors``)


def rename_or_merge_again(message: str) -> ResponseReturnValue | None:
    """A rename or merge form sent without its valid CSRF token: nothing was saved; show it
    again with the reason (``None`` on any other page)."""
    name = (request.view_args or {}).get("name")
    circle = circle_shown()
    player = stats.find_player(str(name), circle.id) if name and circle is not None else None
    if player is None or circle is None or not may_change_player(circle.id, player):
        return None
    form_class = RenameForm if request.endpoint == "history.rename" else MergeForm
    form = form_class(formdata=None)
    field = form.new_name if isinstance(form, RenameForm) else form.into
    field.errors = [message]
    if isinstance(form, RenameForm):
        return render_fix(player, rename=form, status=400)
    return render_fix(player, merge=form, status=400)


def ways_back(status: int) -> list[Link]:
    """The way back from an error page (to the game, when there is one)."""
    return [*back_to_game(status), (url_for("history.games"), gettext("History")), home()]


def not_from_this_page() -> str:
    """A form that was not sent from our page."""
    return gettext("This form did not come from this page; nothing was saved.")


register_page_errors(
    bp,
    PageArea(
        ways_back=ways_back,
        form_again=rename_or_merge_again,
        about_games=True,
        missing_game_after_conflict=False,
        bad_request=not_from_this_page,
    ),
)
