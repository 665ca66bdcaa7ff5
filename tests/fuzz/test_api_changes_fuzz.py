"""Fuzzing every API endpoint that changes a game: arbitrary JSON and mutations of valid
bodies (a key dropped, a type changed, numbers out of range, cards named twice, a stale
version, huge or odd strings, nested junk), with the game's key, without it and with wrong
ones.

Each answer is checked: never a 5xx; a refusal is ``{"error": "<sentence>"}`` and leaves
every table as it was; without the game's own key a change is always 401 or 403; an accepted
change moves the version on by one and leaves every game consistent (each stored round scored
again by the rules gives the stored scores, totals are the sums of the round scores).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from hypothesis import given
from hypothesis import strategies as st

from companion.data.models import name_key
from tests.fuzz.answers import MARKUP, check_api, check_page, note_status
from tests.fuzz.bodies import AUTH, auth_headers, auth_opens, json_bytes, maybe_mutated, mutated
from tests.fuzz.legal import legal_entries, legal_marked, next_legal_trick
from tests.fuzz.world import SceneBuilder, World, fuzz_settings

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve"]
#: Round numbers in a path: real ones, missing ones, and text Flask's ``int`` refuses (it
#: reads "01" and the Arabic-Indic "١" as 1).
ROUND_NUMBERS = st.sampled_from(["1"] * 8 + ["2", "0", "99", "-1", "01", "x", "1.0", "١"])
NO_NUMBER = ("-1", "x", "1.0")


def send(world: World, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    """Send a JSON body; check the answer; a refusal must have changed nothing."""
    where = f"{method} {path} {headers} {body!r:.1500}"
    world.sending()
    response = world.app.test_client().open(
        path, method=method, data=json_bytes(body), content_type="application/json", headers=headers
    )
    answer = check_api(response, where)
    note_status(response)
    if response.status_code >= 300:
        world.refused(where)
    return response.status_code, answer


def expect(status: int, mode: str, accepted: int, game: dict[str, Any], answer: Any) -> bool:
    """Without the game's own key: 401 or 403. With it: ``accepted`` or a 4xx. An accepted
    change moves the version on by exactly one. Answers whether it was accepted."""
    if not auth_opens(mode):
        assert status in (401, 403), (mode, status, answer)
        return False
    if status != accepted:
        assert status in (400, 404, 409, 413, 422), (status, answer)
        return False
    assert answer["version"] == game["version"] + 1, answer
    assert answer["totals"] == [
        sum(r["scores"][seat] for r in answer["rounds"] if r["scores"] is not None)
        for seat in range(len(answer["players"]))
    ], answer
    return True


# --------------------------------------------------------------------------------------------
# Creating a game


def empty_scene(build: SceneBuilder) -> None:
    """Nothing but one known player, whose name any case of it matches."""
    build.game("known", "classic", ["Ann", "Ben", "Cleo"])


#: Names a table might type, markup and the longest allowed name among them.
NAME_VALUES = st.sampled_from([*NAMES, *MARKUP, "Ζωή", "A" * 40, "Zoë  Marie"]) | st.text(
    min_size=1, max_size=12
)
CREATE_BODIES = st.fixed_dictionaries(
    {
        "players": st.lists(NAME_VALUES, min_size=3, max_size=8, unique_by=name_key),
        "variant": st.sampled_from(
            ["classic", "hat-trick", "delayed", {"scoring": "mild", "colours": 2, "reveal": "hazy"}]
        ),
    },
    optional={"rounds": st.integers(1, 10), "first_leader": st.integers(0, 2)},
).flatmap(maybe_mutated)


@fuzz_settings(40)
@given(body=CREATE_BODIES, mode=AUTH)
def test_creating_a_game_from_any_body_gives_a_consistent_game_or_changes_nothing(
    world: World, body: Any, mode: str
) -> None:
    scene = world.use("create", empty_scene)
    key = scene.games["known"]["edit_key"]
    status, answer = send(world, "POST", "/api/v1/games", body, auth_headers(mode, key, key))
    assert status in (201, 400, 413, 422), (status, answer)
    if status == 201:
        # A known player keeps the name first written for them, whatever its case here.
        names = [" ".join(name.split()) for name in body["players"]]
        assert [name_key(n) for n in answer["players"]] == [name_key(n) for n in names]
        assert answer["totals"] == [0] * len(body["players"]) and answer["version"] == 1
        assert isinstance(answer["edit_key"], str) and len(answer["edit_key"]) >= 16
        world.accepted(keep_scene=True)
        client = world.app.test_client()
        pages = [f"/g/{answer['id']}", "/history"]
        for url in pages + [f"/players/{quote(name, safe='')}" for name in names]:
            check_page(client.get(url), f"GET {url} after creating {body!r:.300}")


# --------------------------------------------------------------------------------------------
# Recording and correcting rounds


#: The games rounds are recorded in: (name, variant, players, quick entry possible).
ROUND_GAMES = [
    ("classic", "classic", 4, True),
    ("aggravated", "aggravated", 5, False),
    ("delayed", "delayed", 4, False),
    ("hat", "hat-trick", 5, True),
]


def rounds_scene(build: SceneBuilder) -> None:
    """A game of each family with its first round recorded."""
    for name, variant, players, quick in ROUND_GAMES:
        build.game(name, variant, NAMES[:players], rounds=3)
        build.record(name, legal_entries(players, variant, quick))


GAME_CHOICE = st.sampled_from(ROUND_GAMES)


@fuzz_settings(40)
@given(data=st.data(), choice=GAME_CHOICE, quick=st.booleans(), mode=AUTH)
def test_recording_a_round_from_any_body_scores_it_or_changes_nothing(
    world: World, data: st.DataObject, choice: tuple[str, str, int, bool], quick: bool, mode: str
) -> None:
    scene = world.use("rounds", rounds_scene)
    name, variant, players, can_quick = choice
    game, other = scene.games[name], scene.games["classic" if name != "classic" else "hat"]
    legal = {"version": game["version"], "entries": legal_entries(players, variant, quick)}
    body = data.draw(maybe_mutated(legal), label="body")
    headers = auth_headers(mode, game["edit_key"], other["edit_key"])
    status, answer = send(world, "POST", f"/api/v1/games/{game['id']}/rounds", body, headers)
    if expect(status, mode, 201, game, answer):
        assert len(answer["rounds"]) == len(game["rounds"]) + 1, answer
        world.accepted()


@fuzz_settings(35)
@given(
    data=st.data(),
    choice=GAME_CHOICE,
    number=ROUND_NUMBERS,
    quick=st.booleans(),
    mode=AUTH,
)
def test_correcting_a_round_from_any_body_scores_it_again_or_changes_nothing(
    world: World,
    data: st.DataObject,
    choice: tuple[str, str, int, bool],
    number: str,
    quick: bool,
    mode: str,
) -> None:
    scene = world.use("rounds", rounds_scene)
    name, variant, players, _ = choice
    game, other = scene.games[name], scene.games["delayed" if name != "delayed" else "hat"]
    legal = {"version": game["version"], "entries": legal_entries(players, variant, quick)}
    body = data.draw(maybe_mutated(legal), label="body")
    path = f"/api/v1/games/{game['id']}/rounds/{number}"
    headers = auth_headers(mode, game["edit_key"], other["edit_key"])
    status, answer = send(world, "PUT", path, body, headers)
    if number in NO_NUMBER:
        assert status == 404, (status, answer)  # no round number: no such endpoint
    elif expect(status, mode, 200, game, answer):
        assert len(answer["rounds"]) == len(game["rounds"]), answer
        world.accepted()


# --------------------------------------------------------------------------------------------
# Live rounds: open one, play a trick, take the last trick back


LIVE_GAMES = [
    ("classic", "classic", 4),
    ("hazy", "hazy", 3),
    ("delayed", "delayed", 4),
    ("hat", "hat-trick", 5),
]


def live_open_scene(build: SceneBuilder) -> None:
    """Games whose next round can be opened live: with indicators, hidden ones, or none."""
    for name, variant, players in LIVE_GAMES:
        build.game(name, variant, NAMES[:players], rounds=2)


@fuzz_settings(30)
@given(
    data=st.data(),
    choice=st.sampled_from(LIVE_GAMES),
    with_marked=st.booleans(),
    mode=AUTH,
)
def test_opening_a_live_round_from_any_body_opens_it_or_changes_nothing(
    world: World,
    data: st.DataObject,
    choice: tuple[str, str, int],
    with_marked: bool,
    mode: str,
) -> None:
    scene = world.use("live-open", live_open_scene)
    name, variant, players = choice
    game, other = scene.games[name], scene.games["hat" if name != "hat" else "classic"]
    legal: dict[str, Any] = {"version": game["version"]}
    if with_marked:
        legal["marked"] = legal_marked(players, variant)
    body = data.draw(maybe_mutated(legal), label="body")
    headers = auth_headers(mode, game["edit_key"], other["edit_key"])
    status, answer = send(world, "POST", f"/api/v1/games/{game['id']}/rounds/live", body, headers)
    if expect(status, mode, 201, game, answer):
        assert answer["rounds"][-1]["mode"] == "live", answer
        assert answer["rounds"][-1]["tricks_played"] == 0, answer
        world.accepted()


def live_play_scene(build: SceneBuilder) -> None:
    """A classic and a Hat Trick game, each in a live round with one trick played."""
    for name, variant, players in (("classic", "classic", 4), ("hat", "hat-trick", 4)):
        state = build.game(name, variant, NAMES[:players], rounds=2)
        marked = {"marked": legal_marked(players, variant)} if variant == "classic" else {}
        build.call(name, "POST", "/rounds/live", marked, 201)
        field = "plays" if variant == "hat-trick" else "cards"
        trick = next_legal_trick(build.app, state["id"], 1)
        build.call(name, "POST", "/rounds/1/tricks", {field: trick}, 201)
    for name in ("classic", "hat"):
        state = build.games[name]
        build.extra[name] = next_legal_trick(build.app, state["id"], 1)


@fuzz_settings(40)
@given(
    data=st.data(),
    name=st.sampled_from(["classic", "hat"]),
    number=ROUND_NUMBERS,
    mode=AUTH,
)
def test_playing_a_trick_from_any_body_records_it_or_changes_nothing(
    world: World, data: st.DataObject, name: str, number: str, mode: str
) -> None:
    scene = world.use("live-play", live_play_scene)
    game, other = scene.games[name], scene.games["hat" if name == "classic" else "classic"]
    field = "plays" if name == "hat" else "cards"
    legal = {"version": game["version"], field: scene.extra[name]}
    body = data.draw(maybe_mutated(legal), label="body")
    path = f"/api/v1/games/{game['id']}/rounds/{number}/tricks"
    headers = auth_headers(mode, game["edit_key"], other["edit_key"])
    status, answer = send(world, "POST", path, body, headers)
    if number in NO_NUMBER:
        assert status == 404, (status, answer)
    elif expect(status, mode, 201, game, answer):
        assert answer["rounds"][0]["tricks_played"] == 2, answer
        assert 0 <= answer["winner"] < len(answer["players"]), answer
        world.accepted()


VERSION_QUERIES = st.sampled_from(["", "0", "-1", "x", "99999999999", "٣", "3 ", "+3", "3.0"])


@fuzz_settings(30)
@given(
    data=st.data(),
    name=st.sampled_from(["classic", "hat"]),
    number=ROUND_NUMBERS,
    mode=AUTH,
    how=st.sampled_from(["body", "body", "query", "both"]),
    query=VERSION_QUERIES,
    what=st.sampled_from(["tricks/last", "tricks/last/cards/last"]),
)
def test_taking_back_a_trick_or_its_last_card_from_any_body_or_query_does_it_or_nothing(
    world: World,
    data: st.DataObject,
    name: str,
    number: str,
    mode: str,
    how: str,
    query: str,
    what: str,
) -> None:
    scene = world.use("live-play", live_play_scene)
    game, other = scene.games[name], scene.games["hat" if name == "classic" else "classic"]
    version = str(game["version"])
    query = data.draw(st.sampled_from([version, version, query]), label="query")
    path = f"/api/v1/games/{game['id']}/rounds/{number}/{what}"
    if how != "body":
        path += f"?version={query}"
    headers = auth_headers(mode, game["edit_key"], other["edit_key"])
    client = world.app.test_client()
    world.sending()
    if how == "query":
        response = client.delete(path, headers=headers)
        where = f"DELETE {path} {headers}"
    else:
        body = data.draw(mutated({"version": game["version"]}) | st.just({"version": 0}))
        body = data.draw(st.sampled_from([{"version": game["version"]}, body]), label="body")
        response = client.delete(
            path, data=json_bytes(body), content_type="application/json", headers=headers
        )
        where = f"DELETE {path} {headers} {body!r:.500}"
    answer = check_api(response, where)
    status = response.status_code
    if status >= 300:
        world.refused(where)
    if number in NO_NUMBER:
        assert status == 404, (status, answer)
    elif expect(status, mode, 200, game, answer):
        assert answer["rounds"][0]["tricks_played"] == 0, answer
        assert ("reopened" in answer) == what.endswith("/cards/last"), answer
        world.accepted()
