"""The only writers: they turn rules results into rows and rows back into rules values.

Views and the API call these functions inside a request; each mutation checks the version
the caller based it on, scores through ``companion.rules``, and leaves committing (or
rolling back on any refusal) to the caller's single transaction. Each job has its module:
``keys``, ``players``, ``games``, ``rounds``, ``live``, ``player_changes`` and
``player_journal``, with the refusals in ``errors``. The game pages, the history pages and
the API's game routes call them as ``services.<function>`` (their views carry the services'
names, as in ``create_game``), so the package answers for the functions they call.
"""

from __future__ import annotations

from companion.services.errors import NotFound, RoundNotNext, ServiceError, StaleVersion
from companion.services.games import (
    abandon_game,
    check_game_code,
    check_version,
    create_game,
    delete_game,
    exclude_game,
    get_game,
    lock_game,
    play_again,
    rotate_edit_key,
)
from companion.services.keys import key_opens, next_game_key
from companion.services.live import (
    ReopenedTrick,
    live_round,
    open_live_round,
    play_live_trick,
    replace_unfinished_trick,
    show_unfinished_trick,
    take_back_last_card,
    undo_live_trick,
)
from companion.services.players import suggest_players, suggestions
from companion.services.rounds import (
    Checked,
    Clashed,
    Refused,
    RoundChange,
    RoundSent,
    Saved,
    Stale,
    Submitted,
    change_of,
    check,
    clash_of,
    correct_round,
    find_round,
    mark_colours,
    opening_clash,
    record_round,
    replace_marks,
    round_digest,
    round_of,
    submit,
)

__all__ = [
    "Checked",
    "Clashed",
    "NotFound",
    "Refused",
    "RoundChange",
    "RoundSent",
    "Saved",
    "Stale",
    "Submitted",
    "change_of",
    "check",
    "clash_of",
    "find_round",
    "opening_clash",
    "round_digest",
    "submit",
    "ReopenedTrick",
    "ServiceError",
    "RoundNotNext",
    "StaleVersion",
    "abandon_game",
    "check_game_code",
    "check_version",
    "correct_round",
    "create_game",
    "delete_game",
    "exclude_game",
    "get_game",
    "key_opens",
    "next_game_key",
    "live_round",
    "lock_game",
    "play_again",
    "mark_colours",
    "open_live_round",
    "play_live_trick",
    "replace_unfinished_trick",
    "show_unfinished_trick",
    "record_round",
    "replace_marks",
    "rotate_edit_key",
    "round_of",
    "suggest_players",
    "suggestions",
    "take_back_last_card",
    "undo_live_trick",
]
