"""Forms of the history pages: rename and merge a player (each behind a confirmation), and
the scoreboard's switch that leaves a game out of the statistics (or counts it again).

Every one is a POST form with its CSRF token (Flask-WTF); the history's filters are a GET
form read by ``companion.web.history_filters``.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import InputRequired

from companion.data.models import MAX_NAME_LENGTH

CONFIRMED = "yes"


class VersionedForm(FlaskForm):  # type: ignore[misc]
    """A change to one game, carrying the version the player was looking at."""

    version = HiddenField()

    def seen_version(self) -> int:
        """The version the page showed; anything else (a tampered form) never matches."""
        try:
            return int(self.version.data)
        except (TypeError, ValueError):
            return -1


class ExcludeForm(VersionedForm):
    """Leave the game out of the statistics (``excluded`` = "1") or count it again ("0")."""

    excluded = HiddenField()

    def wants_excluded(self) -> bool | None:
        """The state asked for; ``None`` for a value that is neither."""
        return {"1": True, "0": False}.get(self.excluded.data or "")


class ConfirmedForm(FlaskForm):  # type: ignore[misc]
    """A change shown once more for confirmation before it is made."""

    confirmed = HiddenField()

    def is_confirmed(self) -> bool:
        """Whether the player confirmed the change on the confirmation page."""
        return bool(self.confirmed.data == CONFIRMED)


class RenameForm(ConfirmedForm):
    """A player's new display name."""

    new_name = StringField(
        _l("New name"),
        validators=[InputRequired(message=_l("Enter the new name."))],
        render_kw={"maxlength": MAX_NAME_LENGTH, "autocomplete": "off"},
    )


class MergeForm(ConfirmedForm):
    """The other name of the same person, who keeps both histories."""

    into = StringField(
        _l("Other name of the same person"),
        validators=[InputRequired(message=_l("Enter the name to merge into."))],
        render_kw={"maxlength": MAX_NAME_LENGTH, "autocomplete": "off", "list": "known-players"},
    )
