"""Fuzzing the live round's pages: start a round live (with indicator chips, or with one
button when the colours are marked already or the variant lays none out), tap a card (the
last card of a trick saves it), take back the last card, take back the last trick.

Each form is read from its page and sent as it is, with a legal card, or mutated: cards that
are no card, played already or laid out, a pass where none is allowed, a stale version, no
CSRF token, a phone without the edit key. A refused tap changes nothing; an accepted one
leaves every game consistent (a live round replayed from its tricks gives its scores).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.web.games.entry.forms import Kind
from scripts.page_reader import csrf_token
from tests.fuzz.forms import Pairs, fuzz_form, post_form
from tests.fuzz.legal import as_form, legal_marked, next_legal_trick
from tests.fuzz.world import SceneBuilder, World, fuzz_settings

NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def token(card: dict[str, Any]) -> str:
    return f"{card['colour']}-{card['value']}"


def start_scene(build: SceneBuilder) -> None:
    """Games whose next round can be started live: indicators to tap, colours marked
    already, or none laid out (Hat Trick)."""
    build.game("classic", "classic", NAMES, rounds=2)
    build.game("marked", "aggravated", NAMES[:3], rounds=2)
    build.mark("marked", legal_marked(3, "aggravated"))
    build.game("hat", "hat-trick", NAMES, rounds=2)


START_PAGES = [("classic", True), ("classic", False), ("marked", False), ("hat", False)]


@fuzz_settings(30)
@given(data=st.data(), page=st.sampled_from(START_PAGES))
def test_any_live_start_form_opens_the_round_or_changes_nothing(
    world: World, data: st.DataObject, page: tuple[str, bool]
) -> None:
    scene = world.use("live-start", start_scene)
    name, fill = page
    overlay = None
    if fill:
        marked = [{"marked": cards} for cards in legal_marked(4, "classic")]
        overlay = as_form(Kind.MARK, marked)
    url = f"/g/{scene.games[name]['id']}/rounds/live"
    fuzz_form(world, scene, data, url, "round-form", overlay)


def play_scene(build: SceneBuilder) -> None:
    """A classic game in a live round with one trick saved and three cards of the next one
    tapped on the editor's phone (the fourth card saves the trick), and a Hat Trick game in
    a live round with one trick saved."""
    classic = build.game("classic", "classic", NAMES, rounds=2)
    build.call("classic", "POST", "/rounds/live", {"marked": legal_marked(4, "classic")}, 201)
    build.call("classic", "POST", "/rounds/1/tricks", {"cards": next_trick(build, "classic")}, 201)
    trick = next_trick(build, "classic")
    live = f"/g/{classic['id']}/rounds/1/live"
    for card in trick[:3]:
        page = build.editor.get(live).get_data(as_text=True)
        fields = [("csrf_token", csrf_token(page)), ("version", str(classic["version"]))]
        answer = post_form(build.editor, f"{live}/card", [*fields, ("card", token(card))])
        assert answer.status_code == 302, answer.get_data(as_text=True)[:500]
    build.extra["classic"] = token(trick[3])
    build.game("hat", "hat-trick", NAMES, rounds=2)
    build.call("hat", "POST", "/rounds/live", {}, 201)
    build.call("hat", "POST", "/rounds/1/tricks", {"plays": next_trick(build, "hat")}, 201)
    build.extra["hat"] = token(next_trick(build, "hat")[0])


def next_trick(build: SceneBuilder, name: str) -> list[dict[str, Any]]:
    return next_legal_trick(build.app, build.games[name]["id"], 1)


#: The live page's forms, by what their action ends with.
LIVE_FORMS = ["/live/card", "/live/card", "/live/card", "/live/undo-card", "/live/undo-trick"]


@fuzz_settings(45)
@given(
    data=st.data(),
    name=st.sampled_from(["classic", "hat"]),
    form=st.sampled_from(LIVE_FORMS),
    fill=st.booleans(),
    passed=st.sampled_from([None, None, "y", "on", ""]),
)
def test_any_live_tap_plays_a_legal_card_or_changes_nothing(
    world: World, data: st.DataObject, name: str, form: str, fill: bool, passed: str | None
) -> None:
    scene = world.use("live-play", play_scene)
    if form.endswith("undo-card"):
        name = "classic"  # the only one with cards of the next trick tapped
    elif form.endswith("undo-trick"):
        name = "hat"  # the page offers it only while no card of the next trick is tapped
    url = f"/g/{scene.games[name]['id']}/rounds/1/live"
    overlay: Pairs = []
    if form.endswith("/card") and fill:
        overlay.append(("card", scene.extra[name]))
    if form.endswith("/card") and passed is not None:
        overlay.append(("pass_next", passed))
    fuzz_form(world, scene, data, url, form, overlay or None)
