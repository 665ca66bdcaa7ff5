"""Page models: what a page shows, built from plain game state (the JSON API's shape), never
from stored rows or a request, so that the server and the phone's rules worker draw the same
page from the same state with the same template (DESIGN.md, "Offline play").

Shipped to the phone with ``companion.rules`` (companion/web/offline/kit.py): the modules here
import only the standard library, ``companion.rules``, Jinja2 and MarkupSafe (the import
contract in pyproject.toml keeps them so).
"""
