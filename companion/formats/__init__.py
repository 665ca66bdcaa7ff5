"""What travels in and out of the app, and what the phone reads the same way offline.

- Exports and backups (server only): the API's game state (``game_json``), CSV
  (``game_csv``), BG Stats plays (``bg_stats``) and whole-history backups (``backup``).
- Pure readers and answers, shipped to the phone's rules worker with the rules
  (companion/web/offline/kit.py, ``SHIPPED_MODULES``; an import contract keeps them pure):
  strict JSON request reading (``parse``, ``entries``, ``new_game``), a round form's posted
  fields (``round_fields``), the rules endpoints' answers (``rules_answers``), the
  resolver's taps (``trick_taps``), and the game a phone shows offline with its live taps
  (``offline_game``, ``live_taps``).
"""
