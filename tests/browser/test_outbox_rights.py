"""The phone's own edit right through the API in a real browser (issue 26, point 5): a fetch
from the app's own page, as the offline outbox sends it, carries the session cookie and
``Sec-Fetch-Site: same-origin``, with no key in the script; once a new edit link was made,
the same fetch is refused with the words that say so (companion/web/api/rights.py; the
header cases a browser cannot be made to send are in tests/api/test_session_rights.py)."""

from __future__ import annotations

from typing import Any

from companion.web.api import rights
from tests.api.test_games_api import round_entries
from tests.browser.support import Phone
from tests.table import Table, auth

NAMES = ["Ann", "Ben", "Cleo", "Dan"]

#: A same-origin fetch as the outbox sends it: JSON, its own idempotency key, no key.
SEND = """async ([url, body, change]) => {
  const answer = await fetch(url, {
    method: "POST",
    headers: {"Content-Type": "application/json", "Idempotency-Key": change},
    body: JSON.stringify(body),
  });
  return {status: answer.status, body: await answer.json()};
}"""


def send_round(phone: Phone, game: dict[str, Any], index: int, change: str) -> Any:
    url = f"/api/v1/games/{game['id']}/rounds"
    body = {"version": game["version"], "entries": round_entries(index), "number": index + 1}
    return phone.page.evaluate(SEND, [url, body, change])


def test_the_page_s_fetch_records_a_round_with_the_phone_s_own_right_until_a_new_edit_link(
    phone: Phone, live_table: Table
) -> None:
    game = live_table.new_game(NAMES, "classic", 3)
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")
    sent = send_round(phone, game, 0, "browser-outbox-0001")
    assert sent["status"] == 201, sent["body"]
    assert [r["number"] for r in live_table.state(game)["rounds"]] == [1]
    game["version"] = sent["body"]["version"]

    rotated = live_table.client.post(
        f"/api/v1/games/{game['id']}/edit-key",
        json={"version": game["version"]},
        headers=auth(game),
    )
    assert rotated.status_code == 200
    game["version"] = rotated.json["version"]
    refused = send_round(phone, game, 1, "browser-outbox-0002")
    assert refused["status"] == 403
    assert refused["body"] == {"error": rights.KEY_REPLACED}
    assert [r["number"] for r in live_table.state(game)["rounds"]] == [1]
    assert phone.foreign_requests() == []
