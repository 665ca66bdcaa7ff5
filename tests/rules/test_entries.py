"""The entry shapes answer questions about themselves, so no caller tests their types."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import HAT_TRICK, Card, Colour, table_setup, variant_named
from companion.rules.deck import HAT_TRICK_COLOURS
from companion.rules.entries import (
    DelayedEntry,
    Entry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    MalformedEntry,
    QuickEntry,
    entry_from_json,
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


# --------------------------------------------------------------------------------------------
# Read back from the API's shape: one reading for the API, backups and stored rounds


CARDS = st.builds(Card, st.sampled_from(list(Colour)), st.integers(0, 20))
CARD_LISTS = st.lists(CARDS, max_size=8).map(tuple)
COUNTS = st.integers(0, 60)

ENTRIES: dict[str, st.SearchStrategy[Entry]] = {
    "full": st.builds(FullEntry, st.lists(CARDS, max_size=2).map(tuple), CARD_LISTS),
    "quick": st.builds(QuickEntry, st.lists(CARDS, max_size=2).map(tuple), COUNTS, CARD_LISTS),
    "delayed": st.builds(
        DelayedEntry,
        CARD_LISTS,
        st.none() | st.lists(st.sampled_from(list(Colour)), max_size=2).map(tuple),
    ),
    "hat-trick full": st.builds(HatTrickFullEntry, CARD_LISTS, CARD_LISTS),
    # Hat Trick's counts name every colour of its box (R17), as their API shape does.
    "hat-trick quick": st.builds(
        HatTrickQuickEntry,
        st.fixed_dictionaries({colour: COUNTS for colour in HAT_TRICK_COLOURS}),
        COUNTS,
    ),
}

#: A game of each kind that reads each entry kind (R16 delayed, R17-R22 Hat Trick).
READ_BY = {
    "full": "classic",
    "quick": "classic",
    "delayed": "delayed",
    "hat-trick full": HAT_TRICK,
    "hat-trick quick": HAT_TRICK,
}


@pytest.mark.parametrize("kind", sorted(ENTRIES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_entry_reads_back_from_its_api_shape(kind: str, data: st.DataObject) -> None:
    entry = data.draw(ENTRIES[kind])
    assert type(entry).from_json(entry.as_json()) == entry
    setup = table_setup(4, variant_named(READ_BY[kind]))
    assert entry_from_json(setup, entry.as_json()) == entry


def test_a_quick_entry_is_told_from_a_full_one_by_its_fields() -> None:
    setup = table_setup(4, variant_named("classic"))
    quick = {"marked": [RED_3.as_json()], "tricks": 2, "marked_captured": []}
    assert entry_from_json(setup, quick) == QuickEntry((RED_3,), 2, ())
    full = {"marked": [RED_3.as_json()], "captured": []}
    assert entry_from_json(setup, full) == FullEntry((RED_3,), ())


@pytest.mark.parametrize(
    "data",
    [
        "red-3",
        {"marked": [RED_3.as_json()], "tricks": True, "marked_captured": []},
        {"marked": [RED_3.as_json()], "tricks": 2.0, "marked_captured": []},
        {"marked": [RED_3.as_json()], "tricks": -1, "marked_captured": []},
        {"marked": [RED_3.as_json()], "tricks": 2},
        {"marked": [{"colour": "purple", "value": 3}], "captured": []},
        {"marked": [{"colour": "red"}], "captured": []},
        {"marked": "red 3", "captured": []},
        {"marked": [["red", 3]], "captured": []},
    ],
)
def test_a_malformed_classic_entry_is_refused(data: object) -> None:
    setup = table_setup(4, variant_named("classic"))
    with pytest.raises(MalformedEntry):
        entry_from_json(setup, data)


@pytest.mark.parametrize(
    "data",
    [
        {"counts": {"red": "3"}, "passed": 1},
        {"counts": [3, 1], "passed": 1},
        {"counts": {"pink": 3}, "passed": 1},
        {"captured": []},
    ],
)
def test_a_malformed_hat_trick_entry_is_refused(data: object) -> None:
    setup = table_setup(4, variant_named(HAT_TRICK))
    with pytest.raises(MalformedEntry):
        entry_from_json(setup, data)


def test_a_delayed_choice_names_colours() -> None:
    setup = table_setup(4, variant_named("delayed"))
    with pytest.raises(MalformedEntry):
        entry_from_json(setup, {"captured": [], "choose": ["red", "mauve"]})
