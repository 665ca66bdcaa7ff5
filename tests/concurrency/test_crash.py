"""The crash test (scripts/crash_test.py) in short: the session's gunicorn is killed
(SIGKILL, master and workers at once) in the middle of a burst of writes and started again;
then every acknowledged round is there as sent, the database checks out and every unfinished
game takes its next round. The server goes on serving the other tests after its restart."""

from __future__ import annotations

from scripts import crash_test, server_harness


def test_a_server_killed_during_a_burst_of_writes_loses_no_acknowledged_round(
    server: server_harness.Server,
) -> None:
    starts = server.starts
    cycle = crash_test.crash_cycle(server, writers=4, after=12, seed=3)
    assert server.starts == starts + 1, "the server was not started again after the kill"
    assert cycle.errors == []
    assert cycle.writers_running == 4, "the kill came after the burst, not during it"
    assert cycle.acknowledged >= 12
    assert cycle.lost == [] and cycle.duplicated == []
    assert cycle.integrity == [] and cycle.consistency.problems == []
    assert cycle.consistency.rounds >= cycle.acknowledged
    assert cycle.continued >= 1
