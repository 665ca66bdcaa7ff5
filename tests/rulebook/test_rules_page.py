"""The rules page (/rules): every ruling R1-R23 and check C1-C6 under its own anchor, the
tables computed by the rules (R2, R17, RULES.md section 5), links that all land, and the
page in the reader's language."""

from __future__ import annotations

import re
from collections import Counter
from html import unescape

from flask.testing import FlaskClient

RULINGS = [f"r{number}" for number in range(1, 24)]
CHECKS = [f"c{number}" for number in range(1, 7)]


def rules_page(client: FlaskClient, **headers: str) -> str:
    """The rules page as a phone opens it."""
    response = client.get("/rules", headers=headers)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def ruling_ids(page: str) -> Counter[str]:
    """How often each ruling-shaped id ("r7", "c3") occurs on the page."""
    return Counter(re.findall(r'\bid="([rc]\d+)"', page))


def table_rows(page: str, caption: str) -> list[list[str]]:
    """The body rows of the table with ``caption``, as the text of their cells."""
    match = re.search(rf"<caption>{re.escape(caption)}</caption>(.*?)</table>", page, re.S)
    assert match, f"no table {caption!r}"
    body = match.group(1).split("<tbody>")[1]
    return [
        [unescape(cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_every_ruling_and_check_has_exactly_one_anchor(client: FlaskClient) -> None:
    ids = ruling_ids(rules_page(client))

    assert ids == Counter(RULINGS + CHECKS)


def test_every_anchor_is_labelled_with_its_number_and_links_to_itself(
    client: FlaskClient,
) -> None:
    page = rules_page(client)

    for anchor in RULINGS + CHECKS:
        assert f'href="#{anchor}">{anchor.upper()}</a>' in page, anchor


def test_every_link_within_the_page_lands_on_an_element(client: FlaskClient) -> None:
    page = rules_page(client)
    ids = set(re.findall(r'\bid="([^"]+)"', page))

    targets = set(re.findall(r'href="(?:/rules)?#([^"]+)"', page))

    assert {"deck", "round", "tricks", "scoring", "variants", "hat-trick", "checks"} <= targets
    assert targets <= ids


def test_the_page_has_one_h1_and_headings_that_never_skip_a_level(client: FlaskClient) -> None:
    page = rules_page(client)
    main = page[page.index("<main") : page.index("</main>")]

    levels = [int(level) for level in re.findall(r"<h([1-6])\b", main)]

    assert levels.count(1) == 1 and levels[0] == 1
    assert all(after - before <= 1 for before, after in zip(levels, levels[1:], strict=False))


def test_the_cards_per_player_count_table_follows_r2(client: FlaskClient) -> None:
    rows = table_rows(rules_page(client), "Cards used per number of players")

    assert rows == [
        ["3", "5", "0–8", "45", "15", "0"],
        ["4", "5", "0–11", "60", "15", "0"],
        ["5", "5", "0–14", "75", "15", "0"],
        ["6", "6", "0–14", "90", "15", "0"],
        ["7", "6", "0–17", "108", "15", "3"],
        ["8", "6", "0–18", "114", "14", "2"],
    ]


def test_the_hat_trick_table_follows_r17_and_r18(client: FlaskClient) -> None:
    rows = table_rows(rules_page(client), "Hat Trick cards per number of players")

    assert rows == [
        ["4", "1–20", "60", "15", "14"],
        ["5", "1–20", "60", "12", "11"],
        ["6", "1–20", "60", "10", "9"],
        ["7", "0–20", "63", "9", "8"],
    ]


def test_the_presets_table_lists_each_named_variant_with_its_settings(
    client: FlaskClient,
) -> None:
    rows = table_rows(rules_page(client), "The named variants and their settings")

    assert rows == [
        ["Classic", "Classic", "1", "Open"],
        ["Mild", "Mild", "1", "Open"],
        ["Reverse", "Reverse", "1", "Open"],
        ["Aggravated", "Classic", "2", "Open"],
        ["Hazy", "Classic", "1", "Hazy"],
        ["Delayed", "Classic", "1", "Delayed"],
    ]


def test_cross_references_inside_the_text_link_to_their_rulings(client: FlaskClient) -> None:
    page = rules_page(client)
    r23 = page[page.index('id="r23"') : page.index('id="checks"')]

    assert '<a href="/rules#r3">R3</a>' in r23
    assert '<a href="/rules#r11">R11</a>' in r23


def test_the_page_follows_accept_language(client: FlaskClient) -> None:
    page = rules_page(client, **{"Accept-Language": "de"})

    assert '<html lang="de">' in page
    assert ruling_ids(page) == Counter(RULINGS + CHECKS)


def test_the_footer_of_every_page_links_to_the_rules(client: FlaskClient) -> None:
    home = client.get("/").get_data(as_text=True)

    assert '<a href="/rules">' in home[home.index("<footer") :]
