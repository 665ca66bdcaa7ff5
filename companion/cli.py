"""Command-line commands: the whole history out to a file, and back in.

    flask --app companion export FILE    (FILE "-" writes to standard output)
    flask --app companion import FILE    (FILE "-" reads standard input)

The import prints, for every game it adds, a fresh edit key (only its hash is stored), so
the person restoring a backup can open ``/g/<code>/edit/<key>`` and change the game again.
"""

from __future__ import annotations

from typing import IO

import click
from flask import Flask
from flask.cli import with_appcontext
from flask_babel import gettext
from sqlalchemy.exc import IntegrityError

from companion import backup
from companion.models import db


@click.command("export")
@click.argument("file", type=click.File("w", encoding="utf-8", atomic=True))
@with_appcontext
def export_command(file: IO[str]) -> None:
    """Write every game to FILE as JSON ("-" for standard output)."""
    count = backup.write_history(file)
    file.flush()
    db.session.rollback()
    click.echo(gettext("Games exported: %(count)s.", count=count), err=True)


@click.command("import")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_command(file: IO[bytes]) -> None:
    """Add the games of an export FILE ("-" for standard input) that are not here yet.

    The file is checked as a whole first: if anything in it is malformed or a round does not
    score as stored, nothing is imported.
    """
    try:
        report = backup.import_document(backup.load(file.read()))
        db.session.commit()
    except backup.BackupError as error:
        db.session.rollback()
        raise click.ClickException(backup.refusal(error)) from None
    except IntegrityError:
        db.session.rollback()
        raise click.ClickException(
            backup.refusal(
                backup.BackupError(gettext("another import added the same games meanwhile."))
            )
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
    click.echo(
        gettext(
            "Games imported: %(imported)s. Skipped: %(skipped)s.",
            imported=len(report.imported),
            skipped=len(report.unchanged) + len(report.conflicting),
        ),
        err=True,
    )


def init_app(app: Flask) -> None:
    """Register the commands on ``app``'s ``flask`` command."""
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
