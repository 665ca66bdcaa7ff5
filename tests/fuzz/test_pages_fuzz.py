"""Fuzzing the pages that only calculate or show: the trick resolver's taps (alone and inside
a game), and the query strings and addresses of every page that reads (table setup,
history, player pages, scoreboards, exports, the edit link, the language switch, the round
pages' own switches).

None of them may change the database, whatever it is sent, or answer a 5xx; markup typed as
a name is shown as text; a redirect never leaves the site.
"""

from __future__ import annotations

from urllib.parse import quote, quote_from_bytes

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.answers import MARKUP, check_page, note_status
from tests.fuzz.bodies import CONTROL_TEXT, ODD_TEXT
from tests.fuzz.forms import GARBAGE_VALUES, Pairs, fuzz_form
from tests.fuzz.legal import legal_entries, legal_marked
from tests.fuzz.world import SceneBuilder, World, fuzz_settings

NAMES = ["Ann", "Ben", MARKUP[0], "Dan"]


def pages_scene(build: SceneBuilder) -> None:
    """A classic game with a round scored, a Hat Trick game, a hazy game with its colours
    marked, and a live round in progress."""
    build.game("classic", "classic", NAMES, rounds=2)
    build.record("classic", legal_entries(4, "classic", quick=True))
    build.game("hat", "hat-trick", NAMES, rounds=1)
    build.game("hazy", "hazy", NAMES[:3], rounds=1)
    build.mark("hazy", legal_marked(3, "hazy"))
    build.game("live", "reverse", NAMES[:3], rounds=1)
    build.call("live", "POST", "/rounds/live", {"marked": legal_marked(3, "reverse")}, 201)


TRICKS = st.lists(
    st.sampled_from(["red-5", "blue-7", "green-0", "pass:red-3", "red-5", "violet-17", "x"]),
    max_size=9,
).map(" ".join)


@fuzz_settings(30)
@given(
    data=st.data(),
    where=st.sampled_from(["alone", "classic", "hat"]),
    trick=TRICKS,
    settings=st.lists(
        st.tuples(
            st.sampled_from(["variant", "players", "leader", "pass_next"]),
            st.sampled_from(["classic", "reverse", "hat-trick", "3", "8", "9", "0", "y"])
            | GARBAGE_VALUES,
        ),
        max_size=3,
    ),
)
def test_any_resolver_tap_answers_the_trick_and_changes_nothing(
    world: World, data: st.DataObject, where: str, trick: str, settings: Pairs
) -> None:
    scene = world.use("pages", pages_scene)
    url = "/resolve" if where == "alone" else f"/g/{scene.games[where]['id']}/resolve"
    overlay: Pairs = [("trick", trick), *settings]
    assert not fuzz_form(world, scene, data, url, "resolver", overlay, needs_rights=False)


# --------------------------------------------------------------------------------------------
# Query strings and addresses


QUERY_VALUES = (
    st.sampled_from(["4", "3", "8", "9", "0", "-1", "٣", "1e1", "", "classic", "hat-trick"])
    | st.sampled_from(["custom", "mild", "reverse", "open", "hazy", "delayed", "2", "1", "all"])
    | st.sampled_from(["30d", "year", "2025-01-31", "2025-02-30", "9999-12-31", "0001-01-01"])
    | st.sampled_from(["Ann", MARKUP[1], "full"])
    | ODD_TEXT
    | st.text(max_size=8)
)
QUERY_KEYS = st.sampled_from(
    ["players", "variant", "scoring", "colours", "reveal", "player", "period", "from", "to"]
    + ["page", "mode", "reveal", "next", "trick", "add", "leader"]
) | st.text(max_size=5)
QUERIES = st.lists(st.tuples(QUERY_KEYS, QUERY_VALUES | st.binary(max_size=4)), max_size=5).map(
    lambda pairs: "&".join(
        f"{quote(k.encode('utf-8', 'surrogatepass'), safe='')}="
        + quote_from_bytes(v if isinstance(v, bytes) else v.encode("utf-8", "surrogatepass"))
        for k, v in pairs
    )
)
PAGES = [
    "/",
    "/setup",
    "/resolve",
    "/history",
    "/rules",
    "/games/new",
    "/players/{name}",
    "/players/{name}/rename",
    "/g/{code}",
    "/g/{code}/view",
    "/g/{code}/setup",
    "/g/{code}/resolve",
    "/g/{code}/export.json",
    "/g/{code}/export.csv",
    "/g/{code}/edit/{key}",
    "/g/{code}/rounds/record",
    "/g/{code}/rounds/mark",
    "/g/{code}/rounds/live",
    "/g/{code}/rounds/1",
    "/g/{code}/rounds/1/live",
    "/g/{code}/rounds/1/live/card",
    "/g/{code}/abandon",
    "/g/{code}/delete",
    "/lang/{lang}",
]


@fuzz_settings(50)
@given(
    data=st.data(),
    page=st.sampled_from(PAGES),
    game=st.sampled_from(["classic", "hat", "hazy", "live"]),
    query=QUERIES,
    editor=st.booleans(),
)
def test_any_page_address_and_query_answers_without_changing_anything(
    world: World, data: st.DataObject, page: str, game: str, query: str, editor: bool
) -> None:
    scene = world.use("pages", pages_scene)
    state = scene.games[game]
    code = data.draw(
        st.sampled_from([state["id"], state["id"]]) | CONTROL_TEXT | st.text(max_size=6), "code"
    )
    key = data.draw(
        st.sampled_from([state["edit_key"], state["edit_key"][:-1], "x"]) | CONTROL_TEXT, "key"
    )
    name = data.draw(
        st.sampled_from(NAMES) | ODD_TEXT | CONTROL_TEXT | st.text(min_size=1, max_size=6), "name"
    )
    lang = data.draw(st.sampled_from(["de", "fr", "hu", "it", "en", "xx", ""]), "lang")
    if page.startswith("/lang/"):
        target = data.draw(
            st.sampled_from(["/history", "//evil.example", "/\\evil", "https://evil.example"])
            | st.text(max_size=8),
            "next",
        )
        query = f"next={quote(target.encode('utf-8', 'surrogatepass'), safe='')}&{query}"
    path = page.format(
        code=quote(code.encode("utf-8", "surrogatepass"), safe=""),
        key=quote(key.encode("utf-8", "surrogatepass"), safe=""),
        name=quote(name.encode("utf-8", "surrogatepass"), safe=""),
        lang=lang,
    )
    url = f"{path}?{query}"
    client = scene.editor if editor else scene.stranger
    world.sending()
    response = client.get(url)
    note_status(response)
    check_page(response, f"GET {url}")
    world.refused(f"GET {url}")  # reading a page changes no table


def test_the_last_day_there_is_as_the_end_of_the_history_filter_is_no_server_error(
    world: World,
) -> None:
    """Found by the fuzzing above: ``to=9999-12-31`` has no next day to end before."""
    scene = world.use("pages", pages_scene)
    for url in ("/history?to=9999-12-31", "/history?from=2025-01-01&to=9999-12-31"):
        world.sending()
        response = scene.stranger.get(url)
        check_page(response, f"GET {url}")
        assert response.status_code in (200, 400), url
        world.refused(f"GET {url}")
