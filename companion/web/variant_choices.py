"""The variant settings as form choices, in the player's language: the new-game form and the
setup tool offer the same ones (R13-R16)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import SelectChoice

SCORING_CHOICES = [
    SelectChoice("classic", _l("Classic: cursed cards cost their value")),
    SelectChoice("mild", _l("Mild: cursed cards cost 5 each")),
    SelectChoice("reverse", _l("Reverse: a lucky colour scores its values")),
]
COLOUR_COUNT_CHOICES = [SelectChoice("1", _l("1 colour")), SelectChoice("2", _l("2 colours"))]
REVEAL_CHOICES = [
    SelectChoice("open", _l("Open: indicators shown at once")),
    SelectChoice("hazy", _l("Hazy: hidden until the round is scored")),
    SelectChoice("delayed", _l("Delayed: chosen when the round ends")),
]
