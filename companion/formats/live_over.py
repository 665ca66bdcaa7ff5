"""The end of a live round on the phone offline (``live_page``): its scores, each seat's
total after it and the colours each scored (R10-R16, R22), and, when it ended the game, the
winners and the final ranking (R11), as templates/games/live.html shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.formats.live_words import colour_chip, signed, word
from companion.formats.offline_game import FINISHED, SCORED
from companion.rules import TableSetup, score_round
from companion.rules.live import LiveRound
from companion.rules.wording import Reader


def over_words(
    game: Mapping[str, Any],
    setup: TableSetup,
    round_: Mapping[str, Any],
    live: LiveRound,
    names: Sequence[str],
    reader: Reader,
) -> dict[str, object]:
    """The round is over: its scores and each seat's total after it, the colours each
    scored (R10-R16, R22), and the game's result if it ended the game (R11)."""
    number = int(round_["number"])
    finished = game["status"] == FINISHED
    scored = round_["status"] == SCORED
    over: dict[str, object] = {
        "title": word(reader, "over_title", number=number),
        "text": word(reader, "over_text") if scored else word(reader, "awaiting"),
        "set_aside": word(reader, "set_aside") if setup.variant.has_passes and scored else None,
        "headers": [word(reader, "player"), word(reader, "this_round"), word(reader, "total")],
        "scores": score_lines(game, setup, round_, live, names, reader) if scored else [],
        "result": None,
        "back": word(reader, "to_result" if finished else "back"),
        "primary": True,
    }
    if scored and finished and int(game["rounds"][-1]["number"]) == number:
        over["result"] = result_words(game, names, reader)
        over["primary"] = False
    return over


def score_lines(
    game: Mapping[str, Any],
    setup: TableSetup,
    round_: Mapping[str, Any],
    live: LiveRound,
    names: Sequence[str],
    reader: Reader,
) -> list[dict[str, object]]:
    """Each seat's score this round, its total after it, and the colours it scored."""
    number = int(round_["number"])
    totals = [0] * len(names)
    for earlier in game["rounds"]:
        if earlier["status"] == SCORED and int(earlier["number"]) <= number:
            totals = [total + score for total, score in zip(totals, earlier["scores"], strict=True)]
    seats = score_round(setup, live.entries()).seats
    return [
        {
            "name": name,
            "colours": [colour_chip(colour, reader) for colour in seats[seat].colours],
            "score": signed(int(round_["scores"][seat])),
            "total": signed(totals[seat]),
        }
        for seat, name in enumerate(names)
    ]


def result_words(
    game: Mapping[str, Any], names: Sequence[str], reader: Reader
) -> dict[str, object]:
    """The game's winners and final ranking (R11): equal totals share a rank."""
    totals = [int(total) for total in game["totals"]]
    winners = sorted(int(seat) for seat in game["winners"])
    best = signed(totals[winners[0]])
    if len(winners) == 1:
        line = word(reader, "wins", name=names[winners[0]], total=best)
    else:
        line = word(reader, "shared", names=", ".join(names[seat] for seat in winners), total=best)
    order = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
    return {
        "title": word(reader, "result"),
        "line": line,
        "ranking_title": word(reader, "ranking"),
        "winner": word(reader, "winner"),
        "ranking": [
            {
                "rank": 1 + sum(1 for total in totals if total > totals[seat]),
                "name": names[seat],
                "total": signed(totals[seat]),
                "wins": seat in winners,
            }
            for seat in order
        ],
        "play_again": word(reader, "play_again"),
        "play_again_hint": word(reader, "play_again_hint"),
    }
