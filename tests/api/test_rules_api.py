"""The rules endpoints answer the exact shapes of docs/api.md, for every player
count and variant."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from flask.testing import FlaskClient

#: Its tests' bodies run no statement on the app's database (tests/conftest.py checks).
pytestmark = pytest.mark.no_database_queries

CLASSIC_FAMILY = ["classic", "mild", "reverse", "aggravated", "hazy", "delayed"]
FIVE = ["green", "brown", "red", "blue", "yellow"]

# R2 per player count: (colours, highest value, size, hand, left out); tricks follow R5.
R2_TABLE = {
    3: (FIVE, 8, 45, 15, 0),
    4: (FIVE, 11, 60, 15, 0),
    5: (FIVE, 14, 75, 15, 0),
    6: ([*FIVE, "violet"], 14, 90, 15, 0),
    7: ([*FIVE, "violet"], 17, 108, 15, 3),
    8: ([*FIVE, "violet"], 18, 114, 14, 2),
}
# R5, R14, R16: cards each player lays out per preset.
LAID_OUT = {"classic": 1, "mild": 1, "reverse": 1, "aggravated": 2, "hazy": 1, "delayed": 0}
SETTINGS = {
    "classic": ("classic", 1, "open"),
    "mild": ("mild", 1, "open"),
    "reverse": ("reverse", 1, "open"),
    "aggravated": ("classic", 2, "open"),
    "hazy": ("classic", 1, "hazy"),
    "delayed": ("classic", 1, "delayed"),
}


def card(colour: str, value: int) -> dict[str, Any]:
    return {"colour": colour, "value": value}


@pytest.mark.parametrize(
    ("players", "preset"),
    list(itertools.product(R2_TABLE, CLASSIC_FAMILY)),
    ids=lambda v: str(v),
)
def test_setup_answers_the_r2_deck_and_tricks_for_every_classic_table(
    client: FlaskClient, players: int, preset: str
) -> None:
    colours, top, size, hand, left_out = R2_TABLE[players]
    scoring, marked, reveal = SETTINGS[preset]
    answer = client.get(f"/api/v1/setup?players={players}&variant={preset}")
    assert answer.status_code == 200
    assert answer.json == {
        "players": players,
        "variant": {"game": "classic", "scoring": scoring, "colours": marked, "reveal": reveal},
        "deck": {"colours": colours, "min_value": 0, "max_value": top, "size": size},
        "hand_size": hand,
        "left_out": left_out,
        "tricks_per_round": hand - LAID_OUT[preset],
    }


@pytest.mark.parametrize(
    ("players", "low", "hand"), [(4, 1, 15), (5, 1, 12), (6, 1, 10), (7, 0, 9)]
)
def test_setup_answers_the_r17_hat_trick_deck(
    client: FlaskClient, players: int, low: int, hand: int
) -> None:
    answer = client.get(f"/api/v1/setup?players={players}&variant=hat-trick")
    assert answer.json == {
        "players": players,
        "variant": {"game": "hat-trick"},
        "deck": {
            "colours": ["red", "blue", "green"],
            "min_value": low,
            "max_value": 20,
            "size": 3 * (21 - low),
        },
        "hand_size": hand,
        "left_out": 0,
        "tricks_per_round": hand - 1,  # R18
    }


def test_setup_takes_the_three_settings_instead_of_a_preset(client: FlaskClient) -> None:
    answer = client.get("/api/v1/setup?players=8&scoring=reverse&colours=2&reveal=delayed")
    assert answer.json["variant"] == {
        "game": "classic",
        "scoring": "reverse",
        "colours": 2,
        "reveal": "delayed",
    }
    assert answer.json["tricks_per_round"] == 14  # R16: nothing laid out, 8 players hold 14


def test_setup_defaults_to_the_classic_game(client: FlaskClient) -> None:
    assert client.get("/api/v1/setup?players=3").json["variant"]["scoring"] == "classic"


def resolve(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/v1/tricks/resolve", json=body)
    assert answer.status_code == 200, answer.json
    result: dict[str, Any] = answer.json
    return result


def test_resolve_names_the_highest_trump_and_cites_the_rule(client: FlaskClient) -> None:
    # German guide: yellow 3 led, green 3 trumps; blue 9 then takes it.
    cards = [card("yellow", 3), card("green", 3), card("blue", 9), card("yellow", 8)]
    result = resolve(client, {"variant": "classic", "players": 4, "cards": cards})
    assert result["winner"] == 2
    assert result["card"] == card("blue", 9)
    assert "Blue 9" in result["reason"] and "R8" in result["reason"]


def test_resolve_a_partial_trick_tells_who_is_winning_so_far(client: FlaskClient) -> None:
    # German guide: red 4, red 1, red 7: the trick is with red 7 so far.
    cards = [card("red", 4), card("red", 1), card("red", 7)]
    result = resolve(client, {"variant": "classic", "players": 4, "cards": cards})
    assert (result["winner"], result["card"]) == (2, card("red", 7))


def test_resolve_explains_why_an_off_colour_zero_does_not_trump(client: FlaskClient) -> None:
    cards = [card("red", 4), card("blue", 0), card("green", 0)]
    result = resolve(client, {"variant": "mild", "cards": cards})
    assert result["winner"] == 0
    assert "0 is never a trump" in result["reason"] and "R7" in result["reason"]


def test_resolve_in_reverse_the_lowest_trump_wins(client: FlaskClient) -> None:
    cards = [card("red", 4), card("blue", 9), card("green", 2), card("brown", 0)]
    result = resolve(client, {"variant": "reverse", "players": 4, "cards": cards})
    assert result["card"] == card("green", 2)
    assert "R13" in result["reason"]


def test_resolve_takes_a_variant_object_as_setup_answers_it(client: FlaskClient) -> None:
    variant = client.get("/api/v1/setup?players=5&variant=reverse").json["variant"]
    cards = [card("red", 4), card("blue", 9), card("green", 2)]
    assert resolve(client, {"variant": variant, "cards": cards})["winner"] == 2


def test_resolve_a_hat_trick_trick_with_a_pass(client: FlaskClient) -> None:
    plays = [
        card("red", 15),
        card("blue", 15),
        card("red", 3),
        {"colour": "green", "value": 2, "pass": True},
    ]
    result = resolve(client, {"variant": "hat-trick", "players": 4, "plays": plays})
    assert result["piles"] == [
        {"colour": "red", "winner": 0, "cards": [card("red", 15), card("red", 3)]},
        {"colour": "blue", "winner": 1, "cards": [card("blue", 15)]},
    ]
    assert result["passes"] == [3]
    # R21: equal top cards; the blue pile runs out first, so red 3 decides: its player leads
    # next, though taking no pile, and the red pile's taker stays the winner.
    assert result["winner"] == 0
    assert result["next_leader"] == 2


@pytest.mark.parametrize(
    ("plays", "winner", "next_leader", "deciding"),
    [
        (["red 15", "blue 15", "red 3", "blue 2"], 0, 2, "red 3"),
        (["red 14", "green 14", "green 12", "red 3"], 1, 2, "green 12"),
        (["blue 15", "green 15", "green 4"], 1, 2, "green 4"),
        (["red 15", "red 3", "blue 17"], 2, 2, "blue 17"),
    ],
)
def test_r21_resolve_names_the_deciding_pile_winner_and_the_deciding_cards_player(
    client: FlaskClient, plays: list[str], winner: int, next_leader: int, deciding: str
) -> None:
    """R21's examples; 000: "quello che ha giocato la 2° (o 3, o 4, ecc.) carta più
    elevata comincia la presa seguente"; 002: "celui qui a posé la 2e (ou 3e, ou 4e, etc.)
    carte la plus élevée commence"."""
    body = [card(text.split()[0], int(text.split()[1])) for text in plays]
    result = resolve(client, {"variant": "hat-trick", "players": 4, "plays": body})
    assert result["winner"] == winner
    assert result["next_leader"] == next_leader
    assert deciding in result["reason"] and f"seat {next_leader}" in result["reason"]


def deal_round_robin(
    deck: list[dict[str, Any]], players: int, tricks: list[int]
) -> list[list[Any]]:
    """Split cards into capture piles of ``tricks[seat] * players`` cards each."""
    piles, start = [], 0
    for won in tricks:
        piles.append(deck[start : start + won * players])
        start += won * players
    return piles


def deck_of(client: FlaskClient, players: int, variant: str) -> tuple[list[Any], dict[str, Any]]:
    setup = client.get(f"/api/v1/setup?players={players}&variant={variant}").json
    d = setup["deck"]
    cards = [
        card(colour, value)
        for colour in d["colours"]
        for value in range(d["min_value"], d["max_value"] + 1)
    ]
    return cards, setup


@pytest.mark.parametrize("preset", ["classic", "mild", "reverse", "hazy"])
def test_score_full_and_quick_entries_agree_with_r10_r12_r13(
    client: FlaskClient, preset: str
) -> None:
    # 4 players; indicators red 4, blue 1, green 0, yellow 11; tricks 4, 5, 5, 0.
    cards, setup = deck_of(client, 4, preset)
    indicators = [card("red", 4), card("blue", 1), card("green", 0), card("yellow", 11)]
    rest = [c for c in cards if c not in indicators]
    piles = deal_round_robin(rest, 4, [4, 5, 5, 0])
    full = [
        {"marked": [ind], "captured": pile} for ind, pile in zip(indicators, piles, strict=True)
    ]
    quick = [
        {
            "marked": [ind],
            "tricks": len(pile) // 4,
            "marked_captured": [c for c in pile if c["colour"] == ind["colour"]],
        }
        for ind, pile in zip(indicators, piles, strict=True)
    ]
    scored_full = client.post(
        "/api/v1/rounds/score", json={"variant": preset, "players": 4, "entries": full}
    )
    scored_quick = client.post(
        "/api/v1/rounds/score", json={"variant": preset, "players": 4, "entries": quick}
    )
    assert scored_full.status_code == 200, scored_full.json
    assert scored_full.json["scores"] == scored_quick.json["scores"]
    expected = []
    for ind, pile in zip(indicators, piles, strict=True):
        marked = [ind, *(c for c in pile if c["colour"] == ind["colour"])]
        others = len(pile) + 1 - len(marked)
        per_card = {
            "classic": lambda c: -c["value"],
            "hazy": lambda c: -c["value"],
            "mild": lambda c: -5,
            "reverse": lambda c: c["value"],
        }[preset]
        expected.append(sum(map(per_card, marked)) + others * (-1 if preset == "reverse" else 1))
    assert scored_full.json["scores"] == expected
    entry = scored_full.json["entries"][0]
    assert entry["score"] == expected[0] and entry["colours"] == ["red"]


def test_score_the_rulebook_example_of_r10(client: FlaskClient) -> None:
    # Italian/French/Hungarian rulebooks: indicator red 4; red 2, red 5 and 14 others: 3.
    cards, _ = deck_of(client, 4, "classic")
    others = [c for c in cards if c["colour"] not in ("red", "yellow")][:14]
    seat0 = {
        "marked": [card("red", 4)],
        "tricks": 4,
        "marked_captured": [card("red", 2), card("red", 5)],
    }
    used = [card("red", 4), card("red", 2), card("red", 5), *others]
    rest = [c for c in cards if c not in used and c["colour"] == "yellow"]
    # Seats 1-3 mark yellow 0, 1, 2 and share the remaining 10 tricks: 4, 3, 3.
    entries = [seat0] + [
        {"marked": [rest[i]], "tricks": t, "marked_captured": []} for i, t in enumerate([4, 3, 3])
    ]
    answer = client.post(
        "/api/v1/rounds/score", json={"variant": "classic", "players": 4, "entries": entries}
    )
    assert answer.status_code == 200, answer.json
    assert answer.json["scores"][0] == 3


def test_score_a_delayed_round_proposes_the_best_choice_and_takes_an_override(
    client: FlaskClient,
) -> None:
    cards, setup = deck_of(client, 3, "delayed")
    assert setup["tricks_per_round"] == 15
    # 3 players, 15 tricks: seat 0 takes 5 tricks (15 cards), seat 1 10 tricks, seat 2 none.
    piles = deal_round_robin(cards, 3, [5, 10, 0])
    # seat 0 holds green 0-8 and brown 0-5: brown costs 15 + 9 green = -6; green -36 + 6 = -30.
    entries = [{"captured": piles[0]}, {"captured": piles[1]}, {"captured": []}]
    answer = client.post(
        "/api/v1/rounds/score", json={"variant": "delayed", "players": 3, "entries": entries}
    )
    assert answer.status_code == 200, answer.json
    first = answer.json["entries"][0]
    assert first["colours"] == ["brown"] and first["score"] == -6
    assert first["proposed"] == ["brown"] and first["proposed_score"] == -6
    assert answer.json["scores"][2] == 0  # R16: no card captured scores 0
    entries[0] = {"captured": piles[0], "choose": ["green"]}
    answer = client.post(
        "/api/v1/rounds/score", json={"variant": "delayed", "players": 3, "entries": entries}
    )
    assert answer.json["entries"][0]["colours"] == ["green"]
    assert answer.json["scores"][0] == -30
    assert answer.json["entries"][0]["proposed"] == ["brown"]


def test_score_a_hat_trick_round_full_and_quick(client: FlaskClient) -> None:
    cards, setup = deck_of(client, 4, "hat-trick")
    by_colour = {c: [x for x in cards if x["colour"] == c] for c in ("red", "blue", "green")}
    # Seat 0 is the rulebook example: 9 red, 2 blue, 4 green, 1 pass card -> 1 (R22).
    seat0 = {
        "captured": by_colour["red"][:9] + by_colour["blue"][:2] + by_colour["green"][:4],
        "passed": [by_colour["green"][19]],
    }
    seat1 = {
        "captured": by_colour["red"][9:14] + by_colour["blue"][2:7] + by_colour["green"][4:9],
        "passed": [],
    }
    seat2 = {
        "captured": by_colour["red"][14:15] + by_colour["blue"][7:17] + by_colour["green"][9:10],
        "passed": [by_colour["red"][19]],
    }
    seat3 = {
        "captured": by_colour["blue"][17:19] + by_colour["green"][10:19] + by_colour["red"][15:16],
        "passed": [],
    }
    full = [seat0, seat1, seat2, seat3]
    assert sum(len(s["captured"]) + len(s["passed"]) for s in full) == 4 * setup["tricks_per_round"]
    answer = client.post(
        "/api/v1/rounds/score", json={"variant": "hat-trick", "players": 4, "entries": full}
    )
    assert answer.status_code == 200, answer.json
    assert answer.json["scores"] == [1, -5, 6, 6]
    assert answer.json["entries"][0] == {
        "score": 1,
        "colours": ["red"],
        "counts": {"red": 9, "blue": 2, "green": 4},
        "passed": 1,
    }
    quick = [
        {
            "counts": {
                c: sum(1 for x in s["captured"] if x["colour"] == c)
                for c in ("red", "blue", "green")
            },
            "passed": len(s["passed"]),
        }
        for s in full
    ]
    answer = client.post(
        "/api/v1/rounds/score", json={"variant": "hat-trick", "players": 4, "entries": quick}
    )
    assert answer.json["scores"] == [1, -5, 6, 6]


def hat_quick(red: int, blue: int, green: int, passed: int) -> dict[str, Any]:
    return {"counts": {"red": red, "blue": blue, "green": green}, "passed": passed}


@pytest.mark.parametrize(
    ("entries", "named"),
    [
        # 30 passes, but 14 tricks of 4 allow 14 x 2 = 28 (C5, from R19)
        (
            [hat_quick(0, 0, 0, 10)] * 3 + [hat_quick(13, 13, 0, 0)],
            ["seat 0", "seat 1", "seat 2"],
        ),
        # red 14 with 14 passes: it played no card, so it took no pile (C5, from R20)
        (
            [
                hat_quick(14, 0, 0, 14),
                hat_quick(0, 14, 0, 0),
                hat_quick(0, 0, 14, 0),
                hat_quick(0, 0, 0, 0),
            ],
            ["seat 0"],
        ),
    ],
    ids=["more-passes-than-the-tricks-allow", "face-up-cards-after-passing-every-trick"],
)
def test_score_refuses_a_hat_trick_round_that_cannot_be_played(
    client: FlaskClient, entries: list[dict[str, Any]], named: list[str]
) -> None:
    answer = client.post(
        "/api/v1/rounds/score", json={"variant": "hat-trick", "players": 4, "entries": entries}
    )
    assert answer.status_code == 422, answer.json
    assert "C5" in answer.json["error"]
    assert all(seat in answer.json["error"].lower() for seat in named), answer.json
