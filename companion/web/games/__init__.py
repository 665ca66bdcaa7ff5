"""The game pages, one blueprint in three areas: the game itself (new game, scoreboard,
sharing, the table display, export), its rounds entered whole (mark, record, correct) and
live play (trick by trick). ``entry`` holds what both ways of entering a round share: the
round form, the page it is shown on and the conflict view."""

from companion.web.games import blank_pages
from companion.web.games.blueprint import bp
from companion.web.games.game import export, routes, sharing, table_display
from companion.web.games.live import routes as live_routes
from companion.web.games.rounds import routes as round_routes

#: The modules whose routes register on ``bp`` as they are imported.
ROUTES = (export, routes, sharing, table_display, live_routes, round_routes, blank_pages)

__all__ = ["bp"]
