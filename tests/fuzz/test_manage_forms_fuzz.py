"""Fuzzing the forms that manage games and players: abandon, delete, exclude from the
statistics (or count again), rename a player, merge two players.

Each form is read from its page and sent as it is (confirmed, for rename and merge), with
values a person might type (names already taken, the same name, 41 characters, markup), or
mutated; by the phone holding the edit key, a phone without it, or without a CSRF token. A
refused form changes nothing; an accepted one leaves every game consistent, and every page
shows names as text.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.data.models import MAX_NAME_LENGTH
from scripts.page_reader import read_page
from tests.fuzz.answers import MARKUP, check_page
from tests.fuzz.forms import Pairs, fuzz_form, post_form
from tests.fuzz.legal import legal_entries
from tests.fuzz.world import SceneBuilder, World, fuzz_settings


def manage_scene(build: SceneBuilder) -> None:
    """Two games of the editor's sharing Ann (one finished), and a game of another phone."""
    build.game("main", "classic", ["Ann", "Ben", MARKUP[0]], rounds=2)
    build.record("main", legal_entries(3, "classic", quick=True))
    build.game("finished", "mild", ["Ann", "Dan", "Eve"], rounds=1)
    build.record("finished", legal_entries(3, "mild"))
    build.game("foreign", "classic", ["Zed", "Yan", "Xia"], editable=False)


GAME_FORMS = [
    ("main", "/abandon", "confirm-form"),
    ("main", "/delete", "confirm-form"),
    ("finished", "/delete", "confirm-form"),
    ("main", "", "exclude-form"),
    ("finished", "", "exclude-form"),
]


@fuzz_settings(30)
@given(data=st.data(), page=st.sampled_from(GAME_FORMS))
def test_any_abandon_delete_or_exclude_form_does_just_that_or_changes_nothing(
    world: World, data: st.DataObject, page: tuple[str, str, str]
) -> None:
    scene = world.use("manage", manage_scene)
    name, path, selector = page
    fuzz_form(world, scene, data, f"/g/{scene.games[name]['id']}{path}", selector)


@pytest.mark.parametrize("path", ["/abandon", "/delete", "/exclude"])
def test_a_phone_without_the_edit_key_can_neither_abandon_nor_delete_nor_exclude(
    world: World, path: str
) -> None:
    scene = world.use("manage", manage_scene)
    code = scene.games["foreign"]["id"]
    pairs: Pairs = [("csrf_token", scene.editor_token), ("version", "1"), ("excluded", "1")]
    world.sending()
    response = post_form(scene.editor, f"/g/{code}{path}", pairs)
    check_page(response, f"POST /g/{code}{path}")
    assert response.status_code == 403
    world.refused(f"POST /g/{code}{path} without the key")


NEW_NAMES = st.sampled_from(
    [
        "Anna",
        "ann",
        "Ann",
        "Dan",
        "Ben",
        "Zed",
        "Nobody",
        "  Ann   Marie ",
        "A" * MAX_NAME_LENGTH,
        "B" * (MAX_NAME_LENGTH + 1),
        "",
        "   ",
        "a\x00b",
        *MARKUP,
    ]
) | st.text(max_size=12)
PLAYERS = ["Ann", "Ben", MARKUP[0], "Dan", "Zed"]


@fuzz_settings(40)
@given(
    data=st.data(),
    player=st.sampled_from(PLAYERS),
    action=st.sampled_from(["rename", "merge"]),
    value=NEW_NAMES,
    confirmed=st.sampled_from(["yes", "yes", "", "no", None]),
)
def test_any_rename_or_merge_form_renames_merges_or_changes_nothing(
    world: World,
    data: st.DataObject,
    player: str,
    action: str,
    value: str,
    confirmed: str | None,
) -> None:
    scene = world.use("manage", manage_scene)
    field = "new_name" if action == "rename" else "into"
    overlay: Pairs = [(field, value)]
    if confirmed is not None:
        overlay.append(("confirmed", confirmed))
    path = f"/players/{quote(player, safe='')}"
    if player == "Zed":  # the editor keeps none of Zed's games: no form, and no change
        pairs: Pairs = [("csrf_token", scene.editor_token), *overlay]
        world.sending()
        response = post_form(scene.editor, f"{path}/{action}", pairs)
        check_page(response, f"POST {path}/{action} {pairs}")
        assert response.status_code == 403, response.status_code
        world.refused(f"POST {path}/{action} {pairs}")
        return
    fuzz_form(world, scene, data, f"{path}/rename", f"/{action}", overlay)


def test_a_new_name_of_41_characters_is_refused_beside_its_field_and_saves_nothing(
    world: World,
) -> None:
    scene = world.use("manage", manage_scene)
    pairs: Pairs = [
        ("csrf_token", scene.editor_token),
        ("new_name", "C" * (MAX_NAME_LENGTH + 1)),
        ("confirmed", "yes"),
    ]
    world.sending()
    response = post_form(scene.editor, "/players/Ann/rename", pairs)
    page = check_page(response, "rename to 41 characters")
    assert response.status_code == 400
    world.refused("rename to 41 characters")
    form = read_page(page)
    field = form.find("input", name="new_name")
    assert field.get("aria-invalid") == "true"
    errors = form.after(field)  # the field's own error list, right after it
    assert (errors.tag, errors.get("id")) == ("ul", "new-name-errors")
    assert "A name has at most 40 characters" in errors.text
