"""The trick resolver offline (issue 26, point 3): the rules worker applies a tap and tells the
trick as the server's page does, word for word, in every language and trick rule, inside a
game and outside one. Random taps (cards of the deck, cards refused, passes, undo, clear,
settings changed under a trick) go to the real page and to the worker unpacked as on the
phone, and what each says is compared: the trick, every play with its player, card and
badges, who takes it and why, the piles and passes, whose turn it is, the bar, the refusal,
the chips marked in the picker."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.rules import table_setup, variant_named
from scripts.page_reader import read_page
from tests.offline.test_worker_words import LANGUAGES
from tests.offline.worker_run import ask_worker
from tests.table import Table
from tests.tools.tool_helpers import page_text, read_form, tap

SEED = 2026_11_27
TAPS = 6  # in a row, from an empty trick, once in each language per table


def told_by_page(page: str) -> dict[str, Any]:
    """What the resolver page says of its trick, in the worker's shape."""
    root = read_page(page)
    panel = root.find("section", id="trick-panel")
    plays = []
    for item in panel.find("ol", class_="trick-plays").find_all("li", class_="trick-play"):
        plays.append(
            {
                "player": item.find("span", class_="trick-play__player").text,
                "label": item.find("span", class_="chip").get("title"),
                "badges": [
                    (
                        badge.text,
                        badge.classes[1].removeprefix("tool-badge--")
                        if len(badge.classes) > 1
                        else "",
                    )
                    for badge in item.find_all("span", class_="tool-badge")
                ],
            }
        )
    result = panel.find("div", class_="trick-result")
    refusals = panel.find_all("p", class_="trick-refusal")
    hints = root.find_all("p", id="pass-hint")
    notices = panel.find_all("p", class_="tool-notice")
    bars = root.find_all("div", class_="trick-bar")
    played = {
        chip.get("value"): chip.get("aria-label")
        for chip in root.find_all("button", class_="chip--played")
    }
    refused = [chip.get("value") for chip in root.find_all("button", class_="chip--refused")]
    return {
        "trick": read_form(page).values["trick"],
        "pass_hint": hints[0].words() if hints and hints[0].get("hidden") is None else None,
        "count": panel.find("span", class_="trick__count").text,
        "plays": plays,
        "empty": [item.text for item in panel.find_all("li", class_="trick-empty")],
        "refusal": refusals[0].words() if refusals else None,
        "notice": notices[0].words() if notices else None,
        "result": [p.words(joined={"a"}) for p in result.find_all("p")],
        "piles": [item.words(joined={"a"}) for item in result.find_all("li", class_="trick-pile")],
        "bar": bars[0].find("span", class_="trick-bar__text").words() if bars else None,
        "played": played,
        "refused": refused[0] if refused else None,
        "chips": [chip.get("value") for chip in root.find_all("button", class_="chip--tap")],
    }


def words(text: str | None) -> str | None:
    """Words as a reader of the page takes them (any run of spaces is one space)."""
    return " ".join(text.split()) if text is not None else None


def told_by_worker(answer: dict[str, Any], not_added: str, why: str) -> dict[str, Any]:
    """The worker's answer in the same shape, words joined as the page joins them."""
    rows = {row["colour"]: row for row in answer["deck"]}
    chips = {
        c["token"]: f"{c['value']} {r['symbol']} {c['label']}"
        for r in rows.values()
        for c in r["cards"]
    }
    plays = answer["plays"]
    result: list[str] = []
    if plays and answer["hat_trick"] and answer["passes"]:
        result.append(f"{answer['passes']} {answer['pass_cost']}")
    if plays:
        result += [answer["main"], answer["reason"]]
    result.append(answer["next"])
    piles = [
        " ".join(
            [
                f"{rows[pile['colour']]['symbol']} {rows[pile['colour']]['name']}",
                *(chips[token] for token in pile["tokens"]),
                pile["taker"],
            ]
        )
        for pile in answer.get("piles", [])
    ]
    return {
        "trick": answer["trick"],
        "pass_hint": answer["pass_hint"],
        "count": answer["count"],
        "plays": [
            {
                "player": play["player"],
                "label": play["label"],
                "badges": [(badge["text"], badge["kind"]) for badge in play["badges"]],
            }
            for play in plays
        ],
        "empty": [] if plays else [answer["empty"]],
        "refusal": words(f"{not_added} {answer['refusal']}") if answer["refusal"] else None,
        "notice": words(answer["notice"]),
        "result": [words(line) for line in result],
        "piles": [words(pile) for pile in piles],
        "bar": words(f"{answer['bar']} {why}") if plays else None,
        "played": {
            play["token"]: said for play, said in zip(plays, answer["in_trick"], strict=True)
        },
        "refused": answer["refused"],
        "chips": [card["token"] for row in answer["deck"] for card in row["cards"]],
    }


def chip_words(page: str) -> tuple[str, str]:
    """The page's words for "Not added:" and "Why?", which the worker leaves to the page."""
    words = read_page(page).find("form", id="resolver-form").get("data-words")
    assert words
    said = json.loads(words)
    return said["not_added"], said["why"]


def a_tap(
    rng: random.Random, page: str, hat_trick: bool, settings: list[dict[str, str]]
) -> tuple[tuple[str, str], bool, dict[str, str]]:
    """A tap a player could make: mostly a card of the deck (some already in the trick, so
    refused), sometimes a pass, undo, clear, or a change of settings under the trick."""
    form = read_form(page)
    enabled = [(name, value) for name, value, off in form.buttons if not off]
    roll = rng.random()
    if roll < 0.08 and ("undo", "1") in enabled:
        return ("undo", "1"), False, {}
    if roll < 0.12 and ("clear", "1") in enabled:
        return ("clear", "1"), False, {}
    if roll < 0.17 and settings:
        return ("apply", "1"), False, rng.choice(settings)
    cards = [value for name, value in enabled if name == "add"]
    return ("add", rng.choice(cards)), hat_trick and rng.random() < 0.3, {}


def play_sequences(
    client: FlaskClient,
    unpacked: Path,
    address: str,
    body_of: Any,
    hat_trick: bool,
    settings: list[dict[str, str]],
) -> int:
    """Random taps on the page at ``address``, each compared with the worker's answer."""
    rng = random.Random(f"{SEED}{address}")
    asked: list[tuple[str, Any, str]] = []
    seen: list[dict[str, Any]] = []
    words: list[tuple[str, str]] = []
    for language in LANGUAGES:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language  # every tap, as a phone sends
        page = page_text(client.get(address))
        for _ in range(TAPS):
            button, passing, changes = a_tap(rng, page, hat_trick, settings)
            form = read_form(page)
            values = {**form.values, **changes}
            toggled = passing or values.get("pass_next") == "y"  # a pass asked for, as sent
            tapped = {"add": {"add": button[1]}, "undo": {"undo": True}}
            body = {
                **body_of(values),
                "trick": form.values["trick"],
                "pass_next": toggled,
                "tap": tapped.get(button[0], {"clear": True} if button[0] == "clear" else {}),
            }
            page = page_text(tap(client, page, button, passing, **changes))
            asked.append(("tricks/tap", body, language))
            seen.append(told_by_page(page))
            words.append(chip_words(page))
    answers = ask_worker(unpacked, asked)
    for call, answer, page_told, (not_added, why) in zip(asked, answers, seen, words, strict=True):
        assert answer["status"] == 200, (call, answer)
        mine = told_by_worker(answer["body"], not_added, why)
        assert mine == page_told, call
    return len(asked)


@pytest.mark.parametrize(("rule", "players"), [("classic", 4), ("reverse", 6), ("hat-trick", 5)])
def test_outside_a_game_every_trick_rule_is_told_as_the_page_tells_it(
    client: FlaskClient, unpacked: Path, rule: str, players: int
) -> None:
    settings = (
        [{"players": "7"}] if rule == "hat-trick" else [{"players": "3"}, {"variant": "reverse"}]
    )
    taps = play_sequences(
        client,
        unpacked,
        f"/resolve?variant={rule}&players={players}",
        lambda values: {"rule": values["variant"], "players": int(values["players"])},
        rule == "hat-trick",
        settings,
    )
    assert taps == len(LANGUAGES) * TAPS


@pytest.mark.parametrize("variant", ["mild", "reverse", "hat-trick"])
def test_inside_a_game_the_seats_are_named_from_the_chosen_leader(
    client: FlaskClient,
    table: Table,
    unpacked: Path,
    variant: str,
) -> None:
    names = ["Ann", "Zoë", "Ádám", "Léa", "Bo"]
    game = table.new_game(names, variant, rounds=5, first_leader=3)
    setup = table_setup(len(names), variant_named(variant))
    play_sequences(
        client,
        unpacked,
        f"/g/{game['id']}/resolve",
        lambda values: {
            "variant": setup.variant.as_json(),
            "names": names,
            "leader": int(values["leader"]),
        },
        setup.variant.has_passes,
        [{"leader": "0"}, {"leader": "4"}],
    )


def test_a_forged_trick_is_cleared_with_the_page_s_reason(
    client: FlaskClient, unpacked: Path
) -> None:
    """A trick field no page could have sent (an address edited by hand, say)."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de"
    page = page_text(client.get("/resolve?variant=classic&players=4&trick=red-7+purple-3"))
    body = {"rule": "classic", "players": 4, "trick": "red-7 purple-3", "tap": {}}
    [answer] = ask_worker(unpacked, [("tricks/tap", body, "de")])
    not_added, why = chip_words(page)
    assert answer["status"] == 200
    assert told_by_worker(answer["body"], not_added, why) == told_by_page(page)
    assert answer["body"]["trick"] == ""
    assert "purple-3" in answer["body"]["notice"].lower()


def test_settings_the_rules_refuse_are_refused_with_their_reason(unpacked: Path) -> None:
    body = {"rule": "hat-trick", "players": 3, "trick": "", "tap": {}}
    [answer] = ask_worker(unpacked, [("tricks/tap", body, "en")])
    assert answer["status"] == 422
    assert "Hat Trick" in answer["body"]["error"]
