"""The rules worker in a real browser (issue 26): Pyodide loaded from our own origin into a Web
Worker under the app's Content-Security-Policy, then, with the network cut, answering random
rounds of every variant and their tricks exactly as the server answered them (the same rules
under Pyodide; tests/offline holds the worker's code to the server's answers under CPython),
a game as the phone shows it offline, round forms' fields read as the record page reads
them, and a round refused in the player's language (the message ``{id, call, body,
language}``): all from one start of Pyodide.

No request may leave the app's origin (any that tries is aborted and fails the test). In CI
(``CI=true``) a missing kit fails the test; elsewhere it skips, saying how to vendor it.
"""

from __future__ import annotations

import random
import time
from typing import Any

from flask_babel import force_locale

from companion.play_state import parse
from companion.play_state.offline_game import offline_state
from companion.play_state.round_fields import KINDS, fields_answer
from companion.read_models.messages import render_message
from companion.rules import table_setup
from tests.browser.support import LiveServer, kit_manifest, open_phone
from tests.offline.refusals import REFUSED, refusal
from tests.offline.requests import CLASSIC_SETTINGS, random_calls
from tests.offline.test_round_fields import legal_fields, page_form, setup_for

#: Rounds to score (each variant in turn, a tenth of them broken), two tricks per round.
ROUNDS = 60
#: Pyodide's start is a few seconds; on a busy two-core machine it may take several times that.
READY_TIMEOUT_MS = 60_000

START_WORKER = """async (url) => {
  const began = performance.now();
  const worker = new Worker(url, { type: "module" });
  window.rulesWorker = worker;
  const first = await new Promise((resolve) => {
    worker.addEventListener("message", (event) => resolve(event.data), { once: true });
    worker.addEventListener("error", (event) => resolve({ type: "error", error: event.message }));
  });
  return { ...first, page_ms: performance.now() - began };
}"""

ASK_WORKER = """async (calls) => {
  const worker = window.rulesWorker;
  const waiting = new Map();
  worker.onmessage = (event) => {
    const answer = event.data;
    waiting.get(answer.id)({ status: answer.status, body: answer.body });
    waiting.delete(answer.id);
  };
  const began = performance.now();
  const answers = await Promise.all(
    calls.map(([call, body], id) => new Promise((resolve) => {
      waiting.set(id, resolve);
      worker.postMessage({ id, call, body });
    }))
  );
  return { answers, ms: performance.now() - began };
}"""

ASK_IN_LANGUAGE = """async ([call, body, language]) => {
  const worker = window.rulesWorker;
  return new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.postMessage({ id: "in " + language, call, body, language });
  });
}"""

CAN_REACH_SERVER = """() => fetch("/", { cache: "no-store" }).then(() => true, () => false)"""


def server_answers(server: LiveServer, calls: list[Any]) -> list[dict[str, Any]]:
    """What the JSON API answers to each call, status and body."""
    client = server.app.test_client()
    answers = []
    for call in calls:
        answer = client.post(f"/api/v1/{call.path}", json=call.body)
        answers.append({"status": answer.status_code, "body": answer.get_json()})
    return answers


def offline_game_call(server: LiveServer, rounds: list[Any]) -> dict[str, Any]:
    """A ``games/offline`` call: a new classic game's state on the server, and the legal
    classic rounds of its table size queued after it (the first two), then a broken one."""
    classic = parse.variant("classic")
    legal = [c for c in rounds if c.legal and parse.variant(c.body["variant"]) == classic]
    players = legal[0].body["players"]
    same_table = [call for call in legal if call.body["players"] == players]
    client = server.app.test_client()
    names = [f"P{seat}" for seat in range(players)]
    created = client.post("/api/v1/games", json={"players": names, "variant": "classic"})
    assert created.status_code == 201, created.get_json()
    state = client.get(f"/api/v1/games/{created.get_json()['id']}").get_json()
    broken = next(c for c in rounds if not c.legal)
    queued = [
        {"action": "record", "body": {"version": 0, "entries": call.body["entries"]}}
        for call in [*same_table[:2], broken]
    ]
    return {"state": state, "queued": queued}


def round_form_calls(server: LiveServer) -> tuple[list[Any], list[dict[str, Any]]]:
    """``rounds/fields`` calls, as the offline record page will make them: a round of every
    kind of form as the page posts it, one with a count left out (the others imply it, C3)
    and one with a count garbled; and their answers, the entries those of the record page's
    own reading of the same fields."""
    rng = random.Random(2026)
    calls, expected = [], []
    for kind in KINDS:
        shown, setup = setup_for(kind, rng)
        fields = legal_fields(kind, setup, rng)
        calls.append({"kind": kind, "variant": shown, "players": setup.players, "fields": fields})
    quick = calls[0]
    tricks = quick["fields"]["s0-tricks"]
    left_out = {name: values for name, values in quick["fields"].items() if name != "s0-tricks"}
    garbled = {**quick["fields"], "s1-tricks": ["many"]}
    calls += [{**quick, "fields": left_out}, {**quick, "fields": garbled}]
    for call in calls[:-1]:
        body = fields_answer(call)
        setup = table_setup(call["players"], parse.variant(call["variant"]))
        form = page_form(server.app, call["kind"], setup, call["fields"])
        assert body["entries"] == [entry.as_json() for entry in form.entries()]
        expected.append({"status": 200, "body": body})
    assert expected[-1]["body"]["implied"]["value"] == int(tricks[0]), "the count left out"
    refused = 'Seat 2, tricks won: "many" is not a whole number.'
    expected.append({"status": 400, "body": {"error": refused}})
    return [["rounds/fields", call] for call in calls], expected


def german_refusal(server: LiveServer) -> tuple[str, Any, Any, str]:
    """A round breaking C1 (its call and body), the API's answer to it, and its refusal in
    the words of the server's German pages, which differ from the English ones and from the
    API's."""
    call, body = REFUSED["(C1)"]
    api = server.app.test_client().post(f"/api/v1/{call}", json=body)
    words = {}
    for language in ("en", "de"):
        with server.app.test_request_context(), force_locale(language):
            words[language] = render_message(refusal(call, body).message)
    assert words["de"] != words["en"] and words["de"] != api.get_json()["error"]
    return call, body, api, words["de"]


def test_offline_the_rules_worker_answers_every_round_and_trick_as_the_server_did(
    browser: Any, live_server: LiveServer
) -> None:
    manifest = kit_manifest(live_server)
    calls = random_calls(seed=20260, rounds=ROUNDS)
    rounds = [call for call in calls if call.path == "rounds/score"]
    tricks = [call for call in calls if call.path == "tricks/resolve"]
    assert len(rounds) == ROUNDS and len(tricks) == 2 * ROUNDS
    expected_rounds = server_answers(live_server, rounds)
    expected_tricks = server_answers(live_server, tricks)
    assert {answer["status"] for answer in expected_rounds} == {200, 400, 422}
    game_call = offline_game_call(live_server, rounds)
    expected_game = {"status": 200, "body": offline_state(**game_call)}
    assert expected_game["body"]["pending"] >= 1
    form_calls, expected_forms = round_form_calls(live_server)
    refused_call, refused_body, api_refusal, german = german_refusal(live_server)

    # The app's own Content-Security-Policy, as a phone gets it (the other browser tests
    # bypass it to inject axe-core).
    phone = open_phone(browser, live_server.url, bypass_csp=False)
    own = live_server.url + "/"
    aborted: list[str] = []

    def only_our_origin(route: Any) -> None:
        if route.request.url.startswith(own):
            route.continue_()
        else:
            aborted.append(route.request.url)
            route.abort()

    try:
        phone.context.route("**/*", only_our_origin)
        phone.goto("/")
        began = time.perf_counter()
        ready = phone.page.evaluate(START_WORKER, manifest["worker"])
        ready_s = time.perf_counter() - began
        assert ready.get("type") == "ready", ready
        assert ready["pyodide"] == manifest["pyodide"]
        assert ready["python"] == manifest["python"]
        fetched = [url for url in phone.requests if "/offline-kit/" in url]
        for file in manifest["files"]:
            assert any(url.endswith(file["url"]) for url in fetched), file["name"]

        phone.set_offline(True)
        assert not phone.page.evaluate(CAN_REACH_SERVER), "the phone is offline"
        scored = phone.page.evaluate(ASK_WORKER, [[c.path, c.body] for c in rounds])
        resolved = phone.page.evaluate(ASK_WORKER, [[c.path, c.body] for c in tricks])
        shown = phone.page.evaluate(ASK_WORKER, [["games/offline", game_call]])
        read = phone.page.evaluate(ASK_WORKER, form_calls)
        in_german = phone.page.evaluate(ASK_IN_LANGUAGE, [refused_call, refused_body, "de"])
    finally:
        phone.context.close()

    for call, mine, theirs in zip(rounds, scored["answers"], expected_rounds, strict=True):
        assert mine == theirs, call
    for call, mine, theirs in zip(tricks, resolved["answers"], expected_tricks, strict=True):
        assert mine == theirs, call
    assert shown["answers"] == [expected_game], "a game offline, as offline_game.py shows it"
    assert read["answers"] == expected_forms, "round forms read as the record page reads them"
    refused = {"id": "in de", "status": api_refusal.status_code, "body": {"error": german}}
    assert in_german == refused, "a round refused in the words of the German pages"
    variants = {parse.variant(call.body["variant"]) for call in rounds}
    assert len(variants) == len(CLASSIC_SETTINGS) + 1, "every setting of the box and Hat Trick"
    assert aborted == [] and phone.foreign_requests() == []
    print(
        f"\nrules worker: ready in {ready_s:.2f} s (in the worker {ready['ms']:.0f} ms, "
        f"Pyodide {ready['pyodide_ms']:.0f} ms, the rules the rest); "
        f"{ROUNDS} rounds in {scored['ms']:.0f} ms ({scored['ms'] / ROUNDS:.2f} ms a round); "
        f"{len(tricks)} tricks in {resolved['ms']:.0f} ms"
    )
