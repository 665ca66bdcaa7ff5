"""Fuzzing the round pages: mark colours, record a round (quick entry, every card, Hat Trick
counts and cards, Delayed captures with the colour choice), and correct a round.

Each form is read from its page, filled in with a legal round (or left as the page shows it,
for a correction: the round as it was entered), perhaps a button pressed (check or save),
then mutated: chips tapped twice or for cards outside the deck, counts of garbage,
seats that do not exist, a stale or missing version, no CSRF token, a phone without the edit
key. A refused form changes nothing; an accepted one leaves every game consistent.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.web.games.entry.forms import Kind
from tests.fuzz.answers import check_page
from tests.fuzz.forms import Pairs, fuzz_form, post_form
from tests.fuzz.legal import as_form, legal_entries, legal_marked
from tests.fuzz.world import SceneBuilder, World, fuzz_settings

NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def rounds_scene(build: SceneBuilder) -> None:
    """A game of each kind of entry with one round recorded, and two whose next round's
    colours are marked (one of them hazy, where the record page asks before it shows them)."""
    build.game("classic", "classic", NAMES, rounds=3)
    build.record("classic", legal_entries(4, "classic", quick=True))
    build.game("hat", "hat-trick", NAMES, rounds=3)
    build.record("hat", legal_entries(4, "hat-trick", quick=True))
    build.game("delayed", "delayed", NAMES, rounds=3)
    build.record("delayed", legal_entries(4, "delayed"))
    build.game("marked", "aggravated", NAMES[:3], rounds=2)
    build.mark("marked", legal_marked(3, "aggravated"))
    build.game("hazy", "hazy", NAMES[:3], rounds=2)
    build.mark("hazy", legal_marked(3, "hazy"))


#: (game, page, kind of form, legal round to fill in or None to keep the page's own values)
PAGES = [
    ("classic", "/rounds/mark", Kind.MARK, ("classic", 4, False)),
    ("classic", "/rounds/record", Kind.QUICK, ("classic", 4, True)),
    ("classic", "/rounds/record?mode=full", Kind.FULL, ("classic", 4, False)),
    ("classic", "/rounds/1", Kind.QUICK, None),
    ("classic", "/rounds/1?mode=full", Kind.FULL, None),
    ("hat", "/rounds/record", Kind.HAT_QUICK, ("hat-trick", 4, True)),
    ("hat", "/rounds/record?mode=full", Kind.HAT_FULL, ("hat-trick", 4, False)),
    ("hat", "/rounds/1?mode=full", Kind.HAT_FULL, None),
    ("delayed", "/rounds/record", Kind.DELAYED, ("delayed", 4, False)),
    ("delayed", "/rounds/1", Kind.DELAYED, None),
    ("marked", "/rounds/record", Kind.FULL, None),
    ("marked", "/rounds/record?mode=full", Kind.FULL, ("aggravated", 3, False)),
    ("hazy", "/rounds/record?reveal=1", Kind.QUICK, ("hazy", 3, True)),
]


@fuzz_settings(50)
@given(data=st.data(), page=st.sampled_from(PAGES), fill=st.sampled_from([True, True, False]))
def test_any_round_form_scores_a_consistent_round_or_changes_nothing(
    world: World,
    data: st.DataObject,
    page: tuple[str, str, Kind, tuple[str, int, bool] | None],
    fill: bool,
) -> None:
    scene = world.use("round-forms", rounds_scene)
    name, path, kind, legal = page
    overlay = None
    if legal is not None and fill:
        variant, players, quick = legal
        overlay = as_form(kind, legal_entries(players, variant, quick))
        if kind is Kind.MARK:
            overlay = [(k, v) for k, v in overlay if k.endswith("-marked")]
    fuzz_form(world, scene, data, f"/g/{scene.games[name]['id']}{path}", "round-form", overlay)


# --------------------------------------------------------------------------------------------
# Found by the fuzzing above, kept as a plain example


def test_a_chip_value_with_markup_is_named_as_text_in_its_refusal(world: World) -> None:
    """A chip value that is no card is quoted in the refusal beside the field: as text."""
    scene = world.use("round-forms", rounds_scene)
    url = f"/g/{scene.games['classic']['id']}/rounds/record"
    form = scene.form(url, "round-form")
    pairs: Pairs = [*form.fields, ("s0-marked", '<script>alert("fz")</script>')]
    world.sending()
    response = post_form(scene.editor, form.action, pairs)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "&lt;script&gt;alert(" in page  # quoted in the refusal, as text
    check_page(response, f"POST {url} with markup as a chip")
    world.refused(f"POST {url} with markup as a chip")
