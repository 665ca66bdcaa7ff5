"""Forms of the table tools.

The setup form is a GET form (it changes nothing, and its address can be bookmarked or
shared), so it carries no CSRF token. The trick forms are POST forms with CSRF: each tap on a
card chip sends the trick so far in a hidden field and the tapped card as the ``add`` button's
value, so the resolver works without JavaScript and without storing anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, SelectChoice, SelectField, StringField, SubmitField

from companion.read_models.messages import PRESET_NAMES
from companion.rules import (
    HAT_TRICK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    Variant,
    variant_from_settings,
    variant_named,
)
from companion.web.variant_choices import COLOUR_COUNT_CHOICES, REVEAL_CHOICES, SCORING_CHOICES

CUSTOM = "custom"
#: Every player count any game is played with (R2: 3-8; R17: Hat Trick 4-7).
PLAYER_COUNTS = range(MIN_PLAYERS, MAX_PLAYERS + 1)
DEFAULT_PLAYERS = 4
#: The three settings of a custom classic-family variant (RULES.md section 5).
SETTING_NAMES = ("scoring", "colours", "reveal")

SETUP_VARIANT_CHOICES = [
    *(SelectChoice(name, PRESET_NAMES[name]) for name in PRESETS),
    SelectChoice(CUSTOM, _l("Custom settings")),
]


#: Who takes a trick depends only on the trump order (R8 or R13) or on the game (R19-R21),
#: so the resolver offers three choices. Their names stay short enough for a phone's select
#: in every language; the field's description names the presets that play each.
TRICK_RULE_CHOICES = [
    SelectChoice("classic", _l("Highest trump wins")),
    SelectChoice("reverse", _l("Lowest trump wins")),
    SelectChoice(HAT_TRICK, _l("Hat Trick")),
]


def player_count_choices() -> list[SelectChoice]:
    """3 to 8 players; the rules refuse a count the chosen game is not played with."""
    return [SelectChoice(str(count), str(count)) for count in PLAYER_COUNTS]


class SetupForm(FlaskForm):  # type: ignore[misc]
    """Player count and variant, read from the query string (``?players=7&variant=mild``)."""

    class Meta:
        csrf = False  # a GET form that changes nothing

    players = SelectField(
        _l("Players"), choices=player_count_choices(), default=DEFAULT_PLAYERS, coerce=int
    )
    variant = SelectField(_l("Variant"), choices=SETUP_VARIANT_CHOICES, default="classic")
    scoring = SelectField(_l("Scoring"), choices=SCORING_CHOICES, default="classic")
    colours = SelectField(
        _l("Colours each player marks"), choices=COLOUR_COUNT_CHOICES, default=1, coerce=int
    )
    reveal = SelectField(_l("Colours revealed"), choices=REVEAL_CHOICES, default="open")

    def __init__(self, query: Any, **kwargs: Any) -> None:
        # Settings given without a preset (as the API takes them) mean the custom variant.
        if query and "variant" not in query and any(k in query for k in SETTING_NAMES):
            kwargs.setdefault("variant", CUSTOM)
        super().__init__(formdata=query or None, **kwargs)

    def chosen_variant(self) -> Variant:
        """The preset, or the three custom settings (any combination is allowed)."""
        if self.variant.data == CUSTOM:
            return variant_from_settings(self.scoring.data, self.colours.data, self.reveal.data)
        return variant_named(self.variant.data)

    def is_custom(self) -> bool:
        """Whether the custom settings are in use (they are shown open then)."""
        return bool(self.variant.data == CUSTOM)


class TrickForm(FlaskForm):  # type: ignore[misc]
    """The trick so far and what was tapped: a card, pass, undo, clear or apply."""

    trick = HiddenField()
    #: A pass asked for with the next card (a form sent by hand may ask); the page asks
    #: nothing: a card of the third colour is a pass (R19), any other card refused as one.
    pass_next = BooleanField()
    add = StringField()  # the value of the card chip tapped, e.g. "red-7"
    undo = SubmitField(_l("Undo last card"))
    clear = SubmitField(_l("Clear the trick"))
    apply = SubmitField(_l("Apply"))


class ResolverForm(TrickForm):
    """A trick outside any game: the trick rule and the player count are chosen here."""

    variant = SelectField(
        _l("Trick rule"),
        choices=TRICK_RULE_CHOICES,
        default="classic",
        description=_l(
            "Highest trump wins in Classic, Mild, Aggravated, Hazy and Delayed; "
            "the lowest in Reverse. Hat Trick: two colours, passes."
        ),
    )
    players = SelectField(
        _l("Players"), choices=player_count_choices(), default=DEFAULT_PLAYERS, coerce=int
    )

    def chosen_variant(self) -> Variant:
        """The variant whose trick rule applies (its scoring decides the trump order)."""
        return variant_named(self.variant.data)


class GameTrickForm(TrickForm):
    """A trick of a game: its seats play in order from the chosen leader (R9)."""

    leader = SelectField(_l("Who leads this trick"), coerce=int, default=0)

    def __init__(self, names: Sequence[str], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.leader.choices = [SelectChoice(str(seat), name) for seat, name in enumerate(names)]
