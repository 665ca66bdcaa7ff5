"""How gunicorn serves the app, wherever it is installed (docs/operators/deploying.md):

    gunicorn -c python:companion.gunicorn_conf -w 4 -b 127.0.0.1:8000 'companion:create_app()'

gunicorn reads the settings below from this module; options on the command line override
them. They are here, in the package, rather than in a ``gunicorn.conf.py`` beside a checkout,
so that a server with nothing but the installed wheel starts the app the same way as the
tests do (``scripts/server_harness.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gunicorn import glogging

from companion.web.request_logs import mask_edit_keys_in

if TYPE_CHECKING:
    from gunicorn.config import Config


class EditKeyMaskingLogger(glogging.Logger):
    """gunicorn's logger, writing ``/edit/***`` instead of an edit link's key in the access
    log (whatever its ``--access-logformat``) and in the error log ("Error handling request
    <path>")."""

    def setup(self, cfg: Config) -> None:
        super().setup(cfg)
        mask_edit_keys_in(self.access_log)
        mask_edit_keys_in(self.error_log)


#: Requests run in threads of each worker process, not in the process itself: a client that
#: sends its body slowly (a bad network, or on purpose) holds one thread, not a whole worker,
#: so a few of them cannot keep every worker busy while the other phones time out. The
#: proxy's buffering of request bodies (docs/operators/deploying.md, Behind a proxy) is the
#: main defence; this keeps a server without it, or one reached around it, answering.
worker_class = "gthread"
threads = 8
#: A worker takes no more connections than it has threads. Past that, gthread would queue a
#: new request behind slow ones in its own pool while another worker has threads free; left
#: in the kernel's queue instead, it goes to a worker that can answer it now.
worker_connections = threads
#: So no connection is kept open between requests (gthread would not keep any with
#: worker_connections == threads, and would warn about it): the proxy opens a new one.
keepalive = 0
#: A worker that has not reported to gunicorn's master for this long is restarted. With
#: threads, a slow request does not count: the worker's main loop reports every second.
timeout = 30

#: No peer may tell gunicorn the scheme or the path: by default gunicorn believes
#: ``X-Forwarded-Proto`` (and ``SCRIPT_NAME`` as a header) from 127.0.0.1, and from any peer
#: of a unix socket, whatever ``PROXY_COUNT`` says. The app alone decides, behind
#: ``PROXY_COUNT`` proxies (its ProxyFix, companion/web/security.py), what to believe.
forwarded_allow_ips = ""
secure_scheme_headers: dict[str, str] = {}
forwarder_headers = ""

logger_class = EditKeyMaskingLogger
