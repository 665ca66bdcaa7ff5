"""The live round is one page whichever side draws it: for random live rounds of every
variant and every table size it allows (Hat Trick with its passes, R19, included), the page
the phone's rules worker draws offline (run as on the phone: the archive unpacked alone, no
Flask, no Babel) from the state the server last sent plus the changes queued on the phone is
the page the server draws, after every tap: mid-trick and at every trick's end, a card
refused, a card or a trick taken back, the round's end and the game's result, in English
and Hungarian, once the CSRF token and what only the server's page carries (its ETag, for
live.js to follow other phones) are set aside.

The server's page is drawn twice: by the live page's own forms, tap by tap (its notes and
refusals), and from the changes the phone queued once they are sent through the API, as the
outbox sends them (the cards of an unfinished trick too, ``PUT .../trick-so-far``)."""

from __future__ import annotations

import gettext
import random
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.play_state.live_taps import live_tap
from companion.rules import table_setup
from companion.rules.variants import Variant
from companion.rules.wording import Reader
from companion.web.offline import kit
from scripts.page_reader import read_page
from tests.games.test_live_pages import page, press, tap
from tests.offline.requests import every_variant
from tests.offline.worker_run import archive, ask_worker
from tests.rules.helpers import play_classic_round, play_hat_trick_round
from tests.table import Table, auth

TRANSLATIONS = Path(__file__).resolve().parents[2] / "companion" / "translations"
CASES = every_variant("other settings, live")
#: Taps after the round is over (its last trick taken back and played again, maybe).
TAPS_AFTER_THE_END = 2
TOKEN = re.compile(r'name="csrf_token" type="hidden" value="[^"]*"')
#: The game's version the forms carry: the phone's queue moves it on once it is sent.
VERSION = re.compile(r'name="version" value="[0-9]+"')
FOLLOWED = re.compile(r' data-poll="[^"]*" data-etag="[^"]*"')


def reader(language: str) -> Reader:
    """The reader the worker makes of ``language`` (its shipped catalogue)."""
    if language == "en":
        return Reader()
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo").open("rb") as file:
        return Reader.of(gettext.GNUTranslations(file), language)


def played_round(
    variant: Variant, players: int, rng: random.Random
) -> tuple[int, list[Any] | None, list[dict[str, Any]]]:
    """A round played out at random: the seat leading its first trick, the indicators laid
    out (None where the variant lays out none), and every card in play order as the API
    takes it (Hat Trick: a play, maybe a pass, R19)."""
    setup = table_setup(players, variant)
    if setup.variant.has_passes:
        played = play_hat_trick_round(setup, rng, pass_often=0.5)
        plays = [dict(play.as_json()) for _, trick in played.tricks for play in trick]
        return played.tricks[0][0], None, plays
    classic = play_classic_round(setup, rng)
    marked = None
    if setup.cards_laid_out:
        marked = [[card.as_json() for card in seat] for seat in classic.indicators]
    cards = [card.as_json() for _, trick, _ in classic.trick_log for card in trick]
    return classic.trick_log[0][0], marked, cards


def chip_of(play: dict[str, Any]) -> str:
    """A card as its chip sends it."""
    return f"{play['colour']}-{play['value']}"


def a_tap(rng: random.Random, live: str, cards: list[str]) -> tuple[str, str | None]:
    """A tap a player could make on ``live``: mostly the next card of the deal, sometimes a
    card out of every hand (refused, C6), a card or a trick taken back."""
    root = read_page(live)
    undo_card = bool(root.find_all("form", class_="live-undo-card"))
    undo_trick = any(f.get("action", "").endswith("/undo-trick") for f in root.find_all("form"))
    roll = rng.random()
    if roll < 0.06 and undo_card:
        return "undo_card", None
    if roll < 0.09 and undo_trick:
        return "undo_trick", None
    chips = root.find_all("button", class_="live-chip")
    out = [c.get("value") for c in chips if c.get("disabled") is not None]
    if roll < 0.13 and out:
        return "card", str(rng.choice(out))
    if cards:
        return "card", cards[0]
    return ("undo_trick" if undo_trick else "undo_card"), None


CALLS = {
    "live": ("post", "/rounds/live"),
    "cards": ("put", "/rounds/{number}/trick-so-far"),
    "trick": ("post", "/rounds/{number}/tricks"),
    "undo": ("delete", "/rounds/{number}/tricks/last"),
    "undo_card": ("delete", "/rounds/{number}/tricks/last/cards/last"),
}


def send(client: FlaskClient, game: dict[str, Any], change: dict[str, Any]) -> None:
    """A queued change sent as the outbox sends it (static/outbox.js), on the game's version."""
    method, path = CALLS[change["action"]]
    url = f"/api/v1/games/{game['id']}" + path.format(number=change.get("number"))
    body = {**change["body"], "version": game["version"]}
    answer = getattr(client, method)(url, json=body, headers=auth(game))
    assert answer.status_code in (200, 201), (change, answer.json)
    game["version"] = answer.json["version"]


def section_of(html: str) -> str:
    """The live round of a whole page (or of the worker's part), what only the server's
    page carries (its ETag), the CSRF token and the game's version in its forms set
    aside."""
    start = html.index('<section class="live')
    end = html.index("\n<script", start) if "\n<script" in html[start:] else len(html)
    shown = TOKEN.sub("TOKEN", FOLLOWED.sub("", html[start:end]))
    return VERSION.sub("VERSION", shown).strip()


@pytest.fixture
def unpacked_with_routes(app: Flask, tmp_path: Path) -> Path:
    """The rules archive as the app serves it (its route map in it), unpacked alone."""
    archive(kit.route_map(app)).extractall(tmp_path)
    return tmp_path


def test_the_worker_draws_the_live_page_the_server_draws_after_every_tap(
    client: FlaskClient, table: Table, unpacked_with_routes: Path
) -> None:
    rng = random.Random("same live page")
    kinds: set[str] = set()
    refusals = notes = 0
    for index, (shown, variant, players) in enumerate(CASES):
        calls: list[tuple[str, Any, str]] = []
        expected: list[str] = []
        language = "hu" if index % 3 == 0 else "en"
        names = [f"Player {seat}" if index % 2 else f"P{seat}" for seat in range(players)]
        leader, marked, plays = played_round(variant, players, rng)
        to_enter = [chip_of(play) for play in plays]
        rounds = rng.choice([1, 2])  # one: the live round ends the game (R11)
        game = table.new_game(names, shown, rounds=rounds, first_leader=leader)
        sent = table.new_game(names, shown, rounds=rounds, first_leader=leader)
        start: dict[str, Any] = {"action": "live", "body": {"version": 0}}
        if marked is not None:
            start["body"]["marked"] = marked
        before = table.state(game)
        send(client, game, start)
        send(client, sent, start)
        # Mostly, most of the round was played with the network before the phone went
        # offline (and maybe a card of the next trick): the phone carries it on from there.
        setup = table_setup(players, variant)
        online = 0
        if index % 26 != 5:  # two rounds played on the phone from their start
            online = max(0, setup.tricks_per_round - rng.randint(1, 2)) * players
            online += rng.randint(0, 1) if online else 0
        field = "plays" if setup.variant.has_passes else "cards"
        made: list[dict[str, Any]] = []
        for first in range(0, online - online % players, players):
            trick = {"version": 0, field: plays[first : first + players]}
            made.append({"action": "trick", "number": 1, "body": trick})
        if online % players:
            cards = {"version": 0, field: plays[online - 1 : online], "was": []}
            made.append({"action": "cards", "number": 1, "body": cards})
        for change in made:
            for played in (game, sent):
                send(client, played, change)
        del to_enter[:online]
        # The phone carries on from the state the server last sent; a hazy round's face-down
        # indicators only the phone that laid them out knows (R15): it opened the round, and
        # went offline after the first tricks were sent, before it kept the game again.
        queued: list[dict[str, Any]] = [start] if not online else []
        kept = table.state(game) if online else before
        if online and setup.variant.hides_marks:
            queued, kept = [start, *made], before
        by_forms = index % 6 == 0  # the live page's own forms too: its notes and refusals
        phone = table.phone(game)
        phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
        sent_phone = table.phone(sent)
        sent_phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
        sent_url = f"/g/{sent['id']}/rounds/1/live"
        live = page(
            phone if by_forms else sent_phone,
            f"/g/{game['id']}/rounds/1/live" if by_forms else sent_url,
        )
        entered = [chip_of(play) for play in plays[:online]]
        after_the_end = 0
        taps = 0
        while after_the_end < TAPS_AFTER_THE_END:
            action, card = a_tap(rng, live, to_enter)
            told = live_tap(
                {"state": kept, "queued": queued, "number": 1, "tap": {action: card or True}},
                reader(language),
            )
            if told["change"] is not None:
                queued.append(told["change"])
                kinds.add(told["change"]["action"])
                send(client, sent, told["change"])
                taken_back = {"card": 0, "undo_card": 1, "undo_trick": players}[action]
                if action == "card":
                    entered.append(to_enter.pop(0))
                elif taken_back:
                    to_enter[:0] = entered[-taken_back:]
                    del entered[-taken_back:]
            else:
                assert told["refusal"], told
            body = {"state": kept, "queued": list(queued), "number": 1, "root": "", "token": "t"}
            if by_forms:
                if action == "card":
                    response = tap(phone, live, str(card))
                else:
                    suffix = "/live/undo-card" if action == "undo_card" else "/live/undo-trick"
                    response = press(phone, live, suffix)
                changed = response.status_code == 302
                assert changed == (told["change"] is not None), (action, told)
                live = (
                    page(phone, response.headers["Location"])
                    if changed
                    else response.get_data(as_text=True)
                )
                # The server's page of this phone's taps, with its notes and refusal.
                said = {key: told[key] for key in ("refusal", "refused", "notes")}
                calls.append(("pages/live", {**body, **said}, language))
                expected.append(section_of(live))
            # The server's page once the queue is sent (no note: none was said there).
            now = page(sent_phone, sent_url)
            live = live if by_forms else now
            calls.append(("pages/live", body, language))
            expected.append(section_of(now).replace(sent["id"], game["id"]))  # the same game
            after_the_end += "live-over" in now
            taps += 1
            assert taps < 400, "the round never ended"
        if by_forms:  # the queue sent makes the round the live page's forms made
            assert table.state(sent)["rounds"] == table.state(game)["rounds"]
        refusals += sum(1 for _, body, _ in calls if body.get("refusal"))
        notes += sum(1 for _, body, _ in calls if body.get("notes"))
        answers = ask_worker(unpacked_with_routes, calls)
        for (_, body, language), answer, server in zip(calls, answers, expected, strict=True):
            assert answer["status"] == 200, answer
            drawn = section_of(answer["body"]["html"])
            assert drawn == server, (shown, players, body["queued"][-1:], language)
    # Every change a live round queues was made, and every kind of tap.
    assert kinds == {"cards", "trick", "undo", "undo_card"}
    assert refusals and notes
