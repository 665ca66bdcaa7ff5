"""The operator's ``circles`` commands (issue 28): the list with each circle's games and
players, a new invite secret printed once and stored only as its hash, and a rename; a
refusal says why and changes nothing."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskCliRunner

from companion.data.circles import server_circle_id, unknown_secret_hash
from companion.data.models import Circle, db
from tests.db_snapshot import snapshot
from tests.table import Table


def run(runner: FlaskCliRunner, *args: str) -> Any:
    return runner.invoke(args=["circles", *args])


def circle_row(app: Flask, circle_id: int) -> tuple[str, str]:
    with app.app_context():
        row = db.session.execute(
            sa.select(Circle.name, Circle.secret_hash).where(Circle.id == circle_id)
        ).one()
        return row.name, row.secret_hash


@pytest.fixture
def circles(app: Flask, table: Table) -> tuple[int, int]:
    """The server's circle with two games of four players, and an empty second circle."""
    table.new_game(["Ann", "Ben", "Cleo"])
    table.new_game(["Ann", "Ben", "Dan"])
    with app.app_context():
        club = server_circle_id()
        other = Circle(name="Tuesday", secret_hash=unknown_secret_hash())
        db.session.add(other)
        db.session.commit()
        return club, int(other.id)


def test_the_list_counts_each_circles_games_and_players(
    runner: FlaskCliRunner, circles: tuple[int, int]
) -> None:
    club, other = circles
    answer = run(runner, "list")
    assert answer.exit_code == 0, answer.output
    header, *rows = answer.output.splitlines()
    assert header.split() == ["ID", "Games", "Players", "Name"]
    assert [row.split(maxsplit=3) for row in rows] == [
        [str(club), "2", "4", "Club"],
        [str(other), "0", "0", "Tuesday"],
    ]


def test_an_invite_is_printed_once_and_only_its_hash_kept(
    app: Flask, runner: FlaskCliRunner, circles: tuple[int, int]
) -> None:
    club, other = circles
    before = circle_row(app, club)
    first = run(runner, "invite", str(club))
    assert first.exit_code == 0, first.output
    secret = first.stdout.strip()
    assert len(secret) >= 24 and "\n" not in secret
    name, stored = circle_row(app, club)
    assert name == "Club" and stored != before[1]
    assert stored == hashlib.sha256(secret.encode()).hexdigest()
    with app.app_context():
        assert secret not in str(snapshot())  # the secret itself is stored nowhere
    again = run(runner, "invite", str(club)).stdout.strip()
    assert again != secret
    assert circle_row(app, club)[1] == hashlib.sha256(again.encode()).hexdigest()
    assert circle_row(app, other)[1] != circle_row(app, club)[1]


def test_an_invite_link_printed_for_the_server_lets_a_phone_in(
    app: Flask, runner: FlaskCliRunner, circles: tuple[int, int]
) -> None:
    club, _other = circles
    app.config["CLUB_SERVER"] = False
    answer = run(runner, "invite", str(club), "--server", "https://cards.example/sticheln/")
    assert answer.exit_code == 0, answer.output
    link = answer.stdout.strip()
    prefix = f"https://cards.example/sticheln/circles/{club}/join/"
    assert link.startswith(prefix)
    assert circle_row(app, club)[1] == hashlib.sha256(link[len(prefix) :].encode()).hexdigest()
    phone = app.test_client()
    phone.get(link.removeprefix("https://cards.example/sticheln"))
    page = phone.get("/circles").get_data(as_text=True)
    assert f'id="circle-{club}"' in page and "Club" in page


def test_a_circle_is_renamed_as_a_name_is_written(
    app: Flask, runner: FlaskCliRunner, circles: tuple[int, int]
) -> None:
    club, _other = circles
    answer = run(runner, "rename", str(club), "  Ｔhe   Back Room ")
    assert answer.exit_code == 0, answer.output
    assert "Club" in answer.output and "The Back Room" in answer.output
    assert circle_row(app, club)[0] == "The Back Room"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("invite", "99"), "There is no circle 99."),
        (("rename", "99", "Back room"), "There is no circle 99."),
        (("rename", "{club}", "   "), "Every circle needs a name."),
        (("rename", "{club}", "x" * 41), "A name has at most 40 characters"),
        (("rename", "{club}", "Club\u202e"), "invisible characters"),
    ],
)
def test_a_refused_command_says_why_and_changes_nothing(
    app: Flask,
    runner: FlaskCliRunner,
    circles: tuple[int, int],
    args: tuple[str, ...],
    message: str,
) -> None:
    club, _other = circles
    with app.app_context():
        before = snapshot()
    answer = run(runner, *(arg.format(club=club) for arg in args))
    assert answer.exit_code == 1
    assert message in answer.output
    with app.app_context():
        assert snapshot() == before


def test_an_id_that_is_no_number_is_a_usage_error(runner: FlaskCliRunner) -> None:
    answer = run(runner, "invite", "club")
    assert answer.exit_code == 2
    assert "ID" in answer.output
