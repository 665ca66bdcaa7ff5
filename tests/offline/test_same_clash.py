"""A change queued on the phone with no network that the server did not take (another phone
changed the game first: 409; or a refusal) is shown on the scoreboard as one page whichever
side draws it: the phone's rules worker (run as on the phone: the archive unpacked alone, no
Flask, no Babel) draws it from the game as the server now has it and the phone's outbox, with
the conflict view's model and template (companion/pages/clash.py,
templates/games/round_clash_view.html), as the server draws the same model with ``url_for``
and its catalogs. Its ways out are the server's: "Compare and choose" posts the round as the
phone entered it to the page it came from, which answers with the server's conflict view of
both entries; "Keep theirs" is the server's own, which settles the round for the table. A
round played live here is offered whole, with the scores it had here, once played to its end."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from flask import render_template, url_for
from flask_babel import force_locale

from companion.pages.clash import stopped_of
from companion.pages.scoreboard import signed_number
from companion.play_state.offline_game import offline_state, played_live
from companion.read_models.messages import page_reader
from companion.rules import PRESETS, table_setup
from tests.games.round_helpers import form_fields, page_of
from tests.offline.test_offline_game import send
from tests.offline.test_offline_live import NAMES, live_queue, played_round
from tests.offline.test_round_fields import KINDS, legal_fields, setup_for
from tests.offline.test_same_scoreboard import random_entries
from tests.offline.test_worker_words import LANGUAGES
from tests.offline.worker_run import ask_worker
from tests.table import Table

TOKEN = "the-scoreboard-s-token"
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


def server_drawn(table: Table, state: dict[str, Any], changes: list[Any], language: str) -> str:
    """The stopped changes as the server draws them from the same state and outbox: the page
    model with ``url_for`` and Flask-Babel's catalog of ``language``, the same template."""
    played = played_live(state, changes)
    headers = {"Accept-Language": language}
    with table.app.test_request_context(headers=headers), force_locale(language):
        model = stopped_of(state, changes, page_reader(), url_for, played)
        return render_template("games/round_stopped.html", stopped=model, form_token=TOKEN)


def posted(html: str) -> tuple[str, dict[str, list[str]]]:
    """The "Compare and choose" form of the drawn view: where it posts, and its fields."""
    action = re.search(r'<form method="post" action="([^"]+)" class="clash-mine">', html)
    assert action is not None, html
    fields: dict[str, list[str]] = {}
    for name, value in HIDDEN.findall(html):
        fields.setdefault(name, []).append(value.replace("&#34;", '"').replace("&amp;", "&"))
    return action.group(1).replace("&amp;", "&"), fields


def keep_link(html: str) -> str:
    found = re.search(r'<a class="button button--primary" href="([^"]+)" data-way="keep">', html)
    assert found is not None, html
    return found.group(1)


def test_a_round_entered_offline_that_clashed_offers_the_server_s_ways_out(
    table: Table, routed: Path
) -> None:
    """For rounds recorded offline in every kind of round form, while another phone recorded
    the same round: the phone draws what the server draws, in every language; its "Compare
    and choose" posted as drawn gets the server's conflict view with this phone's entries in
    it, and "Keep theirs" settles the round as the server's own way out does."""
    calls: list[tuple[str, Any, str]] = []
    cases = []
    for index, kind in enumerate(KINDS):
        rng = random.Random(f"clash {kind}")
        shown, setup = setup_for(kind, rng)
        names = [f"Ádám {seat}" if index % 2 else f"P{seat}" for seat in range(setup.players)]
        game = table.new_game(names, shown, rounds=3, edit_here=True)
        mode = "?mode=full" if kind in ("full", "hat-full") else ""
        record = f"/g/{game['id']}/rounds/record{mode}"
        fields = {**form_fields(page_of(table.client, record)), **legal_fields(kind, setup, rng)}
        mine = {"action": "record", "body": {"version": 0, "entries": []}, "number": 1}
        change = {**mine, "id": 7, "state": "clashed", "error": "", "fields": fields}
        change["page"] = record
        theirs = {"action": "record", "body": {"entries": random_entries(rng, setup)}}
        assert send(table.client, game, theirs).status_code == 201  # another phone's round 1
        state = table.state(game)
        language = LANGUAGES[index % len(LANGUAGES)]
        calls.append(
            ("pages/stopped", {"state": state, "changes": [change], "token": TOKEN}, language)
        )
        cases.append((game, state, change, language, fields, record))
    answers = ask_worker(routed, calls)
    for (game, state, change, language, fields, record), answer in zip(cases, answers, strict=True):
        assert answer["status"] == 200, answer
        drawn = answer["body"]["html"]
        assert drawn == server_drawn(table, state, [change], language), language
        assert 'class="offline-stopped" data-change="7" data-number="1">' in drawn
        assert "<h2" in drawn and 'data-way="mine"' in drawn
        action, sent = posted(drawn)
        assert action == record
        assert sent.pop("csrf_token") == [TOKEN]  # the view's own token, not the kept page's
        assert sent == {name: got for name, got in fields.items() if name != "csrf_token" and got}
        # Posted as drawn (with the phone's token), the server shows its conflict view of
        # round 1, both entries in it: mine is never filed as the next round.
        sent.update(csrf_token=fields["csrf_token"], action=["save"])
        clash = table.client.post(action, data=sent)
        assert clash.status_code == 409, clash.get_data(as_text=True)[:300]
        view = clash.get_data(as_text=True)
        assert "Round 1 was recorded on another phone." in view
        assert 'data-side="mine"' in view and "Correct round 1 with mine" in view
        assert len(table.state(game)["rounds"]) == 1, "nothing saved"
        kept = table.client.get(keep_link(drawn))
        assert kept.status_code == 302 and kept.location.endswith(f"/g/{game['id']}")
        settled = page_of(table.client, f"/g/{game['id']}")
        assert "Round 1 kept as saved on the other phone." in settled


def test_a_round_played_live_offline_that_clashed_is_offered_whole_or_dropped(
    table: Table, routed: Path
) -> None:
    """A round played live here while another phone recorded it: one choice for the whole
    round, this phone's offered once all its tricks are played, with its scores; the drawn
    view is the server's, and its "keep theirs" is the server's way out for that round."""
    calls: list[tuple[str, Any, str]] = []
    cases = []
    for index, preset in enumerate(["classic", "hazy", "delayed", "hat-trick"]):
        rng = random.Random(f"live clash {preset}")
        leader, marked, tricks = played_round(preset, rng)
        field = "plays" if preset == "hat-trick" else "cards"
        queue = live_queue(marked, tricks, field, rng)
        whole = index % 2 == 0
        if not whole:
            queue = queue[: len(queue) // 2]  # not played to its end here
        game = table.new_game(NAMES, preset, rounds=2, first_leader=leader)
        before = table.state(game)
        setup = table_setup(len(NAMES), PRESETS[preset])
        theirs = {"action": "record", "body": {"entries": random_entries(rng, setup)}}
        assert send(table.client, game, theirs).status_code == 201
        state = table.state(game)
        changes = [
            {**change, "number": 1, "id": 10 + n, "state": "waiting", "error": ""}
            for n, change in enumerate(queue)
        ]
        changes[0]["state"] = "clashed"
        language = LANGUAGES[index % len(LANGUAGES)]
        calls.append(
            ("pages/stopped", {"state": state, "changes": changes, "token": TOKEN}, language)
        )
        scores = offline_state(before, queue)["rounds"][0]["scores"] if whole else None
        cases.append((game, state, changes, language, scores))
    answers = ask_worker(routed, calls)
    for (game, state, changes, language, scores), answer in zip(cases, answers, strict=True):
        assert answer["status"] == 200, answer
        drawn = answer["body"]["html"]
        assert drawn == server_drawn(table, state, changes, language), language
        assert 'data-change="10" data-number="1" data-live>' in drawn
        assert drawn.count('class="offline-stopped"') == 1, "one choice for the round"
        assert keep_link(drawn) == f"/g/{game['id']}/rounds/1/keep-theirs"
        mine = '<button type="button" class="button" data-way="mine">'
        if scores is None:
            assert mine not in drawn, "only the other phone's round can stand"
            continue
        assert mine in drawn
        shown = " · ".join(
            f"{name} {signed_number(score)}" for name, score in zip(NAMES, scores, strict=True)
        )
        assert shown in drawn  # (said in the table's language around it)
        if language == "en":
            assert f"As played on this phone: {shown}" in drawn


def test_a_change_the_server_refused_is_said_and_can_be_discarded(
    table: Table, routed: Path
) -> None:
    game = table.new_game(NAMES, "classic", rounds=2)
    state = table.state(game)
    refused = {
        "id": 3,
        "action": "record",
        "number": 2,
        "body": {},
        "state": "refused",
        "error": "Seat 1 & co: <b>no</b>",
        "fields": None,
        "page": "/",
    }
    waiting = {**refused, "id": 4, "state": "waiting", "error": ""}
    calls = [("pages/stopped", {"state": state, "changes": [refused, waiting]}, "en")]
    drawn = ask_worker(routed, calls)[0]["body"]["html"]
    assert drawn == server_drawn(table, state, [refused, waiting], "en")
    assert drawn.count('class="offline-stopped"') == 1, "what waits is not stopped"
    assert (
        "Round 2, entered on this phone, was refused: Seat 1 &amp; co: &lt;b&gt;no&lt;/b&gt;"
        in drawn
    )
    assert '<button type="button" class="button" data-way="discard">Discard it</button>' in drawn
