"""The play a finished game hands to BG Stats (companion/formats/bg_stats.py): built from plain
values, it says exactly what they say; from a game played through the API in every variant,
exactly what the game's state says, ties and shared wins included; and any name survives the
URL encoding."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa
from flask import Flask

from companion.data.models import Circle, Game, db
from companion.data.names import MAX_NAME_LENGTH
from companion.formats.bg_stats import (
    CREATE_PLAY_URL,
    PlayFacts,
    play_of,
    play_url,
)
from companion.rules import MAX_PLAYERS
from tests.offline.requests import CLASSIC_SETTINGS, HAT_TRICK, classic_round, hat_trick_round
from tests.table import Table

#: Every field the format takes, besides ``bggId`` (not confirmed for Sticheln).
PLAY_FIELDS = {
    "sourceName",
    "sourcePlayId",
    "playDate",
    "durationMin",
    "location",
    "comments",
    "game",
    "players",
}
PLAYER_FIELDS = {"name", "sourcePlayerId", "score", "rank", "winner", "startPlayer"}
AWKWARD_NAMES = [
    "Ann & Ben",
    "#1 Cleo",
    'Dan "the Man"',
    "Eve's",
    "Őrző Űrsula",
    "Straße",
    "Ελένη",
    "李小龍",
    "50% + ?=/",
]


def decoded(url: str) -> dict[str, Any]:
    """The play a createPlay link carries, as BG Stats reads it back."""
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == CREATE_PLAY_URL
    query = parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    play: dict[str, Any] = json.loads(query["data"][0])
    return play


def facts(**changes: Any) -> PlayFacts:
    values: dict[str, Any] = {
        "code": "abc123",
        "names": ["Ann", "Ben", "Cleo", "Dan"],
        "player_ids": [11, 12, 13, 14],
        "totals": [7, 12, 7, -3],
        "winners": [1],
        "start_seat": 2,
        "started": datetime(2026, 12, 5, 19, 4, 31, tzinfo=UTC),
        "last_saved": datetime(2026, 12, 5, 20, 17, 2, tzinfo=UTC),
        "rounds": 4,
        "circle": "Thursday club",
        "comments": "Variant: Classic. 4 rounds.",
    }
    values.update(changes)
    return PlayFacts(**values)


def test_a_play_says_what_its_facts_say() -> None:
    play = play_of(facts())
    assert play == {
        "sourceName": "Sticheln companion",
        "sourcePlayId": "abc123",
        "playDate": "2026-12-05 19:04:31",
        "durationMin": 73,
        "location": "Thursday club",
        "comments": "Variant: Classic. 4 rounds.",
        "game": {
            "name": "Sticheln",
            "sourceGameId": "sticheln",
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {"name": "Ann", "sourcePlayerId": "11", "score": 7, "rank": 2, "winner": False,
             "startPlayer": False},
            {"name": "Ben", "sourcePlayerId": "12", "score": 12, "rank": 1, "winner": True,
             "startPlayer": False},
            {"name": "Cleo", "sourcePlayerId": "13", "score": 7, "rank": 2, "winner": False,
             "startPlayer": True},
            {"name": "Dan", "sourcePlayerId": "14", "score": -3, "rank": 4, "winner": False,
             "startPlayer": False},
        ],
    }  # fmt: skip
    assert "bggId" not in play["game"]


def test_a_shared_win_shares_rank_1_and_the_next_rank_skips() -> None:
    play = play_of(facts(totals=[9, 9, 4, 9], winners=[0, 1, 3]))
    assert [p["rank"] for p in play["players"]] == [1, 1, 4, 1]
    assert [p["winner"] for p in play["players"]] == [True, True, False, True]


def test_the_play_date_is_utc_in_the_formats_shape() -> None:
    """A start stored with another offset (or naive, as SQLite gives it: UTC) is written in
    UTC as "YYYY-MM-DD HH:MM:SS"."""
    berlin = datetime(2026, 7, 1, 21, 30, 5, tzinfo=UTC).astimezone(ZoneInfo("Europe/Berlin"))
    assert berlin.hour == 23
    assert play_of(facts(started=berlin, last_saved=None))["playDate"] == "2026-07-01 21:30:05"
    naive = datetime(2026, 7, 1, 21, 30, 5)
    assert play_of(facts(started=naive, last_saved=None))["playDate"] == "2026-07-01 21:30:05"


def test_the_duration_runs_from_the_start_to_the_last_round_saved() -> None:
    start = datetime(2026, 1, 1, 18, 0, tzinfo=UTC)
    assert (
        play_of(facts(started=start, last_saved=start + timedelta(minutes=41, seconds=29)))[
            "durationMin"
        ]
        == 41
    )
    assert (
        play_of(facts(started=start, last_saved=start + timedelta(minutes=41, seconds=31)))[
            "durationMin"
        ]
        == 42
    )
    assert "durationMin" not in play_of(facts(started=start, last_saved=None))


@pytest.mark.parametrize("name", AWKWARD_NAMES)
def test_any_name_survives_the_url_encoding(name: str) -> None:
    names = [name, "Ben", f"{name} {name}"[:30]]
    play = play_of(
        facts(
            names=names,
            player_ids=[1, 2, 3],
            totals=[1, 2, 3],
            winners=[2],
            start_seat=0,
            circle=f"Club {name}",
            comments=f"Variant: {name}.",
        )
    )
    url = play_url(play)
    query = urlsplit(url).query
    # Nothing in the data can end the parameter or the address early, or start a fragment.
    assert query.count("=") == 1 and "&" not in query and "#" not in url and " " not in url
    assert url.isascii()
    assert decoded(url) == play
    assert [p["name"] for p in decoded(url)["players"]] == names


def finished_games(table: Table) -> list[tuple[str, dict[str, Any]]]:
    """A finished game of every variant, each of two rounds where the second is the first
    with seats 0 and 1 swapped: seats 0 and 1 tie (R11), sharing a rank and, when highest,
    the win. The rounds are random legal play (tests/offline/requests.py)."""
    rng = random.Random(43)
    games = []
    for settings in [*CLASSIC_SETTINGS, HAT_TRICK]:
        if settings == HAT_TRICK:
            body = hat_trick_round(rng)[0][0].body
        else:
            body = classic_round(rng, settings)[0][0].body
        names = ["Ann & Ben", "Őrző Űrsula", 'Dan "#1"', "Straße", "Ελένη", "Finn", "Gus", "Hal"]
        names = names[: body["players"]]
        game = table.new_game(names, body["variant"], rounds=2, first_leader=1)
        first = body["entries"]
        table.record(game, first)
        table.record(game, [first[1], first[0], *first[2:]])
        games.append((str(settings), game))
    return games


def in_utc(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it naive, in UTC; PostgreSQL with its offset)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def expected_ranks(totals: list[int]) -> list[int]:
    return [1 + sum(1 for other in totals if other > total) for total in totals]


def test_every_variants_play_carries_what_the_games_state_says(app: Flask, table: Table) -> None:
    for label, game in finished_games(table):
        state = table.client.get(f"/api/v1/games/{game['id']}").json
        assert state["status"] == "finished", label
        totals, winners = state["totals"], state["winners"]
        assert totals[0] == totals[1], label
        play = decoded(state["bg_stats_url"])
        assert set(play) == PLAY_FIELDS, label
        assert play["sourcePlayId"] == state["id"]
        assert play["game"] == {
            "name": "Sticheln",
            "sourceGameId": "sticheln",
            "highestWins": True,
            "noPoints": False,
        }
        first_leader = state["rounds"][0]["leader"]
        ranks = expected_ranks(totals)
        assert ranks[0] == ranks[1], label
        assert [set(p) for p in play["players"]] == [PLAYER_FIELDS] * len(totals)
        assert [
            (p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"])
            for p in play["players"]
        ] == [
            (name, totals[seat], ranks[seat], seat in winners, seat == first_leader)
            for seat, name in enumerate(state["players"])
        ], label
        assert [p["winner"] for p in play["players"]].count(True) == len(winners) >= 1
        assert "2 rounds" in play["comments"], label
        with app.app_context():
            stored = db.session.scalar(sa.select(Game).where(Game.code == state["id"]))
            assert stored is not None
            circle = db.session.get(Circle, stored.circle_id)
            assert circle is not None and play["location"] == circle.name
            seat_players = [str(seat.player_id) for seat in stored.seats]
            started = in_utc(stored.created_at)
            last = in_utc(stored.rounds[-1].updated_at)
        assert [p["sourcePlayerId"] for p in play["players"]] == seat_players
        assert play["playDate"] == started.strftime("%Y-%m-%d %H:%M:%S")
        assert play["durationMin"] == round((last - started).total_seconds() / 60)


def three_player_round() -> list[Any]:
    """The entries of a random legal classic round at a table of three."""
    for seed in range(100):
        body = classic_round(random.Random(seed), ("classic", 1, "open"))[0][0].body
        if body["players"] == 3:
            entries: list[Any] = body["entries"]
            return entries
    raise AssertionError("no round of three players in 100 seeds")


def test_the_same_player_keeps_their_id_from_game_to_game(table: Table) -> None:
    """BG Stats remembers a player by ``sourcePlayerId``: a name of the circle keeps it."""
    plays = []
    for names in (["Ann", "Ben", "Cleo"], ["Cleo", "Dan", "Ann"]):
        game = table.new_game(names, "classic", rounds=1)
        table.record(game, three_player_round())
        plays.append(decoded(table.client.get(f"/api/v1/games/{game['id']}").json["bg_stats_url"]))
    ids = [{p["name"]: p["sourcePlayerId"] for p in play["players"]} for play in plays]
    assert ids[0]["Ann"] == ids[1]["Ann"] and ids[0]["Cleo"] == ids[1]["Cleo"]
    assert len({*ids[0].values(), *ids[1].values()}) == 4


def test_a_game_not_finished_has_no_play(table: Table) -> None:
    game = table.new_game(["Ann", "Ben", "Cleo"], "classic", rounds=2)
    assert game["bg_stats_url"] is None
    answer = table.client.get(f"/api/v1/games/{game['id']}").json
    assert answer["bg_stats_url"] is None


#: A link length every browser and phone's link handler takes (the shortest common limit is
#: far above; BG Stats gets the whole play in the one query parameter).
LONGEST_SAFE_LINK = 8000


def test_the_longest_play_stays_a_link_every_phone_can_follow() -> None:
    """A table of the most players, every name and the circle's as long as they may be, in
    letters that each take 9 characters once encoded (3 UTF-8 bytes), still fits a link."""
    longest = "李" * MAX_NAME_LENGTH
    play = play_of(
        facts(
            names=[longest[:-1] + str(seat) for seat in range(MAX_PLAYERS)],
            player_ids=list(range(10**9, 10**9 + MAX_PLAYERS)),
            totals=[-100] * MAX_PLAYERS,
            winners=list(range(MAX_PLAYERS)),
            start_seat=MAX_PLAYERS - 1,
            circle=longest,
            comments="Változat: Fordított (jelölt színek: 2, felfedés: késleltetett). 99 forduló.",
        )
    )
    url = play_url(play)
    assert len(url) <= LONGEST_SAFE_LINK
    assert decoded(url) == play
