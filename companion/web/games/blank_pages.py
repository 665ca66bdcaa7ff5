"""The blank pages of a game of each shape (a variant and a number of players), which a phone
that kept the offline kit keeps too: a game started there with no network is drawn on them
(static/offline_new_game.js, static/offline_play.js), whatever its players and variant.

A shape's round forms depend on the deck (R2, R17) and the variant's settings (how many
colours are marked and when, R4, R14-R16), never on who plays; so a frame is the page a
game of that shape shows before its first round: its scoreboard, record page (each entry
mode), mark page and the page starting a round live. The game is never stored: it is
built for the page and dropped, and its code is one no game can have, so that nothing on a
frame leads to a real game. The phone puts the new game's own players in the seats.

The service worker asks for the frames of the variants its games use, for every number of
players they seat (templates/pwa/sw.js), in the visitor's language.
"""

from __future__ import annotations

from flask import abort, make_response, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from companion.data.models import Game, Player, Seat, name_key
from companion.data.states import GameStatus
from companion.rules import (
    RuleError,
    TableSetup,
    Variant,
    table_setup,
    variant_from_settings,
    variant_named,
)
from companion.rules.errors import PlayerCountError
from companion.rules.variants import HAT_TRICK
from companion.web.games.blueprint import bp
from companion.web.games.entry.forms import Kind, RoundForm, kind_for
from companion.web.games.entry.page import mode_links, render_round_page
from companion.web.games.live.routes import start_with_indicators, start_without_indicators
from companion.web.scoreboard_page import scoreboard_html

#: The code of a frame's game: no game can have it (``services.keys.CODE_PATTERN``).
FRAME_CODE = "~frame"
#: A frame's game plans as many rounds as a new game offers first; the phone says its own.
FRAME_ROUNDS = 1


def frame_slug(variant: Variant) -> str:
    """How a frame's address names its variant: Hat Trick, or a classic-family game's three
    settings (static/outbox.js names it the same way from the API's shape)."""
    shape = variant.as_json()
    if shape["game"] == HAT_TRICK:
        return HAT_TRICK
    return f"{shape['scoring']}-{shape['colours']}-{shape['reveal']}"


def variant_of_slug(slug: str) -> Variant | None:
    """The variant a frame's address names; ``None`` for one it does not name."""
    if slug == HAT_TRICK:
        return variant_named(HAT_TRICK)
    scoring, _, rest = slug.partition("-")
    colours, _, reveal = rest.partition("-")
    try:
        variant: Variant = variant_from_settings(scoring, int(colours), reveal)
    except (RuleError, ValueError):
        return None
    return variant if frame_slug(variant) == slug else None


def frame_setup(players: int, slug: str) -> TableSetup:
    """The table a frame shows; 404 for a variant or a number of players there is not."""
    variant = variant_of_slug(slug)
    if variant is None:
        abort(404)
    try:
        return table_setup(players, variant)
    except PlayerCountError:
        abort(404)


def blank_game(setup: TableSetup) -> Game:
    """A game of ``setup`` before its first round, never stored: its players are named by
    their seats, and the first seat leads."""
    game = Game(
        code=FRAME_CODE,
        edit_key_hash="",
        variant=setup.variant,
        rounds_planned=FRAME_ROUNDS,
        first_leader=0,
        status=GameStatus.IN_PROGRESS,
        version=1,
    )
    names = [gettext("Player %(number)s", number=seat + 1) for seat in range(setup.players)]
    game.seats = [
        Seat(position=seat, player=Player(name=name, key=name_key(name)))
        for seat, name in enumerate(names)
    ]
    game.rounds = []
    return game


@bp.get("/games/frame/<int:players>/<slug>", defaults={"page": None})
@bp.get("/games/frame/<int:players>/<slug>/rounds/<any(record, mark, live):page>")
def frame(players: int, slug: str, page: str | None) -> ResponseReturnValue:
    """A blank page of a game of ``players`` at the variant ``slug``: its scoreboard, or the
    round page ``page`` (the record page in the entry mode ``?mode=`` asks for)."""
    setup = frame_setup(players, slug)
    game = blank_game(setup)
    if page is None:
        answer = make_response(scoreboard_html(game, editable=True))
    elif page == "record":
        answer = make_response(record_frame(game, setup))
    elif page == "mark":
        if not setup.cards_laid_out:
            abort(404)  # the variant marks no colours before the round (R16, R17)
        form = RoundForm.build(Kind.MARK, setup, game.version, number=1)
        answer = make_response(render_round_page("games/round_mark.html", game, form, None))
    elif setup.cards_laid_out:
        answer = make_response(start_with_indicators(game, setup))
    else:
        answer = make_response(start_without_indicators(game, setup, None))
    answer.headers["Cache-Control"] = "no-cache"
    return answer


def record_frame(game: Game, setup: TableSetup) -> ResponseReturnValue:
    """The record page of round 1, in the entry mode ``?mode=`` asks for (else the game's
    first). Its switch leads to the frame's own pages, the first mode's without a query: the
    phone keeps each page once."""
    kind = kind_for(setup, request.args.get("mode"))
    form = RoundForm.build(kind, setup, game.version, None, 1)
    values = {"players": setup.players, "slug": frame_slug(setup.variant), "page": "record"}
    first = url_for("games.frame", **values)
    modes = [
        (label, first if place == 0 else url, current)
        for place, (label, url, current) in enumerate(
            mode_links(setup, form.kind, "games.frame", **values)
        )
    ]
    return render_round_page(
        "games/round_record.html", game, form, None, correcting=False, switched=None, modes=modes
    )
