"""A checked backup written: new games added with fresh edit keys (into the document's
circles, made anew, or into one circle of this server), games already here compared and
skipped."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext

from companion.data.circles import server_circle_id, unknown_secret_hash
from companion.data.database import hold_write_lock
from companion.data.models import Circle, Game, Player, Round, RoundResult, Seat, db, name_key
from companion.formats.backup.export import game_document, with_everything
from companion.formats.backup.plans import BackupError, BackupPlan, CirclePlan, GamePlan, RoundPlan
from companion.formats.backup.reading import read_backup
from companion.services.keys import hash_edit_key, new_edit_key
from companion.services.players import find_or_add_players


@dataclass
class ImportReport:
    """What an import did: new games with their fresh edit keys, games already here, and
    the circles the new games went into."""

    imported: list[tuple[str, str]] = field(default_factory=list)  # (code, edit key)
    unchanged: list[str] = field(default_factory=list)
    conflicting: list[str] = field(default_factory=list)
    #: The circles made for the document's circles, in its order.
    made_circles: list[Circle] = field(default_factory=list)
    #: The circle of this server the new games joined, when not circles of their own.
    joined_circle: Circle | None = None


def _comparable(game: dict[str, Any]) -> dict[str, Any]:
    """A game document as compared with another: names matched case-insensitively, and
    without the link to the next game, which says where the table went on, not what was
    played (a file written before the link existed still matches)."""
    compared = {**game, "players": [name_key(name) for name in game["players"]]}
    compared.pop("next_game", None)
    return compared


def import_document(data: object, circle_id: int | None = None) -> ImportReport:
    """Check a whole document, then add its new games (the caller commits, or rolls back on
    any error: nothing of a refused document is kept). The games already here are read
    under the write lock, so none can be added between that read and the import's own.

    The new games go into circle ``circle_id`` of this server when it is given; else into
    new circles made for the document's circles (version 2), only those that get a game,
    so that a backup imported twice makes nothing the second time; else (version 1, or one
    game's download) into the server's first circle. Names are matched within the circle."""
    hold_write_lock()
    backup = read_backup(data)
    chosen = _existing_circle(circle_id) if circle_id is not None else None
    report = ImportReport()
    new = _new_games(backup.games, report)
    if not new:
        return report
    circle_of = _circles_of(new, backup, chosen, report)
    seated = _players_of(new, circle_of)
    added: dict[str, Game] = {}
    for plan in new:
        key = new_edit_key()
        added[plan.code] = _game_of(
            plan, seated[plan.code], hash_edit_key(key), circle_of[plan.code]
        )
        db.session.add(added[plan.code])
        report.imported.append((plan.code, key))
    _link_next_games(new, added)
    db.session.flush()
    return report


def _existing_circle(circle_id: int) -> Circle:
    """The circle of this server an import was told to put every game into."""
    circle: Circle | None = db.session.get(Circle, circle_id)
    if circle is None:
        raise BackupError(gettext("There is no circle %(id)s.", id=circle_id))
    return circle


def _new_games(plans: Sequence[GamePlan], report: ImportReport) -> list[GamePlan]:
    """The games not here yet; those here already are reported, unchanged or not."""
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
    return new


def _circles_of(
    new: Sequence[GamePlan], backup: BackupPlan, chosen: Circle | None, report: ImportReport
) -> dict[str, int]:
    """The id of the circle each new game goes into (by code), making the circles it
    needs."""
    if chosen is None and backup.circles is not None:
        wanted = {plan.circle for plan in new}
        made = {
            circle.key: _made_circle(circle) for circle in backup.circles if circle.key in wanted
        }
        db.session.flush()
        report.made_circles = list(made.values())
        return {plan.code: made[plan.circle].id for plan in new if plan.circle is not None}
    if chosen is None:
        chosen = db.session.get(Circle, server_circle_id())
        assert chosen is not None
    report.joined_circle = chosen
    return {plan.code: chosen.id for plan in new}


def _made_circle(plan: CirclePlan) -> Circle:
    """A new circle for one of the document's: its name and time, and an invite secret
    nobody knows (the operator makes one with ``circles invite``)."""
    circle = Circle(name=plan.name, secret_hash=unknown_secret_hash(), created_at=plan.created_at)
    db.session.add(circle)
    return circle


def _players_of(new: Sequence[GamePlan], circle_of: dict[str, int]) -> dict[str, list[Player]]:
    """Each new game's players in seat order (by code), found or added in its circle: one
    look-up per circle, not per game."""
    by_circle: dict[int, list[GamePlan]] = defaultdict(list)
    for plan in new:
        by_circle[circle_of[plan.code]].append(plan)
    seated: dict[str, list[Player]] = {}
    for circle_id, plans in by_circle.items():
        players = find_or_add_players([name for plan in plans for name in plan.names], circle_id)
        offset = 0
        for plan in plans:
            seated[plan.code] = players[offset : offset + len(plan.names)]
            offset += len(plan.names)
    db.session.flush()
    return seated


def _link_next_games(new: Sequence[GamePlan], added: dict[str, Game]) -> None:
    """Each added game remembers the game its table played next, when that game is added
    with it or is in the database already, in the same circle (a table plays again in its
    circle); a link to a game that is in neither, or in another circle, is left out, as a
    one-game export names a next game it does not hold. (The document holds no loop of
    links: ``read_backup`` refuses one.)"""
    wanted = {plan.next_game for plan in new if plan.next_game}
    elsewhere = wanted - set(added)
    targets = dict(added)
    if elsewhere:
        with db.session.no_autoflush:  # the added games go in with one flush, links and all
            found = db.session.scalars(sa.select(Game).where(Game.code.in_(elsewhere)))
            targets |= {game.code: game for game in found}
    for plan in new:
        game, following = added[plan.code], targets.get(plan.next_game or "")
        if following is not None and following.circle_id == game.circle_id:
            game.next_game = following


def _game_of(plan: GamePlan, players: Sequence[Player], key_hash: str, circle_id: int) -> Game:
    """The rows of a checked game, added in one go (no update bumps its version or times)."""
    game = Game(
        circle_id=circle_id,
        edit_key_hash=key_hash,
        **_columns(plan, leave_out=("names", "rounds", "next_game", "circle")),
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
