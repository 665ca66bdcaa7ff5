"""The conflict view's page model: a change that met its round changed on another phone first
(the game's version no longer the one the change was made on), and the ways out.

Two sides draw it with ``templates/games/round_clash_view.html``:

- the server, when a round form (record, correct, mark, live start) is posted for a round
  another phone recorded, corrected, marked or started meanwhile
  (companion/web/games/entry/sending.py): each seat's entry as the other phone saved it next
  to what this phone typed, "keep theirs" and "use mine";
- the phone's rules worker (``pages/stopped``), on the scoreboard, for a change queued on the
  phone with no network that the server refused when it was sent (409: another phone changed
  the game first; or any other refusal): the round as this phone entered it and the ways out
  the server offers for it. The phone holds the game's state in the API's shape, which has no
  round's entries, so its view compares nothing: a round recorded here is posted to the page
  it was entered on (the server's conflict view, with both entries), a round played live
  here is kept whole or dropped (its scores said, as played here).

Words come through the ``Reader`` given, links through the ``url`` builder, so the same code
serves the server (``url_for``, Flask-Babel's catalog) and the phone (the route map, the
shipped catalogs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.pages.charts import signed_number
from companion.pages.record import json_tokens
from companion.pages.scoreboard import Url
from companion.pages.trick import Chip, card_chip
from companion.rules import Colour
from companion.rules.cards import card_of_token
from companion.rules.text import N_
from companion.rules.wording import Reader, colour_words

DASH = "\u2014"


@dataclass(frozen=True)
class EntryLine:
    """One line of a seat's entry: a label and either cards (as chips) or a short text."""

    label: str
    text: str = ""
    cards: tuple[Chip, ...] = ()


@dataclass(frozen=True)
class SeatClash:
    """One player's entry as the other phone saved it and as this phone typed it."""

    seat: int
    name: str
    theirs: tuple[EntryLine, ...]
    mine: tuple[EntryLine, ...]


@dataclass(frozen=True)
class UseMine:
    """The form that sends this phone's input again (``fields``, to ``url``); with no
    ``url``, a button the phone's script answers (a round played live here, kept whole)."""

    label: str
    url: str | None
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Clash:
    """What the conflict view shows: which round, what happened to it, both entries side by
    side (none where only one side is known) and the ways out; ``note``: what this phone
    made of the round, in a line."""

    number: int
    title: str
    headline: str
    seats: tuple[SeatClash, ...]
    keep_label: str
    keep_url: str
    use_mine: UseMine | None = None
    note: str = ""


#: What another phone did to the round, as the server's ``RoundChange`` names it.
HEADLINES = {
    "recorded": N_("Round %(number)s was recorded on another phone."),
    "corrected": N_("Round %(number)s was corrected on another phone."),
    "live": N_("Round %(number)s was started live on another phone."),
    "marked": N_("The colours of round %(number)s were marked on another phone."),
}


def headline(change: str, number: int, words: Reader) -> str:
    """The sentence at the top of the conflict view, in the reader's language."""
    return words.gettext(HEADLINES[change]) % {"number": number}


def clash_context(clash: Clash, token: str) -> dict[str, Any]:
    """What ``games/round_clash_view.html`` takes: the view and its forms' CSRF token."""
    return {"clash": clash, "form_token": token}


# --------------------------------------------------------------------------------------------
# Entries as lines


def entry_lines(
    entry: Mapping[str, Any], score: int | None, words: Reader, hidden_marks: bool = False
) -> tuple[EntryLine, ...]:
    """A seat's entry (the API's shape) as short labelled lines, whatever form made it."""
    lines: list[EntryLine] = []
    if "marked" in entry:
        if hidden_marks:
            lines.append(
                EntryLine(words.gettext("Indicator"), words.gettext("hidden until scored"))
            )
        else:
            lines.append(card_line(words.gettext("Indicator"), entry["marked"], words))
    if "tricks" in entry:
        lines.append(EntryLine(words.gettext("Tricks won"), shown_count(entry["tricks"])))
    if "marked_captured" in entry:
        label = words.gettext("Marked-colour cards captured")
        lines.append(card_line(label, entry["marked_captured"], words))
    if "captured" in entry:
        label = (
            words.gettext("Face-up cards") if "passed" in entry else words.gettext("Cards captured")
        )
        lines.append(card_line(label, entry["captured"], words))
    if isinstance(entry.get("counts"), Mapping):
        counts = entry["counts"]
        shown = ", ".join(
            f"{colour_words(colour, words)} {shown_count(counts[colour.value])}"
            for colour in colours_of(counts)
        )
        lines.append(EntryLine(words.gettext("Face-up cards"), shown))
    if "passed" in entry:
        passed = entry["passed"]
        if isinstance(passed, list):
            lines.append(card_line(words.gettext("Pass cards (face down)"), passed, words))
        else:
            lines.append(EntryLine(words.gettext("Pass cards"), shown_count(passed)))
    if entry.get("choose"):
        chosen = " + ".join(colour_words(colour, words) for colour in colours_of(entry["choose"]))
        lines.append(EntryLine(words.gettext("Colours scored"), chosen))
    if score is not None:
        lines.append(EntryLine(words.gettext("Points"), signed_number(score)))
    return tuple(lines)


def shown_count(count: object) -> str:
    """A count as typed; a dash for one left empty or unreadable."""
    return str(count) if isinstance(count, int) else DASH


def card_line(label: str, cards: object, words: Reader) -> EntryLine:
    """A line of cards; a dash when there are none."""
    found = cards_of(cards, words)
    return EntryLine(label, "" if found else DASH, found)


def cards_of(cards: object, words: Reader) -> tuple[Chip, ...]:
    """Cards stored in the API's shape, as chips."""
    found = (card_of_token(token) for token in json_tokens(cards))
    return tuple(card_chip(card, words) for card in found if card is not None)


def colours_of(names: object) -> list[Colour]:
    """The colours named (in the order given); anything that names no colour is left out."""
    found = []
    for name in names if isinstance(names, Mapping | list) else ():
        try:
            found.append(Colour(name))
        except ValueError:
            continue
    return found


def seats_of(
    names: Sequence[str],
    theirs: Sequence[tuple[EntryLine, ...]],
    mine: Sequence[tuple[EntryLine, ...]],
) -> tuple[SeatClash, ...]:
    """Theirs and mine per player, in seat order; none when this phone typed nothing."""
    seats = tuple(
        SeatClash(seat, name, theirs[seat], mine[seat] if seat < len(mine) else ())
        for seat, name in enumerate(names)
    )
    return seats if any(seat.mine for seat in seats) else ()


# --------------------------------------------------------------------------------------------
# The changes queued on the phone that the server did not take

#: The changes of a round played live on the phone (static/outbox.js): one choice for them all.
LIVE_CHANGES = frozenset({"live", "cards", "trick", "undo", "undo_card"})

CLASHED = N_(
    "Round %(number)s, entered on this phone, was not saved: the game changed on another "
    "phone meanwhile."
)
CLASHED_LIVE = N_(
    "Round %(number)s, played live on this phone, was not saved: the game changed on another "
    "phone meanwhile. Which round stands?"
)
REFUSED = N_("Round %(number)s, entered on this phone, was refused: %(error)s")
PLAYED_HERE = N_("As played on this phone: %(scores)s")


@dataclass(frozen=True)
class Stopped:
    """A change the server did not take, as the scoreboard shows it: its conflict view
    (``clash``), or why it was refused (``refusal``, to be discarded). ``change`` is its id
    in the phone's outbox, ``live`` whether it belongs to a round played live here."""

    change: int
    number: int | None
    live: bool
    clash: Clash | None = None
    refusal: str = ""


def stopped_of(
    state: Mapping[str, Any],
    changes: Sequence[Mapping[str, Any]],
    words: Reader,
    url: Url,
    played: Mapping[int, Sequence[int]],
) -> list[Stopped]:
    """The changes in ``changes`` (the phone's outbox, in order) that the server did not
    take, with the game as the server has it now (``state``); ``played``: the scores of
    each round played live here to its end, by number."""
    return [
        stopped(state, change, words, url, played)
        for change in changes
        if change.get("state") in ("clashed", "refused")
    ]


def stopped(
    state: Mapping[str, Any],
    change: Mapping[str, Any],
    words: Reader,
    url: Url,
    played: Mapping[int, Sequence[int]],
) -> Stopped:
    """One change the server did not take: refused (said why), or clashed (its view)."""
    number = change.get("number") if isinstance(change.get("number"), int) else None
    live = change.get("action") in LIVE_CHANGES
    shown = number if number is not None else ""
    if change.get("state") == "refused":
        said = words.gettext(REFUSED) % {"number": shown, "error": str(change.get("error") or "")}
        return Stopped(int(change["id"]), number, live, refusal=said)
    if live and number is not None:
        clash = live_clash(state, number, words, url, played)
        return Stopped(int(change["id"]), number, live, clash)
    code = str(state["id"])
    keep_url = url("games.scoreboard", code=code)
    if number is not None and number <= len(state["rounds"]):
        keep_url = url("games.keep_theirs", code=code, number=number)
    fields = change.get("fields")
    use_mine = None
    if isinstance(fields, Mapping) and change.get("page"):
        use_mine = UseMine(words.gettext("Compare and choose"), str(change["page"]), kept(fields))
    view = Clash(
        number=number or 0,
        title="",
        headline=words.gettext(CLASHED) % {"number": shown},
        seats=(),
        keep_label=words.gettext("Keep theirs"),
        keep_url=keep_url,
        use_mine=use_mine,
    )
    return Stopped(int(change["id"]), number, live, view)


def kept(fields: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The fields a round form posted, posted again to the page it came from (which shows
    the server's conflict view); its CSRF token is the view's own, not the kept page's."""
    return tuple(
        (str(name), str(value))
        for name, values in fields.items()
        if name != "csrf_token" and isinstance(values, list)
        for value in values
    )


def live_clash(
    state: Mapping[str, Any],
    number: int,
    words: Reader,
    url: Url,
    played: Mapping[int, Sequence[int]],
) -> Clash:
    """A round played live here that clashed: one choice for the whole round. Theirs stands
    (the scoreboard as the server has it, or their live round while it is played), or this
    phone's, once played to its end here, is kept whole in its place."""
    code = str(state["id"])
    rounds = state["rounds"]
    theirs = rounds[number - 1] if number <= len(rounds) else None
    if theirs is not None and theirs.get("status") != "scored" and theirs.get("mode") == "live":
        keep_url = url("games.live_round", code=code, number=number)
    elif theirs is not None:
        keep_url = url("games.keep_theirs", code=code, number=number)
    else:
        keep_url = url("games.scoreboard", code=code)
    scores = played.get(number)
    note = ""
    use_mine = None
    if scores is not None:
        shown = " · ".join(
            f"{name} {signed_number(score)}"
            for name, score in zip(state["players"], scores, strict=True)
        )
        note = words.gettext(PLAYED_HERE) % {"scores": shown}
        use_mine = UseMine(words.gettext("Keep this phone's round"), None)
    return Clash(
        number=number,
        title="",
        headline=words.gettext(CLASHED_LIVE) % {"number": number},
        seats=(),
        keep_label=words.gettext("Keep the other phone's"),
        keep_url=keep_url,
        use_mine=use_mine,
        note=note,
    )
