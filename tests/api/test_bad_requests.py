"""Every kind of bad request to the rules endpoints is refused, never answered with a 500.

The JSON API (docs/api.md): a malformed body answers 400, a well-formed body that breaks a rule
answers 422 (C1-C5, R2, R14, R16, R17, R19), an oversized body 413, a wrong method 405
and an unknown API path 404, always as exactly ``{"error": "<one sentence>"}`` naming the
field, seat, card or value at fault.

The rule-breaking cases start from a complete legal request built here from the deck of
``companion.rules.table_setup`` (asserted to answer 200 first), then change exactly one thing,
so each case proves that this one change is what the API refuses.
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion import create_app
from companion.rules import (
    Card,
    ClassicVariant,
    Variant,
    table_setup,
    variant_from_settings,
    variant_named,
)

RESOLVE = "/api/v1/tricks/resolve"
SCORE = "/api/v1/rounds/score"
SETUP = "/api/v1/setup"
POST_ENDPOINTS = [RESOLVE, SCORE]

#: Stands for a 5000-digit number: Python's json refuses to write one, so the request text
#: gets the digits in place of this marker (see :func:`encode`).
HUGE_5000 = 31415926535897932384626433832795
HUGE_5000_DIGITS = "9" * 5000

Body = dict[str, Any]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    """One app for the whole module, configured as ``tests/conftest.py`` does (CSRF on, an
    in-memory database, a temporary instance folder): the rules endpoints keep no state,
    and building an app per case would make these few hundred cases slow."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
        },
        instance_path=str(tmp_path_factory.mktemp("instance")),
    )
    return app.test_client()


# --------------------------------------------------------------------------------------------
# Requests and answers


def card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


def name(item: dict[str, Any]) -> str:
    """How an error sentence names a card: "red 12"."""
    return f"{item['colour']} {item['value']}"


def encode(body: Any) -> bytes:
    """The request text of ``body`` (bytes are sent as they are)."""
    if isinstance(body, bytes):
        return body
    return json.dumps(body).replace(str(HUGE_5000), HUGE_5000_DIGITS).encode()


def post(client: FlaskClient, path: str, body: Any) -> TestResponse:
    return client.post(path, data=encode(body), content_type="application/json")


def error_of(response: TestResponse) -> str:
    """The error sentence of a refusal, after checking the answer is exactly
    ``{"error": "<one sentence>"}`` served as JSON."""
    text = response.get_data(as_text=True)
    assert response.mimetype == "application/json", (response.status_code, text[:300])
    answer = json.loads(text)
    assert isinstance(answer, dict), text[:300]
    assert list(answer) == ["error"], text[:300]
    message = answer["error"]
    assert isinstance(message, str), text[:300]
    assert message.strip(), "the error sentence is empty"
    assert "\n" not in message, message
    assert message.rstrip().endswith("."), f"not one sentence: {message!r}"
    return message


def assert_refused(response: TestResponse, status: int, *fragments: str) -> str:
    """``response`` refuses with ``status`` and a sentence naming every fragment."""
    assert response.status_code == status, (
        f"expected {status}, got {response.status_code}: {response.get_data(as_text=True)[:300]}"
    )
    message = error_of(response)
    for fragment in fragments:
        assert fragment.lower() in message.lower(), f"{fragment!r} is not named in {message!r}"
    return message


def assert_accepted(response: TestResponse) -> dict[str, Any]:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    answer = response.get_json()
    assert isinstance(answer, dict)
    return answer


# --------------------------------------------------------------------------------------------
# Complete legal requests, built from the rules' own deck


def variant_of(variant: str | dict[str, Any]) -> Variant:
    if isinstance(variant, str):
        return variant_named(variant)
    return variant_from_settings(variant["scoring"], variant["colours"], variant["reveal"])


def deck_of(players: int, variant: str | dict[str, Any]) -> list[dict[str, Any]]:
    """The cards of ``companion.rules.table_setup(players, variant).deck``, as JSON."""
    return [as_json(c) for c in table_setup(players, variant_of(variant)).deck]


def as_json(c: Card) -> dict[str, Any]:
    return {"colour": c.colour.value, "value": c.value}


def tricks_round_robin(pool: list[dict[str, Any]], players: int, tricks: int) -> list[list[Any]]:
    """Deal ``tricks`` tricks of one card per player from ``pool``: trick t goes to seat
    t mod players, so every seat's captures are whole tricks (C3)."""
    assert len(pool) >= tricks * players
    captured: list[list[Any]] = [[] for _ in range(players)]
    for trick in range(tricks):
        captured[trick % players].extend(pool[trick * players : (trick + 1) * players])
    return captured


def classic_round(
    players: int = 4, variant: str | dict[str, Any] = "classic", quick: bool = False
) -> Body:
    """A complete legal classic-family round for ``/rounds/score``: each seat lays out its
    indicator(s) (seat s marks the deck's colours s and s+1), the left-out cards stay
    unnamed, and the rest is captured trick by trick round-robin. With ``quick``, entries
    give trick counts and only the marked-colour captures; a delayed variant gets
    ``{"captured"}`` entries, seat 0 choosing the first colour(s) it captured (R16)."""
    setup = table_setup(players, variant_of(variant))
    colours = [c.value for c in setup.deck.colours]
    pool = deck_of(players, variant)
    marked: list[list[Any]] = []
    for seat in range(players):
        picks = []
        for k in range(setup.cards_laid_out):
            colour = colours[(seat + k) % len(colours)]
            pick = next(c for c in pool if c["colour"] == colour)
            pool.remove(pick)
            picks.append(pick)
        marked.append(picks)
    pool = pool[: len(pool) - setup.left_out]
    assert len(pool) == setup.tricks_per_round * players
    captured = tricks_round_robin(pool, players, setup.tricks_per_round)
    entries: list[dict[str, Any]] = []
    for seat in range(players):
        if setup.cards_laid_out == 0:
            entries.append({"captured": captured[seat]})
        elif quick:
            colours_marked = {c["colour"] for c in marked[seat]}
            entries.append(
                {
                    "marked": marked[seat],
                    "tricks": len(captured[seat]) // players,
                    "marked_captured": [c for c in captured[seat] if c["colour"] in colours_marked],
                }
            )
        else:
            entries.append({"marked": marked[seat], "captured": captured[seat]})
    if setup.cards_laid_out == 0:
        assert isinstance(setup.variant, ClassicVariant)
        taken = list(dict.fromkeys(c["colour"] for c in captured[0]))
        entries[0]["choose"] = taken[: setup.variant.colours]
    return {"variant": variant, "players": players, "entries": entries}


def hat_trick_round(players: int = 4, quick: bool = False) -> Body:
    """A complete legal Hat Trick round: players x tricks cards dealt trick by trick, and
    seat 1 laid its first card face down as a pass (C5). With ``quick``, the same round as
    counts per colour and a number of passes."""
    setup = table_setup(players, variant_named("hat-trick"))
    pool = deck_of(players, "hat-trick")
    captured = tricks_round_robin(pool, players, setup.tricks_per_round)
    passed: list[list[Any]] = [[] for _ in range(players)]
    passed[1].append(captured[1].pop(0))
    if quick:
        entries: list[dict[str, Any]] = [
            {
                "counts": {
                    colour: sum(1 for c in captured[seat] if c["colour"] == colour)
                    for colour in ("red", "blue", "green")
                },
                "passed": len(passed[seat]),
            }
            for seat in range(players)
        ]
    else:
        entries = [{"captured": captured[seat], "passed": passed[seat]} for seat in range(players)]
    return {"variant": "hat-trick", "players": players, "entries": entries}


def delayed_two_colours() -> Body:
    return classic_round(4, {"scoring": "classic", "colours": 2, "reveal": "delayed"})


def classic_trick() -> Body:
    """A legal complete trick for 4 players: blue 7 is the only trump (R7, R8)."""
    return {
        "variant": "classic",
        "players": 4,
        "cards": [card("red", 5), card("blue", 7), card("red", 9), card("green", 0)],
    }


def three_player_trick() -> Body:
    """A legal complete trick for 3 players (values 0-8, R2)."""
    return {
        "variant": "classic",
        "players": 3,
        "cards": [card("red", 5), card("blue", 7), card("red", 8)],
    }


def settings_trick() -> Body:
    body = classic_trick()
    body["variant"] = {"scoring": "classic", "colours": 1, "reveal": "open"}
    return body


def boxed_trick() -> Body:
    """A legal partial trick without a player count: checked against the whole box."""
    return {"variant": "reverse", "cards": [card("red", 5), card("violet", 18)]}


def hat_trick_plays() -> Body:
    """A legal Hat Trick trick for 4 players: two colours, then a pass showing green (R19)."""
    return {
        "variant": "hat-trick",
        "players": 4,
        "plays": [
            card("red", 10),
            card("blue", 12),
            card("red", 15),
            {"colour": "green", "value": 3, "pass": True},
        ],
    }


def named_cards(body: Body) -> list[dict[str, Any]]:
    """Every card a score request names."""
    found = []
    for entry in body["entries"]:
        for field in ("marked", "captured", "marked_captured", "passed"):
            value = entry.get(field)
            if isinstance(value, list):
                found.extend(value)
    return found


def unnamed(body: Body, not_colours: tuple[str, ...] = ()) -> Any:
    """A card of the deck in use, not of ``not_colours``, that the round does not name yet."""
    named = {(c["colour"], c["value"]) for c in named_cards(body)}
    return next(
        c
        for c in deck_of(body["players"], body["variant"])
        if (c["colour"], c["value"]) not in named and c["colour"] not in not_colours
    )


# --------------------------------------------------------------------------------------------
# Changes, each breaking exactly one thing; they answer what the error must also name


Change = Callable[[Body], tuple[str, ...]]


def at(body: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        body = body[step]
    return body


def set_to(path: tuple[Any, ...], value: Any) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        at(body, path[:-1])[path[-1]] = copy.deepcopy(value)
        return ()

    return change


def delete(path: tuple[Any, ...]) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        del at(body, path[:-1])[path[-1]]
        return ()

    return change


def rename(path: tuple[Any, ...], new: str) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        parent = at(body, path[:-1])
        parent[new] = parent.pop(path[-1])
        return ()

    return change


def append(path: tuple[Any, ...], value: Any) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        at(body, path).append(copy.deepcopy(value))
        return ()

    return change


def copy_card(source: tuple[Any, ...], target: tuple[Any, ...]) -> Change:
    """Name the card at ``source`` a second time, at ``target``."""

    def change(body: Body) -> tuple[str, ...]:
        named = copy.deepcopy(at(body, source))
        at(body, target[:-1])[target[-1]] = named
        return (name(named),)

    return change


def replace_card(path: tuple[Any, ...], colour: str, value: int) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        at(body, path[:-1])[path[-1]] = card(colour, value)
        return (f"{colour} {value}",)

    return change


def drop_last_captured(seat: int, count: int = 1) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        del body["entries"][seat]["captured"][-count:]
        return ()

    return change


def add_tricks(seat: int, delta: int) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        body["entries"][seat]["tricks"] += delta
        return ()

    return change


def second_indicator_unnamed(seat: int) -> Change:
    """Lay out a second indicator (a left-out card, so no card is named twice)."""

    def change(body: Body) -> tuple[str, ...]:
        entry = body["entries"][seat]
        extra = unnamed(body, not_colours=(entry["marked"][0]["colour"],))
        entry["marked"].append(extra)
        return ()

    return change


def indicators_of_one_colour(seat: int) -> Change:
    """Aggravated: swap the seat's second indicator with a captured card of its first
    indicator's colour, so both indicators share a colour and every count still adds up."""

    def change(body: Body) -> tuple[str, ...]:
        entry = body["entries"][seat]
        first, second = entry["marked"]
        index = next(i for i, c in enumerate(entry["captured"]) if c["colour"] == first["colour"])
        entry["marked"][1], entry["captured"][index] = entry["captured"][index], second
        return (name(entry["marked"][1]),)

    return change


def capture_unmarked_colour(seat: int) -> Change:
    """Quick entry: list a card of a colour the seat did not mark (C4)."""

    def change(body: Body) -> tuple[str, ...]:
        entry = body["entries"][seat]
        extra = unnamed(body, not_colours=tuple(c["colour"] for c in entry["marked"]))
        entry["marked_captured"].append(copy.deepcopy(extra))
        return (name(extra),)

    return change


def give_tricks_away(seat: int, to: int) -> Change:
    """Quick entry: the seat keeps its marked-colour captures but hands its tricks to
    another seat, so the total still adds up but it lists more cards than it won (C4)."""

    def change(body: Body) -> tuple[str, ...]:
        entries = body["entries"]
        assert entries[seat]["marked_captured"], "the seat must list some captures"
        entries[to]["tricks"] += entries[seat]["tricks"]
        entries[seat]["tricks"] = 0
        return ()

    return change


def choose_uncaptured(seat: int) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        entry = body["entries"][seat]
        taken = {c["colour"] for c in entry["captured"]}
        colours = table_setup(body["players"], variant_of(body["variant"])).deck.colours
        missing = next(c.value for c in colours if c.value not in taken)
        entry["choose"] = [missing]
        return (missing,)

    return change


def choose_captured(seat: int, count: int, repeat: bool = False) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        entry = body["entries"][seat]
        taken = list(dict.fromkeys(c["colour"] for c in entry["captured"]))
        entry["choose"] = [taken[0]] * count if repeat else taken[:count]
        return ()

    return change


def move_count(seat: int, colour: str, delta: int) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        body["entries"][seat]["counts"][colour] += delta
        return ()

    return change


def passes_beyond_tricks(seat: int) -> Change:
    """Hat Trick quick entry: the seat shows one pass more than the round has tricks, its
    face-up cards reduced to keep every total right (C5)."""

    def change(body: Body) -> tuple[str, ...]:
        tricks = table_setup(body["players"], variant_named("hat-trick")).tricks_per_round
        entry = body["entries"][seat]
        wanted = tricks + 1
        moved = wanted - entry["passed"]
        for colour in ("red", "blue", "green"):
            take = min(moved, entry["counts"][colour])
            entry["counts"][colour] -= take
            moved -= take
        if moved:  # the seat had too few cards: take the rest from the next seat
            other = body["entries"][(seat + 1) % body["players"]]["counts"]
            for colour in ("red", "blue", "green"):
                take = min(moved, other[colour])
                other[colour] -= take
                moved -= take
        entry["passed"] = wanted
        assert moved == 0
        return (str(wanted),)

    return change


def hoard_every_card(seat: int) -> Change:
    """Hat Trick quick entry: one seat holds 57 face-up cards (each colour within the deck),
    more than 14 tricks x 4 plays can give one player (C5)."""

    def change(body: Body) -> tuple[str, ...]:
        for entry in body["entries"]:
            entry["counts"] = {"red": 0, "blue": 0, "green": 0}
            entry["passed"] = 0
        body["entries"][seat]["counts"] = {"red": 20, "blue": 20, "green": 17}
        return ("57",)

    return change


def move_captured_to_passed(seat: int, count: int) -> Change:
    def change(body: Body) -> tuple[str, ...]:
        entry = body["entries"][seat]
        for _ in range(count):
            entry["passed"].append(entry["captured"].pop())
        return ()

    return change


def hat_trick_passes_first(body: Body) -> tuple[str, ...]:
    """The second player passes while only one colour is in the trick (R19)."""
    body["plays"][1]["pass"] = True
    return (name(body["plays"][1]),)


def many_cards(count: int, key: str = "cards") -> Change:
    values = [card(colour, value) for colour in ("red", "blue") for value in range(1, 8)]

    def change(body: Body) -> tuple[str, ...]:
        body[key] = values[:count]
        return ()

    return change


# --------------------------------------------------------------------------------------------
# The cases: (id, endpoint, legal request, one change, status, words the error must name)


@dataclass(frozen=True)
class Bad:
    id: str
    path: str
    legal: Callable[[], Body]
    change: Change
    status: int
    names: tuple[str, ...] = ()


def full4() -> Body:
    return classic_round(4)


def quick4() -> Body:
    return classic_round(4, quick=True)


def delayed4() -> Body:
    return classic_round(4, "delayed")


def aggravated4() -> Body:
    return classic_round(4, "aggravated")


def hat_full4() -> Body:
    return hat_trick_round(4)


def hat_quick4() -> Body:
    return hat_trick_round(4, quick=True)


def with_players(make: Callable[[], Body], players: int) -> Callable[[], Body]:
    def build() -> Body:
        body = make()
        body["players"] = players
        return body

    return build


RESOLVE_CASES = [
    # structure of the request
    Bad("missing variant", RESOLVE, classic_trick, delete(("variant",)), 400, ("variant",)),
    Bad("missing cards", RESOLVE, classic_trick, delete(("cards",)), 400, ("cards",)),
    Bad("extra top-level field", RESOLVE, classic_trick, set_to(("winner",), 0), 400, ("winner",)),
    Bad("cards is an object", RESOLVE, classic_trick, set_to(("cards",), {}), 400, ("cards",)),
    Bad("cards is null", RESOLVE, classic_trick, set_to(("cards",), None), 400, ("cards",)),
    Bad(
        "card is a string",
        RESOLVE,
        classic_trick,
        set_to(("cards", 1), "blue 7"),
        400,
        ("cards[1]",),
    ),
    Bad(
        "card missing value",
        RESOLVE,
        classic_trick,
        delete(("cards", 1, "value")),
        400,
        ("cards[1]", "value"),
    ),
    Bad(
        "card missing colour",
        RESOLVE,
        classic_trick,
        delete(("cards", 3, "colour")),
        400,
        ("cards[3]", "colour"),
    ),
    Bad(
        "card extra field",
        RESOLVE,
        classic_trick,
        set_to(("cards", 2, "suit"), "hearts"),
        400,
        ("cards[2]", "suit"),
    ),
    Bad(
        "card with pass in the classic game",
        RESOLVE,
        classic_trick,
        set_to(("cards", 2, "pass"), False),
        400,
        ("cards[2]", "pass"),
    ),
    Bad(
        "unknown colour",
        RESOLVE,
        classic_trick,
        set_to(("cards", 0, "colour"), "pink"),
        400,
        ("cards[0].colour", "pink"),
    ),
    Bad(
        "colour capitalised",
        RESOLVE,
        classic_trick,
        set_to(("cards", 0, "colour"), "Red"),
        400,
        ("cards[0].colour", "Red"),
    ),
    Bad(
        "colour is a number",
        RESOLVE,
        classic_trick,
        set_to(("cards", 0, "colour"), 1),
        400,
        ("cards[0].colour",),
    ),
    Bad(
        "negative value",
        RESOLVE,
        classic_trick,
        set_to(("cards", 1, "value"), -1),
        400,
        ("cards[1].value",),
    ),
    # variants
    Bad("unknown variant", RESOLVE, classic_trick, set_to(("variant",), "poker"), 400, ("poker",)),
    Bad(
        "variant capitalised",
        RESOLVE,
        classic_trick,
        set_to(("variant",), "Classic"),
        400,
        ("Classic",),
    ),
    Bad("empty variant", RESOLVE, classic_trick, set_to(("variant",), ""), 400, ("variant",)),
    Bad("variant is a number", RESOLVE, classic_trick, set_to(("variant",), 1), 400, ("variant",)),
    Bad("variant is null", RESOLVE, classic_trick, set_to(("variant",), None), 400, ("variant",)),
    Bad(
        "variant object missing reveal",
        RESOLVE,
        settings_trick,
        delete(("variant", "reveal")),
        400,
        ("variant", "reveal"),
    ),
    Bad(
        "variant object extra field",
        RESOLVE,
        settings_trick,
        set_to(("variant", "trumps"), "none"),
        400,
        ("variant", "trumps"),
    ),
    Bad(
        "variant scoring unknown",
        RESOLVE,
        settings_trick,
        set_to(("variant", "scoring"), "harsh"),
        400,
        ("harsh",),
    ),
    Bad(
        "variant scoring is a number",
        RESOLVE,
        settings_trick,
        set_to(("variant", "scoring"), 1),
        400,
        ("variant.scoring",),
    ),
    Bad(
        "variant colours 0",
        RESOLVE,
        settings_trick,
        set_to(("variant", "colours"), 0),
        400,
        ("variant.colours", "0"),
    ),
    Bad(
        "variant colours 3",
        RESOLVE,
        settings_trick,
        set_to(("variant", "colours"), 3),
        400,
        ("variant.colours", "3"),
    ),
    Bad(
        "variant colours string 2",
        RESOLVE,
        settings_trick,
        set_to(("variant", "colours"), "2"),
        400,
        ("variant.colours",),
    ),
    Bad(
        "variant reveal unknown",
        RESOLVE,
        settings_trick,
        set_to(("variant", "reveal"), "sometimes"),
        400,
        ("sometimes",),
    ),
    Bad(
        "variant game unknown",
        RESOLVE,
        settings_trick,
        set_to(("variant", "game"), "poker"),
        400,
        ("variant.game",),
    ),
    Bad(
        "hat-trick variant object with extra field",
        RESOLVE,
        hat_trick_plays,
        set_to(("variant",), {"game": "hat-trick", "players": 4}),
        400,
        ("variant", "players"),
    ),
    # the deck in use (R1, R2)
    Bad(
        "red 12 with 4 players",
        RESOLVE,
        classic_trick,
        replace_card(("cards", 2), "red", 12),
        422,
    ),
    Bad(
        "red 9 with 3 players",
        RESOLVE,
        three_player_trick,
        replace_card(("cards", 2), "red", 9),
        422,
    ),
    Bad(
        "violet with 5 players",
        RESOLVE,
        with_players(classic_trick, 5),
        replace_card(("cards", 1), "violet", 3),
        422,
    ),
    Bad(
        "brown 19 with no players given",
        RESOLVE,
        boxed_trick,
        replace_card(("cards", 1), "brown", 19),
        422,
    ),
    Bad(
        "red 21 with no players given",
        RESOLVE,
        boxed_trick,
        replace_card(("cards", 0), "red", 21),
        422,
    ),
    Bad(
        "brown 19 with 8 players",
        RESOLVE,
        with_players(classic_trick, 8),
        replace_card(("cards", 3), "brown", 19),
        422,
    ),
    Bad(
        "red 10000 is outside the box",
        RESOLVE,
        boxed_trick,
        replace_card(("cards", 0), "red", 10000),
        422,
    ),
    Bad(
        "red 10001 is beyond any count",
        RESOLVE,
        boxed_trick,
        set_to(("cards", 0, "value"), 10001),
        400,
        ("cards[0].value",),
    ),
    # the trick itself
    Bad(
        "card twice in the trick",
        RESOLVE,
        classic_trick,
        copy_card(("cards", 0), ("cards", 2)),
        422,
        ("twice",),
    ),
    Bad("no card", RESOLVE, classic_trick, set_to(("cards",), []), 422, ("at least one",)),
    Bad(
        "more cards than players",
        RESOLVE,
        three_player_trick,
        append(("cards",), card("yellow", 2)),
        422,
        ("at most 3", "4"),
    ),
    Bad(
        "nine cards with no players given",
        RESOLVE,
        boxed_trick,
        many_cards(9),
        400,
        ("cards", "9"),
    ),
    Bad("2 players", RESOLVE, classic_trick, set_to(("players",), 2), 422, ("players", "2")),
    Bad("9 players", RESOLVE, classic_trick, set_to(("players",), 9), 422, ("players", "9")),
    Bad("0 players", RESOLVE, classic_trick, set_to(("players",), 0), 422, ("players", "0")),
    Bad("-4 players", RESOLVE, classic_trick, set_to(("players",), -4), 400, ("players",)),
    Bad("101 players", RESOLVE, classic_trick, set_to(("players",), 101), 400, ("players",)),
    # Hat Trick (R17, R19)
    Bad(
        "hat trick: missing plays",
        RESOLVE,
        hat_trick_plays,
        delete(("plays",)),
        400,
        ("plays",),
    ),
    Bad(
        "hat trick: cards instead of plays",
        RESOLVE,
        hat_trick_plays,
        rename(("plays",), "cards"),
        400,
        ("plays",),
    ),
    Bad(
        "hat trick: extra top-level field",
        RESOLVE,
        hat_trick_plays,
        set_to(("cards",), []),
        400,
        ("cards",),
    ),
    Bad(
        "hat trick: classic game given plays",
        RESOLVE,
        hat_trick_plays,
        set_to(("variant",), "classic"),
        400,
        ("cards",),
    ),
    Bad(
        "hat trick: a third colour",
        RESOLVE,
        hat_trick_plays,
        delete(("plays", 3, "pass")),
        422,
        ("green 3", "third colour"),
    ),
    Bad(
        "hat trick: the leader passes",
        RESOLVE,
        hat_trick_plays,
        set_to(("plays", 0, "pass"), True),
        422,
        ("leader",),
    ),
    Bad(
        "hat trick: a pass before two colours",
        RESOLVE,
        hat_trick_plays,
        hat_trick_passes_first,
        422,
    ),
    Bad(
        "hat trick: a pass with a trick colour",
        RESOLVE,
        hat_trick_plays,
        set_to(("plays", 3), {"colour": "red", "value": 4, "pass": True}),
        422,
        ("red 4",),
    ),
    Bad(
        "hat trick: pass given as 1",
        RESOLVE,
        hat_trick_plays,
        set_to(("plays", 3, "pass"), 1),
        400,
        ("plays[3].pass",),
    ),
    Bad(
        "hat trick: pass given as yes",
        RESOLVE,
        hat_trick_plays,
        set_to(("plays", 3, "pass"), "yes"),
        400,
        ("plays[3].pass",),
    ),
    Bad(
        "hat trick: pass given as null",
        RESOLVE,
        hat_trick_plays,
        set_to(("plays", 3, "pass"), None),
        400,
        ("plays[3].pass",),
    ),
    Bad(
        "hat trick: passed instead of pass",
        RESOLVE,
        hat_trick_plays,
        rename(("plays", 3, "pass"), "passed"),
        400,
        ("plays[3]", "passed"),
    ),
    Bad(
        "hat trick: play missing value",
        RESOLVE,
        hat_trick_plays,
        delete(("plays", 1, "value")),
        400,
        ("plays[1]", "value"),
    ),
    Bad(
        "hat trick: play is a list",
        RESOLVE,
        hat_trick_plays,
        set_to(("plays", 1), ["blue", 12]),
        400,
        ("plays[1]",),
    ),
    Bad(
        "hat trick: blue 0 with 4 players",
        RESOLVE,
        hat_trick_plays,
        replace_card(("plays", 1), "blue", 0),
        422,
    ),
    Bad(
        "hat trick: blue 0 with 5 players",
        RESOLVE,
        with_players(hat_trick_plays, 5),
        replace_card(("plays", 1), "blue", 0),
        422,
    ),
    Bad(
        "hat trick: blue 0 with 6 players",
        RESOLVE,
        with_players(hat_trick_plays, 6),
        replace_card(("plays", 1), "blue", 0),
        422,
    ),
    Bad(
        "hat trick: yellow is not a hat trick colour",
        RESOLVE,
        with_players(hat_trick_plays, 7),
        replace_card(("plays", 1), "yellow", 3),
        422,
    ),
    Bad(
        "hat trick: red 21",
        RESOLVE,
        hat_trick_plays,
        replace_card(("plays", 0), "red", 21),
        422,
    ),
    Bad(
        "hat trick: 3 players",
        RESOLVE,
        hat_trick_plays,
        set_to(("players",), 3),
        422,
        ("players", "3"),
    ),
    Bad(
        "hat trick: 8 players",
        RESOLVE,
        hat_trick_plays,
        set_to(("players",), 8),
        422,
        ("players", "8"),
    ),
    Bad(
        "hat trick: more plays than players",
        RESOLVE,
        hat_trick_plays,
        append(("plays",), card("blue", 1)),
        422,
        ("at most 4",),
    ),
    Bad(
        "hat trick: eight plays",
        RESOLVE,
        lambda: {k: v for k, v in hat_trick_plays().items() if k != "players"},
        many_cards(8, "plays"),
        400,
        ("plays", "8"),
    ),
    Bad(
        "hat trick: no play",
        RESOLVE,
        hat_trick_plays,
        set_to(("plays",), []),
        422,
        ("at least one",),
    ),
    Bad(
        "hat trick: a card twice",
        RESOLVE,
        hat_trick_plays,
        copy_card(("plays", 0), ("plays", 2)),
        422,
        ("twice",),
    ),
]

SCORE_CASES = [
    # structure of the request
    Bad("missing variant", SCORE, full4, delete(("variant",)), 400, ("variant",)),
    Bad("missing players", SCORE, full4, delete(("players",)), 400, ("players",)),
    Bad("missing entries", SCORE, full4, delete(("entries",)), 400, ("entries",)),
    Bad("extra top-level field", SCORE, full4, set_to(("round",), 1), 400, ("round",)),
    Bad("entries is an object", SCORE, full4, set_to(("entries",), {}), 400, ("entries",)),
    Bad(
        "too few entries",
        SCORE,
        full4,
        delete(("entries", 3)),
        400,
        ("entries", "3", "4 players"),
    ),
    Bad(
        "too many entries",
        SCORE,
        full4,
        append(("entries",), {"marked": [], "captured": []}),
        400,
        ("entries", "5", "4 players"),
    ),
    Bad("entry is a list", SCORE, full4, set_to(("entries", 2), []), 400, ("entries[2]",)),
    Bad(
        "entry missing captured",
        SCORE,
        full4,
        delete(("entries", 1, "captured")),
        400,
        ("entries[1]", "captured"),
    ),
    Bad(
        "entry missing marked",
        SCORE,
        full4,
        delete(("entries", 1, "marked")),
        400,
        ("entries[1]", "marked"),
    ),
    Bad(
        "entry extra field",
        SCORE,
        full4,
        set_to(("entries", 1, "bonus"), 3),
        400,
        ("entries[1]", "bonus"),
    ),
    Bad(
        "captured card extra field",
        SCORE,
        full4,
        set_to(("entries", 1, "captured", 3, "suit"), "hearts"),
        400,
        ("entries[1].captured[3]", "suit"),
    ),
    Bad(
        "indicator missing value",
        SCORE,
        full4,
        delete(("entries", 0, "marked", 0, "value")),
        400,
        ("entries[0].marked[0]", "value"),
    ),
    Bad(
        "captured is a string",
        SCORE,
        full4,
        set_to(("entries", 2, "captured"), "red 1"),
        400,
        ("entries[2].captured",),
    ),
    Bad(
        "unknown colour in captures",
        SCORE,
        full4,
        set_to(("entries", 2, "captured", 0, "colour"), "purple"),
        400,
        ("entries[2].captured[0].colour", "purple"),
    ),
    Bad(
        "three indicators",
        SCORE,
        full4,
        set_to(("entries", 1, "marked"), [card("red", 0), card("blue", 1), card("green", 2)]),
        400,
        ("entries[1].marked",),
    ),
    Bad("unknown variant", SCORE, full4, set_to(("variant",), "hat trick"), 400, ("hat trick",)),
    Bad("2 players", SCORE, full4, set_to(("players",), 2), 422, ("players", "2")),
    Bad("9 players", SCORE, full4, set_to(("players",), 9), 422, ("players", "9")),
    # C1: the deck in use, and every card named once
    Bad(
        "red 12 with 4 players",
        SCORE,
        full4,
        replace_card(("entries", 1, "captured", 0), "red", 12),
        422,
        ("seat 1",),
    ),
    Bad(
        "violet with 5 players",
        SCORE,
        lambda: classic_round(5),
        replace_card(("entries", 2, "captured", 0), "violet", 3),
        422,
        ("seat 2",),
    ),
    Bad(
        "violet indicator with 5 players",
        SCORE,
        lambda: classic_round(5),
        replace_card(("entries", 0, "marked", 0), "violet", 0),
        422,
        ("seat 0",),
    ),
    Bad(
        "red 19 with 8 players",
        SCORE,
        lambda: classic_round(8),
        replace_card(("entries", 7, "captured", 0), "red", 19),
        422,
        ("seat 7",),
    ),
    Bad(
        "brown 19 is outside the box",
        SCORE,
        lambda: classic_round(8),
        replace_card(("entries", 3, "captured", 5), "brown", 19),
        422,
        ("seat 3",),
    ),
    Bad(
        "a card twice within one entry",
        SCORE,
        full4,
        copy_card(("entries", 1, "captured", 0), ("entries", 1, "captured", 1)),
        422,
        ("seat 1", "twice"),
    ),
    Bad(
        "own indicator among own captures",
        SCORE,
        full4,
        copy_card(("entries", 1, "marked", 0), ("entries", 1, "captured", 0)),
        422,
        ("seat 1", "twice"),
    ),
    Bad(
        "indicator of seat 0 captured by seat 2",
        SCORE,
        full4,
        copy_card(("entries", 0, "marked", 0), ("entries", 2, "captured", 0)),
        422,
        ("seat 0", "seat 2"),
    ),
    Bad(
        "mild: a card captured by two seats",
        SCORE,
        lambda: classic_round(6, "mild"),
        copy_card(("entries", 5, "captured", 0), ("entries", 3, "captured", 2)),
        422,
        ("seat 5", "seat 3"),
    ),
    # C2: indicators
    Bad(
        "no indicator",
        SCORE,
        full4,
        set_to(("entries", 1, "marked"), []),
        422,
        ("seat 1", "indicator"),
    ),
    Bad(
        "two indicators with one colour",
        SCORE,
        lambda: classic_round(7),
        second_indicator_unnamed(1),
        422,
        ("seat 1", "indicator"),
    ),
    Bad(
        "aggravated: one indicator",
        SCORE,
        aggravated4,
        delete(("entries", 2, "marked", 1)),
        422,
        ("seat 2", "indicator"),
    ),
    Bad(
        "aggravated: two indicators of the same colour",
        SCORE,
        aggravated4,
        indicators_of_one_colour(2),
        422,
        ("seat 2", "same colour"),
    ),
    # C3: trick counts
    Bad(
        "captures not a multiple of the players",
        SCORE,
        full4,
        drop_last_captured(1),
        422,
        ("seat 1", "multiple", "4"),
    ),
    Bad(
        "a trick missing from the captures",
        SCORE,
        full4,
        drop_last_captured(3, 4),
        422,
        ("13", "14"),
    ),
    Bad(
        "reverse: a trick missing from the captures",
        SCORE,
        lambda: classic_round(3, "reverse"),
        drop_last_captured(0, 3),
        422,
        ("13", "14"),
    ),
    Bad(
        "quick: trick counts sum too low",
        SCORE,
        quick4,
        add_tricks(2, -1),
        422,
        ("13", "14"),
    ),
    Bad(
        "quick: trick counts sum too high",
        SCORE,
        quick4,
        add_tricks(2, +1),
        422,
        ("15", "14"),
    ),
    Bad(
        "quick: a seat wins more tricks than the round has",
        SCORE,
        quick4,
        set_to(("entries", 3, "tricks"), 15),
        422,
        ("seat 3", "15"),
    ),
    Bad(
        "quick: negative tricks",
        SCORE,
        quick4,
        set_to(("entries", 3, "tricks"), -1),
        400,
        ("entries[3].tricks",),
    ),
    Bad(
        "hazy quick: a seat wins more tricks than the round has",
        SCORE,
        lambda: classic_round(5, "hazy", quick=True),
        set_to(("entries", 4, "tricks"), 15),
        422,
        ("seat 4", "15"),
    ),
    # C4: quick entry's marked-colour captures
    Bad(
        "quick: a non-marked colour among marked_captured",
        SCORE,
        quick4,
        capture_unmarked_colour(0),
        422,
        ("seat 0",),
    ),
    Bad(
        "quick: more marked_captured than tricks x players",
        SCORE,
        quick4,
        give_tricks_away(0, 1),
        422,
        ("seat 0", "won no trick"),
    ),
    Bad(
        "quick: another seat's indicator among marked_captured",
        SCORE,
        quick4,
        copy_card(("entries", 1, "marked", 0), ("entries", 0, "marked_captured", 0)),
        422,
        ("seat 1", "seat 0"),
    ),
    Bad(
        "quick: missing marked_captured",
        SCORE,
        quick4,
        delete(("entries", 0, "marked_captured")),
        400,
        ("entries[0]", "marked_captured"),
    ),
    Bad(
        "quick: missing tricks",
        SCORE,
        quick4,
        delete(("entries", 0, "tricks")),
        400,
        ("entries[0]", "tricks"),
    ),
    Bad(
        "quick: also captured",
        SCORE,
        quick4,
        set_to(("entries", 0, "captured"), []),
        400,
        ("entries[0]", "captured"),
    ),
    # R16: delayed
    Bad(
        "delayed: an indicator entry",
        SCORE,
        delayed4,
        set_to(("entries", 0, "marked"), [card("red", 0)]),
        400,
        ("entries[0]", "marked"),
    ),
    Bad(
        "delayed: a quick entry",
        SCORE,
        delayed4,
        set_to(("entries", 1, "tricks"), 4),
        400,
        ("entries[1]", "tricks"),
    ),
    Bad(
        "delayed: choose a colour not captured",
        SCORE,
        delayed4,
        choose_uncaptured(0),
        422,
        ("seat 0",),
    ),
    Bad(
        "delayed: choose two colours with one to mark",
        SCORE,
        delayed4,
        choose_captured(0, 2),
        422,
        ("seat 0", "not 2"),
    ),
    Bad(
        "delayed: choose no colour after capturing some",
        SCORE,
        delayed4,
        choose_captured(0, 0),
        422,
        ("seat 0", "not 0"),
    ),
    Bad(
        "delayed: choose three colours",
        SCORE,
        delayed4,
        choose_captured(0, 3),
        400,
        ("entries[0].choose",),
    ),
    Bad(
        "delayed two colours: a colour chosen twice",
        SCORE,
        delayed_two_colours,
        choose_captured(0, 2, repeat=True),
        422,
        ("seat 0",),
    ),
    Bad(
        "delayed two colours: choose a colour not captured",
        SCORE,
        delayed_two_colours,
        choose_uncaptured(3),
        422,
        ("seat 3",),
    ),
    Bad(
        "delayed: choose an unknown colour",
        SCORE,
        delayed4,
        set_to(("entries", 0, "choose"), ["pink"]),
        400,
        ("entries[0].choose[0]", "pink"),
    ),
    Bad(
        "delayed: choose is a string",
        SCORE,
        delayed4,
        set_to(("entries", 0, "choose"), "green"),
        400,
        ("entries[0].choose",),
    ),
    Bad(
        "delayed: captures not a multiple of the players",
        SCORE,
        delayed4,
        drop_last_captured(2),
        422,
        ("seat 2", "multiple"),
    ),
    # Hat Trick (R17, C1, C5)
    Bad(
        "hat trick: 3 players",
        SCORE,
        hat_full4,
        set_to(("players",), 3),
        422,
        ("players", "3"),
    ),
    Bad(
        "hat trick: 8 players",
        SCORE,
        hat_full4,
        set_to(("players",), 8),
        422,
        ("players", "8"),
    ),
    Bad(
        "hat trick: blue 0 with 4 players",
        SCORE,
        hat_full4,
        replace_card(("entries", 1, "captured", 0), "blue", 0),
        422,
        ("seat 1",),
    ),
    Bad(
        "hat trick: yellow card",
        SCORE,
        hat_full4,
        replace_card(("entries", 2, "captured", 0), "yellow", 5),
        422,
        ("seat 2",),
    ),
    Bad(
        "hat trick: a card captured by two seats",
        SCORE,
        hat_full4,
        copy_card(("entries", 0, "captured", 0), ("entries", 2, "captured", 0)),
        422,
        ("seat 0", "seat 2"),
    ),
    Bad(
        "hat trick: the pass card also captured",
        SCORE,
        hat_full4,
        copy_card(("entries", 1, "passed", 0), ("entries", 1, "captured", 0)),
        422,
        ("seat 1", "twice"),
    ),
    Bad(
        "hat trick: a card missing from the table",
        SCORE,
        hat_full4,
        drop_last_captured(0),
        422,
        ("55", "56"),
    ),
    Bad(
        "hat trick: an indicator entry",
        SCORE,
        hat_full4,
        rename(("entries", 0, "passed"), "marked"),
        400,
        ("entries[0]",),
    ),
    Bad(
        "hat trick: missing passed",
        SCORE,
        hat_full4,
        delete(("entries", 3, "passed")),
        400,
        ("entries[3]", "passed"),
    ),
    Bad(
        "hat trick: passed is a count in a full entry",
        SCORE,
        hat_full4,
        set_to(("entries", 3, "passed"), 0),
        400,
        ("entries[3].passed",),
    ),
    Bad(
        "hat trick quick: counts missing a colour",
        SCORE,
        hat_quick4,
        delete(("entries", 1, "counts", "green")),
        400,
        ("entries[1].counts", "green"),
    ),
    Bad(
        "hat trick quick: counts with an unknown colour",
        SCORE,
        hat_quick4,
        set_to(("entries", 1, "counts", "yellow"), 0),
        400,
        ("entries[1].counts", "yellow"),
    ),
    Bad(
        "hat trick quick: counts with a colour misspelt",
        SCORE,
        hat_quick4,
        rename(("entries", 1, "counts", "blue"), "bleu"),
        400,
        ("entries[1].counts",),
    ),
    Bad(
        "hat trick quick: negative count",
        SCORE,
        hat_quick4,
        set_to(("entries", 1, "counts", "blue"), -1),
        400,
        ("entries[1].counts.blue",),
    ),
    Bad(
        "hat trick quick: negative passes",
        SCORE,
        hat_quick4,
        set_to(("entries", 1, "passed"), -1),
        400,
        ("entries[1].passed",),
    ),
    Bad(
        "hat trick quick: passed is a list",
        SCORE,
        hat_quick4,
        set_to(("entries", 1, "passed"), [card("green", 1)]),
        400,
        ("entries[1].passed",),
    ),
    Bad(
        "hat trick quick: counts is a list",
        SCORE,
        hat_quick4,
        set_to(("entries", 1, "counts"), [5, 4, 4]),
        400,
        ("entries[1].counts",),
    ),
    Bad(
        "hat trick quick: counts and captured",
        SCORE,
        hat_quick4,
        set_to(("entries", 1, "captured"), []),
        400,
        ("entries[1]", "captured"),
    ),
    Bad(
        "hat trick quick: table total too low",
        SCORE,
        hat_quick4,
        move_count(0, "red", -1),
        422,
        ("55", "56"),
    ),
    Bad(
        "hat trick quick: table total too high",
        SCORE,
        hat_quick4,
        move_count(0, "green", +1),
        422,
        ("57", "56"),
    ),
    Bad(
        "hat trick quick: more face-up cards of a colour than the deck has",
        SCORE,
        hat_quick4,
        move_count(0, "red", +20),
        422,
        ("red", "20"),
    ),
    Bad(
        "hat trick quick: more passes than tricks",
        SCORE,
        hat_quick4,
        passes_beyond_tricks(0),
        422,
        ("seat 0", "14"),
    ),
    Bad(
        "hat trick quick: one seat holds more than tricks x players",
        SCORE,
        hat_quick4,
        hoard_every_card(0),
        422,
        ("seat 0", "56"),
    ),
    Bad(
        "hat trick: more pass cards than tricks",
        SCORE,
        lambda: hat_trick_round(7),
        move_captured_to_passed(0, 9),
        422,
        ("seat 0", "9", "8"),
    ),
]


@pytest.mark.parametrize(
    "case",
    RESOLVE_CASES + SCORE_CASES,
    ids=lambda case: f"{case.path.rsplit('/', 1)[-1]}: {case.id}",
)
def test_one_change_to_a_legal_request_is_refused(client: FlaskClient, case: Bad) -> None:
    legal = case.legal()
    assert_accepted(post(client, case.path, legal))
    broken = copy.deepcopy(legal)
    also_named = case.change(broken)
    assert encode(broken) != encode(legal), "the change must change the request"
    assert_refused(post(client, case.path, broken), case.status, *case.names, *also_named)


# --------------------------------------------------------------------------------------------
# Every place a number belongs refuses what is not a whole number, naming the field


@dataclass(frozen=True)
class Slot:
    id: str
    path: str
    legal: Callable[[], Body]
    where: tuple[Any, ...]
    field: str


NUMBER_SLOTS = [
    Slot("trick players", RESOLVE, classic_trick, ("players",), "players"),
    Slot("trick card value", RESOLVE, classic_trick, ("cards", 1, "value"), "cards[1].value"),
    Slot("variant colours", RESOLVE, settings_trick, ("variant", "colours"), "variant.colours"),
    Slot("hat trick players", RESOLVE, hat_trick_plays, ("players",), "players"),
    Slot("hat trick play value", RESOLVE, hat_trick_plays, ("plays", 2, "value"), "plays[2].value"),
    Slot("round players", SCORE, full4, ("players",), "players"),
    Slot(
        "indicator value",
        SCORE,
        full4,
        ("entries", 2, "marked", 0, "value"),
        "entries[2].marked[0].value",
    ),
    Slot(
        "captured value",
        SCORE,
        full4,
        ("entries", 1, "captured", 5, "value"),
        "entries[1].captured[5].value",
    ),
    Slot("quick tricks", SCORE, quick4, ("entries", 2, "tricks"), "entries[2].tricks"),
    Slot(
        "marked_captured value",
        SCORE,
        quick4,
        ("entries", 0, "marked_captured", 0, "value"),
        "entries[0].marked_captured[0].value",
    ),
    Slot(
        "delayed captured value",
        SCORE,
        delayed4,
        ("entries", 3, "captured", 2, "value"),
        "entries[3].captured[2].value",
    ),
    Slot(
        "hat trick captured value",
        SCORE,
        hat_full4,
        ("entries", 1, "captured", 0, "value"),
        "entries[1].captured[0].value",
    ),
    Slot(
        "hat trick count",
        SCORE,
        hat_quick4,
        ("entries", 1, "counts", "red"),
        "entries[1].counts.red",
    ),
    Slot("hat trick passes", SCORE, hat_quick4, ("entries", 3, "passed"), "entries[3].passed"),
]

NOT_WHOLE_NUMBERS = {
    "true": True,
    "false": False,
    "string 4": "4",
    "4.0": 4.0,
    "4.5": 4.5,
    "null": None,
    "list": [],
    "object": {},
    "list of 4": [4],
}


@pytest.mark.parametrize("value", list(NOT_WHOLE_NUMBERS.values()), ids=list(NOT_WHOLE_NUMBERS))
@pytest.mark.parametrize("slot", NUMBER_SLOTS, ids=lambda slot: slot.id)
def test_a_number_field_refuses_every_other_json_type(
    client: FlaskClient, slot: Slot, value: Any
) -> None:
    legal = slot.legal()
    assert_accepted(post(client, slot.path, legal))
    broken = copy.deepcopy(legal)
    at(broken, slot.where[:-1])[slot.where[-1]] = value
    assert_refused(post(client, slot.path, broken), 400, slot.field)


HUGE_SLOTS = [
    slot
    for slot in NUMBER_SLOTS
    if slot.id in ("trick card value", "round players", "quick tricks", "hat trick count")
]
HUGE_NUMBERS = {"10**30": 10**30, "-10**30": -(10**30), "5000 digits": HUGE_5000}


@pytest.mark.parametrize("value", list(HUGE_NUMBERS.values()), ids=list(HUGE_NUMBERS))
@pytest.mark.parametrize("slot", HUGE_SLOTS, ids=lambda slot: slot.id)
def test_a_huge_number_is_refused_naming_the_field(
    client: FlaskClient, slot: Slot, value: int
) -> None:
    legal = slot.legal()
    assert_accepted(post(client, slot.path, legal))
    broken = copy.deepcopy(legal)
    at(broken, slot.where[:-1])[slot.where[-1]] = value
    message = assert_refused(post(client, slot.path, broken), 400, slot.field)
    assert HUGE_5000_DIGITS not in message, "the error must not echo 5000 digits"


# --------------------------------------------------------------------------------------------
# Bodies that are not a JSON object at all


RAW_BODIES = {
    "not JSON": (b"variant=classic&players=4", "JSON"),
    "empty body": (b"", "empty"),
    "only whitespace": (b" \r\n\t ", "empty"),
    "truncated object": (b'{"variant": "classic", "cards": [', "JSON"),
    "single quotes": (b"{'variant': 'classic'}", "JSON"),
    "trailing comma": (b'{"variant": "classic",}', "JSON"),
    "two objects": (b'{"variant": "classic"} {"variant": "classic"}', "JSON"),
    "JSON array": (b'[{"variant": "classic"}]', "object"),
    "JSON number": (b"4", "object"),
    "JSON string": (b'"classic"', "object"),
    "JSON null": (b"null", "object"),
    "JSON true": (b"true", "object"),
    "NaN": (b'{"variant": "classic", "players": NaN, "cards": []}', "NaN"),
    "Infinity": (b'{"variant": "classic", "players": Infinity, "cards": []}', "Infinity"),
    "-Infinity": (b'{"variant": "classic", "players": -Infinity, "cards": []}', "Infinity"),
    "bare NaN": (b"NaN", "NaN"),
    "invalid UTF-8": (b'{"variant": "cl\xffassic", "cards": []}', "JSON"),
    "UTF-16": ('{"variant": "classic"}'.encode("utf-16"), "JSON"),
    "Latin-1 text": ('{"variant": "clässic"}'.encode("latin-1"), "JSON"),
    "deeply nested arrays": (b"[" * 20_000 + b"]" * 20_000, "JSON"),
    "deeply nested objects": (b'{"a":' * 10_000 + b"1" + b"}" * 10_000, "JSON"),
    "deeply nested cards": (
        b'{"variant": "classic", "cards": ' + b"[" * 20_000 + b"]" * 20_000 + b"}",
        "JSON",
    ),
}


@pytest.mark.parametrize(("raw", "words"), list(RAW_BODIES.values()), ids=list(RAW_BODIES))
@pytest.mark.parametrize("path", POST_ENDPOINTS, ids=["resolve", "score"])
def test_a_body_that_is_not_a_json_object_answers_400(
    client: FlaskClient, path: str, raw: bytes, words: str
) -> None:
    assert_refused(post(client, path, raw), 400, words)


@pytest.mark.parametrize("path", POST_ENDPOINTS, ids=["resolve", "score"])
def test_nesting_the_parser_can_follow_is_refused_naming_the_place(
    client: FlaskClient, path: str
) -> None:
    nested: Any = card("red", 1)
    for _ in range(200):
        nested = [nested]
    body = classic_trick() if path == RESOLVE else full4()
    if path == RESOLVE:
        body["cards"][0] = nested
        assert_refused(post(client, path, body), 400, "cards[0]")
    else:
        body["entries"][1]["captured"][0] = nested
        assert_refused(post(client, path, body), 400, "entries[1].captured[0]")


@pytest.mark.parametrize("path", POST_ENDPOINTS, ids=["resolve", "score"])
def test_a_body_over_the_size_limit_answers_413(client: FlaskClient, path: str) -> None:
    big = json.dumps({"variant": "classic", "padding": "x" * 70_000}).encode()
    assert_refused(post(client, path, big), 413, "too large")


@pytest.mark.parametrize("path", POST_ENDPOINTS, ids=["resolve", "score"])
def test_a_declared_length_over_the_limit_answers_413(client: FlaskClient, path: str) -> None:
    answer = client.post(
        path,
        data=b"{}",
        content_type="application/json",
        environ_overrides={"CONTENT_LENGTH": str(1024 * 1024)},
    )
    assert_refused(answer, 413, "too large")


@pytest.mark.parametrize("path", POST_ENDPOINTS, ids=["resolve", "score"])
def test_a_chunked_body_over_the_size_limit_answers_413(client: FlaskClient, path: str) -> None:
    """No Content-Length (chunked transfer, as gunicorn passes it on with
    ``wsgi.input_terminated``): the limit must still answer 413, not read a truncated body."""
    legal = encode(classic_trick() if path == RESOLVE else full4())
    padded = legal + b" " * 100_000
    answer = client.open(
        path,
        method="POST",
        input_stream=io.BytesIO(padded),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert_refused(answer, 413, "too large")


CONTENT_TYPES = [
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data",
    "multipart/form-data; boundary=xyz",
    "application/json; charset=utf-16",
    "",
]


@pytest.mark.parametrize("content_type", CONTENT_TYPES, ids=lambda ct: ct or "none")
@pytest.mark.parametrize("path", POST_ENDPOINTS, ids=["resolve", "score"])
def test_an_odd_content_type_never_yields_a_500(
    client: FlaskClient, path: str, content_type: str
) -> None:
    """The API may read the body whatever the Content-Type says, or refuse it with 415;
    a form or multipart type must not send the body through a form parser into a 500."""
    legal = encode(classic_trick() if path == RESOLVE else full4())
    answer = client.post(path, data=legal, content_type=content_type)
    assert answer.status_code in (200, 415), answer.get_data(as_text=True)[:300]
    if answer.status_code == 415:
        error_of(answer)


# --------------------------------------------------------------------------------------------
# GET /api/v1/setup


SETUP_QUERIES = [
    ("no query", "", 400, ("players",)),
    ("players missing", "variant=classic", 400, ("players",)),
    ("players empty", "players=", 400, ("players",)),
    ("players not a number", "players=four", 400, ("players", "four")),
    ("players decimal", "players=4.0", 400, ("players", "4.0")),
    ("players negative", "players=-4", 400, ("players", "-4")),
    ("players plus sign", "players=%2B4", 400, ("players",)),
    ("players arabic-indic digit", "players=%D9%A4", 400, ("players",)),
    ("players fullwidth digit", "players=%EF%BC%94", 400, ("players",)),
    ("players 10**30", f"players={10**30}", 400, ("players",)),
    ("players 5000 digits", f"players={HUGE_5000_DIGITS}", 400, ("players",)),
    ("players invalid UTF-8", "players=%FF", 400, ("players",)),
    ("2 players", "players=2", 422, ("2",)),
    ("9 players", "players=9", 422, ("9",)),
    ("0 players", "players=0", 422, ("0",)),
    ("hat trick 3 players", "players=3&variant=hat-trick", 422, ("3",)),
    ("hat trick 8 players", "players=8&variant=hat-trick", 422, ("8",)),
    ("unknown variant", "players=4&variant=poker", 400, ("poker",)),
    ("variant empty", "players=4&variant=", 400, ("variant",)),
    ("variant capitalised", "players=4&variant=Mild", 400, ("Mild",)),
    ("colours 0", "players=4&colours=0", 400, ("colours",)),
    ("colours 3", "players=4&colours=3", 400, ("colours",)),
    ("colours not a number", "players=4&colours=two", 400, ("colours",)),
    ("scoring unknown", "players=4&scoring=harsh", 400, ("harsh",)),
    ("reveal unknown", "players=4&reveal=later", 400, ("later",)),
    ("variant and settings", "players=4&variant=mild&colours=2", 400, ("variant", "colours")),
    ("unknown parameter", "players=4&seats=4", 400, ("seats",)),
]


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [case[1:] for case in SETUP_QUERIES],
    ids=[case[0] for case in SETUP_QUERIES],
)
def test_setup_refuses_a_bad_query(
    client: FlaskClient, query: str, status: int, words: tuple[str, ...]
) -> None:
    assert_accepted(client.get(f"{SETUP}?players=4&variant=classic"))
    message = assert_refused(client.get(f"{SETUP}?{query}"), status, *words)
    assert HUGE_5000_DIGITS not in message, "the error must not echo 5000 digits"


# --------------------------------------------------------------------------------------------
# Methods and paths


METHODS = [
    (RESOLVE, "GET"),
    (RESOLVE, "PUT"),
    (RESOLVE, "DELETE"),
    (RESOLVE, "PATCH"),
    (SCORE, "GET"),
    (SCORE, "PUT"),
    (SCORE, "DELETE"),
    (SETUP, "POST"),
    (SETUP, "PUT"),
    (SETUP, "DELETE"),
]


@pytest.mark.parametrize(
    ("path", "method"), METHODS, ids=[f"{method} {path}" for path, method in METHODS]
)
def test_a_wrong_method_answers_405_as_json(client: FlaskClient, path: str, method: str) -> None:
    answer = client.open(path, method=method, data=b"{}", content_type="application/json")
    assert_refused(answer, 405, method)


UNKNOWN_PATHS = [
    "/api/v1/nope",
    "/api/v1/",
    "/api/v1/tricks",
    "/api/v1/tricks/resolve/now",
    "/api/v1/rounds/score/1",
    "/api/v1/SETUP",
]


@pytest.mark.parametrize("path", UNKNOWN_PATHS)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_an_unknown_api_path_answers_404_as_json(
    client: FlaskClient, path: str, method: str
) -> None:
    answer = client.open(path, method=method, data=b"{}", content_type="application/json")
    assert_refused(answer, 404, "no such")
