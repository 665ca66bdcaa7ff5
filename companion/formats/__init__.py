"""The export and import formats (server only): the API's game state (``game_json``), CSV
(``game_csv``), BG Stats plays (``bg_stats``) and whole-history backups (``backup``).

What the JSON API reads and the phone shares with the server (strict request reading, the
offline game) is in ``companion.play_state``.
"""
