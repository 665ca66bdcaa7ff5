"""One round of a backup checked again by the rules: its place, its entries or its
tricks replayed (C1-C6), and the scores the rules give."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from companion.data.states import RoundMode, RoundStatus
from companion.formats.backup.plans import GamePlan, GameRefusal, RoundPlan
from companion.play_state import parse
from companion.play_state.entries import read_entries
from companion.play_state.parse import ApiError
from companion.rules import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    Entry,
    TableSetup,
    explain_round,
    round_leader,
    score_round,
)
from companion.rules.checks import check_marks
from companion.rules.errors import TrickError
from companion.rules.hat_trick import Play
from companion.rules.live import LiveRound
from companion.rules.text import N_
from companion.services.rounds import entry_mode

ROUND_MODES = tuple(RoundMode)


ROUND_STATUSES = tuple(RoundStatus)


ROUND_FIELDS = (
    "number",
    "leader",
    "mode",
    "status",
    "entries",
    "tricks",
    "scores",
    "created_at",
    "updated_at",
)


#: Exports since the scores explain themselves carry each seat's terms; older ones do not.
OPTIONAL_ROUND_FIELDS = ("explanations",)


#: The times a backup may hold (from, and up to but not including): Python's calendar runs
#: from the year 1 to the year 9999, and a time less than a day from either end leaves it
#: when turned into UTC (the import) or into the app's time zone (the history page), so the
#: import keeps a year clear of each end. No game was played that long ago or ahead.
EARLIEST_TIME = datetime(2, 1, 1, tzinfo=UTC)
LATEST_TIME = datetime(9999, 1, 1, tzinfo=UTC)


def parse_time(value: object, where: str) -> datetime:
    """An ISO 8601 time; one without a zone is taken as UTC."""
    text = parse.string(value, where)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(f'{where} "{text[:40]}" is not an ISO 8601 time.') from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    check_time_in_range(moment, text, where)
    return moment.astimezone(UTC)


def check_time_in_range(moment: datetime, text: str, where: str) -> None:
    """Refuse a time the app could not convert or show (``EARLIEST_TIME``): compared as
    read, since turning "9999-12-31T23:59:59-23:59" into UTC is what overflows."""
    if not EARLIEST_TIME <= moment < LATEST_TIME:
        raise GameRefusal(
            N_(
                "The time “%(time)s” in %(field)s is out of range; the app takes times from "
                "the year 2 to the year 9998."
            ),
            time=text[:40],
            field=where,
        )


def read_round(
    item: object, number: int, game: GamePlan, setup: TableSetup, last: bool
) -> RoundPlan:
    """Check one round: its place, its entries or tricks, and its scores (C1-C6)."""
    obj = parse.fields(item, "The round", ROUND_FIELDS, OPTIONAL_ROUND_FIELDS)
    if parse.integer(obj["number"], "number", 1, MAX_ROUNDS) != number:
        raise ApiError(f"number must be {number}: rounds are numbered in order from 1.")
    leader = round_leader(number, game.first_leader, setup.players)
    if parse.integer(obj["leader"], "leader", 0, MAX_PLAYERS - 1) != leader:
        raise ApiError(f"leader must be seat {leader} (R3), not {obj['leader']}.")
    mode = parse.string(obj["mode"], "mode")
    if mode not in ROUND_MODES:
        raise ApiError(f"mode must be one of {', '.join(ROUND_MODES)}.")
    status = parse.string(obj["status"], "status")
    if status not in ROUND_STATUSES:
        raise ApiError(f"status must be one of {', '.join(ROUND_STATUSES)}.")
    if status == RoundStatus.PLAYING and not last:
        raise ApiError("only the last round may still be being played.")
    if mode != RoundMode.LIVE and obj["tricks"] is not None:
        raise ApiError('only a live round has "tricks"; give null.')
    plan = RoundPlan(
        number=number,
        leader=leader,
        mode=mode,
        status=status,
        entries=[],
        tricks=None,
        scored=[],
        created_at=parse_time(obj["created_at"], "created_at"),
        updated_at=parse_time(obj["updated_at"], "updated_at"),
    )
    entries: list[Entry] | None = None
    if mode == RoundMode.LIVE:
        entries = _replay_live_round(obj, plan, setup)
    elif status == RoundStatus.SCORED:
        entries = read_entries(obj["entries"], setup)
        if entry_mode(entries) != mode:
            raise ApiError(f'mode must be "{entry_mode(entries)}" for these entries.')
        plan.entries = [entry.as_json() for entry in entries]
    elif setup.cards_laid_out:
        plan.entries = _marked_entries(obj["entries"], setup, required=True)
    else:
        raise ApiError("a round of this variant is only being played when it is played live.")
    if status == RoundStatus.SCORED:
        assert entries is not None
        result = score_round(setup, entries)
        scores = parse.listing(obj["scores"], "scores", MAX_PLAYERS)
        if [type(score) for score in scores] != [int] * len(scores) or scores != result.scores:
            raise ApiError(
                f"the scores {scores} are not what the rules give for this round ({result.scores})."
            )
        plan.scored = [
            (seat.score, seat.tricks, ",".join(colour.value for colour in seat.colours))
            for seat in result.seats
        ]
        plan.explanations = _checked_explanations(obj.get("explanations"), setup, entries)
    elif obj["scores"] is not None:
        raise ApiError("a round still being played has no scores; give null.")
    elif obj.get("explanations") is not None:
        raise ApiError("a round still being played has no explanations; give null.")
    return plan


def _checked_explanations(
    given: object, setup: TableSetup, entries: list[Entry]
) -> list[dict[str, object]]:
    """The terms of each seat's score as the rules give them; terms in the file, if any,
    must be those (an export without them is read as well)."""
    explained = [seat.as_json() for seat in explain_round(setup, entries)]
    if given is not None and given != explained:
        raise ApiError(
            "explanations are not what the rules give for this round: leave them out, or "
            "give the terms the rules give."
        )
    return explained


def _marked_entries(value: object, setup: TableSetup, required: bool) -> list[dict[str, Any]]:
    """The indicator cards of a round not scored yet (C1, C2), in the stored shape: a
    ``{"marked": [...]}`` per seat, or ``{}`` per seat when the variant lays out none."""
    items = parse.listing(value, "entries", MAX_PLAYERS)
    if len(items) != setup.players:
        raise ApiError(f"entries must hold one entry per seat ({setup.players}).")
    if not setup.cards_laid_out:
        for seat, item in enumerate(items):
            parse.fields(item, f"entries[{seat}]", ())
        return [{} for _ in items]
    if not setup.variant.colours_marked:
        raise ApiError("this variant lays out no indicator cards.")
    marked = []
    for seat, item in enumerate(items):
        fields = ("marked",) if required else ()
        obj = parse.fields(item, f"entries[{seat}]", fields, ("marked",))
        marked.append(parse.cards(obj.get("marked", []), f"entries[{seat}].marked", 2))
    check_marks(marked, setup.deck, setup.variant.colours_marked)
    return [{"marked": [card.as_json() for card in cards]} for cards in marked]


def _replay_live_round(
    obj: dict[str, Any], plan: RoundPlan, setup: TableSetup
) -> list[Entry] | None:
    """Play a live round's tricks again through the rules (C6); a scored one must have the
    entries its tricks give. Answers those entries (``None`` while it is being played)."""
    with_passes = setup.variant.has_passes
    if plan.status == RoundStatus.SCORED:
        stored = parse.listing(obj["entries"], "entries", MAX_PLAYERS)
        marked_entries = [
            {"marked": item["marked"]} if isinstance(item, dict) and "marked" in item else {}
            for item in stored
        ]
    else:
        marked_entries = obj["entries"]
    indicators = _marked_entries(marked_entries, setup, required=False)
    marked = tuple(
        tuple(parse.card(card, "marked") for card in entry.get("marked", []))
        for entry in indicators
    )
    live = LiveRound(setup, plan.leader, marked)
    tricks = parse.listing(obj["tricks"], "tricks", setup.tricks_per_round)
    stored_tricks = []
    for index, trick in enumerate(tricks):
        where = f"tricks[{index}]"
        trick_obj = parse.fields(trick, where, ("leader", "plays"))
        try:
            live.follow_recorded_lead(
                parse.integer(trick_obj["leader"], f"{where}.leader", 0, MAX_PLAYERS - 1)
            )
        except TrickError:
            raise ApiError(
                f"{where}.leader must be seat {live.leader}, who leads it (R9, R21)."
            ) from None
        items = parse.listing(trick_obj["plays"], f"{where}.plays", MAX_PLAYERS)
        plays: list[Play] = [
            parse.play(play, f"{where}.plays[{i}]")
            if with_passes
            else Play(parse.card(play, f"{where}.plays[{i}]"))
            for i, play in enumerate(items)
        ]
        live.play_trick(plays)
        stored_tricks.append(
            {"leader": live.tricks[-1].leader, "plays": [p.as_json() for p in plays]}
        )
    plan.tricks = stored_tricks
    if plan.status == RoundStatus.PLAYING:
        if live.is_complete:
            raise ApiError("all tricks are played, so the round must be scored.")
        plan.entries = indicators
        return None
    entries = live.entries()
    plan.entries = [entry.as_json() for entry in entries]
    if obj["entries"] != plan.entries:
        raise ApiError("entries are not what the round's tricks give.")
    return entries
