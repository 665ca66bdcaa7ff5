"""The offline kit: Pyodide, the rules and the rules worker, served from our own origin under
fingerprinted URLs, for the phone to check and score without the network.

No page links it yet, and the service worker does not keep it: a phone fetches it only when
asked to (the offline pages of later steps will)."""

from flask import Blueprint

from companion.web.offline import kit

bp = Blueprint("offline", __name__, url_prefix="/offline-kit")
bp.record_once(lambda state: kit.init_app(state.app))

from companion.web.offline import routes  # noqa: E402, F401  (routes register on bp)
