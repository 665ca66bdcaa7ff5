"""Merging two circles (issue 28, point 4): ``flask --app companion circles merge SOURCE
TARGET`` gives the target every game and player of the source, merges the players of one
name in both (the same person at one club, through the players' merge and its journal),
and removes the source with its invite secret; the circles' journal lists renames and
merges, and ``circles undo`` puts back exactly what was there, statistics included, or
refuses and changes nothing."""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from companion.data import stats
from companion.data.circles import server_circle_id, unknown_secret_hash
from companion.data.database import hold_write_lock
from companion.data.models import Circle, CircleChange, Game, Player, PlayerChange, db, name_key
from companion.services import games
from companion.services.circle_changes import merge_circles
from companion.services.games import delete_game, get_game
from tests.db_snapshot import snapshot
from tests.history.helpers import quick
from tests.history.test_ledger import assert_ledger_exact, rotated
from tests.history.test_player_locks import waits_for_a_lock_or_ends
from tests.table import Table, auth

THREE = [quick("red 1", 5), quick("blue 2", 5, ["blue 4"]), quick("green 3", 4)]
#: What a merge and its undo change on purpose, beside the games' versions: the journals
#: grow, and the change counter moves on.
JOURNALS = {"player_changes", "circle_changes", "change_counter"}
#: The columns of a game a merge and its undo move on: its scoreboard's phones are told.
MOVED_ON = {"version", "updated_at"}


@dataclass(frozen=True)
class Circles:
    """The server's circle, "Club", and "Tuesday", each with an Ann (Tuesday's is written
    "ann"), and their games by name."""

    club: int
    tuesday: int
    games: dict[str, dict[str, Any]]


def run(runner: FlaskCliRunner, *args: str) -> Any:
    return runner.invoke(args=["circles", *args])


def into_new_circle(app: Flask, name: str, codes: list[str], players: list[str]) -> int:
    """A new circle holding these games and players (made in the server's circle through
    the API, as a table of that circle would have made them)."""
    with app.app_context():
        server_circle_id()
        circle = Circle(name=name, secret_hash=unknown_secret_hash())
        db.session.add(circle)
        db.session.flush()
        for game in db.session.scalars(sa.select(Game).where(Game.code.in_(codes))):
            game.circle_id = circle.id
        keys = [name_key(player) for player in players]
        for player in db.session.scalars(sa.select(Player).where(Player.key.in_(keys))):
            player.circle_id = circle.id
        db.session.commit()
        return int(circle.id)


@pytest.fixture
def circles(app: Flask, table: Table) -> Circles:
    """Club: Ann, Ben, Cleo in a finished game, Ann, Ben, Dan in one in progress. Tuesday:
    ann, Eve, Fay in a finished game, Eve, Gus, Hal in another."""
    club_game = table.new_game(["Ann", "Ben", "Cleo"], rounds=2)
    table.record(club_game, THREE)
    table.record(club_game, rotated(THREE, 1))
    open_game = table.new_game(["Ann", "Ben", "Dan"], rounds=3)
    table.record(open_game, rotated(THREE, 2))
    tuesday_game = table.new_game(["Tann", "Eve", "Fay"], rounds=1)
    table.record(tuesday_game, THREE)
    other_game = table.new_game(["Eve", "Gus", "Hal"], rounds=1)
    table.record(other_game, rotated(THREE, 1))
    tuesday = into_new_circle(
        app,
        "Tuesday",
        [tuesday_game["id"], other_game["id"]],
        ["Tann", "Eve", "Fay", "Gus", "Hal"],
    )
    with app.app_context():
        tann = db.session.scalars(sa.select(Player).where(Player.key == "tann")).one()
        tann.name, tann.key = "ann", name_key("ann")
        db.session.commit()
        club = server_circle_id()
    games = {"club": club_game, "open": open_game, "tuesday": tuesday_game, "other": other_game}
    return Circles(club, tuesday, games)


def ann_of(app: Flask, circle: int) -> stats.PlayerRef:
    with app.app_context():
        row = db.session.execute(
            sa.select(Player.id, Player.name).where(Player.circle_id == circle, Player.key == "ann")
        ).one()
        return stats.PlayerRef(row.id, row.name)


def numbers(app: Flask, player: stats.PlayerRef) -> dict[str, Any]:
    """A player's statistics as sums that add up over two players' histories."""
    with app.app_context():
        found = stats.player_stats(player)
        opponents = {row.opponent: row.games for row in stats.head_to_head(player, most=50)}
    average = found.average_round_score
    return {
        "games": found.games,
        "finished_games": found.finished_games,
        "wins": found.wins,
        "rounds": found.rounds,
        "points": round(average * found.rounds) if average is not None else 0,
        "colours": Counter({colour.colour: colour.rounds for colour in found.colours}),
        "opponents": Counter(opponents),
        "best": found.best_round,
        "worst": found.worst_round,
    }


def added(one: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Two players' numbers as one player's."""
    total = {key: one[key] + other[key] for key in one if key not in ("best", "worst")}
    total["best"] = max(one["best"], other["best"])
    total["worst"] = min(one["worst"], other["worst"])
    return total


def steady(app: Flask) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table but the journals and the counter, and the games' rows but
    the columns a merge moves on."""
    games = db.metadata.tables["games"]
    kept = [index for index, column in enumerate(games.columns) if column.name not in MOVED_ON]
    with app.app_context():
        rows = {table: rows for table, rows in snapshot().items() if table not in JOURNALS}
    rows["games"] = [tuple(row[index] for index in kept) for row in rows["games"]]
    return rows


def circle_of_games(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {
            row.code: row.circle_id
            for row in db.session.execute(sa.select(Game.code, Game.circle_id))
        }


def versions(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {
            row.code: row.version for row in db.session.execute(sa.select(Game.code, Game.version))
        }


def circle_entries(app: Flask) -> list[CircleChange]:
    with app.app_context():
        found = list(db.session.scalars(sa.select(CircleChange).order_by(CircleChange.id)))
        db.session.expunge_all()
        return found


def player_entries(app: Flask) -> list[PlayerChange]:
    with app.app_context():
        found = list(db.session.scalars(sa.select(PlayerChange).order_by(PlayerChange.id)))
        db.session.expunge_all()
        return found


def assert_refused(runner: FlaskCliRunner, app: Flask, args: tuple[str, ...], message: str) -> None:
    """The command fails, says ``message`` and changes nothing at all."""
    with app.app_context():
        before = snapshot()
    answer = run(runner, *args)
    assert answer.exit_code == 1, answer.output
    assert message in answer.output
    with app.app_context():
        assert snapshot() == before


# --------------------------------------------------------------------------------------------
# Merging


def test_a_merge_gives_the_target_every_game_and_player_and_removes_the_source(
    app: Flask, runner: FlaskCliRunner, circles: Circles
) -> None:
    club, tuesday = circles.club, circles.tuesday
    before = versions(app)
    answer = run(runner, "merge", str(tuesday), str(club))
    assert answer.exit_code == 0, answer.output
    assert f"#1: Circle {tuesday} (Tuesday) merged into circle {club} (Club)" in answer.output
    assert "Games moved: 2; players moved: 4;" in answer.output
    assert "same name: 1." in answer.output
    assert set(circle_of_games(app).values()) == {club}
    header, *rows = run(runner, "list").output.splitlines()
    assert [row.split(maxsplit=3) for row in rows] == [[str(club), "4", "8", "Club"]]
    with app.app_context():
        names = sorted(db.session.scalars(sa.select(Player.name)))
    assert names == ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal"]
    moved = {circles.games[name]["id"] for name in ("tuesday", "other")}
    after = versions(app)
    assert all(after[code] > before[code] for code in moved)  # their phones are told
    assert all(after[code] == before[code] for code in before if code not in moved)
    assert_ledger_exact(app, "a merge of circles")


def test_the_two_anns_become_one_with_the_sum_of_their_statistics(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, circles: Circles
) -> None:
    club_ann, tuesday_ann = ann_of(app, circles.club), ann_of(app, circles.tuesday)
    apart = numbers(app, club_ann), numbers(app, tuesday_ann)
    assert apart[0]["games"] == 2 and apart[1]["games"] == 1
    assert run(runner, "merge", str(circles.tuesday), str(circles.club)).exit_code == 0
    assert ann_of(app, circles.club) == club_ann  # the target's Ann stays, with her name
    assert numbers(app, club_ann) == added(*apart)
    assert client.get("/api/v1/players/Ann").json["games"] == 3
    (merge,) = player_entries(app)  # the players' journal has the merge of the two
    assert (merge.kind, merge.origin) == ("merge", "command")
    assert (merge.player_id, merge.player_name, merge.target_id, merge.new_name) == (
        tuesday_ann.id,
        "ann",
        club_ann.id,
        "Ann",
    )
    (entry,) = circle_entries(app)
    assert entry.moved["merges"] == [merge.id]
    assert_ledger_exact(app, "merging the players of one name in two circles")


def test_the_merged_circles_invite_secret_opens_nothing_until_the_merge_is_undone(
    app: Flask, runner: FlaskCliRunner, circles: Circles
) -> None:
    secret = run(runner, "invite", str(circles.tuesday)).stdout.strip()
    stored = hashlib.sha256(secret.encode()).hexdigest()
    with app.app_context():
        kept = db.session.scalar(sa.select(Circle.secret_hash).where(Circle.id == circles.club))
    assert run(runner, "merge", str(circles.tuesday), str(circles.club)).exit_code == 0
    with app.app_context():
        hashes = list(db.session.scalars(sa.select(Circle.secret_hash)))
    assert hashes == [kept]  # the target keeps its own; the source's row is gone
    assert run(runner, "undo", "1").exit_code == 0
    with app.app_context():
        back = db.session.get_one(Circle, circles.tuesday)
        assert (back.name, back.secret_hash) == ("Tuesday", stored)


def test_a_round_corrected_during_a_merge_waits_and_is_counted_once(
    app: Flask,
    client: FlaskClient,
    circles: Circles,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The merge locks the games it moves, as every writer does: a phone correcting a round
    of one meanwhile waits, and is then told the game changed (its version moved on)."""
    game = circles.games["other"]  # none of its players is merged: only its circle changes
    game.update(client.get(f"/api/v1/games/{game['id']}").json)
    scores = game["rounds"][0]["scores"]
    answers: list[Any] = []
    asking = threading.Event()

    def correct_round() -> None:
        answers.append(
            client.put(
                f"/api/v1/games/{game['id']}/rounds/1",
                json={"version": game["version"], "entries": THREE},
                headers=auth(game),
            )
        )

    phone = threading.Thread(target=correct_round)

    def meanwhile(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        """As the merge locks the circles, before it writes anything, a phone corrects
        round 1 of one of the games it is about to move."""
        words = statement.upper()
        if "FROM CIRCLES" in words and "CIRCLES.ID IN" in words and phone.ident is None:
            phone.start()
            waits_for_a_lock_or_ends(app, phone, asking)

    def phone_locks() -> None:
        asking.set()
        hold_write_lock()

    monkeypatch.setattr(games, "hold_write_lock", phone_locks)
    with app.app_context():
        sa.event.listen(db.engine, "before_cursor_execute", meanwhile)
        try:
            merge_circles(circles.tuesday, circles.club)
            db.session.commit()
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", meanwhile)
    phone.join()
    (answer,) = answers
    assert answer.status_code == 409  # it waited for the merge, which moved the version on
    assert client.get(f"/api/v1/games/{game['id']}").json["rounds"][0]["scores"] == scores
    assert_ledger_exact(app, "a correction sent during a merge of circles")


# --------------------------------------------------------------------------------------------
# Undoing


def test_undoing_a_merge_puts_back_exactly_what_was_there(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, circles: Circles
) -> None:
    club_ann, tuesday_ann = ann_of(app, circles.club), ann_of(app, circles.tuesday)
    apart = numbers(app, club_ann), numbers(app, tuesday_ann)
    before = steady(app)  # the circle rows too: ids, names, secrets' hashes, creation times
    games_before = circle_of_games(app)
    assert run(runner, "merge", str(circles.tuesday), str(circles.club)).exit_code == 0
    assert steady(app) != before
    answer = run(runner, "undo", "1")
    assert answer.exit_code == 0, answer.output
    assert answer.output.startswith("Undone: #1: Circle")
    assert steady(app) == before
    assert circle_of_games(app) == games_before
    assert (numbers(app, club_ann), numbers(app, tuesday_ann)) == apart
    assert ann_of(app, circles.tuesday) == tuesday_ann  # her id and name back
    assert_ledger_exact(app, "undoing a merge of circles")
    (entry,) = circle_entries(app)
    (merge,) = player_entries(app)
    assert entry.undone_at is not None and merge.undone_at is not None
    listed = run(runner, "journal").output
    assert "#1: Circle" in listed and "from the command line" in listed and "(undone " in listed


def test_undoing_a_merge_gives_back_the_rounds_recorded_at_her_seat_since(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, circles: Circles, table: Table
) -> None:
    """The other way round: the club joins Tuesday, and its game in progress goes on."""
    club_ann = ann_of(app, circles.club)
    apart = numbers(app, club_ann)
    assert run(runner, "merge", str(circles.club), str(circles.tuesday)).exit_code == 0
    assert set(circle_of_games(app).values()) == {circles.tuesday}
    game = circles.games["open"]
    game.update(client.get(f"/api/v1/games/{game['id']}").json)
    table.record(game, THREE)  # Ann, one player now, plays on at the club's table
    assert run(runner, "undo", "1").exit_code == 0
    back = numbers(app, club_ann)
    assert (back["games"], back["rounds"]) == (apart["games"], apart["rounds"] + 1)
    assert circle_of_games(app)[game["id"]] == circles.club
    assert_ledger_exact(app, "undoing a merge of circles after a round")


def test_a_later_merge_is_undone_first(
    app: Flask, runner: FlaskCliRunner, circles: Circles
) -> None:
    before = steady(app)
    third = into_new_circle(app, "Friday", [], [])
    with app.app_context():
        friday = db.session.execute(sa.select(Circle).where(Circle.id == third)).scalar_one()
        friday_row = (friday.id, friday.name, friday.secret_hash)
    assert run(runner, "merge", str(circles.tuesday), str(circles.club)).exit_code == 0
    assert run(runner, "merge", str(circles.club), str(third)).exit_code == 0
    assert_refused(
        runner,
        app,
        ("undo", "1"),
        f"Entry 1 cannot be undone exactly: circle {circles.club} changed since",
    )
    assert run(runner, "undo", "2").exit_code == 0
    assert run(runner, "undo", "1").exit_code == 0
    after = steady(app)
    assert [row[:3] for row in after["circles"] if row[0] == third] == [friday_row]
    after["circles"] = [row for row in after["circles"] if row[0] != third]
    assert after == before
    assert_ledger_exact(app, "undoing two merges of circles")


def test_an_entry_is_undone_once(app: Flask, runner: FlaskCliRunner, circles: Circles) -> None:
    run(runner, "merge", str(circles.tuesday), str(circles.club))
    run(runner, "undo", "1")
    assert_refused(runner, app, ("undo", "1"), "Journal entry 1 was undone already.")


def test_a_merge_whose_game_was_deleted_since_is_not_undone(
    app: Flask, runner: FlaskCliRunner, circles: Circles
) -> None:
    run(runner, "merge", str(circles.tuesday), str(circles.club))
    code = circles.games["other"]["id"]
    with app.app_context():
        game = get_game(code, for_update=True)
        delete_game(game, game.version)
        db.session.commit()
    assert_refused(
        runner,
        app,
        ("undo", "1"),
        f"the game {code} it moved is no longer in circle {circles.club}",
    )


def test_a_merge_whose_player_was_renamed_since_is_not_undone(
    app: Flask, runner: FlaskCliRunner, circles: Circles
) -> None:
    run(runner, "merge", str(circles.tuesday), str(circles.club))
    assert runner.invoke(args=["players", "rename", "Eve", "Eva"]).exit_code == 0
    assert_refused(runner, app, ("undo", "1"), "Eve (player")
    assert runner.invoke(args=["players", "undo", "2"]).exit_code == 0
    assert run(runner, "undo", "1").exit_code == 0


def test_a_game_since_with_players_of_both_circles_stops_the_undo(
    app: Flask, runner: FlaskCliRunner, circles: Circles, table: Table
) -> None:
    run(runner, "merge", str(circles.tuesday), str(circles.club))
    mixed = table.new_game(["Ben", "Eve", "Zoe"])  # a club night after the merge
    assert_refused(
        runner, app, ("undo", "1"), f"the game {mixed['id']} seats players of both circles now"
    )


def test_a_merge_of_two_anns_undone_since_stops_the_undo(
    app: Flask, runner: FlaskCliRunner, circles: Circles
) -> None:
    run(runner, "merge", str(circles.tuesday), str(circles.club))
    assert runner.invoke(args=["players", "rename", "Ann", "Annie"]).exit_code == 0
    assert runner.invoke(args=["players", "undo", "1"]).exit_code == 0  # ann is back alone
    assert_refused(
        runner,
        app,
        ("undo", "1"),
        "the merge of ann it made (players' journal entry 1) was undone since",
    )


def test_a_merge_whose_circle_id_was_taken_since_is_not_undone(
    app: Flask, runner: FlaskCliRunner, circles: Circles
) -> None:
    """SQLite gives the next row the id of the last one deleted: another circle may have the
    merged circle's id by the time of the undo."""
    run(runner, "merge", str(circles.tuesday), str(circles.club))
    with app.app_context():
        db.session.add(Circle(id=circles.tuesday, name="Friday", secret_hash="f" * 64))
        db.session.commit()
    assert_refused(runner, app, ("undo", "1"), f"circle {circles.tuesday} is another circle now")


# --------------------------------------------------------------------------------------------
# Renames, refusals, the journal


def test_a_rename_is_journalled_and_undone(
    app: Flask, runner: FlaskCliRunner, circles: Circles
) -> None:
    club = circles.club
    assert run(runner, "rename", str(club), "Back room").exit_code == 0
    (entry,) = circle_entries(app)
    assert (entry.kind, entry.origin, entry.circle_name, entry.new_name) == (
        "rename",
        "command",
        "Club",
        "Back room",
    )
    (line,) = run(runner, "journal").output.splitlines()
    assert line.startswith(entry.made_at.strftime("%Y-%m-%d %H:%M"))
    assert f"#1: Circle {club} renamed from Club to Back room." in line
    assert run(runner, "rename", str(club), "Cellar").exit_code == 0
    assert_refused(
        runner, app, ("undo", "1"), f"Entry 1 cannot be undone exactly: circle {club} changed"
    )
    assert run(runner, "undo", "2").exit_code == 0
    assert run(runner, "undo", "1").exit_code == 0
    with app.app_context():
        assert db.session.get_one(Circle, club).name == "Club"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("merge", "{club}", "{club}"), "A circle cannot be merged into itself."),
        (("merge", "99", "{club}"), "There is no circle 99."),
        (("merge", "{tuesday}", "99"), "There is no circle 99."),
        (("rename", "{club}", " Club "), "Circle {club} is already called Club."),
        (("undo", "99"), "There is no journal entry 99."),
    ],
)
def test_a_refused_command_says_why_and_changes_nothing(
    app: Flask,
    runner: FlaskCliRunner,
    circles: Circles,
    args: tuple[str, ...],
    message: str,
) -> None:
    ids = {"club": circles.club, "tuesday": circles.tuesday}
    filled = tuple(arg.format(**ids) for arg in args)
    assert_refused(runner, app, filled, f"Error: {message.format(**ids)}")


def test_circle_ids_that_are_no_numbers_are_a_usage_error(runner: FlaskCliRunner) -> None:
    answer = run(runner, "merge", "Tuesday", "Club")
    assert answer.exit_code == 2
    assert "SOURCE" in answer.output


def test_the_journal_of_untouched_circles_is_empty(runner: FlaskCliRunner) -> None:
    answer = run(runner, "journal")
    assert answer.exit_code == 0
    assert answer.output.strip() == "No circle was renamed or merged yet."
