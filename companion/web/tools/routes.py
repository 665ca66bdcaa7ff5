"""The table tools' pages: table setup and trick resolver, alone or inside a game.

Both pages only calculate: they save nothing, so the resolver answers its POSTs directly
instead of redirecting (there is nothing a reload could save twice). Its whole state (the
trick rule or leader, the player count, the trick) also opens it by GET: the page names that
address, so a script can keep it in the browser's history and Back after a rule link returns
to the same trick. CSRFProtect checks every POST before a view runs; a form whose token
expired is shown again with the trick kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from wtforms import Field

from companion.data import queries
from companion.data.models import Game
from companion.data.states import RoundMode
from companion.pages.resolver import players_in_order, resolver_context, resolver_of
from companion.play_state.trick_taps import TrickTable, tap
from companion.read_models.messages import page_reader, render_message, variant_label
from companion.read_models.scoreboard import NextRound, next_round_of
from companion.rules import RuleError, TableSetup, table_setup
from companion.rules.table import DEFAULT_ROUNDS
from companion.services.games import get_game
from companion.web.errors import Link, PageArea, home, register_page_errors
from companion.web.tools import bp
from companion.web.tools.forms import GameTrickForm, ResolverForm, SetupForm, TrickForm
from companion.web.tools.setup_view import (
    box_view,
    seat_names,
    trick_rule_of,
)


@dataclass(frozen=True)
class GameAtTable:
    """The game a tool page is opened from: its seats, variant and current round."""

    code: str
    names: tuple[str, ...]
    variant: str
    #: The variant as the API and the offline rules worker name it (the resolver offline).
    variant_json: dict[str, object]
    rounds_planned: int
    round: NextRound | None


def game_at_table(game: Game) -> GameAtTable:
    """What the tool pages show about ``game``."""
    return GameAtTable(
        code=game.code,
        names=tuple(seat_names(game)),
        variant=variant_label(game.variant),
        variant_json=game.variant.as_json(),
        rounds_planned=game.rounds_planned,
        round=next_round_of(game, queries.playing_round(game)),
    )


def fields_valid(form: TrickForm | SetupForm, *fields: Field) -> bool:
    """Validate only the settings the page reads (every field keeps its own errors)."""
    return all([field.validate(form) for field in fields])


def resolver_url(setup: TableSetup) -> str:
    """The resolver preset to the setup's trick rule and player count."""
    return url_for("tools.resolver", variant=trick_rule_of(setup.variant), players=setup.players)


# --------------------------------------------------------------------------------------------
# Table setup


@bp.get("/setup", endpoint="table_setup")
def show_table_setup() -> ResponseReturnValue:
    """Which cards to take out of the box, hands, cards left out and tricks (R2, R17)."""
    form = SetupForm(request.args)
    setup = None
    if form.validate():
        setup = setup_or_field_error(form)
    page = render_template(
        "tools/setup.html",
        form=form,
        box=box_view(setup) if setup else None,
        game=None,
        variant_name=variant_label(setup.variant) if setup else None,
        rounds=DEFAULT_ROUNDS,
        resolver_url=resolver_url(setup) if setup else None,
    )
    return page, 200 if setup else 400


def setup_or_field_error(form: SetupForm | ResolverForm) -> TableSetup | None:
    """The setup the form asks for; a player count the game is not played with (R2, R17,
    e.g. Hat Trick with 3) is explained next to the player count."""
    try:
        return table_setup(form.players.data, form.chosen_variant())
    except RuleError as error:
        form.players.errors = [*form.players.errors, render_message(error.message)]
        return None


@bp.get("/g/<code>/setup", endpoint="game_setup")
def show_game_setup(code: str) -> ResponseReturnValue:
    """The game's setup, with who deals and who leads the current round (R3)."""
    game = get_game(code)
    setup = queries.setup_of(game)
    return render_template(
        "tools/setup.html",
        form=None,
        box=box_view(setup),
        game=game_at_table(game),
        variant_name=variant_label(setup.variant),
        rounds=game.rounds_planned,
        resolver_url=url_for("tools.game_resolver", code=game.code),
    )


# --------------------------------------------------------------------------------------------
# Trick resolver


@bp.route("/resolve", methods=["GET", "POST"], endpoint="resolver")
def resolve_trick() -> ResponseReturnValue:
    """Who takes a trick, tapped card by card, for a chosen trick rule and player count."""
    return resolver_page()


def resolver_page(expired: str | None = None) -> ResponseReturnValue:
    """The resolver outside a game; ``expired`` explains a tap refused for its CSRF token."""
    form = ResolverForm() if request.method == "POST" else ResolverForm(request.args or None)

    def table() -> TrickTable | None:
        """The chosen trick rule and player count, or None (errors next to the fields)."""
        if not fields_valid(form, form.variant, form.players):
            return None
        setup = setup_or_field_error(form)
        return TrickTable(setup) if setup else None

    def address(state: dict[str, str]) -> str:
        """The resolver with its trick rule, player count and ``state``."""
        return url_for(
            "tools.resolver", variant=form.variant.data, players=form.players.data, **state
        )

    return render_resolver(form, table, None, url_for("tools.resolver"), expired, address)


@bp.route("/g/<code>/resolve", methods=["GET", "POST"], endpoint="game_resolver")
def resolve_game_trick(code: str) -> ResponseReturnValue:
    """Who takes a trick of this game: its deck, and its seats in order from the leader."""
    return game_resolver_page(code)


def game_resolver_page(code: str, expired: str | None = None) -> ResponseReturnValue:
    """The resolver inside a game; whoever leads at the table now leads by default."""
    game = get_game(code)
    at_table = game_at_table(game)
    names = at_table.names
    leader = trick_leader(game, at_table)
    if request.method == "POST":
        form = GameTrickForm(names)
    else:
        form = GameTrickForm(names, request.args or None, leader=leader)
    setup = queries.setup_of(game)

    def table() -> TrickTable | None:
        """The game's deck and seats from the chosen leader, or None for a forged leader."""
        if not fields_valid(form, form.leader):
            return None
        return TrickTable(setup, names, form.leader.data)

    def address(state: dict[str, str]) -> str:
        """The game's resolver with its leader and ``state``."""
        return url_for("tools.game_resolver", code=game.code, leader=form.leader.data, **state)

    action = url_for("tools.game_resolver", code=game.code)
    return render_resolver(form, table, at_table, action, expired, address)


def trick_leader(game: Game, at_table: GameAtTable) -> int:
    """Who leads the trick at the table now: in a round played live, the last trick's
    winner (R9; in Hat Trick the player of the deciding card, R21); otherwise the round's
    leader (R3), or the first leader once no round is left."""
    playing = queries.playing_round(game)
    if playing is not None and playing.mode == RoundMode.LIVE:
        return queries.live_round_of(game, playing).leader
    return at_table.round.leader if at_table.round else game.first_leader


def render_resolver(
    form: TrickForm,
    table_of: Callable[[], TrickTable | None],
    game: GameAtTable | None,
    action: str,
    expired: str | None,
    address_of: Callable[[dict[str, str]], str],
) -> ResponseReturnValue:
    """Read the trick, apply the tap (unless the form expired) and show the result.

    Answers 400 for settings that cannot be used or an expired form, 422 for a refused tap
    (the trick is unchanged and the refusal says why), 200 otherwise. The page names its
    GET address, ``address_of`` its settings with the trick as it is now.
    """
    table = table_of()
    context: dict[str, object] = {"form": form, "game": game, "action": action, "address": None}
    if table is None:
        return render_template("tools/resolver.html", table=None, **context), 400
    posted = request.method == "POST" and expired is None
    tapped = tap(
        table.setup,
        form.trick.data,
        add=form.add.data if posted else None,
        undo=posted and bool(form.undo.data),
        clear=posted and bool(form.clear.data),
        passing=bool(form.pass_next.data),
    )
    form.trick.data = tapped.field
    context["address"] = address_of(trick_state(form))
    reader = page_reader()
    page = resolver_of(
        table.setup,
        players_in_order(table.setup, reader, table.names, table.leader),
        tapped.plays,
        reader,
        tapped.refusal,
        tapped.refused,
        tapped.cleared,
        table.names or None,
    )
    html = render_template(
        "tools/resolver.html",
        table=table,
        **resolver_context(page, url_for, expired),
        **context,
    )
    return html, 400 if expired else 422 if tapped.refusal else 200


def trick_state(form: TrickForm) -> dict[str, str]:
    """The trick as a GET parameter (left out while empty)."""
    return {"trick": form.trick.data} if form.trick.data else {}


# --------------------------------------------------------------------------------------------
# Errors of the tool pages (answered by ``companion.web.errors``)


def expired_tap_message() -> str:
    """A tap sent with an expired or missing CSRF token was not applied."""
    return gettext("This page had expired, so your last tap was not applied. Please tap again.")


def trick_again(message: str) -> ResponseReturnValue | None:
    """Show the trick as it was and ask for the tap again (nothing is lost, since the trick
    travels in the form); ``None`` on a page without a trick."""
    if request.endpoint == "tools.resolver":
        return resolver_page(expired=message)
    if request.endpoint == "tools.game_resolver" and request.view_args:
        return game_resolver_page(str(request.view_args["code"]), expired=message)
    return None


def ways_back(_status: int) -> list[Link]:
    """The ways back from an error page: home and the tools."""
    return [
        home(),
        (url_for("tools.table_setup"), gettext("Table setup")),
        (url_for("tools.resolver"), gettext("Who takes the trick?")),
    ]


register_page_errors(
    bp,
    PageArea(ways_back=ways_back, form_again=trick_again, expired_message=expired_tap_message),
)
