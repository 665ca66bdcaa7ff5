"""The load test (scripts/load_test.py) in short: four tables play three rounds each at the
same time against gunicorn with four workers, and nothing is lost, doubled or refused."""

from __future__ import annotations

from scripts import load_test, server_harness


def test_four_tables_playing_at_once_get_every_round_stored_once_and_no_error(
    server: server_harness.Server,
) -> None:
    report = load_test.run_load(server, tables=4, rounds=3, watchers=1, duration=20, seed=7)
    assert report.timings.errors == []
    assert report.tracebacks == []
    assert (report.acknowledged, report.unfinished) == (12, 0)
    assert report.lost == [] and report.duplicated == []
    assert report.consistency.problems == []
    assert report.consistency.rounds >= 12
    counts = {kind: count for kind, count, *_ in report.timings.rows()}
    assert counts == {"create": 4, "record": 12, "view": 12}
