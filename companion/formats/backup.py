"""Export and backup: games as a versioned JSON document (and one game as CSV), and back.

The document::

    {"format": "sticheln-companion", "version": 1, "exported_at": "...Z",
     "games": [{"code", "players", "variant", "rounds_planned", "first_leader", "status",
                "excluded", "created_at", "updated_at",
                "rounds": [{"number", "leader", "mode", "status", "entries", "tricks",
                            "scores", "created_at", "updated_at"}, ...]}, ...]}

Times are ISO 8601 in UTC. Edit keys are secrets and never exported (not even their hash):
an imported game gets a fresh edit key, which the import hands back once.

An import trusts nothing it reads: every round is checked and scored again by
``companion.rules`` (a live round is replayed from its tricks), and the stored scores must be
the ones the rules give. Any problem refuses the whole document before anything is written.
A game whose code is already here is skipped: silently when its content is the same (so a
backup can be imported twice), with a report when it differs (a game played on after the
backup, say: the copy here is kept, nothing is merged or duplicated).
"""

from __future__ import annotations

import csv
import io
import json
import re
import textwrap
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TextIO

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask_babel import gettext

from companion import services
from companion.data import queries
from companion.data.models import Game, Player, Round, RoundResult, Seat, db, name_key
from companion.data.states import GameStatus, RoundMode, RoundStatus
from companion.formats import parse
from companion.formats.entries import read_entries
from companion.formats.parse import ApiError
from companion.read_models.messages import render_message
from companion.rules import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    Entry,
    RuleError,
    TableSetup,
    Variant,
    round_leader,
    score_round,
    table_setup,
)
from companion.rules.checks import check_cards_named_once, check_indicators
from companion.rules.errors import TrickError
from companion.rules.hat_trick import Play
from companion.rules.live import LiveRound
from companion.rules.table import check_round_count
from companion.rules.text import N_
from companion.services.keys import hash_edit_key, new_edit_key
from companion.services.players import check_names, find_or_add_players
from companion.services.rounds import entry_mode

FORMAT = "sticheln-companion"
FORMAT_VERSION = 1
#: Games loaded per query when the whole history is exported.
BATCH_SIZE = 100
GAME_STATUSES = tuple(GameStatus)
ROUND_MODES = tuple(RoundMode)
ROUND_STATUSES = tuple(RoundStatus)
CODE_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,16}")
#: The columns of a game's CSV export, one row per scored round and seat.
CSV_COLUMNS = ("round", "seat", "player", "indicators", "colours", "tricks", "score", "total")
#: A spreadsheet reads a cell starting with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class BackupError(Exception):
    """A document that cannot be imported: malformed, or a round that does not check out."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# --------------------------------------------------------------------------------------------
# Export


def iso_time(moment: datetime) -> str:
    """A stored time as ISO 8601 in UTC (SQLite hands back naive UTC times)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _hides_unscored_marks(game: Game) -> bool:
    return game.variant.hides_marks


def game_document(game: Game, public: bool = False) -> dict[str, Any]:
    """One game as the export shows it.

    A ``public`` export (anyone with the game's link may read it) leaves out the round of a
    hazy game that is still being played: its indicators lie face down until it is scored
    (R15). The whole-history backup keeps it.
    """
    hidden = public and _hides_unscored_marks(game)
    return {
        "code": game.code,
        "players": [seat.player.name for seat in game.seats],
        "variant": game.variant.as_json(),
        "rounds_planned": game.rounds_planned,
        "first_leader": game.first_leader,
        "status": game.status,
        "excluded": bool(game.excluded),
        "created_at": iso_time(game.created_at),
        "updated_at": iso_time(game.updated_at),
        "rounds": [
            round_document(round_)
            for round_ in game.rounds
            if not (hidden and round_.status != RoundStatus.SCORED)
        ],
    }


def round_document(round_: Round) -> dict[str, Any]:
    """One round: what was entered (or played, trick by trick) and the scores it gave."""
    scored = round_.status == RoundStatus.SCORED
    return {
        "number": round_.number,
        "leader": round_.leader,
        "mode": round_.mode,
        "status": round_.status,
        "entries": round_.entries,
        "tricks": round_.tricks if round_.mode == RoundMode.LIVE else None,
        "scores": [result.score for result in round_.results] if scored else None,
        "created_at": iso_time(round_.created_at),
        "updated_at": iso_time(round_.updated_at),
    }


def document(games: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The export document around some game documents."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": iso_time(datetime.now(UTC)),
        "games": list(games),
    }


def _with_everything(query: sa.Select[tuple[Game]]) -> sa.Select[tuple[Game]]:
    """Seats (with their players), rounds and results in one query each, not one per game."""
    return query.options(
        so.selectinload(Game.seats),
        so.selectinload(Game.rounds).selectinload(Round.results),
    )


def all_games() -> Iterator[Game]:
    """Every game, oldest first (ties by code), loaded ``BATCH_SIZE`` at a time."""
    ids = list(db.session.scalars(sa.select(Game.id).order_by(Game.created_at, Game.code)))
    for start in range(0, len(ids), BATCH_SIZE):
        batch = ids[start : start + BATCH_SIZE]
        loaded = {
            game.id: game
            for game in db.session.scalars(
                _with_everything(sa.select(Game)).where(Game.id.in_(batch))
            )
        }
        yield from (loaded[game_id] for game_id in batch if game_id in loaded)
        db.session.expunge_all()  # keep memory flat over a long history


#: A card as ``json.dumps(indent=2)`` spreads it over four lines (JSON strings hold no raw
#: newline or unescaped quote, so this never matches inside a name).
SPREAD_CARD = re.compile(r'\{\s*"colour": ("[a-z]+"),\s*"value": (-?\d+)(,\s*"pass": true)?\s*\}')


def dumps(data: object) -> str:
    """Indented JSON, readable by people, with each card on one line."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return SPREAD_CARD.sub(_one_line_card, text)


def _one_line_card(match: re.Match[str]) -> str:
    passed = ', "pass": true' if match[3] else ""
    return f'{{"colour": {match[1]}, "value": {match[2]}{passed}}}'


def write_history(file: TextIO) -> int:
    """Write the whole history as one document to ``file``, a game at a time; answers how
    many games were written."""
    head = document([])
    file.write("{\n")
    for key in ("format", "version", "exported_at"):
        file.write(f"  {json.dumps(key)}: {json.dumps(head[key])},\n")
    file.write('  "games": [')
    count = 0
    for game in all_games():
        text = dumps(game_document(game))
        file.write(("," if count else "") + "\n" + textwrap.indent(text, "    "))
        count += 1
    file.write("\n  ]\n}\n" if count else "]\n}\n")
    return count


def game_json(game: Game) -> str:
    """One game as a document, as the game's page and the API offer it for download."""
    return dumps(document([game_document(game, public=True)]))


def csv_safe(value: object) -> object:
    """A cell a spreadsheet will not run: text starting like a formula gets a leading
    apostrophe. Numbers are written as numbers (an integer carries no formula)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_rows(game: Game) -> list[list[object]]:
    """One row per scored round and seat (seats counted from 1), with the running total."""
    names = [seat.player.name for seat in game.seats]
    totals = queries.totals_of(game).per_round
    rows: list[list[object]] = []
    for round_, running in zip(game.rounds, totals, strict=True):
        if round_.status != RoundStatus.SCORED:
            continue
        marked = queries.marked_of(game, round_) or []
        for result in round_.results:
            indicators = marked[result.seat] if result.seat < len(marked) else []
            rows.append(
                [
                    round_.number,
                    result.seat + 1,
                    names[result.seat],
                    "; ".join(f"{card['colour']} {card['value']}" for card in indicators),
                    " ".join(colour for colour in result.colour_names.split(",") if colour),
                    "" if result.tricks is None else result.tricks,
                    result.score,
                    running[result.seat],
                ]
            )
    return rows


def game_csv(game: Game) -> str:
    """One game as CSV: a header row, then ``csv_rows``; UTF-8 with a byte order mark so
    spreadsheets read the names right."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for row in csv_rows(game):
        writer.writerow([csv_safe(cell) for cell in row])
    return "\ufeff" + buffer.getvalue()


def game_for_export(code: str) -> Game:
    """The game ``code`` with everything an export reads, in a few queries."""
    game = db.session.scalar(_with_everything(sa.select(Game)).where(Game.code == code))
    if game is None:
        raise services.NotFound(N_("There is no game with this id."))
    return game


# --------------------------------------------------------------------------------------------
# Import: read and check everything first, then write


@dataclass
class RoundPlan:
    """A checked round, ready to be stored."""

    number: int
    leader: int
    mode: str
    status: str
    entries: list[Any]
    tricks: list[Any] | None
    scored: list[tuple[int, int | None, str]]  # (score, tricks, colours) per seat
    created_at: datetime
    updated_at: datetime

    def as_document(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "leader": self.leader,
            "mode": self.mode,
            "status": self.status,
            "entries": self.entries,
            "tricks": self.tricks,
            "scores": [score for score, _, _ in self.scored] if self.scored else None,
            "created_at": iso_time(self.created_at),
            "updated_at": iso_time(self.updated_at),
        }


@dataclass
class GamePlan:
    """A checked game, ready to be stored."""

    code: str
    names: list[str]
    variant: Variant
    rounds_planned: int
    first_leader: int
    status: str
    excluded: bool
    created_at: datetime
    updated_at: datetime
    rounds: list[RoundPlan] = field(default_factory=list)

    def as_document(self) -> dict[str, Any]:
        """The document this game would export as once imported (``game_document``)."""
        return {
            "code": self.code,
            "players": list(self.names),
            "variant": self.variant.as_json(),
            "rounds_planned": self.rounds_planned,
            "first_leader": self.first_leader,
            "status": self.status,
            "excluded": self.excluded,
            "created_at": iso_time(self.created_at),
            "updated_at": iso_time(self.updated_at),
            "rounds": [round_.as_document() for round_ in self.rounds],
        }


@dataclass
class ImportReport:
    """What an import did: new games with their fresh edit keys, games already here."""

    imported: list[tuple[str, str]] = field(default_factory=list)  # (code, edit key)
    unchanged: list[str] = field(default_factory=list)
    conflicting: list[str] = field(default_factory=list)


def parse_time(value: object, where: str) -> datetime:
    """An ISO 8601 time; one without a zone is taken as UTC."""
    text = parse.string(value, where)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(f'{where} "{text[:40]}" is not an ISO 8601 time.') from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def load(raw: bytes) -> object:
    """The JSON value of an export file (UTF-8), or a ``BackupError`` saying what is wrong."""
    if not raw.strip():
        raise BackupError("The file is empty.")
    try:
        return parse.read_json(raw.removeprefix(b"\xef\xbb\xbf"))
    except ApiError as error:
        if "must be a JSON object" in error.message:
            raise BackupError("The file must hold a JSON object, as an export does.") from None
        raise BackupError("The file is not valid JSON (UTF-8).") from None


def read_document(data: object) -> list[GamePlan]:
    """Check a whole document; answers its games, or raises ``BackupError`` at the first
    problem, naming the game and round."""
    try:
        body = parse.fields(data, "The document", ("format", "version", "games"), ("exported_at",))
    except ApiError as error:
        raise BackupError(error.message) from None
    if body["format"] != FORMAT:
        raise BackupError(f'This is not a Sticheln companion export (format "{FORMAT}").')
    if body["version"] != FORMAT_VERSION:
        raise BackupError(
            f"This export has format version {body['version']!r}; this app reads version "
            f"{FORMAT_VERSION}."
        )
    if not isinstance(body["games"], list):
        raise BackupError('The document\'s "games" must be a list.')
    plans: list[GamePlan] = []
    seen: set[str] = set()
    for index, item in enumerate(body["games"]):
        plan = _read_game_reporting(item, index)
        if plan.code in seen:
            raise BackupError(f"Game {index + 1}: the code {plan.code} appears twice.")
        seen.add(plan.code)
        plans.append(plan)
    return plans


def _read_game_reporting(item: object, index: int) -> GamePlan:
    """``read_game``, its refusal naming the game (and the round) it concerns."""
    code = item.get("code") if isinstance(item, dict) else None
    label = f"Game {index + 1}" + (f" ({code})" if isinstance(code, str) else "")
    context = _Context()
    try:
        return read_game(item, context)
    except ApiError as error:
        reason = error.message
    except RuleError as error:
        reason = render_message(error.message, context.names)
    except services.ServiceError as error:
        reason = render_message(error.text, context.names)
    where = f", round {context.round}" if context.round else ""
    raise BackupError(f"{label}{where}: {reason}")


@dataclass
class _Context:
    """Where the check is, for a refusal that says so."""

    names: list[str] | None = None
    round: int | None = None


GAME_FIELDS = (
    "code",
    "players",
    "variant",
    "rounds_planned",
    "first_leader",
    "status",
    "excluded",
    "created_at",
    "updated_at",
    "rounds",
)
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


def read_game(item: object, context: _Context) -> GamePlan:
    """Check one game and every round of it against the rules."""
    obj = parse.fields(item, "The game", GAME_FIELDS)
    code = parse.string(obj["code"], "code")
    if not CODE_PATTERN.fullmatch(code):
        raise ApiError("code must be 1 to 16 letters, digits, '-' or '_'.")
    variant = parse.variant(obj["variant"])
    raw_names = [
        parse.string(name, f"players[{seat}]")
        for seat, name in enumerate(parse.listing(obj["players"], "players", MAX_PLAYERS))
    ]
    names = check_names(raw_names, variant)
    context.names = names
    rounds_planned = check_round_count(parse.integer(obj["rounds_planned"], "rounds_planned", 0))
    first_leader = parse.integer(obj["first_leader"], "first_leader", 0, len(names) - 1)
    status = parse.string(obj["status"], "status")
    if status not in GAME_STATUSES:
        raise ApiError(f"status must be one of {', '.join(GAME_STATUSES)}.")
    plan = GamePlan(
        code=code,
        names=names,
        variant=variant,
        rounds_planned=rounds_planned,
        first_leader=first_leader,
        status=status,
        excluded=parse.boolean(obj["excluded"], "excluded"),
        created_at=parse_time(obj["created_at"], "created_at"),
        updated_at=parse_time(obj["updated_at"], "updated_at"),
    )
    setup = table_setup(len(names), variant)
    rounds = parse.listing(obj["rounds"], "rounds", rounds_planned)
    for index, round_item in enumerate(rounds):
        context.round = index + 1
        last = index == len(rounds) - 1
        plan.rounds.append(read_round(round_item, index + 1, plan, setup, last))
    context.round = None
    scored = sum(1 for round_ in plan.rounds if round_.status == RoundStatus.SCORED)
    expected = GameStatus.FINISHED if scored >= rounds_planned else GameStatus.IN_PROGRESS
    if status != GameStatus.ABANDONED and status != expected:
        raise ApiError(
            f'status is "{status}", but {scored} of {rounds_planned} rounds are scored '
            f'("{expected}").'
        )
    return plan


def read_round(
    item: object, number: int, game: GamePlan, setup: TableSetup, last: bool
) -> RoundPlan:
    """Check one round: its place, its entries or tricks, and its scores (C1-C6)."""
    obj = parse.fields(item, "The round", ROUND_FIELDS)
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
    elif obj["scores"] is not None:
        raise ApiError("a round still being played has no scores; give null.")
    return plan


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
    check_cards_named_once(
        [(seat, card) for seat, cards in enumerate(marked) for card in cards], setup.deck
    )
    for seat, cards in enumerate(marked):
        check_indicators(seat, cards, setup.variant.colours_marked)
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
            {"leader": live.tricks[-1].leader, "plays": [_play_json(p) for p in plays]}
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


def _play_json(play: Play) -> dict[str, object]:
    data: dict[str, object] = play.card.as_json()
    if play.passed:
        data["pass"] = True
    return data


def _comparable(game: dict[str, Any]) -> dict[str, Any]:
    """A game document as compared with another: names matched case-insensitively."""
    return {**game, "players": [name_key(name) for name in game["players"]]}


def import_document(data: object) -> ImportReport:
    """Check a whole document, then add its new games (the caller commits, or rolls back on
    any error: nothing of a refused document is kept)."""
    plans = read_document(data)
    report = ImportReport()
    codes = [plan.code for plan in plans]
    existing = (
        {
            game.code: game
            for game in db.session.scalars(
                _with_everything(sa.select(Game)).where(Game.code.in_(codes))
            )
        }
        if codes
        else {}
    )
    new = []
    for plan in plans:
        here = existing.get(plan.code)
        if here is None:
            new.append(plan)
        elif _comparable(game_document(here)) == _comparable(plan.as_document()):
            report.unchanged.append(plan.code)
        else:
            report.conflicting.append(plan.code)
    players = find_or_add_players([name for plan in new for name in plan.names])
    db.session.flush()
    offset = 0
    for plan in new:
        seated = players[offset : offset + len(plan.names)]
        offset += len(plan.names)
        key = new_edit_key()
        db.session.add(_game_of(plan, seated, hash_edit_key(key)))
        report.imported.append((plan.code, key))
    db.session.flush()
    return report


def _game_of(plan: GamePlan, players: Sequence[Player], key_hash: str) -> Game:
    """The rows of a checked game, added in one go (no update bumps its version or times)."""
    game = Game(
        code=plan.code,
        edit_key_hash=key_hash,
        variant=plan.variant,
        rounds_planned=plan.rounds_planned,
        first_leader=plan.first_leader,
        status=plan.status,
        excluded=plan.excluded,
        created_at=plan.created_at,
        updated_at=plan.updated_at,
    )
    game.seats = [Seat(position=seat, player=player) for seat, player in enumerate(players)]
    game.rounds = [
        Round(
            number=round_.number,
            leader=round_.leader,
            mode=round_.mode,
            status=round_.status,
            entries=round_.entries,
            tricks=round_.tricks,
            created_at=round_.created_at,
            updated_at=round_.updated_at,
            results=[
                RoundResult(
                    seat=seat,
                    player_id=players[seat].id,
                    score=score,
                    tricks=tricks,
                    colour_names=colours,
                )
                for seat, (score, tricks, colours) in enumerate(round_.scored)
            ],
        )
        for round_ in plan.rounds
    ]
    return game


def refusal(error: BackupError) -> str:
    """The import's refusal in the reader's language."""
    return gettext(
        "Nothing was imported: %(reason)s",
        reason=error.message,
    )
