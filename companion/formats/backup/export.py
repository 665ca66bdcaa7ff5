"""The backup document written: every game (or one, for its download) with its rounds."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.data.models import Game, Round, db
from companion.data.queries import laid_out_entries
from companion.data.states import RoundMode, RoundStatus
from companion.formats.game_json import game_settings, round_terms
from companion.rules.text import N_
from companion.services.errors import NotFound

FORMAT = "sticheln-companion"


FORMAT_VERSION = 1


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


def all_games() -> Iterator[Game]:
    """Every game, oldest first (ties by code), loaded ``BATCH_SIZE`` at a time."""
    ids = list(db.session.scalars(sa.select(Game.id).order_by(Game.created_at, Game.code)))
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


def game_for_export(code: str) -> Game:
    """The game ``code`` with everything an export reads, in a few queries."""
    game = db.session.scalar(with_everything(sa.select(Game)).where(Game.code == code))
    if game is None:
        raise NotFound(N_("There is no game with this id."))
    return game
