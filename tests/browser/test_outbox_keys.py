"""Every Idempotency-Key the offline scripts send is made by one function,
``StichelnOutbox.newKey`` (static/outbox.js), and the server takes it, in a browser that has
``crypto.randomUUID`` and in one that has not (an older browser, or a page not served over
HTTPS): its fallback, 32 random hex digits, matches the server's pattern, where the old
``String(Date.now()) + Math.random()`` held a "." and was refused (400), so those browsers'
offline changes never reached the server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.services.idempotent_answers import KEY_PATTERN
from tests.browser.support import Phone

STATIC = Path(__file__).resolve().parents[2] / "static"
OUTBOX = (STATIC / "outbox.js").read_text(encoding="utf-8")

#: outbox.js run in the page, with or without crypto.randomUUID; then ten keys it makes,
#: and the answer to a game's start sent with the first, as the outbox sends it.
MAKE_AND_SEND = (
    """async ([withUuid, body]) => {
  if (!withUuid) {
    delete Crypto.prototype.randomUUID;
    delete crypto.randomUUID;
  }
  const hadUuid = typeof crypto.randomUUID === "function";
"""
    + OUTBOX
    + """
  const keys = Array.from({length: 10}, () => self.StichelnOutbox.newKey());
  const answer = await fetch("/api/v1/games", {
    method: "POST",
    headers: {"Content-Type": "application/json", "Idempotency-Key": keys[0]},
    body: JSON.stringify(body),
  });
  return {hadUuid, keys, status: answer.status};
}"""
)


@pytest.mark.parametrize("with_uuid", [True, False], ids=["randomUUID", "no randomUUID"])
def test_the_outbox_s_keys_are_taken_by_the_server(phone: Phone, with_uuid: bool) -> None:
    phone.goto("/games/new")
    body = {"players": ["Ann", "Ben", "Cleo"], "variant": "classic", "rounds": 1}
    made = phone.page.evaluate(MAKE_AND_SEND, [with_uuid, body])
    assert made["hadUuid"] is with_uuid
    keys = made["keys"]
    assert all(KEY_PATTERN.fullmatch(key) for key in keys), keys
    assert len(set(keys)) == len(keys)
    if not with_uuid:
        assert all(re.fullmatch(r"[0-9a-f]{32}", key) for key in keys), keys
    assert made["status"] == 201


def test_no_other_script_makes_a_key_of_its_own() -> None:
    """The scripts that queue changes take their key from the outbox's one function."""
    for script in sorted(STATIC.glob("*.js")):
        text = script.read_text(encoding="utf-8")
        if script.name != "outbox.js":
            assert "randomUUID" not in text, script.name
            assert "Math.random" not in text, script.name
