"""The backup document written: every game (or one circle's, or one game for its download)
with its rounds, and the circles of the whole history."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.data.models import Circle, Game, Round, db
from companion.data.queries import laid_out_entries
from companion.data.states import RoundMode, RoundStatus
from companion.formats.game_json import game_settings, round_terms
from companion.rules.text import N_
from companion.services.errors import NotFound

FORMAT = "sticheln-companion"


#: Version 2 added the circles; ``reading.READ_VERSIONS`` reads version 1 too.
FORMAT_VERSION = 2


#: Games loaded per query when the whole history is exported.
BATCH_SIZE = 100


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
        **game_settings(game),
        "excluded": bool(game.excluded),
        "next_game": game.next_game.code if game.next_game else None,
        "created_at": iso_time(game.created_at),
        "updated_at": iso_time(game.updated_at),
        "rounds": [
            round_document(game, round_)
            for round_ in game.rounds
            if not (hidden and round_.status != RoundStatus.SCORED)
        ],
    }


def round_document(game: Game, round_: Round) -> dict[str, Any]:
    """One round: what was entered (or played, trick by trick), the scores it gave and the
    terms that add up to each score (R10, R12-R16, R22)."""
    scored = round_.status == RoundStatus.SCORED
    return {
        "number": round_.number,
        "leader": round_.leader,
        "mode": round_.mode,
        "status": round_.status,
        "entries": laid_out_entries(round_),  # an unfinished trick is not kept
        "tricks": round_.tricks if round_.mode == RoundMode.LIVE else None,
        "scores": [result.score for result in round_.results] if scored else None,
        "explanations": round_terms(game, round_),
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


def with_everything(query: sa.Select[tuple[Game]]) -> sa.Select[tuple[Game]]:
    """Seats (with their players), rounds, results and the next game's code in one query
    each, not one per game."""
    return query.options(
        so.selectinload(Game.seats),
        so.selectinload(Game.next_game).load_only(Game.code),
        so.selectinload(Game.rounds).selectinload(Round.results),
    )


def all_games(circle_id: int | None = None) -> Iterator[Game]:
    """Every game (or every game of circle ``circle_id``), oldest first (ties by code),
    loaded ``BATCH_SIZE`` at a time."""
    query = sa.select(Game.id).order_by(Game.created_at, Game.code)
    if circle_id is not None:
        query = query.where(Game.circle_id == circle_id)
    ids = list(db.session.scalars(query))
    for start in range(0, len(ids), BATCH_SIZE):
        batch = ids[start : start + BATCH_SIZE]
        loaded = {
            game.id: game
            for game in db.session.scalars(
                with_everything(sa.select(Game)).where(Game.id.in_(batch))
            )
        }
        yield from (loaded[game_id] for game_id in batch if game_id in loaded)
        db.session.expunge_all()  # keep memory flat over a long history


#: A card as ``json.dumps(indent=2)`` spreads it over four lines (JSON strings hold no raw
#: newline or unescaped quote, so this never matches inside a name).
SPREAD_CARD = re.compile(
    r'\{\s*"colour": ("[a-z]+"),\s*"value": (-?\d+)(,\s*"(?:pass|indicator)": true)?\s*\}'
)


def dumps(data: object) -> str:
    """Indented JSON, readable by people, with each card on one line."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return SPREAD_CARD.sub(_one_line_card, text)


def _one_line_card(match: re.Match[str]) -> str:
    flag = ", " + " ".join(match[3].removeprefix(",").split()) if match[3] else ""
    return f'{{"colour": {match[1]}, "value": {match[2]}{flag}}}'


def exported_circles(circle_id: int | None = None) -> list[Circle]:
    """The circles a whole-history export lists: those holding a game (of them, only circle
    ``circle_id`` if given), in the order they were made. A circle without games is left
    out: the import makes a circle only for games it adds."""
    query = sa.select(Circle).where(sa.exists().where(Game.circle_id == Circle.id))
    if circle_id is not None:
        if db.session.get(Circle, circle_id) is None:
            raise NotFound(N_("There is no circle %(id)s."), id=circle_id)
        query = query.where(Circle.id == circle_id)
    return list(db.session.scalars(query.order_by(Circle.id)))


def _read_in_one_snapshot() -> None:
    """Read the circles and then the games as of one moment, so that every game's circle
    is among those listed first, even if a game is started in a new circle meanwhile. On
    PostgreSQL that is a ``REPEATABLE READ`` transaction, begun here unless the caller's
    is already open; SQLite's one ``BEGIN`` reads one snapshot already."""
    if db.engine.dialect.name != "postgresql" or db.session().in_transaction():
        return
    db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


def circle_document(circle: Circle, key: int) -> dict[str, Any]:
    """A circle as a backup lists it: its key in the document, its name and when it was
    made. Never its invite secret, nor the secret's hash (as edit keys are never exported)."""
    return {"key": key, "name": circle.name, "created_at": iso_time(circle.created_at)}


def write_history(file: TextIO, circle_id: int | None = None) -> int:
    """Write the whole history (or circle ``circle_id``'s games) as one document to
    ``file``, a game at a time, each naming its circle by the document's key; answers how
    many games were written. An unknown ``circle_id`` is ``NotFound`` before anything is
    written."""
    _read_in_one_snapshot()
    circles = exported_circles(circle_id)
    keys = {circle.id: key for key, circle in enumerate(circles, start=1)}
    listed = dumps([circle_document(circle, keys[circle.id]) for circle in circles])
    head = document([])
    file.write("{\n")
    for key in ("format", "version", "exported_at"):
        file.write(f"  {json.dumps(key)}: {json.dumps(head[key])},\n")
    file.write(f'  "circles": {textwrap.indent(listed, "  ").lstrip()},\n')
    file.write('  "games": [')
    count = 0
    for game in all_games(circle_id):
        exported = game_document(game)
        text = dumps({"code": exported["code"], "circle": keys[game.circle_id], **exported})
        file.write(("," if count else "") + "\n" + textwrap.indent(text, "    "))
        count += 1
    file.write("\n  ]\n}\n" if count else "]\n}\n")
    return count


def game_json(game: Game) -> str:
    """One game as a document, as the game's page and the API offer it for download: of
    the format's version, without circles (the package's docstring says why)."""
    return dumps(document([game_document(game, public=True)]))


def game_for_export(code: str) -> Game:
    """The game ``code`` with everything an export reads, in a few queries."""
    game = db.session.scalar(with_everything(sa.select(Game)).where(Game.code == code))
    if game is None:
        raise NotFound(N_("There is no game with this id."))
    return game
