"""The blank pages of a game of each shape (companion/web/games/blank_pages.py), on which a phone
draws a game it started with no network (issue 26, point 4): a frame holds the very forms
a game of its variant and number of players shows before its first round, reads and stores
nothing, and leads to no real game."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient

from companion.rules import Variant, variant_from_settings, variant_named
from companion.rules.variants import PRESETS, SCORINGS
from companion.web.games.blank_pages import FRAME_CODE, frame_slug, variant_of_slug
from scripts.page_reader import read_page
from tests.table import Table

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]
#: Every variant once (the presets, and settings no preset has), and every number of
#: players at least once: (the variant as the API takes it, its frame's slug, players).
SHAPES = [
    ("classic", "classic-1-open", 3),
    ("classic", "classic-1-open", 8),
    ("mild", "mild-1-open", 4),
    ("reverse", "reverse-1-open", 5),
    ("aggravated", "classic-2-open", 6),
    ("hazy", "classic-1-hazy", 7),
    ("delayed", "classic-1-delayed", 4),
    ("hat-trick", "hat-trick", 5),
    ({"game": "classic", "scoring": "mild", "colours": 2, "reveal": "hazy"}, "mild-2-hazy", 4),
    (
        {"game": "classic", "scoring": "reverse", "colours": 1, "reveal": "delayed"},
        "reverse-1-delayed",
        3,
    ),
]
#: The round pages of a game before its first round (the record page in each entry mode).
ROUND_PAGES = ["record", "record?mode=quick", "record?mode=full", "mark", "live"]


def fields_of(page: str) -> list[tuple[str, str, str, bool]]:
    """What a round page's forms post, in page order: each field's name, type, value and
    whether it is chosen; the form token and the game's version left out (the game's, not
    the shape's)."""
    main = read_page(page).find("main")
    fields = [
        (
            field.get("name") or "",
            field.get("type") or "",
            field.get("value") or "",
            "checked" in field.attrs,
        )
        for form in main.find_all("form")
        for field in form.find_all()
        if field.tag in {"input", "select", "button", "textarea"}
    ]
    assert fields, "a round page with no form"
    return [field for field in fields if field[0] not in {"csrf_token", "version"}]


@pytest.mark.parametrize(("variant", "slug", "players"), SHAPES)
def test_a_frame_holds_the_forms_of_a_game_of_its_shape(
    client: FlaskClient, table: Table, variant: Any, slug: str, players: int
) -> None:
    game = table.new_game(NAMES[:players], variant, rounds=3, edit_here=True)
    for page in ROUND_PAGES:
        real = client.get(f"/g/{game['id']}/rounds/{page}")
        frame = client.get(f"/games/frame/{players}/{slug}/rounds/{page}")
        if real.status_code == 302:  # no such page in this variant (no colours marked first)
            assert frame.status_code == 404, page
            continue
        assert (real.status_code, frame.status_code) == (200, 200), page
        real_fields = fields_of(real.get_data(as_text=True))
        assert fields_of(frame.get_data(as_text=True)) == real_fields, page


@pytest.mark.parametrize(("variant", "slug", "players"), SHAPES)
def test_a_frame_seats_its_players_by_number_and_leads_to_no_real_game(
    client: FlaskClient, variant: Any, slug: str, players: int
) -> None:
    for page in ["", "/rounds/record", "/rounds/live"]:
        answer = client.get(f"/games/frame/{players}/{slug}{page}")
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "no-cache"
        html = read_page(answer.get_data(as_text=True))
        assert html.find("main").get("data-game") == FRAME_CODE
        addresses = [
            address
            for element in html.find_all()
            for address in (element.get("href"), element.get("action"), element.get("formaction"))
            if address and address.startswith("/g/")
        ]
        assert addresses and all(
            a.startswith(f"/g/{FRAME_CODE}/") or a == f"/g/{FRAME_CODE}" for a in addresses
        )
    record = read_page(
        client.get(f"/games/frame/{players}/{slug}/rounds/record").get_data(as_text=True)
    )
    names = [name.text for name in record.find_all(class_="round-seat__name")]
    assert names == [f"Player {seat}" for seat in range(1, players + 1)]  # the first seat leads
    full = read_page(
        client.get(f"/games/frame/{players}/{slug}/rounds/record?mode=full").get_data(as_text=True)
    )
    switches = [
        button.get("formaction")
        for page in (record, full)
        for button in page.find_all("button", data_switch=True)
    ]
    frame = f"/games/frame/{players}/{slug}/rounds/record"
    if slug.endswith("delayed"):  # every card only (R16)
        assert switches == []
    else:  # to the frame's own pages: quick entry is its record page, every card its mode
        assert switches == [f"{frame}?mode=full", frame]


def test_a_frame_reads_and_stores_nothing(client: FlaskClient) -> None:
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    sa.event.listen(sa.engine.Engine, "before_cursor_execute", count)
    try:
        for page in [
            "",
            "/rounds/record",
            "/rounds/record?mode=full",
            "/rounds/mark",
            "/rounds/live",
        ]:
            assert client.get(f"/games/frame/4/classic-1-open{page}").status_code == 200
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", count)
    assert statements == []


@pytest.mark.parametrize(
    "address",
    [
        "/games/frame/3/hat-trick",  # Hat Trick seats 4 to 7 (R17)
        "/games/frame/8/hat-trick",
        "/games/frame/2/classic-1-open",  # the classic family seats 3 to 8 (R2)
        "/games/frame/9/classic-1-open",
        "/games/frame/4/classic",
        "/games/frame/4/classic-3-open",  # 1 or 2 colours marked
        "/games/frame/4/classic-01-open",  # a variant has one name
        "/games/frame/4/wild-1-open",
        "/games/frame/4/classic-1-closed",
        "/games/frame/4/classic-1-delayed/rounds/mark",  # delayed: nothing marked first (R16)
        "/games/frame/5/hat-trick/rounds/mark",
        "/games/frame/4/classic-1-open/rounds/3",
    ],
)
def test_a_frame_of_a_shape_there_is_not_is_not_found(client: FlaskClient, address: str) -> None:
    assert client.get(address).status_code == 404


def every_variant() -> list[Variant]:
    settings = product(SCORINGS, (1, 2), ("open", "hazy", "delayed"))
    return [variant_named(name) for name in PRESETS] + [
        variant_from_settings(scoring, colours, reveal) for scoring, colours, reveal in settings
    ]


def test_every_variant_has_one_slug_that_names_it() -> None:
    variants = every_variant()
    slugs = [frame_slug(variant) for variant in variants]
    assert all(
        variant_of_slug(slug) == variant for slug, variant in zip(slugs, variants, strict=True)
    )
    assert len(set(slugs)) == len({repr(variant.as_json()) for variant in variants})
