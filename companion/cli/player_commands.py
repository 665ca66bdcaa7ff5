"""The operator's commands for players' names: what a phone may not do from a page.

    flask --app companion players rename OLD NEW
    flask --app companion players merge SOURCE INTO
    flask --app companion players journal
    flask --app companion players undo ID

Players are named as the app matches names (case aside), or by their id. Every rename and
merge, from here or from a page, is written to the journal, and any of them can be undone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TypeVar

import click
from flask.cli import with_appcontext
from flask_babel import gettext
from sqlalchemy.exc import IntegrityError

from companion.data.models import PlayerChange, db
from companion.read_models.messages import render_message
from companion.services import ServiceError
from companion.services.player_changes import (
    COMMAND,
    MERGE,
    PAGE,
    find_player,
    merge_players,
    rename_player,
)
from companion.services.player_journal import Moved, journal, undo_change

#: What a command's change answers (its journal entry, a circle and its secret, ...).
Done = TypeVar("Done")


@click.group("players")
def players_group() -> None:
    """Rename or merge players, list the journal of such changes, undo one of them."""


def refused(error: ServiceError) -> click.ClickException:
    """A refusal of the service, rolled back, as the command's error."""
    db.session.rollback()
    return click.ClickException(render_message(error.message))


def committed(change: Callable[[], Done], lost_race: str | None = None) -> Done:
    """Run ``change`` and commit it, answering what it answers. A refusal of the service,
    or (when ``lost_race`` says it in words) another writer taking a name or an id
    meanwhile, is rolled back and becomes the command's error: nothing is half done."""
    try:
        done = change()
        db.session.commit()
    except ServiceError as error:
        raise refused(error) from None
    except IntegrityError:
        if lost_race is None:
            raise
        db.session.rollback()
        raise click.ClickException(lost_race) from None
    return done


def undo_entry(undo: Callable[[int], Done], entry: int, describe: Callable[[Done], str]) -> None:
    """Undo journal entry ``entry`` with ``undo`` and say what was undone. A row's id or
    name taken back meanwhile by another writer makes it the command's error."""
    change = committed(
        lambda: undo(entry),
        gettext("Entry %(id)s cannot be undone: the database changed meanwhile.", id=entry),
    )
    click.echo(gettext("Undone: %(change)s", change=describe(change)))


def show_journal(entries: Sequence[Done], line: Callable[[Done], str], empty: str) -> None:
    """Print a journal, an entry a line (``empty`` when it has none), changing nothing."""
    if not entries:
        click.echo(empty)
    for change in entries:
        click.echo(line(change))
    db.session.rollback()


@players_group.command("rename")
@click.argument("old")
@click.argument("new")
@with_appcontext
def rename_command(old: str, new: str) -> None:
    """Give the player OLD (a name or an id) the name NEW in every game."""
    change = committed(
        lambda: rename_player(find_player(old), new, COMMAND),
        # a phone gave someone this name a moment ago
        gettext("Another player took the name %(name)s meanwhile.", name=new),
    )
    click.echo(describe(change))


@players_group.command("merge")
@click.argument("source")
@click.argument("into")
@with_appcontext
def merge_command(source: str, into: str) -> None:
    """Move every seat and result of SOURCE to INTO (names or ids), then remove SOURCE."""
    change = committed(lambda: merge_players(find_player(source), find_player(into), COMMAND))
    click.echo(describe(change))


@players_group.command("undo")
@click.argument("entry", metavar="ID", type=int)
@with_appcontext
def undo_command(entry: int) -> None:
    """Put back the state from before journal entry ID, exactly."""
    undo_entry(undo_change, entry, describe)


@players_group.command("journal")
@with_appcontext
def journal_command() -> None:
    """List every rename and merge: its id, when, what, from where, and whether undone."""
    show_journal(journal(), journal_line, gettext("No player was renamed or merged yet."))


def when(moment: datetime) -> str:
    """A journal time, in UTC to the second."""
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def describe(change: PlayerChange) -> str:
    """What an entry did, in one line."""
    if change.kind == MERGE:
        moved = Moved.of(change)
        return str(
            gettext(
                "#%(id)s: merged %(old)s (player %(player)s) into %(new)s (player %(target)s): "
                "%(seats)s seats and %(results)s results moved.",
                id=change.id,
                old=change.player_name,
                player=change.player_id,
                new=change.new_name,
                target=change.target_id,
                seats=len(moved.seats),
                results=len(moved.results),
            )
        )
    return str(
        gettext(
            "#%(id)s: renamed %(old)s (player %(player)s) to %(new)s.",
            id=change.id,
            old=change.player_name,
            player=change.player_id,
            new=change.new_name,
        )
    )


def journal_line(change: PlayerChange) -> str:
    """An entry of the journal's listing."""
    return listed(describe(change), change.origin, change.made_at, change.undone_at)


def listed(described: str, origin: str, made_at: datetime, undone_at: datetime | None) -> str:
    """A journal's entry as its listing shows it (the players' and the circles'): when, what,
    from where, and when it was undone."""
    where = gettext("from a page") if origin == PAGE else gettext("from the command line")
    line = f"{when(made_at)}  {described}  {where}"
    if undone_at is not None:
        line += "  " + gettext("(undone %(when)s)", when=when(undone_at))
    return line
