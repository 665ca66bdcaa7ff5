"""The scoreboard's page model: what the scoreboard shows of a game, from the game's state in
the JSON API's shape (DESIGN.md, "Games") — seats, rounds, marked colours (hidden while hazy,
R15), running totals, who deals and leads (R3), winners (R11) — and the links and words its
template takes from its context.

The server builds the state from the database (companion/web/scoreboard_page.py); the phone's
rules worker from the last state the server sent plus the changes queued on the phone
(companion/play_state/offline_game.py), whose rounds carry ``"pending": true`` until they are
sent. Both render ``templates/games/scoreboard_board.html`` with :func:`board_context`.

It is over 450 lines because it is the whole page in one place, in the order the board is
built (the variant's name, names short enough for the table, the model, its cells and next
round, the links and words of the template's context): one module for the worker to ship
and for both sides to call, where a split would only pass the same state across modules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.pages.charts import cumulative_chart, signed_number
from companion.pages.trick import Chip
from companion.rules import (
    HAT_TRICK,
    Colour,
    Variant,
    round_dealer,
    round_leader,
    table_setup,
    variant_from_settings,
    variant_named,
)
from companion.rules.text import N_
from companion.rules.wording import COLOUR_SYMBOLS, Reader, colour_words

#: The fewest characters a shortened name keeps, so "Anna" and "Anne" stay apart.
SHORTEST_NAME = 4
#: About how many characters of names fit across a 390 px phone in the score table.
NAME_CHARACTERS_PER_ROW = 30
#: What the server calls a round's and a game's states (companion/data/states.py).
SCORED, PLAYING, LIVE = "scored", "playing", "live"
IN_PROGRESS, FINISHED, ABANDONED = "in_progress", "finished", "abandoned"
#: The mark on a round that the phone has not sent yet (companion/play_state/offline_game.py).
PENDING = "pending"
#: The colours each seat scored with, as the server stored them (not in the API's state).
COLOURS = "colours"
#: The explanation terms that name a Hat Trick seat's scoring colour (R22).
BEST_COLOUR = "best-colour"

#: Builds a page's link: an endpoint's name and its values (``url_for``, or the route map).
Url = Callable[..., str]


# --------------------------------------------------------------------------------------------
# The variant's name


PRESET_NAMES = {
    "classic": N_("Classic"),
    "mild": N_("Mild"),
    "reverse": N_("Reverse"),
    "aggravated": N_("Aggravated"),
    "hazy": N_("Hazy"),
    "delayed": N_("Delayed"),
    HAT_TRICK: N_("Hat Trick"),
}

SCORING_NAMES = {
    "classic": N_("classic scoring"),
    "mild": N_("mild scoring"),
    "reverse": N_("reverse scoring (lucky colour)"),
}

REVEAL_NAMES = {
    "open": N_("shown at once"),
    "hazy": N_("hidden until scored"),
    "delayed": N_("chosen at the end"),
}


def variant_words(variant: Variant, reader: Reader) -> str:
    """A variant's name: the preset's, or its three settings when it is no preset."""
    preset = variant.preset
    if preset is not None:
        return reader.gettext(PRESET_NAMES[preset])
    settings = variant.settings  # only the classic family has settings outside a preset
    assert settings is not None
    colours = settings.colours
    return reader.gettext("Custom: %(scoring)s, %(colours)s %(reveal)s") % {
        "scoring": reader.gettext(SCORING_NAMES[settings.scoring.name]),
        "colours": reader.ngettext("%(num)d colour", "%(num)d colours", colours) % {"num": colours},
        "reveal": reader.gettext(REVEAL_NAMES[settings.reveal.value]),
    }


def variant_of(value: object) -> Variant:
    """The variant as the game state holds it: a preset's name or its settings."""
    if isinstance(value, str):
        return variant_named(value)
    assert isinstance(value, Mapping)
    if value.get("game") == HAT_TRICK:
        return variant_named(HAT_TRICK)
    return variant_from_settings(str(value["scoring"]), int(value["colours"]), str(value["reveal"]))


# --------------------------------------------------------------------------------------------
# Names short enough for the score table


def short_names(names: Sequence[str]) -> list[str]:
    """Names short enough for a column each on a phone, still telling every player apart.

    The more players, the shorter; a cut name shows "…". Names that would look the same
    ("Alexandra", "Alexander") keep their last letter too ("Al…a", "Al…r"), then more
    characters, until they differ or are shown whole.
    """
    limit = max(SHORTEST_NAME, NAME_CHARACTERS_PER_ROW // max(len(names), 1))
    choices = [_short_forms(name, limit) for name in names]
    picked = [0] * len(names)
    while True:
        shown = [forms[index] for forms, index in zip(choices, picked, strict=True)]
        clashing = [
            seat
            for seat, label in enumerate(shown)
            if shown.count(label) > 1 and picked[seat] < len(choices[seat]) - 1
        ]
        if not clashing:
            return shown
        for seat in clashing:
            picked[seat] += 1


def _short_forms(name: str, limit: int) -> list[str]:
    """A name's possible labels, shortest first, the whole name last."""
    forms = []
    for length in range(limit, len(name)):
        forms.append(name[: length - 1].rstrip() + "…")
        forms.append(name[: length - 2].rstrip() + "…" + name[-1])
    return [*forms, name]


# --------------------------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class SeatCell:
    """One seat in one round: the score, the running total and the marked colours."""

    seat: int
    score: int | None
    total: int | None
    chips: tuple[Chip, ...]
    marks_hidden: bool
    leads: bool


@dataclass(frozen=True)
class RoundRow:
    """One round of the table: its number, status, dealer and leader (R3), a cell per seat;
    ``pending`` while it is on this phone, not yet sent."""

    number: int
    status: str
    dealer: int
    leader: int
    cells: tuple[SeatCell, ...]
    pending: bool = False

    @property
    def is_scored(self) -> bool:
        """Whether the round's scores are in (and its hazy colours may be shown, R15)."""
        return self.status == SCORED


@dataclass(frozen=True)
class NextRound:
    """The round the table plays now or next, of how many: who deals, who leads the first
    trick (R3). The scoreboard and the table setup page both show it."""

    number: int
    planned: int
    dealer: int
    leader: int
    colours_marked: bool
    lays_out_indicators: bool


@dataclass(frozen=True)
class Standing:
    """A seat in the players' list, with its rank once the game is finished."""

    seat: int
    rank: int | None = None


def ranked_standings(totals: Sequence[int]) -> tuple[Standing, ...]:
    """The seats by rank, highest total first (R11); equal totals share a rank and keep seat
    order, and the next rank skips as many places as were shared ("1, 1, 3")."""
    order = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
    return tuple(
        Standing(seat, 1 + sum(1 for total in totals if total > totals[seat])) for seat in order
    )


@dataclass(frozen=True)
class Scoreboard:
    """Everything the scoreboard page shows of a game."""

    code: str
    version: int
    status: str
    names: tuple[str, ...]
    short_names: tuple[str, ...]
    variant_label: str
    is_hat_trick: bool
    is_hazy: bool
    rounds_planned: int
    rows: tuple[RoundRow, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    next_round: NextRound | None
    #: Left out of the statistics (played with a wrong rule); still in the history.
    excluded: bool = False
    #: The game this table started after this one ("play again"), once there is one.
    next_game_code: str | None = None
    #: The round being played live, trick by trick, as the table follows it (the server's
    #: read model, companion/read_models/live_follow.py).
    following: Any = None
    #: Each seat's running total after every scored round, drawn (companion/pages/charts.py).
    chart: str | None = None

    @property
    def leader_now(self) -> int | None:
        """Who leads now: the round's first leader (R3), or in a live round the leader of
        the trick being played (R9, R21)."""
        if self.following is not None:
            return int(self.following.leader)
        return self.next_round.leader if self.next_round is not None else None

    @property
    def is_over(self) -> bool:
        """Whether the game takes no more rounds (finished or abandoned): it may be played
        again."""
        return self.status != IN_PROGRESS

    @property
    def scored_rounds(self) -> int:
        """How many rounds have their scores in."""
        return sum(1 for row in self.rows if row.is_scored)

    @property
    def is_ranked(self) -> bool:
        """Whether the players are listed by rank: once the game is finished."""
        return self.status == FINISHED

    @property
    def standings(self) -> tuple[Standing, ...]:
        """The players' list: by rank once finished, else in seat order."""
        if self.is_ranked:
            return ranked_standings(self.totals)
        return tuple(Standing(seat) for seat in range(len(self.names)))

    @property
    def winner_names(self) -> list[str]:
        """The winners by name, in seat order (R11: equal highest totals share the win)."""
        return [self.names[seat] for seat in self.winners]

    @property
    def winning_total(self) -> int | None:
        """The winners' total, once there are winners."""
        return self.totals[self.winners[0]] if self.winners else None

    @property
    def pending_rounds(self) -> int:
        """How many of the table's rounds are on this phone, not yet sent."""
        return sum(1 for row in self.rows if row.pending)


def chip(colour: str, value: object, reader: Reader) -> Chip:
    """A marked card or colour, named in the reader's language."""
    named = Colour.named(colour)
    shown = value if isinstance(value, int) else None
    return Chip(colour, shown, colour_words(named, reader), COLOUR_SYMBOLS[named])


_COLOUR_VALUES = frozenset(colour.value for colour in Colour)


def scored_colours(explanation: object) -> list[str]:
    """The colours a seat scored with in a round that laid no indicator out: the delayed
    choice (R16) or Hat Trick's scoring colour (R22), as the round's explanation names them."""
    if not isinstance(explanation, Mapping):
        return []
    choice = explanation.get("choice")
    if isinstance(choice, Mapping):
        return [str(colour) for colour in choice.get("colours", [])]
    return [
        str(term["colour"])
        for term in explanation.get("terms", [])
        if term.get("kind") == BEST_COLOUR and "colour" in term
    ]


def seat_colours(round_: Mapping[str, Any], seat: int, explanations: Sequence[Any]) -> list[str]:
    """The colours ``seat`` scored with in a scored round that laid none out: as the server
    stored them (``colours``, which it adds to the state it draws from: a round imported
    without its entries has no explanation), else as the round's explanation names them."""
    stored = round_.get(COLOURS)
    if stored is not None:
        return [str(colour) for colour in stored[seat]]
    return scored_colours(explanations[seat]) if seat < len(explanations) else []


def round_cells(
    round_: Mapping[str, Any], players: int, running: Sequence[int], reader: Reader
) -> tuple[SeatCell, ...]:
    """Each seat's score, running total and marked colours in ``round_`` (hidden while a
    hazy round is unscored, R15: the state holds no marks then)."""
    marked = round_.get("marked")
    scored = round_["status"] == SCORED
    scores = round_.get("scores") if scored else None
    explanations = round_.get("explanations") or []
    cells = []
    for seat in range(players):
        score = scores[seat] if scores is not None else None
        chips: tuple[Chip, ...] = ()
        if marked is not None and seat < len(marked) and marked[seat]:
            chips = tuple(chip(card["colour"], card.get("value"), reader) for card in marked[seat])
        elif marked is not None and score is not None:
            colours = seat_colours(round_, seat, explanations)
            chips = tuple(chip(c, None, reader) for c in colours if c in _COLOUR_VALUES)
        cells.append(
            SeatCell(
                seat=seat,
                score=score,
                total=running[seat] if scored else None,
                chips=chips,
                marks_hidden=marked is None,
                leads=seat == round_["leader"],
            )
        )
    return tuple(cells)


def next_round_of(state: Mapping[str, Any], variant: Variant) -> NextRound | None:
    """The round being played (its colours marked), or the next one to deal (R3, R23);
    ``None`` once the game is over or no planned round is left."""
    if state["status"] != IN_PROGRESS:
        return None
    rounds = state["rounds"]
    playing = bool(rounds) and rounds[-1]["status"] == PLAYING
    number = rounds[-1]["number"] if playing else len(rounds) + 1
    if number > state["rounds_planned"]:
        return None
    players = len(state["players"])
    first = state["first_leader"]
    return NextRound(
        number=number,
        planned=state["rounds_planned"],
        dealer=round_dealer(number, first, players),
        leader=round_leader(number, first, players),
        colours_marked=playing,
        lays_out_indicators=table_setup(players, variant).cards_laid_out > 0,
    )


def scoreboard_of(
    state: Mapping[str, Any],
    reader: Reader,
    excluded: bool = False,
    next_game_code: str | None = None,
    following: Any = None,
) -> Scoreboard:
    """The whole scoreboard of the game in ``state``, in the reader's words. What the state
    does not hold (whether the game counts in statistics, the next game, the live round as
    followed) the caller gives."""
    names = tuple(str(name) for name in state["players"])
    players = len(names)
    variant = variant_of(state["variant"])
    running = [0] * players
    rows = []
    for round_ in state["rounds"]:
        if round_["status"] == SCORED:
            running = [
                total + score for total, score in zip(running, round_["scores"], strict=True)
            ]
        rows.append(
            RoundRow(
                number=round_["number"],
                status=round_["status"],
                dealer=round_dealer(round_["number"], state["first_leader"], players),
                leader=round_["leader"],
                cells=round_cells(round_, players, running, reader),
                pending=bool(round_.get(PENDING)),
            )
        )
    scored = [[cell.total or 0 for cell in row.cells] for row in rows if row.is_scored]
    chart = None
    if scored:
        title = reader.gettext("Running totals after each round")
        chart = cumulative_chart(names, scored, title, id_prefix="totals", reader=reader)
    return Scoreboard(
        code=str(state["id"]),
        version=int(state["version"]),
        status=str(state["status"]),
        names=names,
        short_names=tuple(short_names(names)),
        variant_label=variant_words(variant, reader),
        is_hat_trick=variant.has_passes,
        is_hazy=variant.hides_marks,
        rounds_planned=int(state["rounds_planned"]),
        rows=tuple(rows),
        totals=tuple(state["totals"]),
        winners=tuple(state["winners"]),
        next_round=next_round_of(state, variant),
        excluded=excluded,
        next_game_code=next_game_code,
        following=following,
        chart=chart,
    )


# --------------------------------------------------------------------------------------------
# What the phone is offered, and the links


@dataclass(frozen=True)
class EditActions:
    """The changes an editing device is offered on the scoreboard (``None``: not now)."""

    mark_url: str | None
    record_url: str | None
    corrections: list[tuple[int, str]]
    live_url: str | None = None  # play the next round (or the marked one) live
    continue_live_url: str | None = None  # the live round in progress


def live_round_number(state: Mapping[str, Any]) -> int | None:
    """The number of the round being played live, trick by trick, if one is."""
    rounds = state["rounds"]
    if rounds and rounds[-1]["status"] == PLAYING and rounds[-1].get("mode") == LIVE:
        return int(rounds[-1]["number"])
    return None


def edit_actions(board: Scoreboard, url: Url, live: int | None = None) -> EditActions:
    """Mark colours (when the variant lays indicators out and they are not marked yet),
    record the next round or play it live (or continue the ``live`` round in progress),
    and correct any scored round of a game not abandoned."""
    next_round = board.next_round
    mark_url = record_url = live_url = continue_live_url = None
    if next_round is not None and live is not None:
        continue_live_url = url("games.live_round", code=board.code, number=live)
    elif next_round is not None:
        if next_round.lays_out_indicators and not next_round.colours_marked:
            mark_url = url("games.mark_colours", code=board.code)
        record_url = url("games.record_round", code=board.code)
        live_url = url("games.start_live_round", code=board.code)
    corrections = []
    if board.status != ABANDONED:
        for row in board.rows:
            if row.is_scored:
                corrections.append(
                    (row.number, url("games.correct_round", code=board.code, number=row.number))
                )
    return EditActions(mark_url, record_url, corrections, live_url, continue_live_url)


def board_context(
    state: Mapping[str, Any],
    board: Scoreboard,
    url: Url,
    csrf_token: str,
    editable: bool,
    view: bool = False,
    saved_number: int | None = None,
) -> dict[str, Any]:
    """What ``games/scoreboard_board.html`` takes: the board, the changes this phone is
    offered (``editable``), the links (``url``) and the CSRF token of its forms."""
    live = live_round_number(state)
    code = board.code
    next_url = None
    if board.next_game_code:
        next_url = (
            url("games.view", code=board.next_game_code)
            if view
            else url("games.next_game", code=code)
        )
    return {
        "board": board,
        "editable": editable,
        "actions": edit_actions(board, url, live) if editable else None,
        "live_round": live,
        "view": view,
        "url": url,
        "form_token": csrf_token,
        "signed": signed_number,
        "saved_number": saved_number,
        "poll_url": url("games.view" if view else "games.scoreboard", code=code),
        "next_game_url": next_url,
        "play_again_url": url("games.play_again", code=code),
        "table_tools": True,
    }


def unsent_context(context: Mapping[str, Any]) -> dict[str, Any]:
    """The board of a game only this phone holds yet (the server has not started it): its
    rounds can be entered, not corrected (none is sent), and the table tools, which are
    pages of a game the server has, are not offered."""
    actions = context["actions"]
    if actions is not None:
        actions = replace(actions, corrections=[])
    return {**context, "actions": actions, "table_tools": False}
