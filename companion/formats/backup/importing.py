"""A checked backup written: new games added with fresh edit keys, games already here
compared and skipped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext

from companion.data.circles import server_circle_id
from companion.data.database import hold_write_lock
from companion.data.models import Game, Player, Round, RoundResult, Seat, db, name_key
from companion.formats.backup.export import game_document, with_everything
from companion.formats.backup.plans import BackupError, GamePlan, RoundPlan
from companion.formats.backup.reading import read_document
from companion.services.keys import hash_edit_key, new_edit_key
from companion.services.players import find_or_add_players


@dataclass
class ImportReport:
    """What an import did: new games with their fresh edit keys, games already here."""

    imported: list[tuple[str, str]] = field(default_factory=list)  # (code, edit key)
    unchanged: list[str] = field(default_factory=list)
    conflicting: list[str] = field(default_factory=list)


def _comparable(game: dict[str, Any]) -> dict[str, Any]:
    """A game document as compared with another: names matched case-insensitively, and
    without the link to the next game, which says where the table went on, not what was
    played (a file written before the link existed still matches)."""
    compared = {**game, "players": [name_key(name) for name in game["players"]]}
    compared.pop("next_game", None)
    return compared


def import_document(data: object) -> ImportReport:
    """Check a whole document, then add its new games (the caller commits, or rolls back on
    any error: nothing of a refused document is kept). The games already here are read
    under the write lock, so none can be added between that read and the import's own."""
    hold_write_lock()
    plans = read_document(data)
    report = ImportReport()
    codes = [plan.code for plan in plans]
    existing = (
        {
            game.code: game
            for game in db.session.scalars(
                with_everything(sa.select(Game)).where(Game.code.in_(codes))
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
    circle_id = server_circle_id()  # a backup's games join the server's one circle
    players = find_or_add_players([name for plan in new for name in plan.names], circle_id)
    db.session.flush()
    offset = 0
    added: dict[str, Game] = {}
    for plan in new:
        seated = players[offset : offset + len(plan.names)]
        offset += len(plan.names)
        key = new_edit_key()
        added[plan.code] = _game_of(plan, seated, hash_edit_key(key), circle_id)
        db.session.add(added[plan.code])
        report.imported.append((plan.code, key))
    _link_next_games(new, added)
    db.session.flush()
    return report


def _link_next_games(new: Sequence[GamePlan], added: dict[str, Game]) -> None:
    """Each added game remembers the game its table played next, when that game is added
    with it or is in the database already; a link to a game that is in neither is left
    out, as a one-game export names a next game it does not hold. (The document holds no
    circle of links: ``read_document`` refuses one.)"""
    wanted = {plan.next_game for plan in new if plan.next_game}
    elsewhere = wanted - set(added)
    targets = dict(added)
    if elsewhere:
        with db.session.no_autoflush:  # the added games go in with one flush, links and all
            found = db.session.scalars(sa.select(Game).where(Game.code.in_(elsewhere)))
            targets |= {game.code: game for game in found}
    for plan in new:
        if plan.next_game in targets:
            added[plan.code].next_game = targets[plan.next_game]


def _game_of(plan: GamePlan, players: Sequence[Player], key_hash: str, circle_id: int) -> Game:
    """The rows of a checked game, added in one go (no update bumps its version or times)."""
    game = Game(
        circle_id=circle_id,
        edit_key_hash=key_hash,
        **_columns(plan, leave_out=("names", "rounds", "next_game")),
    )
    game.seats = [Seat(position=seat, player=player) for seat, player in enumerate(players)]
    game.rounds = [
        Round(
            **_columns(round_, leave_out=("scored", "explanations")),
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


def _columns(plan: GamePlan | RoundPlan, leave_out: tuple[str, ...]) -> dict[str, Any]:
    """A plan's fields that are columns of its row (the plans name them as the models do)."""
    return {
        column.name: getattr(plan, column.name)
        for column in fields(plan)
        if column.name not in leave_out
    }


def refusal(error: BackupError) -> str:
    """The import's refusal in the reader's language."""
    return gettext(
        "Nothing was imported: %(reason)s",
        reason=str(error),
    )
