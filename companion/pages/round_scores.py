"""A round's scores with their reasons: the page model of ``/g/<code>/rounds/<n>/scores``.

Why each player scored what they did, one line each in the reader's language ("+9 for 9
cards of other colours; −19 for red 4 (indicator), red 7, red 8": a semicolon between terms,
since a term's cards are listed with commas), from the terms of the round in the game's state
in the JSON API's shape (``explanations``: the rules' ``explain_round`` as the API gives it,
R10, R12-R16, R22). The server builds the state from the database
(companion/web/games/rounds/routes.py); the phone's rules worker from the last state the
server sent plus the rounds queued on the phone (companion/play_state/offline_game.py), which
explain their scores the same way. Both render ``templates/games/round_scores_list.html``
with :func:`round_context`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.pages.charts import signed_number
from companion.pages.scoreboard import PENDING, SCORED, Url
from companion.rules import Colour
from companion.rules.text import N_, ngettext
from companion.rules.wording import Reader, colour_words

TERMS_AND_CHOICE = N_("%(terms)s. %(choice)s")
#: The plural sentences, marked as one (gettext's ``ngettext``): the count picks the form.
OTHER_CARDS = ngettext(
    "%(points)s for %(num)d card of another colour",
    "%(points)s for %(num)d cards of other colours",
    0,
)
PASS_CARDS = ngettext("%(points)s for %(num)d pass card", "%(points)s for %(num)d pass cards", 0)
MARKED_CARDS = N_("%(points)s for %(cards)s")
INDICATOR = N_("%(card)s (indicator)")
NOTHING = N_("%(points)s: captured nothing")
COLOUR_COUNT = N_("%(points)s %(colour)s")
BY_TABLE = N_(
    "Chosen by the table: %(colours)s, over the proposal %(proposed)s, "
    "which would have scored %(score)s."
)
ONLY_CHOICE = N_("Chosen: %(colours)s, the only choice.")
EQUALLY_GOOD = N_("Chosen: %(colours)s (%(choices)s, equally good: %(score)s).")
BEST_CHOICE = N_("Chosen: %(colours)s, the best choice (next best: %(other)s, %(score)s).")
#: Choices that score the same, as the reader lists alternatives: two, then three or more.
TWO_CHOICES = N_("%(first)s or %(last)s")
MORE_CHOICES = N_("%(others)s, or %(last)s")


@dataclass(frozen=True)
class SeatLine:
    """One player on the round page: their score and why."""

    seat: int
    name: str
    score: int
    line: str


@dataclass(frozen=True)
class RoundScores:
    """A scored round as its page shows it: every player's score and its line."""

    code: str
    number: int
    seats: tuple[SeatLine, ...]
    #: The scored rounds before and after this one, for stepping through a game's rounds.
    previous: int | None
    next: int | None
    #: What the round breaks of the limits checked since it was stored (C5), in words.
    breaks: tuple[str, ...] = ()
    #: On this phone, not yet sent.
    pending: bool = False


def round_scores_of(
    state: Mapping[str, Any], number: int, reader: Reader, breaks: Sequence[str] = ()
) -> RoundScores | None:
    """Round ``number`` of the game in ``state`` with each seat's line; ``None`` for a round
    not scored, or one the rules no longer explain as it was stored (no ``explanations``)."""
    rounds = {int(round_["number"]): round_ for round_ in state["rounds"]}
    round_ = rounds.get(number)
    if round_ is None or round_["status"] != SCORED or not round_.get("explanations"):
        return None
    names = [str(name) for name in state["players"]]
    seats = tuple(
        SeatLine(seat, names[seat], int(explained["score"]), explanation_line(explained, reader))
        for seat, explained in enumerate(round_["explanations"])
    )
    scored = sorted(n for n, r in rounds.items() if r["status"] == SCORED)
    earlier = [n for n in scored if n < number]
    later = [n for n in scored if n > number]
    return RoundScores(
        str(state["id"]),
        number,
        seats,
        earlier[-1] if earlier else None,
        later[0] if later else None,
        tuple(breaks),
        bool(round_.get(PENDING)),
    )


def explanation_line(explained: Mapping[str, Any], reader: Reader) -> str:
    """The terms of a score, then (delayed rounds, R16) why those colours were scored."""
    line = "; ".join(term_words(term, reader) for term in explained["terms"])
    choice = explained.get("choice")
    if choice is not None:
        line = reader.gettext(TERMS_AND_CHOICE) % {
            "terms": line,
            "choice": choice_words(choice, reader),
        }
    return line


def _colour(name: str, reader: Reader) -> str:
    return colour_words(Colour.named(name), reader)


def term_words(term: Mapping[str, Any], reader: Reader) -> str:
    """One term: "+9 for 9 cards of other colours", "−19 for red 4 (indicator), red 7"."""
    points = signed_number(int(term["points"]))
    kind = term["kind"]
    if kind in ("other-cards", "pass-cards"):
        sentence = OTHER_CARDS if kind == "other-cards" else PASS_CARDS
        singular, plural = sentence.singular, sentence.plural
        count = int(term["count"])
        return reader.ngettext(singular, plural, count) % {"points": points, "num": count}
    if kind == "marked-cards":
        cards = ", ".join(card_words(card, reader) for card in term.get("cards") or ())
        return reader.gettext(MARKED_CARDS) % {"points": points, "cards": cards}
    if kind == "nothing-captured":
        return reader.gettext(NOTHING) % {"points": points}
    colour = _colour(str(term["colour"]), reader)  # best-colour, other-colour (R22)
    return reader.gettext(COLOUR_COUNT) % {"points": points, "colour": colour}


def card_words(counted: Mapping[str, Any], reader: Reader) -> str:
    card = f"{_colour(str(counted['colour']), reader)} {counted['value']}"
    return reader.gettext(INDICATOR) % {"card": card} if counted.get("indicator") else card


def colours_words(colours: Sequence[str], reader: Reader) -> str:
    return " + ".join(_colour(colour, reader) for colour in colours)


def alternatives(choices: Sequence[str], reader: Reader) -> str:
    """Choices as the reader lists alternatives: "a or b", "a, b, or c"."""
    if len(choices) == 1:
        return choices[0]
    if len(choices) == 2:
        return reader.gettext(TWO_CHOICES) % {"first": choices[0], "last": choices[1]}
    others = ", ".join(choices[:-1])
    return reader.gettext(MORE_CHOICES) % {"others": others, "last": choices[-1]}


def choice_words(choice: Mapping[str, Any], reader: Reader) -> str:
    """R16: the colours scored, and why: the best (against the next best), one of choices
    that score the same ("blue or red, equally good"), the only legal choice, or the table's
    override (against what the proposal would have scored)."""
    colours = colours_words(choice["colours"], reader)
    proposed = choice["proposed"]
    if choice.get("by_table"):
        return reader.gettext(BY_TABLE) % {
            "colours": colours,
            "proposed": colours_words(proposed["colours"], reader),
            "score": signed_number(int(proposed["score"])),
        }
    others = choice.get("others") or []
    if not others:
        return reader.gettext(ONLY_CHOICE) % {"colours": colours}
    tied = [other for other in others if other["score"] == proposed["score"]]
    if tied:
        listed = [colours_words(c["colours"], reader) for c in [choice, *tied]]
        return reader.gettext(EQUALLY_GOOD) % {
            "colours": colours,
            "choices": alternatives(listed, reader),
            "score": signed_number(int(proposed["score"])),
        }
    runner_up = others[0]
    return reader.gettext(BEST_CHOICE) % {
        "colours": colours,
        "other": colours_words(runner_up["colours"], reader),
        "score": signed_number(int(runner_up["score"])),
    }


def round_context(page: RoundScores, url: Url) -> dict[str, object]:
    """What ``games/round_scores_list.html`` takes: the round and its links."""
    link: Callable[[int], str] = lambda number: url(  # noqa: E731
        "games.round_scores", code=page.code, number=number
    )
    return {
        "page": page,
        "signed": signed_number,
        "scoreboard_url": url("games.scoreboard", code=page.code),
        "previous_url": link(page.previous) if page.previous else None,
        "next_url": link(page.next) if page.next else None,
    }
