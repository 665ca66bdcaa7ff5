"""The play state: what the table sends, read strictly, and the game's state it leads to, the
same on the server and on the phone.

The JSON API reads its requests here, and the offline rules worker (Pyodide in the phone's
browser) runs this whole package unchanged, so that a phone with no network reads, refuses and
applies a change as the server will (companion/web/offline/kit.py, ``SHIPPED_PACKAGES``; an
import contract of pyproject.toml keeps every module here pure: the standard library,
``companion.rules``, a new table's checks in ``companion.data`` and each other only):

- strict JSON request reading (``parse``, with ``ApiError``), round entries (``entries``) and
  a new game's request and first state (``new_game``);
- the rules endpoints' answers (``rules_answers``), a round form's posted fields
  (``round_fields``) and the trick resolver's taps (``trick_taps``);
- what a phone shows of a game offline, each queued change applied as the server's services
  apply it (``offline_game``), and a tap on the live round page (``live_taps``).
"""
