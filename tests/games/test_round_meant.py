"""A round belongs to the round it was opened for (``services.check_round_meant``): one
check, the same for the record and mark pages, the API and (next) the offline outbox."""

from __future__ import annotations

import pytest
from flask import Flask

from companion import services
from tests.games.round_helpers import NAMES
from tests.games.test_checks_once import api_record
from tests.table import Table


@pytest.mark.parametrize(("meant", "taken"), [(None, False), (2, False), (1, True), (3, True)])
def test_a_round_is_refused_unless_it_is_the_one_to_record(
    app: Flask, table: Table, meant: int | None, taken: bool
) -> None:
    game = table.new_game(NAMES, "classic", rounds=5, edit_here=True)
    api_record(table.client, game)  # round 1 is recorded: round 2 is next
    with app.app_context():
        stored = services.get_game(game["id"])
        if not taken:
            services.check_round_meant(stored, meant)
            return
        with pytest.raises(services.RoundNotNext) as refused:
            services.check_round_meant(stored, meant)
    assert (refused.value.meant, refused.value.next_number) == (meant, 2)
    assert refused.value.status == 409
    assert str(refused.value) == (
        f"Round {meant} is not the round to record: round 2 is next (another phone may have "
        "recorded it). Nothing was saved."
    )
