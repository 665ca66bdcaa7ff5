"""The rules page (/rules): every ruling R1-R23 and check C1-C6 under its own anchor, the
tables computed by the rules (R2, R17, the variants), links that all land, and the
page in the reader's language."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from flask.testing import FlaskClient

from scripts.page_reader import read_page

#: Its tests' bodies run no statement on the app's database (tests/conftest.py checks).
pytestmark = pytest.mark.no_database_queries

RULINGS = [f"r{number}" for number in range(1, 24)]
CHECKS = [f"c{number}" for number in range(1, 7)]


def rules_page(client: FlaskClient, **headers: str) -> str:
    """The rules page as a phone opens it."""
    response = client.get("/rules", headers=headers)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def ruling_ids(page: str) -> Counter[str]:
    """How often each ruling-shaped id ("r7", "c3") occurs on the page."""
    ids = [str(element.get("id")) for element in read_page(page).find_all(id=True)]
    return Counter(id_ for id_ in ids if re.fullmatch(r"[rc]\d+", id_))


def table_rows(page: str, caption: str) -> list[list[str]]:
    """The body rows of the table with ``caption``, as the text of their cells."""
    tables = [t for t in read_page(page).find_all("table") if t.find_all("caption")]
    found = [t for t in tables if t.find("caption").text == caption]
    assert found, f"no table {caption!r}"
    rows = found[0].find("tbody").find_all("tr")
    return [[cell.text for cell in row.children if cell.tag in ("th", "td")] for row in rows]


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
    ids = {element.get("id") for element in read_page(page).find_all(id=True)}

    hrefs = [str(link.get("href")) for link in read_page(page).find_all(href=True)]
    targets = {href.split("#", 1)[1] for href in hrefs if href.startswith(("#", "/rules#"))}

    assert {"deck", "round", "tricks", "scoring", "variants", "hat-trick", "checks"} <= targets
    assert targets <= ids


def test_the_page_has_one_h1_and_headings_that_never_skip_a_level(client: FlaskClient) -> None:
    page = rules_page(client)
    main = read_page(page).find("main")

    levels = [int(e.tag[1]) for e in main.find_all() if re.fullmatch(r"h[1-6]", e.tag)]

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


# --------------------------------------------------------------------------------------------
# The page says what the rulebooks say, and marks the app's own conventions


def ruling_text(page: str, anchor: str) -> str:
    """The words of the ruling ``anchor`` ("r3"), tags dropped."""
    return "".join(read_page(page).find("div", class_="ruling", id=anchor).strings)


#: (language, what R3 now says, the old "suggests" verb it must no longer use)
R3_WORDING = [
    ("en", "The rulebooks say the youngest player leads the first trick of round 1", "suggest"),
    ("de", "Die Spielregeln sagen: Der jüngste Spieler eröffnet den ersten Stich", "schlägt"),
    ("it", "I regolamenti dicono che il giocatore più giovane apre la prima presa", "suggerisce"),
    ("fr", "Les règles disent que le plus jeune joueur entame le premier pli", "propose"),
    ("hu", "A szabálykönyvek szerint az 1. forduló első ütésében a legfiatalabb", "javasol"),
]


@pytest.mark.parametrize(("language", "says", "suggests"), R3_WORDING)
def test_r3_says_the_rulebooks_say_the_youngest_player_leads_round_one(
    client: FlaskClient, language: str, says: str, suggests: str
) -> None:
    """000 "Il giocatore più giovane comincia", 002 "Le plus jeune joueur commence": the
    rulebooks state it, they do not suggest it."""
    r3 = ruling_text(rules_page(client, **{"Accept-Language": language}), "r3")

    assert says in r3
    assert suggests not in r3


#: The label in each language, as the table would say "house rule".
HOUSE_RULE_LABELS = {
    "en": "House rule",
    "de": "Hausregel",
    "it": "Regola della casa",
    "fr": "Règle maison",
    "hu": "Házszabály",
}

#: Where the page rules by the app's own convention, not by a rulebook: (the ruling or section
#: the note sits in, what it is about).
HOUSE_RULES = [
    ("r3", "dealer"),  # R3: round 1's dealer sits just before its first leader
    ("r3", "deal"),  # R3: the deal passes one seat clockwise each round
    ("r3", "play-again"),  # R3: "Play again" is led by the seat after the first leader
    ("r11", "rounds"),  # R11: 1 to 10 rounds
    ("r11", "shared-win"),  # R11: equal highest totals share the win
    ("variants", "combinations"),  # section 5: any combination of the three settings
    ("r14", "two-colours-reverse"),  # two colours with Reverse
    ("r16", "two-colours-delayed"),  # two colours with Delayed
]
#: The ids of the rulings and sections a house-rule note can sit in.
PLACES = re.compile(r"r\d+|c\d+|deck|round|tricks|scoring|variants|hat-trick|checks")


def house_rules(page: str) -> list[tuple[str, str, str, str]]:
    """Every house-rule note: the ruling or section it sits in (the last one whose id came
    before it), its topic, its visible label and its words."""
    notes = []
    place = ""
    for element in read_page(page).find_all():
        if PLACES.fullmatch(element.get("id") or ""):
            place = str(element.get("id"))
        if element.tag == "p" and element.classes == ["house-rule"]:
            topic = element.get("data-house-rule")
            assert topic, element
            label = element.find("strong", class_="house-rule__label")
            words = "".join(element.strings).strip()
            notes.append((place, topic, label.own_text, words))
    return notes


@pytest.mark.parametrize("language", list(HOUSE_RULE_LABELS))
def test_house_rule_labels_mark_exactly_the_apps_own_conventions(
    client: FlaskClient, language: str
) -> None:
    page = rules_page(client, **{"Accept-Language": language})

    notes = house_rules(page)

    assert [(place, topic) for place, topic, _, _ in notes] == HOUSE_RULES
    label = HOUSE_RULE_LABELS[language]
    assert all(shown == label for _, _, shown, _ in notes)
    assert all(len(words) > len(label) + 10 for _, _, _, words in notes)
    assert page.count(label) == len(HOUSE_RULES) + 1  # the notes, and the intro that explains them


def test_house_rule_notes_say_which_convention_they_are(client: FlaskClient) -> None:
    words = {topic: text for _, topic, _, text in house_rules(rules_page(client))}

    assert "the deal moves one seat clockwise" in words["deal"]
    assert "The dealer of round 1 is the player just before the leader" in words["dealer"]
    assert "the seat after the previous game’s first leader" in words["play-again"]
    assert "from 1 to 10" in words["rounds"]
    assert "share the win" in words["shared-win"]
    assert "two colours with Delayed" in words["combinations"]
    assert "With Reverse, both colours are lucky." in words["two-colours-reverse"]
    assert words["two-colours-delayed"].startswith("House rule: With two colours")


@pytest.mark.parametrize("language", list(HOUSE_RULE_LABELS))
def test_r21_example_gives_the_lead_to_the_player_of_the_deciding_card(
    client: FlaskClient, language: str
) -> None:
    """000: "quello che ha giocato la 2° (o 3, o 4, ecc.) carta più elevata comincia la presa
    seguente"; 002: "celui qui a posé la 2e (ou 3e, ou 4e, etc.) carte la plus élevée
    commence". In the example Dan plays red 11, which decides, so Dan leads, not Ben."""
    text = ruling_text(rules_page(client, **{"Accept-Language": language}), "r21")

    assert text.count("Dan") == 2  # he plays red 11, and he leads next
    assert text.count("Ben") == 2  # he plays red 14 and takes the red pile, nothing more
    if language == "en":
        assert "so red 11 decides: Dan played it and leads next, though he took no pile." in text
        assert "whoever played it leads the next trick, even without taking a pile" in text


#: (language, the aim as the rulebooks say it, the old "as many as you like")
AIM_WORDING = [
    ("en", "as many tricks as possible", "as you like"),
    ("de", "möglichst viele Stiche", "wie du willst"),
    ("it", "più prese possibile", "che vuoi"),
    ("fr", "le plus de plis possible", "que vous voulez"),
    ("hu", "minél több ütést", "amennyit csak akarsz"),
]


@pytest.mark.parametrize(("language", "aim", "old"), AIM_WORDING)
def test_the_introduction_aims_at_as_many_tricks_as_possible(
    client: FlaskClient, language: str, aim: str, old: str
) -> None:
    """002 "remporter un maximum de plis", 000 "ottenere il massimo di prese", 003 "annyi
    ütést szerezzünk, amennyi csak lehetséges": the most tricks, not any number at will."""
    intro = read_page(rules_page(client, **{"Accept-Language": language})).find("main")
    first = intro.find("p").words()

    assert aim in first
    assert old not in first


#: (language, the old order to deal every card, which 7 and 8 players do not, and what R2
#: says instead of the cards left over)
DEAL_ALL = [
    ("en", "deal them all", "with 7 players 3 cards are left over, with 8 players 2"),
    ("de", "verteilt alle", "bei 7 Spielern bleiben 3 Karten übrig, bei 8 Spielern 2"),
    ("it", "distribuiscile tutte", "con 7 giocatori ne avanzano 3, con 8 giocatori 2"),
    ("fr", "distribuez-les toutes", "à 7 joueurs, il en reste 3, à 8 joueurs, 2"),
    ("hu", "osszátok ki az összeset", "7 játékosnál 3 lap marad, 8 játékosnál 2"),
]


@pytest.mark.parametrize(("language", "deal_all", "left_over"), DEAL_ALL)
def test_r2_says_the_deal_once_with_the_cards_left_out(
    client: FlaskClient, language: str, deal_all: str, left_over: str
) -> None:
    """R2: 15 cards each (14 with 8 players), so 7 players leave 3 cards out and 8 leave 2:
    the page must not first say to deal every card, and says the counts its table shows."""
    page = rules_page(client, **{"Accept-Language": language})
    r2 = read_page(page).find("div", class_="ruling", id="r2")
    rows = r2.find("tbody").find_all("tr")
    left_out = {row.find("th").text: row.find_all("td")[-1].text for row in rows}

    assert deal_all not in r2.words()
    assert (left_out["7"], left_out["8"]) == ("3", "2")
    assert left_over in r2.words()


#: "Our reading" in each language: how the app reads a point the rulebooks leave open.
READING_LABELS = {
    "en": "Our reading",
    "de": "Unsere Lesart",
    "it": "Nostra interpretazione",
    "fr": "Notre interprétation",
    "hu": "A mi értelmezésünk",
}


@pytest.mark.parametrize("language", list(READING_LABELS))
def test_r21_labels_a_pile_running_out_first_as_our_reading(
    client: FlaskClient, language: str
) -> None:
    """The rulebooks compare the second, third... cards and then the colours (002 "S'il y a
    toujours égalité, [...] le rouge bat le bleu, qui bat le vert"); what happens when one pile
    runs out first is the app's reading, and the page says so in a labelled note."""
    page = rules_page(client, **{"Accept-Language": language})
    r21 = read_page(page).find("div", class_="ruling", id="r21")

    (note,) = r21.find_all("p", data_our_reading=True)
    assert note.find("strong", class_="house-rule__label").own_text == READING_LABELS[language]
    plain = [p.words() for p in r21.find_all("p") if p is not note]
    reading = note.words()
    if language == "en":
        assert "A pile that runs out of cards first loses" in reading
        assert not any("runs out" in words for words in plain)
        assert any("red beats blue and blue beats green" in words for words in plain)
    assert page.count(READING_LABELS[language]) == 2  # the note, and the intro that explains it
