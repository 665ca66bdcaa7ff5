"""Forms of the whole-game pages: a new game, and the confirmation of abandon or delete.

The new-game form checks what it can in the player's language (player count, names, rounds,
first leader) so that errors appear next to the field; ``companion.services`` checks again
when the game is created, and anything it still refuses is shown next to the field too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import InputRequired, NumberRange

from companion.data.circles import CircleRef
from companion.data.models import MAX_NAME_LENGTH
from companion.data.names import clean_name, name_character_problem, name_key
from companion.play_state.new_game import NEW_CIRCLE
from companion.read_models.messages import PRESET_NAMES
from companion.rules import (
    CLASSIC,
    HAT_TRICK,
    MAX_PLAYERS,
    PRESETS,
    Variant,
    rounds_one_per_player,
    variant_from_settings,
)
from companion.rules.table import DEFAULT_ROUNDS, MAX_ROUNDS, MIN_ROUNDS
from companion.web.variant_choices import COLOUR_COUNT_CHOICES, REVEAL_CHOICES, SCORING_CHOICES

#: Name fields on the page: the most players any variant seats (R2).
SEATS = MAX_PLAYERS
CUSTOM = "custom"

#: One line per preset telling the table what changes (RULES.md sections 5 and 6).
PRESET_EXPLANATIONS = {
    "classic": _l("One cursed colour each: its cards cost their value, every other card +1."),
    "mild": _l("Every card of your cursed colour costs 5 points, a 0 too; other cards +1."),
    "reverse": _l(
        "A lucky colour instead: its cards score their value, every other card −1; "
        "the lowest trump takes the trick."
    ),
    "aggravated": _l("Two cursed colours each, and one trick fewer per round."),
    "hazy": _l("Indicator cards stay face down until the round is scored."),
    "delayed": _l("Nothing is laid out: each player picks their colour when the round ends."),
    HAT_TRICK: _l(
        "Another game with red, blue and green for 4 to 7 players: two colours per trick, "
        "passes, no cursed colour."
    ),
}

VARIANT_CHOICES = [
    *(SelectChoice(name, PRESET_NAMES[name]) for name in PRESETS),
    SelectChoice(CUSTOM, _l("Custom")),
]


class NewGameForm(FlaskForm):  # type: ignore[misc]
    """Seats in order, the variant, the number of rounds and the first leader (R3, R11)."""

    variant = RadioField(_l("Variant"), choices=VARIANT_CHOICES, default="classic")
    scoring = RadioField(_l("Scoring"), choices=SCORING_CHOICES, default="classic")
    colours = RadioField(
        _l("Colours each player marks"), choices=COLOUR_COUNT_CHOICES, default=1, coerce=int
    )
    reveal = RadioField(_l("Colours revealed"), choices=REVEAL_CHOICES, default="open")
    rounds = IntegerField(
        _l("Rounds"),
        default=DEFAULT_ROUNDS,
        validators=[
            InputRequired(message=_l("Say how many rounds to play, from 1 to 10.")),
            NumberRange(min=MIN_ROUNDS, max=MAX_ROUNDS, message=_l("A game has 1 to 10 rounds.")),
        ],
    )
    one_round_each = BooleanField(
        _l("One round per player"),
        description=_l("As the English edition, Stick ’Em, plays: as many rounds as players."),
    )
    circle = SelectField(
        _l("Circle"),
        description=_l("The game joins this circle's history, players and statistics."),
        choices=[SelectChoice(NEW_CIRCLE, _l("A new circle"))],  # the phone's added in the view
        default="",
        validate_choice=False,  # a circle the phone left is refused in words (the view)
    )
    first_leader = SelectField(
        _l("Who leads the first round"),
        description=_l("The rulebook says: the youngest player."),
        choices=[SelectChoice(str(seat)) for seat in range(SEATS)],  # named in __init__
        default=0,
        coerce=int,
    )
    submit = SubmitField(_l("Start the game"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player_count_errors: list[str] = []
        self.first_leader.choices = [
            SelectChoice(str(seat), gettext("Seat %(number)s", number=seat + 1))
            for seat in range(SEATS)
        ]

    def offer_circles(self, circles: Sequence[CircleRef], shown: CircleRef | None) -> None:
        """Offer the circles this phone is in, ``shown`` chosen unless the phone chose."""
        self.circle.choices = [
            *(SelectChoice(str(circle.id), circle.name) for circle in circles),
            SelectChoice(NEW_CIRCLE, gettext("A new circle")),
        ]
        if not self.is_submitted() and shown is not None:
            self.circle.data = str(shown.id)

    def chosen_circle(self) -> int | str | None:
        """The circle chosen: its id, :data:`NEW_CIRCLE`, or ``None`` for a form without the
        choice (a page kept from before circles: ``circle_rights.phone_start_in``)."""
        choice = self.circle.data or ""
        if choice.isascii() and choice.isdigit():
            return int(choice)
        return NEW_CIRCLE if choice == NEW_CIRCLE else None

    def seat_fields(self) -> list[Field]:
        """The name fields in seating order (one per possible seat, most left empty)."""
        return [self[seat_field_name(row)] for row in range(SEATS)]

    def rounds_chosen(self) -> int:
        """The rounds to play: the count entered, or one per player named (R11)."""
        if self.one_round_each.data:
            return rounds_one_per_player(len(self.seat_names()))
        return int(self.rounds.data)

    def seat_names(self) -> list[str]:
        """The names entered, in seating order, empty fields left out."""
        return [name for _row, name in self.filled_rows()]

    def filled_rows(self) -> list[tuple[int, str]]:
        """(row, name) for each name field that holds a name, cleaned as it will be stored
        (``companion.data.names``: compatibility forms made plain, spaces collapsed)."""
        rows = []
        for row, field in enumerate(self.seat_fields()):
            name = clean_name(field.data or "")
            if name:
                rows.append((row, name))
        return rows

    def chosen_variant(self) -> Variant:
        """The preset picked, or the three custom settings."""
        if self.variant.data == CUSTOM:
            return variant_from_settings(self.scoring.data, self.colours.data, self.reveal.data)
        return PRESETS[self.variant.data]

    def first_leader_seat(self) -> int:
        """The first leader as a seat among the players entered (empty rows skipped)."""
        rows = [row for row, _name in self.filled_rows()]
        return rows.index(self.first_leader.data)

    def validate(self, extra_validators: Any = None) -> bool:
        """Field checks, then the checks that need several fields at once."""
        checks = [
            super().validate(extra_validators),
            self._check_names(),
            self._check_player_count(),
            self._check_first_leader(),
        ]
        return all(checks)

    def _check_names(self) -> bool:
        """Each name free of invisible and control characters, at most 40 characters, and
        each player once, case and compatibility forms aside ("Ａｎｎ" is "Ann")."""
        valid = True
        seen: dict[str, int] = {}
        for row, name in self.filled_rows():
            field = self.seat_fields()[row]
            problem = name_character_problem(field.data or "")
            if problem is not None:
                field.errors.append(gettext(problem))
                valid = False
            elif len(name) > MAX_NAME_LENGTH:
                field.errors.append(
                    gettext(
                        "A name has at most %(most)s characters; this one has %(count)s.",
                        most=MAX_NAME_LENGTH,
                        count=len(name),
                    )
                )
                valid = False
            elif name_key(name) in seen:
                field.errors.append(
                    gettext(
                        "%(name)s already sits at seat %(seat)s.",
                        name=name,
                        seat=seen[name_key(name)] + 1,
                    )
                )
                valid = False
            else:
                seen[name_key(name)] = row
        return valid

    def _check_player_count(self) -> bool:
        """R2: 3 to 8 players; R17: Hat Trick 4 to 7."""
        count = len(self.filled_rows()) + self._names_beyond_the_seats()
        hat_trick = self.variant.data == HAT_TRICK
        if PRESETS[HAT_TRICK if hat_trick else CLASSIC].can_seat(count):
            return True
        if hat_trick:
            message = gettext(
                "Hat Trick is played by 4 to 7 players; you entered %(count)s.", count=count
            )
        else:
            message = gettext(
                "Sticheln is played by 3 to 8 players; you entered %(count)s.", count=count
            )
        self.add_players_error(message)
        return False

    def _names_beyond_the_seats(self) -> int:
        """Names sent for rows past the eighth (only a hand-made request has them): they
        count, so nine names are refused rather than one player silently dropped."""
        if not self.is_submitted():
            return 0
        extra = 0
        for key, value in request.form.items():
            row = key.removeprefix("player_")
            if row != key and row.isdigit() and int(row) >= SEATS and value.strip():
                extra += 1
        return extra

    def _check_first_leader(self) -> bool:
        """R3: the first leader must be one of the players entered."""
        rows = [row for row, _name in self.filled_rows()]
        if self.first_leader.data in rows:
            return True
        self.first_leader.errors = [
            *self.first_leader.errors,
            gettext(
                "Nobody sits at seat %(seat)s; choose one of the players entered.",
                seat=(self.first_leader.data or 0) + 1,
            ),
        ]
        return False

    def add_players_error(self, message: str) -> None:
        """An error about the players as a whole, shown above the name fields."""
        self.player_count_errors.append(message)


def seat_field_name(row: int) -> str:
    """The name field of row ``row`` (0-based, as seats are in the code)."""
    return f"player_{row}"


for _row in range(SEATS):
    setattr(
        NewGameForm, seat_field_name(_row), StringField(render_kw={"maxlength": MAX_NAME_LENGTH})
    )


class ConfirmForm(FlaskForm):  # type: ignore[misc]
    """Abandon or delete: the version the player saw, so a stale page changes nothing."""

    version = HiddenField()
    submit = SubmitField()

    def seen_version(self) -> int:
        """The version the confirmation page was showing; anything that is no version
        number (a tampered form) counts as stale, so it can never match."""
        try:
            return int(self.version.data)
        except (TypeError, ValueError):
            return -1
