"""A finished game as a play for BG Stats, the app many players log their plays in.

BG Stats takes a play from another app or website as a link that the phone follows when
tapped: ``https://app.bgstatsapp.com/createPlay.html?data=<the play as URL-encoded JSON>``
opens its import dialog (the app where the phone has it, else its web page). The format is
BG Stats' own, "Push plays to BG Stats from other apps or websites"
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/):

- ``sourceName``, ``sourcePlayId`` and ``playDate`` are required; BG Stats remembers how a
  user matched our game and our players by ``sourceName`` with ``sourceGameId`` and
  ``sourcePlayerId``, so these stay the same from play to play;
- ``playDate`` is ``"YYYY-MM-DD HH:MM:SS"`` in UTC (BG Stats shows it in the phone's time);
- ``durationMin``, ``location`` (a name) and ``comments`` (free text) are optional;
- ``game``: ``name``, ``sourceGameId``, ``highestWins``, ``noPoints`` (and ``bggId``, left
  out: BoardGameGeek's id for Sticheln was not confirmed from a public source);
- each player: ``name``, ``sourcePlayerId``, ``score``, ``rank``, ``winner`` and
  ``startPlayer`` (which BG Stats requires on every player).

Nothing is sent from the server: the page and the API only show the link. The play is built
by :func:`play_of` from plain values (:class:`PlayFacts`), so it is tested without a game;
:func:`facts_of` reads those values from a stored game.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import quote

from flask_babel import gettext, ngettext

from companion.data import queries
from companion.data.circles import circle_name_of
from companion.data.models import Game
from companion.data.states import GameStatus, RoundStatus
from companion.pages.scoreboard import ranked_standings
from companion.read_models.messages import variant_label
from companion.rules import round_leader

#: Where BG Stats takes a play (the same address with the ``bgstats://`` scheme opens the app
#: only; the https one also works where the app is missing, on BG Stats' web page).
CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html"
#: Our name as the sending app: part of the key BG Stats matches games and players by, so it
#: never changes with the page's language.
SOURCE_NAME = "Sticheln companion"
#: Our one game, as BG Stats is to remember it.
SOURCE_GAME_ID = "sticheln"
GAME_NAME = "Sticheln"
#: The format's date and time (UTC).
PLAY_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


@dataclass(frozen=True)
class PlayFacts:
    """What a play for BG Stats says of a finished game, in seat order."""

    code: str
    names: Sequence[str]
    player_ids: Sequence[int]
    totals: Sequence[int]
    winners: Sequence[int]
    #: The seat that led the first trick of round 1 (R3).
    start_seat: int
    started: datetime
    #: When the last round was saved (``None``: no round).
    last_saved: datetime | None
    rounds: int
    circle: str
    #: The variant and the number of rounds, in the page's language.
    comments: str


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC (SQLite hands back naive datetimes, stored in UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def duration_minutes(started: datetime, last_saved: datetime | None) -> int | None:
    """Whole minutes from the start to the last round saved, rounded; ``None`` without one."""
    if last_saved is None:
        return None
    seconds = (utc(last_saved) - utc(started)).total_seconds()
    return max(0, round(seconds / 60))


def play_of(facts: PlayFacts) -> dict[str, object]:
    """The play in BG Stats' format. Equal totals share a rank, and the next rank skips the
    places shared ("1, 1, 3"); every seat with the highest total wins (R11)."""
    ranks = {standing.seat: standing.rank for standing in ranked_standings(facts.totals)}
    play: dict[str, object] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": facts.code,
        "playDate": utc(facts.started).strftime(PLAY_DATE_FORMAT),
        "game": {
            "name": GAME_NAME,
            "sourceGameId": SOURCE_GAME_ID,
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": name,
                "sourcePlayerId": str(player_id),
                "score": facts.totals[seat],
                "rank": ranks[seat],
                "winner": seat in facts.winners,
                "startPlayer": seat == facts.start_seat,
            }
            for seat, (name, player_id) in enumerate(
                zip(facts.names, facts.player_ids, strict=True)
            )
        ],
        "location": facts.circle,
        "comments": facts.comments,
    }
    minutes = duration_minutes(facts.started, facts.last_saved)
    if minutes is not None:
        play["durationMin"] = minutes
    return play


def play_url(play: dict[str, object]) -> str:
    """The link that hands ``play`` to BG Stats: its JSON, every reserved character encoded."""
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY_URL}?data={quote(data, safe='')}"


def comments_of(variant: str, rounds: int) -> str:
    """The play's comments: the variant and the number of rounds, in the page's language."""
    return gettext(
        "Variant: %(variant)s. %(rounds)s.",
        variant=variant,
        rounds=ngettext("%(num)s round", "%(num)s rounds", rounds),
    )


def facts_of(game: Game, circle: str) -> PlayFacts:
    """What the play says of ``game``, played in the circle named ``circle``."""
    totals = queries.totals_of(game)
    players = len(game.seats)
    scored = [round_ for round_ in game.rounds if round_.status == RoundStatus.SCORED]
    return PlayFacts(
        code=game.code,
        names=[seat.player.name for seat in game.seats],
        player_ids=[seat.player_id for seat in game.seats],
        totals=totals.totals,
        winners=totals.winners,
        start_seat=round_leader(1, game.first_leader, players),
        started=game.created_at,
        last_saved=scored[-1].updated_at if scored else None,
        rounds=len(scored),
        circle=circle,
        comments=comments_of(variant_label(game.variant), len(scored)),
    )


def bg_stats_url(game: Game) -> str | None:
    """The link that logs ``game`` in BG Stats, once it is finished; ``None`` before (an
    abandoned game has no result to log). The circle's name is read only then."""
    if game.status != GameStatus.FINISHED:
        return None
    return play_url(play_of(facts_of(game, circle_name_of(game))))
