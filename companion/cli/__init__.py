"""Command-line commands: the whole history out to a file, and back in.

    flask --app companion export [--circle ID] FILE    (FILE "-" writes to standard output)
    flask --app companion import [--circle ID] FILE    (FILE "-" reads standard input)

    flask --app companion demo-data --games N [--seed S]   (N realistic finished games)
    flask --app companion rebuild-statistics   (after changing the tables by hand)

    flask --app companion players rename|merge|undo|journal   (companion.cli.player_commands)
    flask --app companion circles list|invite|rename   (companion.cli.circle_commands)

The import prints, for every game it adds, a fresh edit key (only its hash is stored), so
the person restoring a backup can open ``/g/<code>/edit/<key>`` and change the game again,
and names each circle it makes for the backup's circles: nobody knows its invite secret
until the operator makes one with ``circles invite ID``.
"""

from __future__ import annotations

from datetime import datetime
from typing import IO

import click
import sqlalchemy as sa
from flask import Flask
from flask.cli import with_appcontext
from flask_babel import gettext
from sqlalchemy.exc import IntegrityError

from companion.cli.circle_commands import circles_group
from companion.cli.player_commands import players_group, refused
from companion.data import ledger
from companion.data.database import create_schema_if_empty, refresh_planner_statistics
from companion.data.models import Game, PlayerTotals, db
from companion.formats.backup.export import write_history
from companion.formats.backup.importing import ImportReport, import_document, refusal
from companion.formats.backup.plans import BackupError
from companion.formats.backup.reading import load
from companion.services import ServiceError


def schema_made() -> None:
    """Build the tables of an empty database first, and say so."""
    if create_schema_if_empty():
        click.echo(gettext("The database was empty: its tables were made."), err=True)


@click.command("export")
@click.option(
    "--circle", "circle_id", metavar="ID", type=int, default=None, help="Only this circle's games."
)
@click.argument("file", type=click.File("w", encoding="utf-8", atomic=True, lazy=True))
@with_appcontext
def export_command(circle_id: int | None, file: IO[str]) -> None:
    """Write every game (of every circle, or of circle ID) to FILE as JSON ("-" for
    standard output). An unknown circle writes nothing."""
    try:
        count = write_history(file, circle_id)
    except ServiceError as error:
        raise refused(error) from None
    file.flush()
    db.session.rollback()
    click.echo(gettext("Games exported: %(count)s.", count=count), err=True)


@click.command("import")
@click.option(
    "--circle",
    "circle_id",
    metavar="ID",
    type=int,
    default=None,
    help="Put every game into this circle, instead of the file's circles (new ones).",
)
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_command(circle_id: int | None, file: IO[bytes]) -> None:
    """Add the games of an export FILE ("-" for standard input) that are not here yet.

    The file's circles are made anew, each game going into the new copy of its circle,
    unless --circle puts every game into circle ID; a file without circles goes into
    circle ID or else into the server's first circle. The file is checked as a whole first:
    if anything in it is malformed or a round does not score as stored, nothing is imported.
    """
    document = file.read()
    schema_made()
    try:
        report = import_document(load(document), circle_id)
        db.session.commit()
        if report.imported:
            refresh_planner_statistics()  # a restore is a bulk load
    except BackupError as error:
        db.session.rollback()
        raise click.ClickException(refusal(error)) from None
    except IntegrityError:
        db.session.rollback()
        raise click.ClickException(
            refusal(BackupError(gettext("another import added the same games meanwhile.")))
        ) from None
    for code, key in report.imported:
        click.echo(
            gettext(
                "Imported %(code)s; its edit link: /g/%(code)s/edit/%(key)s", code=code, key=key
            )
        )
    for code in report.unchanged:
        click.echo(gettext("Skipped %(code)s: it is already here, unchanged.", code=code))
    for code in report.conflicting:
        click.echo(
            gettext(
                "Skipped %(code)s: a game with this code is already here with other content "
                "(kept as it is).",
                code=code,
            )
        )
    say_circles(report)
    click.echo(
        gettext(
            "Games imported: %(imported)s. Skipped: %(skipped)s.",
            imported=len(report.imported),
            skipped=len(report.unchanged) + len(report.conflicting),
        ),
        err=True,
    )


def say_circles(report: ImportReport) -> None:
    """Name the circles the new games went into; a new circle has no invite yet."""
    for circle in report.made_circles:
        click.echo(
            gettext(
                "New circle %(id)s (%(name)s): nobody knows its invite secret yet; make one "
                "with: flask --app companion circles invite %(id)s",
                id=circle.id,
                name=circle.name,
            )
        )
    if report.joined_circle is not None:
        click.echo(
            gettext(
                "The games were added to circle %(id)s (%(name)s).",
                id=report.joined_circle.id,
                name=report.joined_circle.name,
            )
        )


@click.command("demo-data")
@click.option(
    "--games", "count", type=click.IntRange(1, 1_000_000), required=True, help="How many games."
)
@click.option("--seed", type=int, default=None, help="Same seed, same games (codes included).")
@click.option(
    "--end",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="The games span the two years before this day (default: today, UTC).",
)
@click.option("--add", is_flag=True, help="Add to a database that already holds games.")
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="Processes playing the games (default: one per core from 300 games on).",
)
@with_appcontext
def demo_data_command(
    count: int, seed: int | None, end: datetime | None, add: bool, workers: int | None
) -> None:
    """Fill the database with GAMES realistic finished games, dealt, played and scored
    through the rules (see companion/cli/demo)."""
    from companion.cli import demo

    schema_made()
    held = db.session.scalar(sa.select(sa.func.count()).select_from(Game)) or 0
    db.session.rollback()
    if held and not add:
        raise click.ClickException(
            f"This database already holds {held} games; demo games would mix with them in "
            "the history and the statistics. Pass --add to add them anyway (players with "
            "the same names are then shared)."
        )

    def progress(done: int) -> None:
        if count > demo.BATCH_SIZE:
            click.echo(f"{done} of {count} games stored", err=True)

    summary = demo.add_demo_games(
        count, seed=seed, end=end.date() if end else None, workers=workers, progress=progress
    )
    click.echo(
        f"Added {summary.games} games, {summary.rounds} rounds, {summary.players} players "
        f"({summary.new_players} new) in {summary.seconds:.1f} s."
    )


@click.command("rebuild-statistics")
@with_appcontext
def rebuild_statistics_command() -> None:
    """Make the players' statistics again from the stored games: every write keeps them,
    but rows changed by hand in the database pass the app by."""
    ledger.rebuild(db.session.connection())
    db.session.commit()
    players = db.session.scalar(sa.select(sa.func.count()).select_from(PlayerTotals)) or 0
    db.session.rollback()
    click.echo(gettext("Statistics rebuilt for %(count)s players.", count=players), err=True)


def init_app(app: Flask) -> None:
    """Register the commands on ``app``'s ``flask`` command."""
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
    app.cli.add_command(demo_data_command)
    app.cli.add_command(rebuild_statistics_command)
    app.cli.add_command(players_group)
    app.cli.add_command(circles_group)
