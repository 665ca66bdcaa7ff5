"""Rules messages with a count read right for every count: each has a singular and a plural
form, and the page picks the form of its language through ngettext (issue 17, point 7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from flask import Flask

from companion.read_models.messages import render_message
from companion.rules import RuleError
from companion.rules.checks import check_marked_captures, check_trick_total
from companion.rules.text import Message, ngettext
from tests.rules.helpers import RED, cs

NAMES = ["Ann", "Ben", "Cleo", "Eve"]
RULES = Path(__file__).resolve().parents[2] / "companion" / "rules"


def refusal(check: object, *args: object) -> RuleError:
    """The refusal the rules answer ``check(*args)`` with."""
    with pytest.raises(RuleError) as refused:
        check(*args)  # type: ignore[operator]
    return refused.value


def rendered(app: Flask, language: str, message: Message) -> str:
    """``message`` as a page in ``language`` shows it, with the players' names."""
    with app.test_request_context(headers={"Accept-Language": language}):
        return render_message(message, NAMES)


def too_many_captures(tricks: int) -> Message:
    """C4: Eve lists one marked card more than ``tricks`` tricks of four players hold."""
    cards = cs(", ".join(f"red {value}" for value in range(tricks * 4 + 1)))
    return refusal(check_marked_captures, 3, (RED,), cards, tricks, 4).message


def test_a_c4_refusal_says_trick_for_one_trick_and_tricks_for_two_in_english(app: Flask) -> None:
    one, two = too_many_captures(1), too_many_captures(2)
    assert "5 marked-colour captures, but 1 trick won holds at most 4 cards" in rendered(
        app, "en", one
    )
    assert "9 marked-colour captures, but 2 tricks won hold at most 8 cards" in rendered(
        app, "en", two
    )
    assert "(s)" not in rendered(app, "en", one) + rendered(app, "en", two)
    assert str(one) == rendered(app, "en", one).replace("Eve", "Seat 3")  # the API's English


def test_a_c4_refusal_picks_the_german_form_for_the_count(app: Flask) -> None:
    one = rendered(app, "de", too_many_captures(1))
    two = rendered(app, "de", too_many_captures(2))
    assert one.startswith("Eve gibt 5 gewonnene Karten")
    assert "aber 1 gewonnener Stich enthält höchstens 4 Karten" in one
    assert "aber 2 gewonnene Stiche enthalten höchstens 8 Karten" in two


def test_the_trick_total_says_ist_for_one_missing_trick_and_sind_for_two(app: Flask) -> None:
    one = refusal(check_trick_total, [4, 4, 4, 1], 14).message
    two = refusal(check_trick_total, [4, 4, 4, 0], 14).message
    assert rendered(app, "en", one).endswith(": 1 still to assign (C3).")
    assert rendered(app, "en", two).endswith(": 2 still to assign (C3).")
    assert rendered(app, "de", one).endswith(": 1 ist noch zu verteilen (C3).")
    assert rendered(app, "de", two).endswith(": 2 sind noch zu verteilen (C3).")


def test_c4_with_no_trick_won_names_the_card_without_counting_zero_tricks(app: Flask) -> None:
    message = refusal(check_marked_captures, 3, (RED,), cs("red 3"), 0, 4).message
    assert rendered(app, "en", message) == (
        "Eve won no trick, so red 3 cannot be among their marked-colour captures (C4)."
    )
    assert rendered(app, "de", message).startswith("Eve hat keinen Stich gewonnen")


def test_a_plural_message_renders_in_english_without_a_catalogue() -> None:
    """The rules alone (the API's English) pick the singular for exactly one."""
    plural = ngettext("%(count)s card is left", "%(count)s cards are left", 1)
    assert Message.of(plural, {"count": 1}).render() == "1 card is left"
    plural = ngettext("%(count)s card is left", "%(count)s cards are left", 0)
    assert Message.of(plural, {"count": 0}).render() == "0 cards are left"


def test_no_rules_message_hedges_its_plural_with_s_in_brackets() -> None:
    """Every count in a rules sentence goes through ngettext: no "trick(s)" is left."""
    keywords = {**DEFAULT_KEYWORDS, "N_": None}
    found = extract_from_dir(str(RULES), [("**.py", "python")], keywords=keywords)
    messages = [text for _, _, message, _, _ in found for text in _forms(message)]
    assert any("%(tricks)s tricks won hold" in text for text in messages)  # a plural, found
    assert [text for text in messages if "(s)" in text] == []


def _forms(message: str | tuple[str, ...]) -> tuple[str, ...]:
    return (message,) if isinstance(message, str) else message
