"""Fuzzing the API's reading endpoints and its doors: the games list's query parameters, a
player's name, a game's id (state and export), and any method on any API path with any
body and any Authorization header.

Reading never changes the database; a refusal is ``{"error": "<sentence>"}``; nothing is
ever a 5xx, and an unknown path or method under ``/api/v1`` answers JSON too.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, quote_from_bytes, urlencode

from hypothesis import given
from hypothesis import strategies as st

from companion.config import SESSION_COOKIE_NAME
from tests.fuzz.answers import MARKUP, check_api, note_status
from tests.fuzz.bodies import ARBITRARY_BODIES, CONTROL_TEXT, ODD_TEXT, json_bytes
from tests.fuzz.legal import legal_entries
from tests.fuzz.world import SceneBuilder, World, fuzz_settings

NAMES = ["Ann", "Ben", "Cleo", MARKUP[0], "Zoë"]


def history_scene(build: SceneBuilder) -> None:
    """A finished game, one in progress, and a Hat Trick game; a name with markup."""
    build.game("finished", "classic", NAMES[:3], rounds=1)
    build.record("finished", legal_entries(3, "classic"))
    build.game("playing", "mild", NAMES[1:5], rounds=2)
    build.record("playing", legal_entries(4, "mild", quick=True))
    build.game("hat", "hat-trick", NAMES[:4], rounds=1)


def read(world: World, path: str) -> tuple[int, Any]:
    """GET ``path``: a JSON answer, and the database as it was."""
    response = world.app.test_client().get(path)
    answer = check_api(response, f"GET {path}")
    note_status(response)
    world.refused(f"GET {path}")  # reading changes nothing, whatever it answers
    return response.status_code, answer


QUERY_VALUES = (
    st.sampled_from(["Ann", "ann", " Ann ", MARKUP[0], "Nobody", "", "%", "_", "A%"])
    | st.sampled_from(["classic", "hat-trick", "custom", "all", "30d", "year", "week"])
    | st.sampled_from(["2025-01-31", "2025-02-30", "0001-01-01", "9999-12-31", "2025-1-1"])
    | st.sampled_from(["1", "2", "0", "-1", "01", "1.5", "٣", "999999", "9" * 30, " 1"])
    | ODD_TEXT
    | st.text(max_size=12)
)
QUERY_KEYS = st.sampled_from(["player", "variant", "period", "from", "to", "page"]) | st.text(
    max_size=6
)
RAW_QUERIES = st.lists(st.tuples(QUERY_KEYS, st.binary(max_size=6)), max_size=4).map(
    lambda pairs: "&".join(
        f"{quote(k.encode('utf-8', 'surrogatepass'))}={quote_from_bytes(v)}" for k, v in pairs
    )
)
QUERIES = (
    st.lists(st.tuples(QUERY_KEYS, QUERY_VALUES), max_size=6).map(
        lambda pairs: urlencode(
            [(k, v.encode("utf-8", "surrogatepass")) for k, v in pairs], doseq=False
        )
    )
    | RAW_QUERIES
)


@fuzz_settings(40)
@given(query=QUERIES)
def test_any_query_of_the_games_list_answers_a_page_or_a_clear_refusal(
    world: World, query: str
) -> None:
    world.use("history", history_scene)
    status, answer = read(world, f"/api/v1/games?{query}")
    assert status in (200, 400), (query, status, answer)
    if status == 200:
        assert 1 <= answer["page"] <= answer["pages"] and len(answer["games"]) <= 20, answer
        assert answer["total"] >= len(answer["games"]), answer


PLAYER_NAMES = (
    st.sampled_from([*NAMES, "ann", " ANN ", "Nobody", "a/b", "..", "%2F", "Zoë", "ZOË"])
    | ODD_TEXT
    | CONTROL_TEXT
    | st.text(min_size=1, max_size=20)
)


@fuzz_settings(25)
@given(name=PLAYER_NAMES, raw=st.booleans())
def test_any_player_name_answers_statistics_or_not_found(
    world: World, name: str, raw: bool
) -> None:
    world.use("history", history_scene)
    path = name.encode("utf-8", "surrogatepass")
    status, answer = read(
        world, f"/api/v1/players/{quote_from_bytes(path, safe='/' if raw else '')}"
    )
    assert status in (200, 308, 404), (name, status, answer)
    if status == 200:
        assert answer["games"] >= 1 and answer["rounds"] >= 0, answer


CODES = (
    st.sampled_from(["", "x", "0000000000", "../games", "%00", "a" * 300, "ANN"])
    | CONTROL_TEXT
    | st.text(max_size=12)
)


@fuzz_settings(25)
@given(data=st.data(), what=st.sampled_from(["", "/export"]))
def test_any_game_id_answers_the_game_or_not_found(
    world: World, data: st.DataObject, what: str
) -> None:
    scene = world.use("history", history_scene)
    real = [state["id"] for state in scene.games.values()]
    code = data.draw(
        st.sampled_from(real)
        | st.sampled_from(real).map(lambda c: c.upper())
        | st.sampled_from(real).map(lambda c: c[:-1])
        | CODES,
        label="code",
    )
    path = f"/api/v1/games/{quote(code.encode('utf-8', 'surrogatepass'), safe='')}{what}"
    status, answer = read(world, path)
    assert status in (200, 308, 404, 405), (code, status, answer)
    if status == 200 and code in real:
        game = answer["games"][0] if what else answer
        assert game.get("id", game.get("code")) == code, answer


# --------------------------------------------------------------------------------------------
# Any method, any API path, any body, any Authorization header


PATHS = [
    "",
    "/",
    "/setup?players=4",
    "/tricks/resolve",
    "/rounds/score",
    "/games",
    "/games/{code}",
    "/games/{code}/export",
    "/games/{code}/rounds",
    "/games/{code}/rounds/1",
    "/games/{code}/rounds/live",
    "/games/{code}/rounds/1/tricks",
    "/games/{code}/rounds/1/tricks/last",
    "/players/Ann",
    "/players",
    "/nothing/here",
    "/games/{code}/rounds/1/tricks/first",
]
HEADERS = st.sampled_from(
    [
        {},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer x"},
        {"Authorization": "Bearer " + "k" * 5000},
        {"Authorization": "Basic QWxhZGRpbjpvcGVu"},
        {"Authorization": "Bearer \t\t"},
        {"Authorization": "Bearer {key}"},
        {"Cookie": f"{SESSION_COOKIE_NAME}=garbage"},
        {"Cookie": "session=another-apps"},
    ]
)


@fuzz_settings(40)
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]),
    path=st.sampled_from(PATHS),
    body=st.none() | ARBITRARY_BODIES,
    headers=HEADERS,
    content_type=st.sampled_from(["application/json", "text/plain", "application/x-www-form"]),
    odd_code=st.none() | st.none() | CONTROL_TEXT,
)
def test_any_method_on_any_api_path_answers_json_and_changes_nothing_it_should_not(
    world: World,
    method: str,
    path: str,
    body: Any,
    headers: dict[str, str],
    content_type: str,
    odd_code: str | None,
) -> None:
    scene = world.use("history", history_scene)
    game = scene.games["playing"]
    code = game["id"] if odd_code is None else odd_code
    url = "/api/v1" + path.format(code=quote(code.encode("utf-8", "surrogatepass"), safe=""))
    headers = {k: v.format(key=game["edit_key"]) for k, v in headers.items()}
    data = b"" if body is None else json_bytes(body)
    where = f"{method} {url} {headers} {content_type} {body!r:.500}"
    world.sending()
    response = world.app.test_client().open(
        url, method=method, data=data, content_type=content_type, headers=headers
    )
    note_status(response)
    if method in ("HEAD", "OPTIONS"):  # no body: Flask answers these itself
        assert response.status_code < 500, where
    else:
        check_api(response, where)
    if response.status_code >= 300 or method in ("GET", "HEAD", "OPTIONS"):
        world.refused(where)
    else:
        world.accepted()


def test_the_last_day_there_is_as_the_end_of_the_games_list_is_no_server_error(
    world: World,
) -> None:
    """Found by the fuzzing above: ``to=9999-12-31`` has no next day to end before."""
    world.use("history", history_scene)
    status, answer = read(world, "/api/v1/games?to=9999-12-31")
    assert status in (200, 400), answer
