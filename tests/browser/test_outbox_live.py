"""The outbox (static/outbox.js) in a real browser sends a round played live offline as the
API's live calls (issue 26, point 5): the round opened with its indicators, each trick, a
trick taken back and played again, in the order kept, once each, with the phone's own edit
right; the server's round then holds exactly the tricks the phone kept."""

from __future__ import annotations

import random
from typing import Any

from tests.browser.support import Phone
from tests.offline.test_offline_live import NAMES, played_round
from tests.table import Table

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
