"""German sentences about a player fit every player (issue 17, point 7): "in seinen Stichen"
was printed under Clara and Anna. A sentence that speaks of a player uses no gendered
pronoun or possessive for them ("er", "ihm", "ihn", "sein..."), names the player or says
"die eigenen", "alle", "wer"."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

CATALOG = Path(__file__).resolve().parent.parent / "companion" / "translations" / "de"

#: An English sentence about a player: it names one, or speaks of players.
ABOUT_A_PLAYER = re.compile(
    r"%\((?:player|other|name|names|target|leader|dealer)\)s"
    r"|\b(?:players?|they|them|their|themselves|he|him|his|she|her|whoever|anyone|everyone|"
    r"nobody)\b",
    re.IGNORECASE,
)

#: Masculine pronouns and possessives ("sein" as a possessive: before a noun; the verb
#: "sein" stays), and a masculine relative pronoun right after a player's name.
GENDERED = re.compile(
    r"\b(?:[Ee]r|[Ii]hm|[Ii]hn|[Ss]eine[nrms]?|[Ss]ein(?=\s+[A-ZÄÖÜ]))\b"
    r"|%\(\w+\)s, der\b"
)


def german_sentences_about_players() -> list[tuple[str, str]]:
    """(English, German) for every catalog entry, each plural form apart, about a player."""
    with (CATALOG / "LC_MESSAGES" / "messages.po").open("rb") as file:
        catalog = read_po(file, locale="de")
    pairs = []
    for entry in catalog:
        ids = (entry.id,) if isinstance(entry.id, str) else entry.id
        strings = (entry.string,) if isinstance(entry.string, str) else entry.string
        if entry.id and any(ABOUT_A_PLAYER.search(text) for text in ids):
            pairs.extend((ids[0], text) for text in strings)
    return pairs


def test_the_check_finds_the_sentences_about_players() -> None:
    english = {text for text, _ in german_sentences_about_players()}
    assert "Cards in their tricks" in english
    assert len(english) > 100
    assert GENDERED.search("Karten in seinen Stichen")
    assert GENDERED.search("also eröffnet %(player)s, der sie gespielt hat, den Stich")
    assert not GENDERED.search("Die Ärgerfarbe darf dieselbe sein wie zuvor.")


def test_no_german_sentence_about_a_player_uses_a_gendered_pronoun() -> None:
    gendered = [
        (english, german)
        for english, german in german_sentences_about_players()
        if GENDERED.search(german)
    ]
    assert gendered == []


def test_cards_in_their_tricks_reads_in_den_eigenen_stichen() -> None:
    german = dict(german_sentences_about_players())
    assert german["Cards in their tricks"] == "Karten in den eigenen Stichen"
