"""Strict reading of JSON request bodies into rules values.

JSON is loose (``true`` is not a number here, ``3.0`` is not a count, ``NaN`` is not JSON
at all), so every field is checked for its exact type, and every refusal names the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.rules import (
    CLASSIC,
    HAT_TRICK,
    Card,
    Colour,
    PlainText,
    Refusal,
    RuleError,
    Variant,
    variant_from_settings,
    variant_named,
)
from companion.rules.hat_trick import Play

#: No list in a request names more cards than the box holds (R1).
MAX_CARDS = 120
#: Large enough for any count, small enough that nothing downstream meets a huge number.
MAX_COUNT = 10_000


class ApiError(Refusal):
    """A request the API refuses: 400 for a malformed body, 422 for a rule it breaks. Its
    message is the API's English, said as written (``PlainText``)."""

    def __init__(self, message: str, status: int = 400, state: Mapping[str, object] | None = None):
        super().__init__(PlainText(message))
        self.status = status
        self.state = state  # a conflict's answer also holds the game as it is now


def refusal_status(error: Refusal) -> int:
    """The API's status for a refusal of a request's reading or of the rules (RULES.md section
    7): the request's own for an ``ApiError``; 422 for a well-formed body that breaks a rule;
    400 for a word that names nothing the game knows (no such colour or variant)."""
    if isinstance(error, ApiError):
        return error.status
    broken_rule = isinstance(error, RuleError) and not error.names_nothing_known
    return 422 if broken_rule else 400


#: Digits beyond which a JSON integer is only "too large" (Python refuses to read 4300+).
MAX_DIGITS = 40
TOO_LARGE: int = 10**MAX_DIGITS


def _bounded_int(text: str) -> int:
    """Read a JSON integer; one with too many digits stands for "a number that large"."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        return -TOO_LARGE if text.startswith("-") else TOO_LARGE
    return int(text)


def _refuse_constant(name: str) -> float:
    raise ApiError(f"{name} is not valid JSON; send numbers as plain integers.")


def read_json(raw: bytes) -> dict[str, Any]:
    """The request body as a JSON object, or a clear 400."""
    if not raw.strip():
        raise ApiError("The request body is empty; send a JSON object.")
    try:
        text = raw.decode("utf-8")
        body = json.loads(text, parse_constant=_refuse_constant, parse_int=_bounded_int)
    except ApiError:
        raise
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError("The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ApiError("The request body must be a JSON object.")
    return body


def fields(
    obj: object, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> Mapping[str, Any]:
    """``obj`` as an object holding every required field and nothing unknown."""
    if not isinstance(obj, dict):
        raise ApiError(f"{where} must be a JSON object.")
    missing = [name for name in required if name not in obj]
    if missing:
        raise ApiError(f"{where} is missing the field {_quoted(missing)}.")
    extra = sorted(set(obj) - set(required) - set(optional))
    if extra:
        raise ApiError(f"{where} has the unknown field {_quoted(extra)}.")
    return obj


#: How much of what a client sent a refusal repeats: a field's name or a value is cut at
#: this many characters, and at most this many unknown fields are named (a refusal, which a
#: replay may be answered with, never grows with the request).
SHOWN_LENGTH = 40
SHOWN_FIELDS = 3


def cut(text: str) -> str:
    """``text`` as a refusal repeats it: cut at :data:`SHOWN_LENGTH` characters."""
    return text if len(text) <= SHOWN_LENGTH else text[:SHOWN_LENGTH] + "…"


def _quoted(names: list[str]) -> str:
    quoted = ", ".join(f'"{cut(name)}"' for name in names[:SHOWN_FIELDS])
    more = len(names) - SHOWN_FIELDS
    return quoted if more <= 0 else f"{quoted} and {more} more"


def integer(value: object, where: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """A whole number in ``low..high``; booleans, floats and strings are refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(f"{where} must be a whole number, not {_kind(value)}.")
    if not low <= value <= high:
        shown = value if len(str(abs(value))) <= 12 else "a number that large"
        raise ApiError(f"{where} must be between {low} and {high}, not {shown}.")
    return value


def _kind(value: object) -> str:
    """How JSON would name the type of ``value``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def string(value: object, where: str) -> str:
    """A JSON string."""
    if not isinstance(value, str):
        raise ApiError(f"{where} must be a string, not {_kind(value)}.")
    return value


def boolean(value: object, where: str) -> bool:
    """A JSON boolean (``true``/``false``, not 0/1)."""
    if not isinstance(value, bool):
        raise ApiError(f"{where} must be true or false, not {_kind(value)}.")
    return value


def listing(value: object, where: str, most: int = MAX_CARDS) -> list[Any]:
    """A JSON list of at most ``most`` items."""
    if not isinstance(value, list):
        raise ApiError(f"{where} must be a list, not {_kind(value)}.")
    if len(value) > most:
        raise ApiError(f"{where} holds {len(value)} items; at most {most} are allowed.")
    return value


def colour(value: object, where: str) -> Colour:
    """One of the six colour names."""
    name = string(value, where)
    try:
        return Colour(name)
    except ValueError:
        names = ", ".join(c.value for c in Colour)
        raise ApiError(f'{where} "{cut(name)}" is not a colour; use one of {names}.') from None


def card(value: object, where: str) -> Card:
    """A card object ``{"colour": ..., "value": ...}``; the deck check is the rules' (C1)."""
    return _card_of(fields(value, where, ("colour", "value")), where)


def _card_of(obj: Mapping[str, Any], where: str) -> Card:
    return Card(colour(obj["colour"], f"{where}.colour"), integer(obj["value"], f"{where}.value"))


def cards(value: object, where: str, most: int = MAX_CARDS) -> tuple[Card, ...]:
    """A list of cards."""
    return tuple(card(item, f"{where}[{i}]") for i, item in enumerate(listing(value, where, most)))


def play(value: object, where: str) -> Play:
    """A Hat Trick play: a card with an optional ``"pass": true`` (R19)."""
    obj = fields(value, where, ("colour", "value"), ("pass",))
    passed = boolean(obj.get("pass", False), f"{where}.pass")
    return Play(_card_of(obj, where), passed)


def variant(value: object, where: str = "variant") -> Variant:
    """A preset name or ``{"scoring", "colours", "reveal"}`` (``"game"`` may accompany it,
    as the setup answer shows it), or ``{"game": "hat-trick"}``."""
    if isinstance(value, str):
        return variant_named(value)
    if isinstance(value, dict) and value.get("game") == HAT_TRICK:
        fields(value, where, ("game",))
        return variant_named(HAT_TRICK)
    obj = fields(value, where, ("scoring", "colours", "reveal"), ("game",))
    if "game" in obj and obj["game"] != CLASSIC:
        raise ApiError(f'{where}.game must be "{CLASSIC}" or "{HAT_TRICK}".')
    return variant_from_settings(
        string(obj["scoring"], f"{where}.scoring"),
        integer(obj["colours"], f"{where}.colours", 1, 2),
        string(obj["reveal"], f"{where}.reveal"),
    )


def player_count(value: object, where: str = "players") -> int:
    """A number of players; the rules say which counts each game allows (R2, R17)."""
    return integer(value, where, 0, 100)
