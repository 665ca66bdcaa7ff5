"""The phone's reading of a round form (``companion.play_state.round_fields``, the rules worker's
``rounds/fields``) is the page's: for rounds of random play in every variant and every kind of
form, with fields dropped, emptied, garbled or added as a hand or a tampered page might, the
entries it gives are those the record page reads (``RoundForm``) and stores; the count it fills
in is the one ``fill_implied`` fills (C3, C5), with the same Hat Trick seats at 0 passes; and
what it refuses, naming the seat, the page refuses too (beside the same field, or through the
rules for the few values the API's entries cannot hold)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict
from wtforms import Form

from companion import services
from companion.play_state import round_fields
from companion.play_state.entries import read_entries
from companion.play_state.parse import ApiError
from companion.play_state.round_fields import (
    DELAYED,
    FULL,
    HAT_FULL,
    HAT_QUICK,
    KINDS,
    QUICK,
    SEAT_FIELDS,
    FieldRefused,
    read_round_fields,
)
from companion.rules import Card, TableSetup, round_problems, table_setup, variant_named
from companion.rules.deck import HAT_TRICK_COLOURS
from companion.rules.variants import Reveal, variant_from_settings
from companion.web.games.entry.forms import (
    SEAT_FORMS,
    CardChipsField,
    ChoiceField,
    CountField,
    Kind,
    RoundForm,
)
from tests.games.round_helpers import form_fields, page_of
from tests.offline.requests import CLASSIC_SETTINGS
from tests.rules.helpers import legal_delayed_choices, play_classic_round, play_hat_trick_round
from tests.table import Table

Fields = dict[str, list[str]]

#: Values a hand or a tampered page might send in any field.
ODD_VALUES = [
    "",
    "abc",
    "-1",
    "-999",
    "1000",
    " 3",
    "+2",
    "٣",
    "1_0",
    "2.0",
    "99999999999999999999",
    "0",
    "3",
    "red-7",
    "blue-12",
    "red-99",
    "red-007",
    "pink-3",
    "red-",
    "red-7-7",
    "RED-7",
    "red+blue",
    "red+pink",
    "red+blue+green",
    "blue+blue",
    "x" * 30,
]
#: Fields of the page that are no seat's, or of a seat the table does not have.
OTHER_FIELDS = ["csrf_token", "version", "number", "digest", "action", "s0-captured-tab", "s9-red"]


def token(card: Card) -> str:
    return f"{card.colour.value}-{card.value}"


def tokens(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [token(card) for card in cards]


def setup_for(kind: str, rng: random.Random) -> tuple[Any, TableSetup]:
    """A variant (as the API game state shows it) that offers ``kind``, at a table of a
    random size."""
    if kind in (HAT_QUICK, HAT_FULL):
        variant = variant_named("hat-trick")
        shown: Any = "hat-trick"
    else:
        delayed = kind == DELAYED
        chosen = rng.choice(
            [s for s in CLASSIC_SETTINGS if (s[2] == Reveal.DELAYED.value) == delayed]
        )
        variant = variant_from_settings(*chosen)
        shown = dict(zip(("scoring", "colours", "reveal"), chosen, strict=True))
    return shown, table_setup(rng.choice(list(variant.player_range)), variant)


def legal_fields(kind: str, setup: TableSetup, rng: random.Random) -> Fields:
    """A round of random legal play as the form ``kind`` posts it: ``s<seat>-<field>``,
    a token per tapped chip, a count as its chip's number."""
    fields: Fields = {}
    if kind in (HAT_QUICK, HAT_FULL):
        played = play_hat_trick_round(setup, rng, pass_often=rng.choice([0.0, 0.3]))
        for seat in range(setup.players):
            up, down = played.face_up[seat], played.face_down[seat]
            if kind == HAT_FULL:
                fields[f"s{seat}-captured"] = tokens(up)
                fields[f"s{seat}-passed"] = tokens(down)
                continue
            for colour in HAT_TRICK_COLOURS:
                fields[f"s{seat}-{colour.value}"] = [str(sum(c.colour is colour for c in up))]
            fields[f"s{seat}-passed"] = [str(len(down))]
        return fields
    classic = play_classic_round(setup, rng)
    for seat in range(setup.players):
        marked, captured = classic.indicators[seat], classic.captured[seat]
        if kind == DELAYED:
            fields[f"s{seat}-captured"] = tokens(captured)
            choices = legal_delayed_choices(captured, setup.variant.colours)
            if choices and rng.random() < 0.4:
                picked = sorted(rng.choice(choices), key=lambda colour: colour.value)
                fields[f"s{seat}-choose"] = ["+".join(colour.value for colour in picked)]
            else:
                fields[f"s{seat}-choose"] = [""]  # the select's first option: the proposal
        elif kind == FULL:
            fields[f"s{seat}-marked"] = tokens(marked)
            fields[f"s{seat}-captured"] = tokens(captured)
        else:
            colours = {card.colour for card in marked}
            fields[f"s{seat}-marked"] = tokens(marked)
            fields[f"s{seat}-tricks"] = [str(classic.tricks[seat])]
            own = [card for card in captured if card.colour in colours]
            fields[f"s{seat}-marked_captured"] = tokens(own)
    return fields


def page_form(app: Flask, kind: str, setup: TableSetup, fields: Fields) -> RoundForm:
    """The record page's form, as the page builds it from these posted fields, after it
    filled in the count the others imply and checked every seat's fields."""
    data = MultiDict([(name, value) for name, values in fields.items() for value in values])
    with app.test_request_context("/", method="POST", data=data):
        form = RoundForm.build(Kind(kind), setup, version=0)
        form.fill_implied()
        for seat in form.seats:
            seat.validate()
    return form


def page_reads(form: RoundForm) -> bool:
    """Whether the page read every seat's fields (the rules then judge the round)."""
    return not any(seat.errors for seat in form.seats)


def api_cannot_hold(field: Any) -> bool:
    """A value the page reads but the API's entries cannot hold (the rules refuse it on the
    page): a count below 0, more than two indicator cards or chosen colours."""
    if isinstance(field, CountField):
        return field.data is not None and field.data < 0
    if isinstance(field, CardChipsField):
        return len(field.cards) > round_fields.MOST_COLOURS
    assert isinstance(field, ChoiceField)
    return len(field.colours or ()) > round_fields.MOST_COLOURS


def assert_read_as_the_page_reads(app: Flask, kind: str, setup: TableSetup, fields: Fields) -> str:
    """The reader and the page agree on these fields; answers what happened ("read",
    "implied" or "refused") for the tests to see that each case occurs."""
    form = page_form(app, kind, setup, fields)
    try:
        read = read_round_fields(kind, setup, fields)
    except FieldRefused as refused:
        assert f"Seat {refused.seat + 1}, " in str(refused) and refused.status == 400
        name = refused.field.partition("-")[2]
        assert refused.field == f"s{refused.seat}-{name}"
        field = form.seats[refused.seat][name]
        if not field.errors:  # read by the page: the rules refuse that seat instead
            assert api_cannot_hold(field), (str(refused), fields)
            if page_reads(form):
                problems = round_problems(setup, form.entries())
                assert refused.seat in {problem.seat for problem in problems}
        return "refused"
    assert page_reads(form), ([seat.errors for seat in form.seats], fields)
    mine = [entry.as_json() for entry in read.entries]
    assert mine == [entry.as_json() for entry in form.entries()]
    assert [entry.as_json() for entry in read_entries(mine, setup)] == mine, "the API reads them"
    if read.implied is None:
        assert form.implied is None
        return "read"
    implied = read.implied
    assert form.implied == f"s{implied.seat}-{implied.field}"
    assert form.seats[implied.seat][implied.field].data == implied.value
    assert form.zero_passes == implied.zero_passes
    return "implied"


def mutate(data: st.DataObject, kind: str, setup: TableSetup, fields: Fields) -> None:
    """One mistake of a hand or a tampered page: a field not sent, sent empty, sent with an
    odd value, sent with one more value, or a field no seat has."""
    seat = data.draw(st.integers(0, setup.players - 1), label="seat")
    name = data.draw(st.sampled_from([f.name for f in SEAT_FIELDS[kind]]), label="field")
    key = f"s{seat}-{name}"
    how = data.draw(st.sampled_from(["drop", "drop", "empty", "odd", "another", "other"]))
    if how == "drop":
        fields.pop(key, None)
    elif how == "empty":
        fields[key] = [""]
    elif how == "odd":
        fields[key] = [data.draw(st.sampled_from(ODD_VALUES), label="value")]
    elif how == "another":
        fields[key] = [*fields.get(key, []), data.draw(st.sampled_from(ODD_VALUES))]
    else:
        other = data.draw(st.sampled_from(OTHER_FIELDS), label="other field")
        fields[other] = [data.draw(st.sampled_from(ODD_VALUES), label="its value")]


@pytest.mark.parametrize("kind", KINDS)
@settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_the_phone_reads_a_round_form_as_the_page_reads_it(
    app: Flask, kind: str, data: st.DataObject, seed: int
) -> None:
    rng = random.Random(seed)
    _shown, setup = setup_for(kind, rng)
    fields = legal_fields(kind, setup, rng)
    for _ in range(data.draw(st.integers(0, 3), label="mistakes")):
        mutate(data, kind, setup, fields)
    event(assert_read_as_the_page_reads(app, kind, setup, fields))  # --hypothesis-show-statistics


def open_counts(kind: str) -> list[str]:
    """The counts that are open when not sent (not Hat Trick passes: they start at 0)."""
    return [
        f.name for f in SEAT_FIELDS[kind] if f.holds == round_fields.COUNT and f.default is None
    ]


@pytest.mark.parametrize("kind", [QUICK, HAT_QUICK])
def test_each_count_left_out_is_implied_as_the_page_fills_it(app: Flask, kind: str) -> None:
    """Every count of a legal round left out in turn: the others imply it (C3, C5), both
    fill in the value the round had, and report the same Hat Trick seats at 0 passes."""
    rng = random.Random(f"implied {kind}")
    outcomes = set()
    zero_passes = set()
    for _ in range(6):
        _shown, setup = setup_for(kind, rng)
        fields = legal_fields(kind, setup, rng)
        for name in [n for n in fields if n.partition("-")[2] in open_counts(kind)]:
            left_out = {key: values for key, values in fields.items() if key != name}
            outcomes.add(assert_read_as_the_page_reads(app, kind, setup, left_out))
            read = read_round_fields(kind, setup, left_out)
            assert read.implied is not None and f"s{read.implied.seat}-{read.implied.field}" == name
            assert [str(read.implied.value)] == fields[name], "the count the round had"
            zero_passes.add(read.implied.zero_passes)
    assert outcomes == {"implied"}
    if kind == HAT_QUICK:
        assert len(zero_passes) > 1, "seats at 0 passes are named, and not always the same"


@pytest.mark.parametrize(
    ("kind", "field", "values", "words"),
    [
        (QUICK, "tricks", ["three"], '"three" is not a whole number'),
        (QUICK, "marked", ["red-7", "pink-3"], '"pink-3" is not a card'),
        (FULL, "captured", ["red-"], '"red-" is not a card'),
        (DELAYED, "choose", ["red+pink"], '"red+pink" names no colours'),
        (HAT_QUICK, "green", ["1.5"], '"1.5" is not a whole number'),
        (HAT_QUICK, "passed", [""], "no number was entered"),
        (HAT_FULL, "passed", ["blue-4", "4-blue"], '"4-blue" is not a card'),
    ],
)
def test_an_unreadable_field_is_refused_naming_the_seat_as_the_table_counts(
    app: Flask, kind: str, field: str, values: list[str], words: str
) -> None:
    rng = random.Random(f"{kind} {field}")
    _shown, setup = setup_for(kind, rng)
    fields = legal_fields(kind, setup, rng)
    seat = setup.players - 1
    fields[f"s{seat}-{field}"] = values
    with pytest.raises(ApiError) as refused:
        read_round_fields(kind, setup, fields)
    assert str(refused.value).startswith(f"Seat {setup.players}, ")
    assert words in str(refused.value) and refused.value.status == 400
    assert assert_read_as_the_page_reads(app, kind, setup, fields) == "refused"
    assert page_form(app, kind, setup, fields).seats[seat][field].errors, "the page refuses it"


def test_two_counts_left_out_are_refused_as_missing_as_the_page_refuses_them(app: Flask) -> None:
    rng = random.Random("two open")
    _shown, setup = setup_for(QUICK, rng)
    fields = legal_fields(QUICK, setup, rng)
    del fields["s0-tricks"], fields["s2-tricks"]
    with pytest.raises(ApiError, match="^Seat 1, tricks won: no number was entered"):
        read_round_fields(QUICK, setup, fields)
    form = page_form(app, QUICK, setup, fields)
    assert form.implied is None and form.seats[0]["tricks"].errors


def test_a_kind_of_form_the_game_does_not_offer_is_refused(app: Flask) -> None:
    setup = table_setup(4, variant_named("hat-trick"))
    with pytest.raises(ApiError, match='entered as "hat-quick" or "hat-full", not "quick"'):
        read_round_fields(QUICK, setup, {})
    with pytest.raises(ApiError, match='not "mark"'):
        read_round_fields("mark", table_setup(4, variant_named("classic")), {})


def test_the_page_s_seat_forms_post_the_fields_the_phone_reads() -> None:
    """The fields of each seat form, their order, what each holds and the count a field not
    sent starts at: one list, read by both."""
    holds = {CardChipsField: round_fields.CARDS, CountField: round_fields.COUNT}
    holds[ChoiceField] = round_fields.CHOICE
    for kind in KINDS:
        form: Form = SEAT_FORMS[Kind(kind)]()
        page = [
            (f.short_name, holds[type(f)], f.default if isinstance(f, CountField) else None)
            for f in form
        ]
        assert page == [(f.name, f.holds, f.default) for f in SEAT_FIELDS[kind]], kind


# --------------------------------------------------------------------------------------------
# The real record and correct pages


SEAT_FIELD = re.compile(r"s[0-9]+-")


def in_any_order(read: round_fields.RoundFields) -> list[Any]:
    """The entries read, each list of cards sorted."""
    return [
        {k: sorted(v, key=str) if isinstance(v, list) else v for k, v in entry.items()}
        for entry in read.as_json()["entries"]
    ]


def stored(table: Table, game: dict[str, Any]) -> list[Any]:
    """The entries of every round the server stored, read afresh."""
    with table.app.app_context():
        return [round_.entries for round_ in services.get_game(game["id"]).rounds]


def post_round(table: Table, url: str, page: str, fields: Fields) -> Any:
    """Send the page's form with the seats' fields replaced by ``fields``, as Save does."""
    posted = {k: v for k, v in form_fields(page).items() if not SEAT_FIELD.match(k)}
    posted.update({k: v for k, v in fields.items() if SEAT_FIELD.match(k)})
    posted["action"] = ["save"]
    return table.client.post(url, data=posted)


@pytest.mark.parametrize("seed", range(10))
def test_the_record_and_correct_pages_store_what_the_phone_reads(table: Table, seed: int) -> None:
    """A round posted to the real record page is stored as the phone reads the same fields;
    with a count left out, the page shows the value the phone fills in and saves nothing,
    and saving what the page then shows stores the phone's entries; a correction likewise."""
    kind = KINDS[seed % len(KINDS)]
    rng = random.Random(f"page {seed}")
    shown, setup = setup_for(kind, rng)
    names = [f"P{seat}" for seat in range(setup.players)]
    game = table.new_game(names, shown, rounds=3, edit_here=True)
    mode = "?mode=full" if kind in (FULL, HAT_FULL) else ""
    record = f"/g/{game['id']}/rounds/record{mode}"

    fields = legal_fields(kind, setup, rng)
    read = read_round_fields(kind, setup, fields)
    answer = post_round(table, record, page_of(table.client, record), fields)
    assert answer.status_code == 302, answer.get_data(as_text=True)[:300]
    assert stored(table, game)[0] == read.as_json()["entries"]

    fields = legal_fields(kind, setup, rng)
    counts = [n for n in fields if n.partition("-")[2] in open_counts(kind)]
    if counts:
        fields.pop(rng.choice(counts))
        read = read_round_fields(kind, setup, fields)
        assert read.implied is not None
        answer = post_round(table, record, page_of(table.client, record), fields)
        assert answer.status_code == 200 and len(stored(table, game)) == 1, "not saved"
        page = answer.get_data(as_text=True)
        filled = f"s{read.implied.seat}-{read.implied.field}"
        assert form_fields(page)[filled] == [str(read.implied.value)]
        shown = form_fields(page)  # the chips in the page's order, the implied count tapped
        confirmed = read_round_fields(kind, setup, shown)
        assert confirmed.implied is None and in_any_order(confirmed) == in_any_order(read)
        read = confirmed
        answer = post_round(table, record, page, shown)
    else:
        read = read_round_fields(kind, setup, fields)
        answer = post_round(table, record, page_of(table.client, record), fields)
    assert answer.status_code == 302
    assert stored(table, game)[1] == read.as_json()["entries"]

    correct = f"/g/{game['id']}/rounds/1{mode}"
    fields = legal_fields(kind, setup, rng)
    read = read_round_fields(kind, setup, fields)
    answer = post_round(table, correct, page_of(table.client, correct), fields)
    assert answer.status_code == 302
    assert stored(table, game)[0] == read.as_json()["entries"]


def test_a_refused_field_is_refused_by_the_page_and_nothing_is_saved(table: Table) -> None:
    rng = random.Random("refused page")
    shown, setup = setup_for(QUICK, rng)
    game = table.new_game([f"P{s}" for s in range(setup.players)], shown, edit_here=True)
    record = f"/g/{game['id']}/rounds/record"
    fields = legal_fields(QUICK, setup, rng)
    fields["s1-marked_captured"] = ["violet-77x"]
    with pytest.raises(ApiError, match='^Seat 2, marked-colour cards captured: "violet-77x"'):
        read_round_fields(QUICK, setup, fields)
    answer = post_round(table, record, page_of(table.client, record), fields)
    assert answer.status_code == 422 and stored(table, game) == []


@pytest.mark.parametrize(
    ("kind", "field", "values"),
    [
        (QUICK, "tricks", ["-1"]),
        (HAT_QUICK, "red", ["-2"]),
        (FULL, "marked", ["red-1", "blue-1", "green-1"]),
        (DELAYED, "choose", ["red+blue+green"]),
    ],
)
def test_what_the_page_leaves_to_the_rules_but_no_entry_holds_is_refused_naming_the_seat(
    app: Flask, kind: str, field: str, values: list[str]
) -> None:
    """A count below 0, or more than two indicators or colours chosen: the page reads them
    and its rules refuse the seat (C2, C3, C5, R16); the API's entries cannot hold them, so
    the phone refuses the same seat when it reads the form."""
    rng = random.Random(f"{kind} stricter")
    _shown, setup = setup_for(kind, rng)
    fields = legal_fields(kind, setup, rng)
    fields[f"s1-{field}"] = values
    with pytest.raises(FieldRefused, match="^Seat 2, ") as refused:
        read_round_fields(kind, setup, fields)
    assert refused.value.field == f"s1-{field}"
    form = page_form(app, kind, setup, fields)
    assert page_reads(form), "the page reads the field"
    assert 1 in {problem.seat for problem in round_problems(setup, form.entries())}
    assert assert_read_as_the_page_reads(app, kind, setup, fields) == "refused"
