"""Forms of the circles page: a new name, and a new invite link (each a POST form with its
CSRF token)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import InputRequired

from companion.data.models import MAX_NAME_LENGTH


class RenameCircleForm(FlaskForm):  # type: ignore[misc]
    """The circle's new name, written as a player's name is."""

    name = StringField(
        _l("New name"),
        validators=[InputRequired(message=_l("Every circle needs a name."))],
        render_kw={"maxlength": MAX_NAME_LENGTH, "autocomplete": "off"},
    )


class NewInviteForm(FlaskForm):  # type: ignore[misc]
    """Make a new invite link: nothing to fill in, the token says the page sent it."""
