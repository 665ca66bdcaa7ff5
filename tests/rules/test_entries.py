"""The entry shapes answer questions about themselves, so no caller tests their types."""

from __future__ import annotations

import pytest

from companion.rules import Card, Colour
from companion.rules.entries import (
    DelayedEntry,
    Entry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
)

RED_3 = Card(Colour.RED, 3)


@pytest.mark.parametrize(
    ("entry", "quick"),
    [
        (FullEntry((RED_3,), ()), False),
        (QuickEntry((RED_3,), 2, ()), True),
        (DelayedEntry((RED_3,)), False),
        (HatTrickFullEntry((RED_3,), ()), False),
        (HatTrickQuickEntry({Colour.RED: 3}, 1), True),
    ],
)
def test_an_entry_in_short_says_it_is_quick(entry: Entry, quick: bool) -> None:
    assert entry.is_quick is quick
