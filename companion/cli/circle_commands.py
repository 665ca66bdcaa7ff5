"""The operator's commands for circles, the games and players of one table or club
(issue 28):

    flask --app companion circles list
    flask --app companion circles invite ID
    flask --app companion circles rename ID NAME

``invite`` prints a new invite secret once: only its hash is stored, and it replaces the
circle's previous secret.
"""

from __future__ import annotations

import click
from flask.cli import with_appcontext
from flask_babel import gettext

from companion.cli.player_commands import refused
from companion.data.models import db
from companion.services import ServiceError
from companion.services.circles import circle_counts, new_invite, rename_circle


@click.group("circles")
def circles_group() -> None:
    """List the circles, rename one, or give one a new invite secret."""


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
@with_appcontext
def invite_command(circle_id: int) -> None:
    """Make a new invite secret for circle ID and print it, this once: only its hash is
    stored, and the circle's previous secret no longer works."""
    try:
        circle, secret = new_invite(circle_id)
        db.session.commit()
    except ServiceError as error:
        raise refused(error) from None
    click.echo(
        gettext(
            "The new invite secret of circle %(id)s (%(name)s), shown only now: only its hash "
            "is stored, and the previous secret no longer works.",
            id=circle.id,
            name=circle.name,
        ),
        err=True,
    )
    click.echo(secret)


@circles_group.command("rename")
@click.argument("circle_id", metavar="ID", type=int)
@click.argument("name")
@with_appcontext
def rename_command(circle_id: int, name: str) -> None:
    """Give circle ID the name NAME."""
    try:
        circle, old = rename_circle(circle_id, name)
        db.session.commit()
    except ServiceError as error:
        raise refused(error) from None
    click.echo(
        gettext(
            "Circle %(id)s renamed from %(old)s to %(new)s.",
            id=circle.id,
            old=old,
            new=circle.name,
        )
    )
