"""Export and backup: games as a versioned JSON document, and back (CSV: ``game_csv``).

The document::

    {"format": "sticheln-companion", "version": 1, "exported_at": "...Z",
     "games": [{"code", "players", "variant", "rounds_planned", "first_leader", "status",
                "excluded", "created_at", "updated_at",
                "rounds": [{"number", "leader", "mode", "status", "entries", "tricks",
                            "scores", "created_at", "updated_at"}, ...]}, ...]}

Times are ISO 8601 in UTC. Edit keys are secrets and never exported (not even their hash):
an imported game gets a fresh edit key, which the import hands back once.

An import trusts nothing it reads: every round is checked and scored again by
``companion.rules`` (a live round is replayed from its tricks), and the stored scores must be
the ones the rules give. Any problem refuses the whole document before anything is written.
A game whose code is already here is skipped: silently when its content is the same (so a
backup can be imported twice), with a report when it differs (a game played on after the
backup, say: the copy here is kept, nothing is merged or duplicated).

Modules: ``export`` writes the document, ``reading`` and ``rounds`` check one, ``importing``
adds its new games; ``plans`` holds what a check hands to the import. The game's download
pages name the exports as ``backup.<function>``, so the package answers for those.
"""

from __future__ import annotations

from companion.formats.backup.export import game_for_export, game_json
from companion.formats.game_csv import game_csv

__all__ = ["game_csv", "game_for_export", "game_json"]
