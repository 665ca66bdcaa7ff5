"""The outbox (static/outbox.js) in a real browser sends a round played live offline as the
API's live calls (issue 26, point 5): the round opened with its indicators, each trick, a
trick taken back and played again, in the order kept, once each, with the phone's own edit
right; the server's round then holds exactly the tricks the phone kept."""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import quote

from tests.api.test_games_api import round_entries
from tests.browser.support import LiveServer, Phone
from tests.offline.test_offline_live import NAMES, played_round
from tests.table import Table, auth

#: Keep ``changes`` in the outbox of game ``code`` (as offline_play.js keeps them), then send
#: them all; answers how many were saved and what is left in the outbox.
KEEP_AND_SEND = """async ([code, api, changes]) => {
  const outbox = StichelnOutbox(code, api, () => {});
  for (const change of changes) {
    await outbox.keep(change);
  }
  const saved = await outbox.send();
  return {saved: saved, left: await outbox.changes()};
}"""


def test_a_live_round_kept_offline_is_sent_as_the_api_s_live_calls_in_order(
    phone: Phone, live_table: Table
) -> None:
    leader, marked, tricks = played_round("classic", random.Random("outbox"))
    game = live_table.new_game(NAMES, "classic", 1, leader)
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    outbox = phone.page.locator("script[data-outbox]").get_attribute("data-outbox")
    phone.page.add_script_tag(url=outbox)

    def change(action: str, body: dict[str, Any], index: int) -> dict[str, Any]:
        return {
            "code": game["id"],
            "action": action,
            "number": 1,
            "base": game["version"],
            "body": {"version": game["version"], **body},
            "key": f"live-outbox-{index:04d}",
            "state": "waiting",
            "error": "",
        }

    bodies = [
        ("live", {"marked": marked}),
        ("trick", {"cards": tricks[0]}),
        ("trick", {"cards": tricks[1]}),
        ("undo", {}),
        ("trick", {"cards": tricks[1]}),
        ("trick", {"cards": tricks[2]}),
    ]
    changes = [change(action, body, index) for index, (action, body) in enumerate(bodies)]
    api = f"{phone.base_url}/api/v1/games/{game['id']}"
    answer = phone.page.evaluate(KEEP_AND_SEND, [game["id"], api, changes])

    assert answer == {"saved": len(changes), "left": []}
    state = live_table.state(game)
    round_ = state["rounds"][0]
    assert round_["mode"] == "live" and round_["tricks_played"] == 3
    assert [trick["cards"] for trick in round_["tricks"]] == tricks[:3]
    assert state["version"] == game["version"] + len(changes)
    assert phone.foreign_requests() == []


#: Keep the next game's play again and a round of it, then send from the next game's outbox
#: (its game first), then from the game the server started; answers the counts and the rest.
NEXT_GAME = """async ([code, api, again, round]) => {
  const next = StichelnOutbox.nextOf(code);
  const nextApi = api.replace(code, encodeURIComponent(next));
  await StichelnOutbox(code, api, () => {}).keep(again);
  await StichelnOutbox(next, nextApi, () => {}).keep(round);
  const first = await StichelnOutbox(next, nextApi, () => {}).send();
  const moved = await StichelnOutbox(code, api, () => {}).changes();
  return {first: first, left: moved};
}"""
SEND_GAME = """async ([code, api]) => {
  const outbox = StichelnOutbox(code, api, () => {});
  const saved = await outbox.send();
  return {saved: saved, left: await outbox.changes()};
}"""


def test_a_next_game_started_offline_is_sent_after_the_play_again_that_starts_it(
    phone: Phone, live_table: Table
) -> None:
    """A round of the table's next game, entered before the server had that game: it waits
    under the next game's own place until the play again is sent, then moves to the game
    the server started, based on its first version, and is recorded there with the phone's
    own right (given it by the play again)."""
    game = live_table.new_game(NAMES, "classic", 1)
    recorded = live_table.client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"version": game["version"], "entries": round_entries(0)},
        headers=auth(game),
    )
    assert recorded.status_code == 201 and recorded.json["status"] == "finished"
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    outbox = phone.page.locator("script[data-outbox]").get_attribute("data-outbox")
    phone.page.add_script_tag(url=outbox)
    api = f"{phone.base_url}/api/v1/games/{game['id']}"
    base = recorded.json["version"]
    again = {
        "code": game["id"],
        "action": "again",
        "number": None,
        "base": base,
        "body": {},
        "key": "next-game-again-01",
        "state": "waiting",
        "error": "",
    }
    round_ = {
        "code": f"{game['id']}/next",
        "action": "record",
        "number": 1,
        "base": 0,
        "body": {"version": 0, "entries": round_entries(1)},
        "key": "next-game-round-01",
        "state": "waiting",
        "error": "",
    }

    sent = phone.page.evaluate(NEXT_GAME, [game["id"], api, again, round_])
    assert sent["first"] == 1 and sent["left"] == []
    following = live_table.client.post(f"/api/v1/games/{game['id']}/again", headers=auth(game))
    assert following.status_code == 200  # started by the phone's play again
    new = following.json["id"]
    assert following.json["rounds"] == []
    answer = phone.page.evaluate(SEND_GAME, [new, f"{phone.base_url}/api/v1/games/{new}"])
    assert answer == {"saved": 1, "left": []}
    rounds = live_table.state(following.json)["rounds"]
    assert [round_["number"] for round_ in rounds] == [1]


def test_a_new_game_over_the_server_s_limit_of_starts_waits_for_the_next_try(
    phone: Phone, live_table: Table, live_server: LiveServer
) -> None:
    """A game started offline whose start the server refuses for its limit of game starts
    per address (429, companion/web/rate_limits.py) is not refused: it waits, and is
    started at the next try once the limit lets it."""
    phone.goto("/games/new")
    outbox = phone.page.locator("script[data-outbox]").get_attribute("data-outbox")
    phone.page.add_script_tag(url=outbox)
    key = "c0ffee00-1234-4abc-8def-000000000429"
    code = f"new/{key}"
    api = f"{phone.base_url}/api/v1/games/{quote(code, safe='')}"
    start = {
        "code": code,
        "action": "start",
        "number": None,
        "base": 0,
        "body": {"players": NAMES, "variant": "classic", "rounds": 2, "first_leader": 0},
        "key": key,
        "state": "waiting",
        "error": "",
    }
    config = live_server.app.config
    config["GAME_STARTS_LIMIT"] = "1 per hour"
    try:
        live_table.client.post(  # the phone's address used its one start of the hour
            "/api/v1/games", json=start["body"], environ_base={"REMOTE_ADDR": "127.0.0.1"}
        )
        kept = phone.page.evaluate(KEEP_AND_SEND, [code, api, [start]])
        assert kept["saved"] == 0
        assert [(left["action"], left["state"]) for left in kept["left"]] == [("start", "waiting")]
    finally:
        config["GAME_STARTS_LIMIT"] = ""
    answer = phone.page.evaluate(SEND_GAME, [code, api])
    assert answer == {"saved": 1, "left": []}
    # The server has the game the phone started, and leads that phone (only) to it.
    started = phone.context.request.get(f"{phone.base_url}/games/new/{key}", max_redirects=0)
    assert started.status == 302
