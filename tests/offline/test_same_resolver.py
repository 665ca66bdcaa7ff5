"""The trick resolver is one page whichever side draws it: for random tricks at every table
the resolver knows (each trick rule at every player count outside a game; every preset at
every table size inside a game, Hat Trick included, with its third-colour passes, R19), the
trick and deck the phone's rules worker renders offline (run as on the phone: the archive
unpacked alone, no Flask, no Babel) after each tap are the very HTML the server's page holds
after the same tap posted as a form, in every language: cards added and refused, passes,
undo, clear, settings changed under a trick, a forged trick cleared."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from companion.rules import variant_named
from companion.rules.variants import HAT_TRICK
from tests.offline.test_worker_words import LANGUAGES
from tests.offline.worker_run import ask_worker
from tests.table import Table
from tests.tools.tool_helpers import page_text, read_form, tap

TAPS = 7  # in a row, from the trick the page opened with
TRICK = '<div class="resolver-trick" id="resolver-trick">'
PRESETS = ["classic", "mild", "reverse", "aggravated", "hazy", "delayed", HAT_TRICK]
#: The resolver's trick rules outside a game, at every player count each allows (R2, R17).
RULES = [
    (rule, players)
    for rule in ("classic", "reverse", HAT_TRICK)
    for players in sorted(variant_named(rule).player_range)
]
GAMES = [
    (name, players) for name in PRESETS for players in sorted(variant_named(name).player_range)
]


def trick_of(page: str) -> str:
    """The trick and deck of a whole resolver page, as the worker renders them."""
    start = page.index(TRICK) + len(TRICK)
    end = page.index("</form>", start)
    inner = page[start:end].rstrip()
    assert inner.endswith("</div>")
    return inner.removesuffix("</div>").strip()


def a_tap(
    rng: random.Random, page: str, hat_trick: bool, settings: list[dict[str, str]]
) -> tuple[tuple[str, str], bool, dict[str, str]]:
    """A tap a player could make: mostly a card of the deck (some already in the trick, so
    refused; in Hat Trick a card of the third colour passes, R19, and now and then a pass is
    asked for with another), sometimes undo, clear, or a change of settings under the trick."""
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
    return ("add", rng.choice(cards)), hat_trick and rng.random() < 0.1, {}


Asked = list[tuple[tuple[str, Any, str], str, str]]


def taps_on_page(
    client: FlaskClient,
    address: str,
    body_of: Any,
    hat_trick: bool,
    settings: list[dict[str, str]],
    language: str,
) -> Asked:
    """Random taps on the page at ``address``: each call the worker is asked for the same
    tap, with the trick and field the server's page holds after it."""
    rng = random.Random(f"same resolver {address} {language}")
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language  # every tap, as a phone sends
    page = page_text(client.get(address))
    asked: Asked = []
    for _ in range(TAPS):
        button, passing, changes = a_tap(rng, page, hat_trick, settings)
        form = read_form(page)
        values = {**form.values, **changes}
        taps = {"add": {"add": button[1]}, "undo": {"undo": True}, "clear": {"clear": True}}
        body = {
            **body_of(values),
            "trick": form.values["trick"],
            "pass_next": passing,
            "tap": taps.get(button[0], {}),
            "root": "",
        }
        page = page_text(tap(client, page, button, passing, **changes))
        call = ("pages/resolver", body, language)
        asked.append((call, trick_of(page), read_form(page).values["trick"]))
    return asked


def same_as_the_server(routed: Path, asked: Asked) -> str:
    """Ask the worker every call at once (one start, as on the phone); each trick it drew
    must be the server's. Answers what was drawn."""
    answers = ask_worker(routed, [call for call, _, _ in asked])
    for (call, server, field), answer in zip(asked, answers, strict=True):
        assert answer["status"] == 200, (call, answer)
        assert answer["body"]["html"].strip() == server, call
        assert answer["body"]["trick"] == field, call
    return "\n".join(server for _, server, _ in asked)


def test_outside_a_game_every_rule_and_table_size_draws_the_server_s_trick(
    client: FlaskClient, routed: Path
) -> None:
    rng = random.Random("same resolver")
    asked: Asked = []
    for index, (rule, players) in enumerate(RULES):
        others = sorted(variant_named(rule).player_range)
        asked += taps_on_page(
            client,
            f"/resolve?variant={rule}&players={players}",
            lambda values: {"rule": values["variant"], "players": int(values["players"])},
            rule == HAT_TRICK,
            [{"players": str(rng.choice(others))}, {"variant": "reverse"}],
            LANGUAGES[index % len(LANGUAGES)],
        )
    shown = same_as_the_server(routed, asked)
    assert "trick-pile" in shown and "trick-play--passed" in shown  # R20, R19 were drawn
    assert "trick-refusal" in shown and "trick-result--complete" in shown


def test_inside_a_game_every_variant_and_table_size_draws_the_server_s_trick(
    client: FlaskClient, table: Table, routed: Path
) -> None:
    rng = random.Random("same resolver in a game")
    asked: Asked = []
    for index, (name, players) in enumerate(GAMES):
        names = [f"P{seat} Ádám" if seat % 2 else f"Léa {seat}" for seat in range(players)]
        game = table.new_game(names, name, rounds=5, first_leader=rng.randrange(players))
        variant = variant_named(name)
        asked += taps_on_page(
            client,
            f"/g/{game['id']}/resolve",
            lambda values, variant=variant, names=names: {
                "variant": variant.as_json(),
                "names": names,
                "leader": int(values["leader"]),
            },
            variant.has_passes,
            [{"leader": str(rng.randrange(players))}],
            LANGUAGES[index % len(LANGUAGES)],
        )
    shown = same_as_the_server(routed, asked)
    assert "Ádám" in shown and "trick-play--passed" in shown


def test_a_forged_trick_is_cleared_with_the_page_s_reason(
    client: FlaskClient, routed: Path
) -> None:
    """A trick field no page could have sent (an address edited by hand, say)."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de"
    page = page_text(client.get("/resolve?variant=classic&players=4&trick=red-7+purple-3"))
    body = {"rule": "classic", "players": 4, "trick": "red-7 purple-3", "tap": {}, "root": ""}
    [answer] = ask_worker(routed, [("pages/resolver", body, "de")])
    assert answer["status"] == 200
    assert answer["body"]["html"].strip() == trick_of(page)
    assert answer["body"]["trick"] == ""
    assert "purple-3" in answer["body"]["html"].lower()


def test_settings_the_rules_refuse_are_refused_with_their_reason(routed: Path) -> None:
    body = {"rule": "hat-trick", "players": 3, "trick": "", "tap": {}}
    [answer] = ask_worker(routed, [("pages/resolver", body, "en")])
    assert answer["status"] == 422
    assert "Hat Trick" in answer["body"]["error"]
