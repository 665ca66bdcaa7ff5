"""Names and game codes holding characters no database keeps as text, found by the fuzz
tests: a NUL byte (PostgreSQL refuses it in any text value, even in a query) and half a
UTF-16 surrogate pair (``"\\ud800"`` is valid JSON, but no UTF-8 text). Wherever a name
comes in, as a new player, a new name, a name to merge into or a name to look up, it is
refused with a clear error or matches nobody; an address whose game code holds such a
character, or any other control character, names no game. Never a 500, on SQLite as on
PostgreSQL, and nothing is saved.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from scripts.page_reader import read_page
from tests.fuzz.answers import check_api, check_page
from tests.fuzz.bodies import json_bytes
from tests.fuzz.forms import Pairs, post_form
from tests.fuzz.world import SceneBuilder, World

NUL = "A\x00B"
SURROGATE = "A\ud800B"
#: Game codes no game can have, as an address carries them: NUL, other control characters,
#: DEL, and the UTF-8 bytes of half a surrogate pair (read by the server as U+FFFD).
IMPOSSIBLE_CODES = ["%00", "A%00B", "%01", "%1F", "%7F", "%ED%A0%80"]
#: What fills an address's other parts: a round number, an edit key, a live round's action.
OTHER_PARTS = {"number": "1", "key": "not-the-key", "_action": "card", "page": "record"}
#: One part of a route (``<code>``, ``<int:number>``, ``<any(...):_action>``): its name.
ROUTE_PART = re.compile(r"<(?:[^<>]*:)?(\w+)>")


def scene(build: SceneBuilder) -> None:
    build.game("game", "classic", ["Ann", "Ben", "Cleo"])


@pytest.mark.parametrize("name", [NUL, SURROGATE], ids=["nul", "surrogate"])
def test_a_new_player_through_the_api_with_such_a_name_is_refused(world: World, name: str) -> None:
    world.use("odd", scene)
    body: dict[str, Any] = {"players": [name, "Dora", "Emil"], "variant": "classic"}
    world.sending()
    response = world.app.test_client().post(
        "/api/v1/games", data=json_bytes(body), content_type="application/json"
    )
    check_api(response, f"create a game with {name!r}")
    assert response.status_code in (400, 422)
    world.refused(f"create a game with {name!r}")


@pytest.mark.parametrize(
    ("url", "statuses"),
    [
        ("/api/v1/players/A%00B", (404,)),
        ("/api/v1/games?player=A%00B", (200, 400)),
        ("/players/A%00B", (404,)),
        ("/history?player=A%00B", (200, 400)),
        ("/players/A%00B/rename", (403, 404)),
    ],
)
def test_looking_up_a_name_with_a_nul_byte_finds_nobody(
    world: World, url: str, statuses: tuple[int, ...]
) -> None:
    world.use("odd", scene)
    world.sending()
    response = world.app.test_client().get(url)
    if url.startswith("/api/"):
        check_api(response, f"GET {url}")
    else:
        check_page(response, f"GET {url}")
    assert response.status_code in statuses
    world.refused(f"GET {url}")


@pytest.mark.parametrize(
    ("url", "fields"),
    [
        ("/games/new", [("player_0", NUL), ("player_1", "Dora"), ("player_2", "Emil")]),
        ("/players/Ann/rename", [("new_name", NUL), ("confirmed", "yes")]),
        ("/players/Ann/merge", [("into", NUL), ("confirmed", "yes")]),
    ],
    ids=["new game", "rename", "merge"],
)
def test_a_name_with_a_nul_byte_typed_in_a_form_is_refused_beside_the_field(
    world: World, url: str, fields: Pairs
) -> None:
    built = world.use("odd", scene)
    pairs: Pairs = [("csrf_token", built.editor_token), ("variant", "classic"), ("rounds", "5")]
    pairs += [("first_leader", "0"), *fields]
    world.sending()
    response = post_form(built.editor, url, pairs)
    check_page(response, f"POST {url} {pairs}")
    assert response.status_code == 400
    world.refused(f"POST {url} {pairs}")


def addresses_with_a_game_code(app: Flask) -> list[tuple[str, str]]:
    """Every route whose address holds a game's code, with each method it takes: its other
    parts filled in, the code left as ``{code}``."""
    found = []
    for rule in app.url_map.iter_rules():
        if "code" not in rule.arguments:
            continue
        address = ROUTE_PART.sub(lambda part: OTHER_PARTS.get(part[1], "{code}"), rule.rule)
        found += [(method, address) for method in sorted(rule.methods or ()) if method != "OPTIONS"]
    return found


@pytest.mark.parametrize("code", IMPOSSIBLE_CODES)
def test_an_address_whose_code_no_game_can_have_names_no_game(world: World, code: str) -> None:
    """From the API's JSON refusal to every game page, on any method: the answer an unknown
    game gets, before the code is looked for (PostgreSQL would refuse a NUL byte)."""
    built = world.use("odd", scene)
    addresses = addresses_with_a_game_code(world.app)
    assert len(addresses) > 30 and all("{code}" in address for _, address in addresses)
    world.sending()
    for method, address in addresses:
        url = address.format(code=code)
        where = f"{method} {url}"
        form = {"csrf_token": built.editor_token} if method == "POST" else None
        response = built.editor.open(url, method=method, data=form)
        assert response.status_code == 404, where
        if method == "HEAD":  # no body to read
            continue
        if url.startswith("/api/"):
            assert check_api(response, where) == {"error": "There is no game with this id."}
        else:
            title = read_page(check_page(response, where)).find("h1")
            assert title is not None and title.text.strip() == "Game not found", where
    world.refused(f"every address with the code {code!r}")
