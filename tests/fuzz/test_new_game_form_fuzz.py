"""Fuzzing the new-game form, and the refusal of a name one character too long.

The form is read from the page (its CSRF token and fields), filled in as a table would (3 to
8 names, a variant, rounds, the first leader), then mutated: fields missing, repeated or full
of garbage, invalid UTF-8, names with markup or NUL bytes, rows past the eighth. A refused
form changes nothing; an accepted one starts a consistent game whose pages show every name
as text.
"""

from __future__ import annotations

from urllib.parse import quote

from hypothesis import given
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from companion.data.models import MAX_NAME_LENGTH, name_key
from scripts.page_reader import read_page
from tests.fuzz.answers import MARKUP, check_page
from tests.fuzz.forms import Pairs, fuzz_form, post_form
from tests.fuzz.world import SceneBuilder, World, fuzz_settings

#: Names a table might type: ordinary, with markup, accents, the longest allowed, one more.
TYPED_NAMES = (
    st.sampled_from(["Ann", "Ben", "Cleo", "Dan", "Eve"])
    | st.sampled_from(
        [
            "Ann",
            "Ben",
            "Cleo",
            "Dan",
            "Eve",
            *MARKUP,
            "Ζωή",
            "A" * MAX_NAME_LENGTH,
            "B" * (MAX_NAME_LENGTH + 1),
            "  Zoë   Marie ",
            "a\x00b",
            "\u202eevil",
        ]
    )
    | st.text(min_size=1, max_size=12)
)


def new_game_scene(build: SceneBuilder) -> None:
    """One game already played, so some names are known (and matched whatever their case)."""
    build.game("known", "classic", ["Ann", "Ben", "Cleo"])


@st.composite
def filled_in(draw: st.DrawFn) -> Pairs:
    """The new-game form as a table fills it in."""
    names = draw(st.lists(TYPED_NAMES, min_size=3, max_size=8, unique_by=name_key))
    pairs: Pairs = [(f"player_{row}", name) for row, name in enumerate(names)]
    variant = draw(
        st.sampled_from(["classic", "mild", "aggravated", "hazy", "delayed", "hat-trick", "custom"])
    )
    pairs.append(("variant", variant))
    if variant == "custom":
        pairs += [
            ("scoring", draw(st.sampled_from(["classic", "mild", "reverse"]))),
            ("colours", draw(st.sampled_from(["1", "2"]))),
            ("reveal", draw(st.sampled_from(["open", "hazy", "delayed"]))),
        ]
    pairs.append(("rounds", str(draw(st.integers(1, 10)))))
    pairs.append(("first_leader", str(draw(st.integers(0, len(names) - 1)))))
    return pairs


@fuzz_settings(40)
@given(data=st.data(), overlay=filled_in())
def test_any_new_game_form_starts_a_consistent_game_or_changes_nothing(
    world: World, data: st.DataObject, overlay: Pairs
) -> None:
    scene = world.use("new-game", new_game_scene)
    fuzz_form(world, scene, data, "/games/new", "game-form", overlay, False, keep_scene=True)


# --------------------------------------------------------------------------------------------
# The 40-character limit, and markup in names


def send_new_game(world: World, names: list[str]) -> TestResponse:
    """Send the new-game form with ``names`` in the first rows, as the editor's phone."""
    scene = world.use("new-game", new_game_scene)
    form = scene.form("/games/new", "game-form")
    pairs: Pairs = [(k, v) for k, v in form.fields if not k.startswith("player_")]
    pairs += [(f"player_{row}", name) for row, name in enumerate(names)]
    world.sending()
    response = post_form(scene.editor, "/games/new", pairs)
    check_page(response, f"new game {names}")
    return response


def test_a_name_of_41_characters_is_refused_beside_its_field_and_saves_nothing(
    world: World,
) -> None:
    response = send_new_game(world, ["Dora", "B" * (MAX_NAME_LENGTH + 1), "Emil"])
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    world.refused("a 41-character name")
    form = read_page(page)
    field = form.find("input", name="player_1")
    assert field.get("aria-invalid") == "true"
    assert field.get("aria-describedby") == "player_1-errors"
    errors = form.after(field)  # the field's own error list, right after it in its row
    assert (errors.tag, errors.get("id")) == ("ul", "player_1-errors")
    assert "A name has at most 40 characters; this one has 41." in errors.text


def test_a_name_of_40_characters_is_accepted(world: World) -> None:
    response = send_new_game(world, ["Dora", "B" * MAX_NAME_LENGTH, "Emil"])
    assert response.status_code == 302
    world.accepted()


def test_names_with_markup_are_shown_as_text_on_every_page(world: World) -> None:
    response = send_new_game(world, MARKUP)
    assert response.status_code == 302
    world.accepted()
    game = response.headers["Location"]  # the new game's scoreboard
    names = [quote(name, safe="") for name in MARKUP]
    pages = ["/", "/history", *(f"/players/{name}" for name in names)]
    pages += [game, f"{game}/view", f"{game}/resolve", f"{game}/setup", f"{game}/abandon"]
    pages += [f"{game}/rounds/record", f"/players/{names[0]}/rename"]
    client = world.scene.editor if world.scene else world.app.test_client()
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        text = check_page(response, f"GET {url}")
        assert "&lt;script&gt;alert(" in text or "&lt;b&gt;fz" in text, url
