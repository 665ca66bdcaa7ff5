"""Pages of one round: mark colours, record a round, correct a past round.

Each page reads the table's input into rules entries (``round_forms``), lets
``companion.rules`` judge it (C1-C5, each refusal shown next to the seat it names) and
saves only through ``companion.services``, then redirects to the scoreboard. A page sent
from an older state of the game (another phone saved meanwhile) saves nothing, shows the
game as it is now and keeps the table's input, ready to be sent again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlalchemy.orm.exc import StaleDataError
from wtforms import Form

from companion import services
from companion.data import queries
from companion.data.models import Game, Round, db
from companion.data.states import GameStatus, RoundMode, RoundStatus
from companion.read_models.messages import colour_name, colour_symbol, render_message, signed_number
from companion.rules import (
    Card,
    Colour,
    Entry,
    RoundScore,
    RuleError,
    TableSetup,
    round_leader,
    score_round,
    seat_order,
    tricks_of_cards,
)
from companion.rules.scoring import best_delayed_choice, delayed_choices, score_choice
from companion.web.edit_rights import game_to_change
from companion.web.games import bp
from companion.web.games.round_clash import (
    clash_page,
    correction_clash,
    marks_clash,
    record_clash,
    round_digest,
    round_numbered,
    what_happened,
)
from companion.web.games.round_forms import (
    CHOICE_SEPARATOR,
    Kind,
    RoundForm,
    card_token,
    choice_token,
    kind_for,
    kinds_for,
)
from companion.web.security import csrf

# --------------------------------------------------------------------------------------------
# What the pages show: chips, counts and each seat's part of the form


@dataclass(frozen=True)
class CardChip:
    """One tappable card: colour, value and the colour's shape (for colour-blind players)."""

    token: str
    colour: str
    value: int
    symbol: str
    label: str
    checked: bool
    refused: bool = False


@dataclass(frozen=True)
class ChipGroup:
    """The chips of one colour; ``hidden`` when the colour cannot be meant here (e.g. not
    a marked colour in quick entry) and none of its chips is tapped."""

    colour: str
    name: str
    symbol: str
    chips: tuple[CardChip, ...]
    hidden: bool = False

    @property
    def tapped(self) -> int:
        """How many of the group's chips are tapped."""
        return sum(chip.checked for chip in self.chips)


@dataclass(frozen=True)
class CardPicker:
    """A field of card chips: radio-like for one indicator, checkboxes otherwise."""

    name: str
    label: str
    multiple: bool
    groups: tuple[ChipGroup, ...]
    errors: tuple[str, ...]
    tabbed: bool = False  # one colour at a time: short rows on a phone

    @property
    def open_colour(self) -> str:
        """The colour tab shown first: the one holding a tapped chip, else the first."""
        return next((g.colour for g in self.groups if g.tapped), self.groups[0].colour)

    @property
    def tapped(self) -> tuple[CardChip, ...]:
        """The tapped chips, to show a picked indicator without opening the picker."""
        return tuple(chip for group in self.groups for chip in group.chips if chip.checked)


@dataclass(frozen=True)
class Counter:
    """A number with −/+ buttons (tricks won, Hat Trick cards per colour, passes)."""

    name: str
    label: str
    shown: str
    errors: tuple[str, ...]
    colour: str | None = None
    symbol: str | None = None
    most: int | None = None


@dataclass(frozen=True)
class ChoiceOption:
    """One allowed delayed choice of colours with what it scores (R16)."""

    value: str
    label: str
    score: str
    selected: bool


@dataclass(frozen=True)
class DelayedChoice:
    """The proposed colours of a delayed seat and the select to override them (R16)."""

    name: str
    proposal: str
    proposal_score: str
    options: tuple[ChoiceOption, ...]
    errors: tuple[str, ...]


@dataclass
class SeatPart:
    """One seat's part of a round form, with what the checks said about it."""

    seat: int
    name: str
    leads: bool
    indicators: CardPicker | None = None
    captures: CardPicker | None = None
    passes: CardPicker | None = None
    counters: list[Counter] = field(default_factory=list)
    choice: DelayedChoice | None = None
    problems: list[str] = field(default_factory=list)
    cards_entered: int | None = None  # full forms: cards named, for the C3/C5 line
    tricks_entered: int | None = None  # the tricks those cards make, if whole (C3)
    preview: str | None = None  # the score a check found


@dataclass(frozen=True)
class Progress:
    """C3 (tricks) or C5 (cards) as the table fills the form in: how many are placed."""

    unit: str  # "tricks" or "cards"
    placed: int
    expected: int

    @property
    def missing(self) -> int:
        """How many are still to place (negative: too many)."""
        return self.expected - self.placed


@dataclass
class Problems:
    """What the rules refused, at the top of the page or next to a seat."""

    top: list[str] = field(default_factory=list)
    by_seat: dict[int, list[str]] = field(default_factory=dict)
    cards: dict[int, set[str]] = field(default_factory=dict)

    def add(self, error: RuleError, names: Sequence[str]) -> None:
        """Place a rules refusal next to the seat it names, else at the top."""
        message = render_message(error.message, names)
        if error.seat is None or not 0 <= error.seat < len(names):
            self.top.append(message)
            return
        self.by_seat.setdefault(error.seat, []).append(message)
        if error.card is not None:
            self.cards.setdefault(error.seat, set()).add(card_token(error.card))

    def __bool__(self) -> bool:
        return bool(self.top or self.by_seat)


# --------------------------------------------------------------------------------------------
# Loading the game and refusing what cannot be done


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


def number_to_record(game: Game) -> int:
    """The round recorded next: the one being played, else the one after the last."""
    return queries.number_to_record(game)


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


def round_gone(game: Game, form: RoundForm) -> ResponseReturnValue | None:
    """A record or mark form belongs to the round it was opened for. ``None`` while that
    round is still the one to record (or the page did not say which); otherwise nothing is
    saved and the page says what became of that round, never moving the input on."""
    meant = form.top.meant
    if meant is None or meant == number_to_record(game):
        return None
    title = gettext("Record round %(number)s", number=meant)
    round_ = round_numbered(game, meant)
    if round_ is None:
        return not_next_notice(game, meant, title)
    return clash_page(game, record_clash(game, form, round_, title))


def not_next_notice(game: Game, meant: int, title: str) -> ResponseReturnValue:
    """A form for a round that is neither there nor next (not a page of this game's now)."""
    message = gettext(
        "This page was for round %(number)s, which is not the round to record now. "
        "Nothing was saved.",
        number=meant,
    )
    return notice_page(game, title, message)


# --------------------------------------------------------------------------------------------
# Building the seat parts


def chip(card: Card, checked: bool, refused: bool = False) -> CardChip:
    """The chip of ``card``."""
    name = colour_name(card.colour)
    return CardChip(
        token=card_token(card),
        colour=card.colour.value,
        value=card.value,
        symbol=colour_symbol(card.colour),
        label=f"{name} {card.value}",
        checked=checked,
        refused=refused,
    )


def chip_groups(
    setup: TableSetup,
    tapped: set[str],
    refused: set[str],
    shown_colours: Iterable[Colour] | None = None,
    taken: set[str] = frozenset(),  # type: ignore[assignment]
) -> tuple[ChipGroup, ...]:
    """The deck in use as chips, a group per colour. Cards ``taken`` elsewhere (indicators)
    are left out unless tapped here; colours not in ``shown_colours`` start hidden."""
    shown = None if shown_colours is None else set(shown_colours)
    groups = []
    for colour in setup.deck.colours:
        chips = tuple(
            chip(card, card_token(card) in tapped, card_token(card) in refused)
            for card in setup.deck
            if card.colour is colour
            and (card_token(card) not in taken or card_token(card) in tapped)
        )
        any_tapped = any(c.checked for c in chips)
        groups.append(
            ChipGroup(
                colour=colour.value,
                name=colour_name(colour),
                symbol=colour_symbol(colour),
                chips=chips,
                hidden=shown is not None and colour not in shown and not any_tapped,
            )
        )
    return tuple(groups)


def card_picker(
    form: Form,
    name: str,
    setup: TableSetup,
    refused: set[str],
    *,
    multiple: bool = True,
    tabbed: bool = False,
    shown_colours: Iterable[Colour] | None = None,
    taken: set[str] = frozenset(),  # type: ignore[assignment]
) -> CardPicker:
    """The chips of the card field ``name`` of a seat's form."""
    chips_field = form[name]
    return CardPicker(
        name=chips_field.name,
        label=str(chips_field.label.text),
        multiple=multiple,
        groups=chip_groups(setup, chips_field.tokens, refused, shown_colours, taken),
        errors=tuple(chips_field.errors),
        tabbed=tabbed,
    )


def counter(
    form: Form, name: str, most: int | None = None, colour: Colour | None = None
) -> Counter:
    """The −/+ counter of the count field ``name`` of a seat's form."""
    count = form[name]
    return Counter(
        name=count.name,
        label=str(count.label.text),
        shown=count.shown,
        errors=tuple(count.errors),
        colour=colour.value if colour else None,
        symbol=colour_symbol(colour) if colour else None,
        most=most,
    )


def indicator_tokens(form: RoundForm) -> set[str]:
    """Every seat's indicator chips: no one can have captured an indicator (R4)."""
    if not form.kind.names_indicators:
        return set()
    return {token for seat in form.seats for token in seat["marked"].tokens}


def seat_part(
    form: RoundForm, seat: int, names: Sequence[str], leader: int, problems: Problems
) -> SeatPart:
    """One seat's part of the form, as its kind of entry asks for it."""
    part = SeatPart(seat, names[seat], seat == leader, problems=problems.by_seat.get(seat, []))
    refused = problems.cards.get(seat, set())
    if form.kind.names_indicators:
        part.indicators = card_picker(
            form.seats[seat],
            "marked",
            form.setup,
            refused,
            multiple=form.setup.cards_laid_out > 1,
            tabbed=True,
        )
    if form.kind in SEAT_FILLERS:
        SEAT_FILLERS[form.kind](part, form, form.seats[seat], refused)
    return part


def _fill_quick(part: SeatPart, form: RoundForm, seat_form: Form, refused: set[str]) -> None:
    """Tricks won (C3) and the captures of the marked colour(s) only (C4): the chips of the
    seat's marked colours show; the others stay hidden until the indicators say otherwise."""
    setup = form.setup
    marked = {card.colour for card in seat_form["marked"].cards}
    part.counters = [counter(seat_form, "tricks", setup.tricks_per_round)]
    part.captures = card_picker(
        seat_form,
        "marked_captured",
        setup,
        refused,
        shown_colours=marked or None,
        taken=indicator_tokens(form),
    )


def _fill_full(part: SeatPart, form: RoundForm, seat_form: Form, refused: set[str]) -> None:
    """Every captured card, one colour at a time; delayed seats also choose colours (R16)."""
    setup = form.setup
    part.captures = card_picker(
        seat_form,
        "captured",
        setup,
        refused,
        tabbed=True,
        taken=indicator_tokens(form),
    )
    part.cards_entered = len(seat_form["captured"].data or ())
    part.tricks_entered = tricks_of_cards(part.cards_entered, setup.players)
    if form.kind is Kind.DELAYED:
        part.choice = delayed_choice(seat_form, setup)


def _fill_hat_trick_full(
    part: SeatPart, form: RoundForm, seat_form: Form, refused: set[str]
) -> None:
    """Every face-up card and every face-down pass card (C5)."""
    _fill_full(part, form, seat_form, refused)
    part.passes = card_picker(seat_form, "passed", form.setup, refused, tabbed=True)
    part.cards_entered = (part.cards_entered or 0) + len(seat_form["passed"].data or ())


def _fill_hat_trick_quick(
    part: SeatPart, form: RoundForm, seat_form: Form, refused: set[str]
) -> None:
    """Face-up cards per colour and passes, as counts (R22, C5)."""
    setup = form.setup
    most = setup.cards_per_round  # C5: a seat holds at most every card of the round
    part.counters = [
        counter(seat_form, colour.value, most, colour) for colour in setup.deck.colours
    ] + [counter(seat_form, "passed", setup.tricks_per_round)]


SEAT_FILLERS: dict[Kind, Callable[[SeatPart, RoundForm, Form, set[str]], None]] = {
    Kind.QUICK: _fill_quick,
    Kind.FULL: _fill_full,
    Kind.DELAYED: _fill_full,
    Kind.HAT_FULL: _fill_hat_trick_full,
    Kind.HAT_QUICK: _fill_hat_trick_quick,
}


def delayed_choice(seat_form: Form, setup: TableSetup) -> DelayedChoice | None:
    """R16: the proposed colours of a seat's captures and the choices the table may make
    instead; nothing to choose before any capture is entered."""
    variant = setup.variant.settings
    assert variant is not None  # only the classic family chooses its colours (R16)
    captured = seat_form["captured"].cards
    if not captured:
        return None
    proposal, proposal_score = best_delayed_choice(captured, variant.colours, variant.scoring)
    chosen = seat_form["choose"].data or ""
    options = tuple(
        ChoiceOption(
            value=choice_token(choice),
            label=colours_label(choice),
            score=signed_number(score_choice(captured, choice, variant.scoring)),
            selected=choice_token(choice) == chosen,
        )
        for choice in delayed_choices(captured, variant.colours)
    )
    return DelayedChoice(
        name=seat_form["choose"].name,
        proposal=colours_label(proposal),
        proposal_score=signed_number(proposal_score),
        options=options,
        errors=tuple(seat_form["choose"].errors),
    )


def colours_label(colours: Sequence[Colour]) -> str:
    """Colours as the table reads them: "red + blue"."""
    return f" {CHOICE_SEPARATOR} ".join(colour_name(colour) for colour in colours)


def progress_of(form: RoundForm) -> Progress | None:
    """C3 or C5 as far as the form is filled in: tricks (or cards) placed and expected."""
    setup, kind = form.setup, form.kind
    if kind is Kind.MARK:
        return None
    if kind is Kind.QUICK:
        placed = sum(seat["tricks"].data or 0 for seat in form.seats)
        return Progress("tricks", placed, setup.tricks_per_round)
    if kind is Kind.HAT_QUICK:
        placed = sum(
            seat[name].data or 0
            for seat in form.seats
            for name in ("red", "blue", "green", "passed")
        )
    else:
        fields = ("captured", "passed") if kind is Kind.HAT_FULL else ("captured",)
        placed = sum(len(seat[name].data or ()) for seat in form.seats for name in fields)
    return Progress("cards", placed, setup.cards_per_round)


# --------------------------------------------------------------------------------------------
# Sending a round form


@dataclass
class Outcome:
    """What a post of a round form came to, when it did not redirect."""

    problems: Problems = field(default_factory=Problems)
    conflict: bool = False
    expired: bool = False
    scored: RoundScore | None = None


def handle_post(
    game: Game, form: RoundForm, save: Callable[[int, list[Entry]], Round]
) -> ResponseReturnValue | Outcome:
    """Step a counter, check the round, or save it and go to the scoreboard (post/redirect/
    get). Nothing is saved unless the rules and the version both agree."""
    outcome = Outcome()
    step = request.form.get("step")
    if step is not None:
        form.step(step)  # saves nothing, so it needs no token: the page just counts
        return outcome
    if not readable(form, outcome):
        return outcome
    entries = form.entries()
    checking = request.form.get("action") == "check"

    def score_and_save() -> None:
        outcome.scored = score_round(form.setup, entries)
        if not checking:
            save(form.version, entries)

    if not saved(game, form, outcome, score_and_save):
        outcome.scored = None
        return outcome
    if checking:
        return outcome
    return redirect(url_for("games.scoreboard", code=game.code))


def handle_mark_post(game: Game, form: RoundForm) -> ResponseReturnValue | Outcome:
    """Save the indicators of the next round (C1, C2 first) and go to the scoreboard."""
    outcome = Outcome()
    if not readable(form, outcome):
        return outcome
    if not saved(
        game, form, outcome, lambda: services.mark_colours(game, form.version, form.marked())
    ):
        return outcome
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
    try:
        attempt()
        db.session.commit()
        return True
    except (services.StaleVersion, StaleDataError) as error:
        db.session.rollback()  # on SQLite a lost race fails at flush (StaleDataError)
        form.move_to_version(getattr(error, "current", None) or game.version)
        outcome.conflict = True
    except RuleError as error:
        db.session.rollback()
        outcome.problems.add(error, names_of(game))
    except services.ServiceError as error:
        db.session.rollback()
        outcome.problems.top.append(render_message(error.text, names_of(game)))
    return False


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
    outcome: Outcome,
    number: int | None = None,
    **extra: Any,
) -> ResponseReturnValue:
    """A round page: the seats clockwise from the leader, each with its refusals. Without
    ``number``, the round to record next, as the game stands now (after a conflict, the
    round another phone left to record)."""
    conflict = game_now(game) if outcome.conflict else None
    if number is None:
        number = number_to_record(game)
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
        result = handle_mark_post(game, form)
        if not isinstance(result, Outcome):
            return result
        outcome = result
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
        return redirect(url_for("games.scoreboard", code=game.code))
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
    form = RoundForm.build(
        kind_for(setup, mode),
        setup,
        game.version,
        playing.entries if playing else None,
        number=number_to_record(game),
    )
    outcome = Outcome()
    if request.method == "POST":
        result = handle_post(
            game, form, lambda version, entries: services.record_round(game, version, entries)
        )
        if not isinstance(result, Outcome):
            return result
        outcome = result
        if outcome.conflict:  # a race lost at flush: the round may be gone by now
            gone = round_gone(game, form)
            if gone is not None:
                return gone
    return render_round_page(
        "games/round_record.html",
        game,
        form,
        outcome,
        correcting=False,
        modes=mode_links(
            setup,
            form.kind,
            "games.record_round",
            code=game.code,
            reveal=request.args.get("reveal"),
        ),
    )


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
    form = RoundForm.build(
        kind_for(setup, request.args.get("mode"), round_.entries),
        setup,
        game.version,
        round_.entries,
        number=number,
        seen=round_digest(round_),
    )
    title = gettext("Correct round %(number)s", number=number)
    outcome = Outcome()
    if request.method == "POST":
        clash = correction_clash(game, form, round_, title)
        if clash is not None:
            return clash_page(game, clash)
        result = handle_post(
            game,
            form,
            lambda version, entries: services.correct_round(game, number, version, entries),
        )
        if not isinstance(result, Outcome):
            return result
        outcome = result
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
        modes=mode_links(setup, form.kind, "games.correct_round", code=game.code, number=number),
    )


# The round forms check their CSRF token themselves (``VersionForm``, in ``readable``) before
# anything is checked or saved, instead of the app-wide check: an expired token then keeps the
# table's entries on the page, with a fresh token, rather than losing a whole round's input.
for _round_view in (mark_colours, record_round, correct_round):
    csrf.exempt(_round_view)
