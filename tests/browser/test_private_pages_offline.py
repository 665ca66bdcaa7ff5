"""A page that shows a phone's circles is never shown offline once the phone is out of them:
the new-game page, which the service worker keeps for offline play, offers the phone's
circles and suggests their players' names. When a page the phone opens says its circles
changed (companion/web/circle_rights.py, CIRCLES_HEADER), the worker drops its copy and
keeps the page again as it is now (templates/pwa/sw.js)."""

from __future__ import annotations

from tests.browser.support import PhoneFactory, wait_for_async
from tests.table import Table, auth

CONTROLLED = "() => navigator.serviceWorker.controller !== null"
#: The players of a circle the phone is in, then is not.
PLAYERS = ["Quirin", "Xaver", "Yvonne"]
#: Whether the new-game page the worker keeps names ``name``.
KEPT_WITH = """async (name) => {
  const kept = await caches.match(location.origin + "/games/new", {ignoreVary: true});
  return Boolean(kept) && (await kept.text()).includes(name);
}"""
KEPT_WITHOUT = """async (name) => {
  const kept = await caches.match(location.origin + "/games/new", {ignoreVary: true});
  return !kept || !(await kept.text()).includes(name);
}"""


def test_a_phone_out_of_a_circle_keeps_no_page_with_its_names(
    new_phone: PhoneFactory, live_table: Table
) -> None:
    game = live_table.new_game(PLAYERS)  # the first game of a circle of its own
    phone = new_phone(service_workers="allow")
    page = phone.page
    phone.goto(f"/g/{game['id']}/edit/{game['edit_key']}")  # the phone is in the circle
    page.wait_for_function(CONTROLLED)
    phone.goto("/games/new")  # through the worker, which keeps it
    wait_for_async(page, KEPT_WITH, PLAYERS[0])

    rotated = live_table.client.post(
        f"/api/v1/games/{game['id']}/edit-key",
        json={"version": game["version"]},
        headers=auth(game),
    )
    assert rotated.status_code == 200  # the phone's key, its only tie to the circle, is gone
    phone.goto("/history")  # a page that reads the phone's circles: none now
    wait_for_async(page, KEPT_WITHOUT, PLAYERS[0])

    phone.set_offline(True)
    phone.goto("/games/new")
    assert PLAYERS[0] not in page.content()
