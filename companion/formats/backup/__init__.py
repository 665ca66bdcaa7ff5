"""Export and backup: games as a versioned JSON document, and back (CSV: ``game_csv``).

The document (format version 2)::

    {"format": "sticheln-companion", "version": 2, "exported_at": "...Z",
     "circles": [{"key", "name", "created_at"}, ...],
     "games": [{"code", "circle", "players", "variant", "rounds_planned", "first_leader",
                "status", "excluded", "next_game", "created_at", "updated_at",
                "rounds": [{"number", "leader", "mode", "status", "entries", "tricks",
                            "scores", "explanations", "created_at", "updated_at"}, ...]},
               ...]}

Times are ISO 8601 in UTC. Edit keys are secrets and never exported (not even their hash):
an imported game gets a fresh edit key, which the import hands back once. So are a circle's
invite secret and its hash: a circle's ``key`` is a number of the document's own, which each
game's ``circle`` names, and the import makes each circle anew (only those that get a game)
with a secret nobody knows, until the operator makes one (``circles invite``). Told a
circle of this server (``--circle``), the import puts every game there instead; names are
matched within the circle a game goes into.

One game's download (its page's and the API's export) is of version 2 as well, without
``circles`` and without the game's ``circle``: anyone with the game's read-only link may
fetch it, while a circle's name, like its history, is for its own phones; and
whoever imports the game chooses the circle it joins. Version 1, written before circles,
is the same document without them; a document without circles is imported into the
circle the import is told, or else into the server's first.

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
