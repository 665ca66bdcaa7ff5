"""One way to submit a round (``services.submit``): pages, the API and (next) the offline
outbox send a round through it, and it answers one result: saved, checked, refused (every
problem), stale, or clashed with the round another phone saved. The rule that a round sent
belongs to the round it was opened for is its own (``services.clash_of``)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import services
from companion.data import queries
from companion.data.models import db
from companion.play_state.entries import read_entries
from companion.rules import RoundRefused
from tests.games.round_helpers import NAMES
from tests.games.test_checks_once import SAVES, api_record, as_api
from tests.games.test_round_saved import CORRECTED, ROUND
from tests.table import Table


def sent(game: Any, seats: list[dict[str, Any]], **given: Any) -> services.RoundSent:
    """Round ``seats`` (the page helpers' shape) as a sender would send it to ``game``."""
    entries = read_entries(as_api(seats), queries.setup_of(game))
    return services.RoundSent(given.pop("version", game.version), tuple(entries), **given)


def stored_rounds(app: Flask, code: str) -> list[Any]:
    """The entries of every round stored, read afresh."""
    with app.app_context():
        return [round_.entries for round_ in services.get_game(code).rounds]


@pytest.fixture
def game(table: Table) -> dict[str, Any]:
    """A classic game of four with round 1 recorded: round 2 is next."""
    created = table.new_game(NAMES, "classic", rounds=5, edit_here=True)
    api_record(table.client, created)
    return created


def test_a_round_for_the_round_to_record_is_saved(app: Flask, game: dict[str, Any]) -> None:
    with app.app_context():
        stored = services.get_game(game["id"])
        result = services.submit(stored, sent(stored, ROUND, opened_for=2))
        assert isinstance(result, services.Saved) and result.round.number == 2
        db.session.commit()
    assert stored_rounds(app, game["id"]) == [as_api(ROUND), as_api(ROUND)]


@pytest.mark.parametrize(("opened_for", "change"), [(1, services.RoundChange.RECORDED)])
def test_a_round_sent_for_a_round_saved_elsewhere_clashes_with_it(
    app: Flask, game: dict[str, Any], opened_for: int, change: services.RoundChange
) -> None:
    with app.app_context():
        stored = services.get_game(game["id"])
        result = services.submit(stored, sent(stored, CORRECTED, opened_for=opened_for))
        assert isinstance(result, services.Clashed)
        assert (result.round.number, result.change) == (opened_for, change)
        db.session.rollback()
    assert stored_rounds(app, game["id"]) == [as_api(ROUND)]


def test_a_round_neither_there_nor_next_is_refused_and_never_filed_elsewhere(
    app: Flask, game: dict[str, Any]
) -> None:
    with app.app_context():
        stored = services.get_game(game["id"])
        result = services.submit(stored, sent(stored, ROUND, opened_for=3))
        assert isinstance(result, services.Refused)
        refusal = result.refusal
        assert isinstance(refusal, services.RoundNotNext)
        assert (refusal.opened_for, refusal.next_number, refusal.status) == (3, 2, 409)
        assert str(refusal) == (
            "Round 3 is not the round to record: round 2 is next (another phone may have "
            "recorded it). Nothing was saved."
        )
        db.session.rollback()
    assert stored_rounds(app, game["id"]) == [as_api(ROUND)]


def test_a_round_on_an_older_version_is_stale(app: Flask, game: dict[str, Any]) -> None:
    with app.app_context():
        stored = services.get_game(game["id"])
        result = services.submit(stored, sent(stored, ROUND, version=stored.version - 1))
        assert result == services.Stale(stored.version)
        db.session.rollback()
    assert stored_rounds(app, game["id"]) == [as_api(ROUND)]


def test_a_refused_round_says_every_problem_and_saves_nothing(
    app: Flask, game: dict[str, Any]
) -> None:
    wrong = [dict(seat, tricks=seat["tricks"] + 1) for seat in ROUND[:2]] + ROUND[2:]
    with app.app_context():
        stored = services.get_game(game["id"])
        result = services.submit(stored, sent(stored, wrong))
        assert isinstance(result, services.Refused)
        assert isinstance(result.refusal, RoundRefused)
        assert result.problems == result.refusal.problems and result.problems
        db.session.rollback()
    assert stored_rounds(app, game["id"]) == [as_api(ROUND)]


def test_a_check_scores_the_round_and_stores_nothing(app: Flask, game: dict[str, Any]) -> None:
    with app.app_context():
        stored = services.get_game(game["id"])
        result = services.check(stored, sent(stored, ROUND, opened_for=2))
        assert isinstance(result, services.Checked)
        assert len(result.score.seats) == len(NAMES)
        db.session.commit()
    assert stored_rounds(app, game["id"]) == [as_api(ROUND)]


def test_a_correction_of_a_round_corrected_elsewhere_clashes_with_it(
    app: Flask, game: dict[str, Any]
) -> None:
    with app.app_context():
        stored = services.get_game(game["id"])
        shown = services.round_digest(stored.rounds[0])
        first = services.submit(
            stored, sent(stored, CORRECTED, opened_for=1, digest=shown), correcting=True
        )
        assert isinstance(first, services.Saved)
        db.session.commit()
        again = services.submit(
            stored, sent(stored, ROUND, opened_for=1, digest=shown), correcting=True
        )
        assert isinstance(again, services.Clashed)
        assert again.change is services.RoundChange.CORRECTED
        db.session.rollback()
    assert stored_rounds(app, game["id"]) == [as_api(CORRECTED)]


@pytest.mark.parametrize("way", SAVES)
def test_pages_and_api_submit_through_the_one_service(
    client: FlaskClient, table: Table, monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    """Every way of saving a round goes through ``services.submit``, once."""
    created = table.new_game(NAMES, "classic", rounds=5, edit_here=True)
    if "correct" in way:
        api_record(client, created)
    calls: list[services.Submitted] = []
    submit = services.submit

    def counted(*args: Any, **kwargs: Any) -> services.Submitted:
        calls.append(submit(*args, **kwargs))
        return calls[-1]

    for module in ("companion.services", "companion.services.rounds"):
        monkeypatch.setattr(f"{module}.submit", counted)
    SAVES[way](client, created)
    assert [type(call) for call in calls] == [services.Saved]
