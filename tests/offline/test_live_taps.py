"""A live round played on the phone offline (issue 26, point 2): the rules worker's call
``live/tap`` applies each tap as the live page does and tells the page as the server's live
page tells it, word for word, in every language and trick rule.

Whole rounds of random taps (the cards of each trick, now and then a card refused, a card or
a trick taken back, the round's last trick taken back and played again) go to the server's
live page (without JavaScript) and to ``live/tap``, which holds the state the server gave
at the round's start and the changes it queued since. After every tap both must say the
same: the trick, each place with its player, card and badge, who takes it and why (the Hat
Trick piles and passes), whose turn it is, the chips of the deck (played, laid out, in the
trick, a pass, refused), the bar, each seat's captures, the notes, the round's scores and
the game's result. Then the queued changes, sent as the outbox sends them, leave the server
with the round the page showed. The worker, unpacked as on the phone, answers the same."""

from __future__ import annotations

import gettext
import random
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.formats.live_taps import live_tap
from companion.rules.wording import Reader
from scripts.page_reader import Element, read_page
from tests.games.test_live_pages import page, press, tap
from tests.offline.test_offline_live import NAMES, played_round, send, shown_live
from tests.offline.worker_run import ask_worker
from tests.table import Table

TRANSLATIONS = Path(__file__).resolve().parents[2] / "companion" / "translations"
GAMES = [
    # (trick rule, language, rounds planned: one ends the game with the live round)
    ("classic", "en", 1),
    ("hazy", "de", 2),
    ("delayed", "it", 1),
    ("hat-trick", "fr", 1),
    ("reverse", "hu", 2),
]


def reader(language: str) -> Reader:
    """The reader the worker makes of ``language`` (its shipped catalogue)."""
    if language == "en":
        return Reader()
    mo = TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo"
    with mo.open("rb") as file:
        return Reader.of(gettext.GNUTranslations(file), language)


# --------------------------------------------------------------------------------------------
# The page, as the server draws it and as the worker tells it, in one shape


def slots_of(section: Element) -> list[tuple[Any, ...]]:
    return [
        (
            item.get("data-seat"),
            item.get("data-card"),
            item.find("span", class_="live-slot__name").words(),
            " ".join(b.words() for b in item.find_all("span", class_="live-slot__badge")) or None,
            "live-slot--takes" in item.classes,
            "live-slot--next" in item.classes,
            "live-slot--passed" in item.classes,
        )
        for item in section.find_all("li", class_="live-slot")
    ]


def words_in(root: Element, tag: str, **attrs: str) -> list[str]:
    return [found.words(joined={"a"}) for found in root.find_all(tag, **attrs)]


def one(found: list[str]) -> str | None:
    assert len(found) <= 1, found
    return found[0] if found else None


def told_by_page(html: str) -> dict[str, Any]:
    """What the server's live page says."""
    live = read_page(html).find("section", id="live")
    told: dict[str, Any] = {
        "title": live.find("h1").words(),
        "count": live.find("span", class_="live-head__count").words(),
        "notes": words_in(live, "p", class_="live-note"),
        "refusal": one(words_in(live, "p", class_="live-refusal")),
    }
    for name, tag in (("current", "live-trick"), ("last", "live-last")):
        sections = live.find_all("section", class_=tag)
        told[name] = None
        if sections:
            section = sections[0]
            told[name] = {
                "title": section.find("h2").words(),
                "slots": slots_of(section),
                "turn": one(words_in(section, "p", class_="live-turn")),
                "undo_card": bool(section.find_all("form", class_="live-undo-card")),
                "result": one(words_in(section, "div", class_="live-result")),
                "hint": one(words_in(section, "p", class_="live-hint")),
            }
    told["over"] = one(words_in(live, "section", class_="live-over"))
    pickers = live.find_all("form", class_="live-picker")
    told["picker"] = None
    if pickers:
        picker = pickers[0]
        told["picker"] = {
            "pass_hint": one(words_in(picker, "p", class_="live-pass")),
            "rows": [
                (
                    row.get("aria-label"),
                    "live-colour--in-trick" in row.classes,
                    [
                        (
                            chip.get("value"),
                            chip.get("aria-label"),
                            chip.get("disabled") is not None,
                            "chip--refused" in chip.classes,
                        )
                        for chip in row.find_all("button")
                    ],
                )
                for row in picker.find_all("div", class_="live-colour")
            ],
            "bar": one(words_in(picker, "span", class_="live-bar__text")),
            "bar_chips": [
                (chip.get("title"), "is-taking" in chip.classes, "live-card--pass" in chip.classes)
                for chip in picker.find_all("span", class_="live-card--mini")
            ],
            "hint": picker.find_all("p", class_="live-hint")[-1].words(),
        }
    seats = live.find("section", class_="live-seats")
    told["seats"] = seats.words()
    more = live.find("section", class_="live-more")
    told["undo_trick"] = one([b.words() for b in more.find_all("button")])
    told["footer"] = one(words_in(more, "p", class_="live-hint"))
    return told


def chip_words(chip: dict[str, Any]) -> str:
    """A chip's words as a reader takes them: value, shape, name."""
    return f"{chip['value']} {chip['symbol']} {chip['label']}"


def result_words(trick: dict[str, Any], hat_trick: bool, final: bool) -> str:
    if not hat_trick:
        return f"{trick['main']} {trick['reason']}"
    parts = [f"{p['symbol']} {p['name']}: {p['taker']} ({p['count']})" for p in trick["piles"]]
    if trick["passes"]:
        parts.append(trick["passes"])
    if not final:
        parts += [trick["main"], trick["reason"]]
    return " ".join(" ".join(parts).split())


def as_read(value: Any) -> Any:
    """Every sentence in ``value`` as a reader takes it: any run of spaces (a no-break space
    before French punctuation too) is one space."""
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, dict):
        return {key: as_read(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(as_read(item) for item in value)
    return value


def told_by_worker(said: dict[str, Any]) -> dict[str, Any]:
    """The same, from ``live/tap``'s page."""
    return as_read(worker_shape(said))


def worker_shape(said: dict[str, Any]) -> dict[str, Any]:
    hat_trick = said["hat_trick"]
    told: dict[str, Any] = {
        "title": said["title"],
        "count": said["count"],
        "notes": said["notes"],
        "refusal": f"{said['not_added']} {said['refusal']}" if said["refusal"] else None,
    }
    over = said["over"]
    for name in ("current", "last"):
        trick = said[name]
        told[name] = None
        if trick is None:
            continue
        plays = [place for place in trick["places"] if "chip" in place]
        current = name == "current"
        told[name] = {
            "title": trick["title"],
            "slots": [
                (
                    str(place["seat"]),
                    place["chip"]["token"] if "chip" in place else None,
                    place["player"],
                    place["badge"],
                    place["takes"],
                    bool(place.get("is_next")),
                    place["passed"],
                )
                for place in trick["places"]
            ],
            "turn": trick["turn"],
            "undo_card": said["can_undo_card"] if current else bool(over and said["undo_trick"]),
            "result": result_words(trick, hat_trick, final=over is not None) if plays else None,
            "hint": said["last_trick"] if current else None,
        }
    told["over"] = over_words(over, said) if over else None
    picker = said["picker"]
    told["picker"] = None
    if picker:
        bar = picker["bar"]
        told["picker"] = {
            "pass_hint": picker["pass_hint"],
            "rows": [
                (
                    row["group"],
                    row["in_trick"],
                    [(c["token"], c["aria"], bool(c["out"]), c["refused"]) for c in row["chips"]],
                )
                for row in picker["rows"]
            ],
            "bar": " ".join(filter(None, [bar["text"], bar["next"]])) if bar else None,
            "bar_chips": [(c["label"], c["takes"], c["passed"]) for c in bar["chips"]]
            if bar
            else [],
            "hint": picker["hint"],
        }
    told["seats"] = seat_words(said["seats"])
    told["undo_trick"] = said["undo_trick"]
    told["footer"] = said["footer"]
    return told


def over_words(over: dict[str, Any], said: dict[str, Any]) -> str:
    parts = [over["title"], over["text"], over["set_aside"] or "", *over["headers"]]
    for line in over["scores"]:
        parts += [line["name"], *(c["symbol"] for c in line["colours"]), line["score"]]
        parts.append(line["total"])
    result = over["result"]
    if result:
        parts += [result["title"], result["line"], result["ranking_title"]]
        for seat in result["ranking"]:
            parts += [seat["name"], result["winner"] if seat["wins"] else "", seat["total"]]
        parts += [result["play_again"], result["play_again_hint"]]
    parts.append(over["back"])
    return " ".join(" ".join(parts).split())


def seat_words(seats: dict[str, Any]) -> str:
    parts = [seats["title"], seats["player"]]
    parts += [f"{c['symbol']} {c['label']}" for c in seats["colours"]]
    parts += seats["headers"]
    for row in seats["rows"]:
        parts.append(row["name"])
        if row["leads"]:
            parts.append(seats["leads"])
        parts += [chip_words(c) for c in row["marked"]]
        parts += row["cells"]
    if seats["hazy"]:
        parts.append(seats["hazy"])
    return " ".join(" ".join(parts).split())


# --------------------------------------------------------------------------------------------
# Taps


def a_tap(rng: random.Random, live: str, cards: list[str]) -> tuple[str, str | None]:
    """A tap a player could make on ``live``: mostly the next card of the deal, sometimes a
    card out of every hand (refused, C6), a card or a trick taken back."""
    root = read_page(live)
    undo_card = bool(root.find_all("form", class_="live-undo-card"))
    undo_trick = any(f.get("action", "").endswith("/undo-trick") for f in root.find_all("form"))
    roll = rng.random()
    if roll < 0.06 and undo_card:
        return "undo_card", None
    if roll < 0.09 and undo_trick:
        return "undo_trick", None
    chips = root.find_all("button", class_="live-chip")
    out = [c.get("value") for c in chips if c.get("disabled") is not None]  # a bare attribute
    if roll < 0.13 and out:
        return "card", str(rng.choice(out))
    if cards:
        return "card", cards[0]
    return ("undo_trick" if undo_trick else "undo_card"), None


def trick_cards(tricks: list[list[dict[str, Any]]]) -> list[str]:
    """The deal's cards in play order, as chips send them."""
    return [f"{card['colour']}-{card['value']}" for trick in tricks for card in trick]


#: Taps after the round is over (its last trick taken back and played again, maybe).
TAPS_AFTER_THE_END = 3


@pytest.mark.parametrize(("preset", "language", "rounds"), GAMES)
def test_a_live_round_offline_is_told_as_the_live_page_tells_it_after_every_tap(
    client: FlaskClient, table: Table, unpacked: Path, preset: str, language: str, rounds: int
) -> None:
    rng = random.Random(f"live-taps-{preset}")
    leader, marked, tricks = played_round(preset, rng)
    game = table.new_game(NAMES, preset, rounds=rounds, first_leader=leader)
    start: dict[str, Any] = {"action": "live", "body": {"version": 0}}
    if marked is not None:
        start["body"]["marked"] = marked
    state = table.state(game)  # what the phone kept when it went offline
    queued: list[dict[str, Any]] = [start]  # the round opened on this phone (R15: its marks)
    assert send(client, game, start).status_code == 201
    phone = table.phone(game)
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    live = page(phone, f"/g/{game['id']}/rounds/1/live")
    to_enter, entered = trick_cards(tricks), []
    trick = ""
    asked: list[tuple[str, Any, str]] = []
    answered: list[Any] = []
    worded = reader(language)
    after_the_end = 0
    while after_the_end < TAPS_AFTER_THE_END:
        action, card = a_tap(rng, live, to_enter)
        body = {
            "state": state,
            "queued": list(queued),
            "number": 1,
            "trick": trick,
            "tap": {action: card or True},
        }
        if action == "card":
            response = tap(phone, live, str(card))
        else:
            suffix = "/live/undo-card" if action == "undo_card" else "/live/undo-trick"
            response = press(phone, live, suffix)
        if response.status_code == 302:
            live = page(phone, response.headers["Location"])
            taken_back = {"card": 0, "undo_card": 1, "undo_trick": len(NAMES)}[action]
            if action == "card":
                entered.append(to_enter.pop(0))
            elif taken_back:
                to_enter[:0] = entered[-taken_back:]
                del entered[-taken_back:]
        else:
            assert response.status_code == 422, response.status_code
            live = response.get_data(as_text=True)
        answer = live_tap(body, worded)
        asked.append(("live/tap", body, language))
        answered.append(answer)
        assert told_by_worker(answer["page"]) == told_by_page(live), (len(asked), action, card)
        if answer["change"] is not None:
            queued.append(answer["change"])
        trick = answer["trick"]
        after_the_end += 1 if answer["page"]["over"] else 0
        assert len(asked) < 400, "the round never ended"
    # Every kind of tap was made: a card refused, a card and a trick taken back, a saved
    # trick opened again by taking back its last card.
    taps = [
        (body["tap"], answer)
        for (_call, body, _language), answer in zip(asked, answered, strict=True)
    ]
    assert any(answer["page"]["refusal"] for _tap, answer in taps)
    assert any("undo_trick" in tap and answer["change"] for tap, answer in taps)
    assert any("undo_card" in tap and not answer["change"] for tap, answer in taps)
    assert any("undo_card" in tap and answer["change"] for tap, answer in taps)
    # The queued changes, sent in order as the outbox sends them, make the server's round.
    again = table.new_game(NAMES, preset, rounds=rounds, first_leader=leader)
    for change in queued:
        sent = send(client, again, change)
        assert sent.status_code in (200, 201), sent.json
        again["version"] = sent.json["version"]
    assert shown_live(table.state(again))["rounds"] == shown_live(table.state(game))["rounds"]
    # The worker unpacked as on the phone answers every tap the same.
    worker = ask_worker(unpacked, asked)
    assert [reply["body"] for reply in worker] == answered


def test_a_hazy_round_opened_on_another_phone_waits_for_the_server_s_score(
    client: FlaskClient, table: Table
) -> None:
    """R15: the indicators of a hazy round opened elsewhere are face down, so the phone
    plays the round out but says its score comes from the server; sent, it is scored."""
    leader, marked, tricks = played_round("hazy", random.Random("face down"))
    game = table.new_game(NAMES, "hazy", rounds=2, first_leader=leader)
    assert send(client, game, {"action": "live", "body": {"marked": marked}}).status_code == 201
    state = table.state(game)
    game["version"] = state["version"]
    assert state["rounds"][0]["marked"] is None
    german = reader("de")
    queued: list[dict[str, Any]] = []
    trick = ""
    for card in trick_cards(tricks):
        body = {
            "state": state,
            "queued": queued,
            "number": 1,
            "trick": trick,
            "tap": {"card": card},
        }
        answer = live_tap(body, german)
        assert answer["page"]["refusal"] is None, answer["page"]["refusal"]
        queued = [*queued, *([answer["change"]] if answer["change"] else [])]
        trick = answer["trick"]
    over = answer["page"]["over"]
    assert over["text"] == german.gettext(
        "Every trick is played. Its indicators are face down (R15), so the round is scored "
        "when this phone sends it."
    )
    assert over["text"] != over["title"] and over["scores"] == [] and over["result"] is None
    assert answer["page"]["picker"] is None and answer["page"]["current"] is None
    for change in queued:
        sent = send(client, game, change)
        assert sent.status_code == 201, sent.json
        game["version"] = sent.json["version"]
    assert table.state(game)["rounds"][0]["status"] == "scored"
