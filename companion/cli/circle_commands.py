"""The operator's commands for circles, the games and players of one table or club:

    flask --app companion circles list
    flask --app companion circles invite ID
    flask --app companion circles rename ID NAME
    flask --app companion circles merge SOURCE TARGET
    flask --app companion circles journal
    flask --app companion circles undo ID

``invite`` prints a new invite secret once: only its hash is stored, and it replaces the
circle's previous secret. Every rename and merge is written to the circles' journal, and
any of them can be undone.
"""

from __future__ import annotations

import click
from flask.cli import with_appcontext
from flask_babel import gettext

from companion.cli.player_commands import committed, listed, show_journal, undo_entry
from companion.data.models import CircleChange, db
from companion.services.circle_changes import merge_circles
from companion.services.circle_journal import CircleMoved, journal, undo_circle_change
from companion.services.circles import circle_counts, new_invite, rename_circle
from companion.services.player_changes import COMMAND, MERGE


@click.group("circles")
def circles_group() -> None:
    """List the circles, rename or merge them, give one a new invite secret, list the journal
    of renames and merges, undo one of them."""


@circles_group.command("list")
@with_appcontext
def list_command() -> None:
    """List every circle: its id, name, and how many games and players it holds."""
    circles = circle_counts()
    db.session.rollback()
    header = (gettext("ID"), gettext("Games"), gettext("Players"), gettext("Name"))
    click.echo(f"{header[0]:>5}  {header[1]:>7}  {header[2]:>7}  {header[3]}")
    for circle in circles:
        click.echo(f"{circle.id:>5}  {circle.games:>7}  {circle.players:>7}  {circle.name}")


@circles_group.command("invite")
@click.argument("circle_id", metavar="ID", type=int)
@click.option(
    "--server",
    metavar="URL",
    help="The server's address as phones open it (https://example.org/sticheln): the whole "
    "invite link is printed instead of the secret alone.",
)
@with_appcontext
def invite_command(circle_id: int, server: str | None) -> None:
    """Make a new invite secret for circle ID and print it, this once: only its hash is
    stored, and the circle's previous secret no longer works. A phone opening
    ``<server>/circles/ID/join/<secret>`` is in the circle."""
    circle, secret = committed(lambda: new_invite(circle_id))
    click.echo(
        gettext(
            "The new invite secret of circle %(id)s (%(name)s), shown only now: only its hash "
            "is stored, and the previous secret no longer works.",
            id=circle.id,
            name=circle.name,
        ),
        err=True,
    )
    path = f"/circles/{circle.id}/join/{secret}"
    if server:
        click.echo(server.rstrip("/") + path)
        return
    click.echo(
        gettext("Its invite link: this server's address followed by %(path)s", path=path), err=True
    )
    click.echo(secret)


@circles_group.command("rename")
@click.argument("circle_id", metavar="ID", type=int)
@click.argument("name")
@with_appcontext
def rename_command(circle_id: int, name: str) -> None:
    """Give circle ID the name NAME."""
    circle, old = committed(lambda: rename_circle(circle_id, name, COMMAND))
    click.echo(renamed(circle.id, old, circle.name))


@circles_group.command("merge")
@click.argument("source", metavar="SOURCE", type=int)
@click.argument("target", metavar="TARGET", type=int)
@with_appcontext
def merge_command(source: int, target: int) -> None:
    """Move every game and player of circle SOURCE to circle TARGET (ids), merging the
    players of one name in both, then remove SOURCE and its invite secret."""
    change = committed(lambda: merge_circles(source, target, COMMAND))
    click.echo(describe(change))


@circles_group.command("undo")
@click.argument("entry", metavar="ID", type=int)
@with_appcontext
def undo_command(entry: int) -> None:
    """Put back the state from before entry ID of the circles' journal, exactly."""
    undo_entry(undo_circle_change, entry, describe)


@circles_group.command("journal")
@with_appcontext
def journal_command() -> None:
    """List every rename and merge of a circle: its id, when, what, from where, and whether
    undone."""
    show_journal(journal(), journal_line, gettext("No circle was renamed or merged yet."))


def renamed(circle_id: int, old: str, new: str) -> str:
    """What a rename did, in one sentence."""
    return str(
        gettext("Circle %(id)s renamed from %(old)s to %(new)s.", id=circle_id, old=old, new=new)
    )


def describe(change: CircleChange) -> str:
    """What an entry did, in one line, after its id."""
    if change.kind == MERGE:
        moved = CircleMoved.of(change)
        said = gettext(
            "Circle %(id)s (%(name)s) merged into circle %(into)s (%(target)s). Games moved: "
            "%(games)s; players moved: %(players)s; players merged with the player of the "
            "same name: %(merged)s.",
            id=change.circle_id,
            name=change.circle_name,
            into=change.target_id,
            target=change.new_name,
            games=len(moved.games),
            players=len(moved.players),
            merged=len(moved.merges),
        )
    else:
        said = renamed(change.circle_id, change.circle_name, change.new_name)
    return f"#{change.id}: {said}"


def journal_line(change: CircleChange) -> str:
    """An entry of the journal's listing."""
    return listed(describe(change), change.origin, change.made_at, change.undone_at)
