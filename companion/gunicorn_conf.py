"""How gunicorn serves the app, wherever it is installed (README, Deployment):

    gunicorn -c python:companion.gunicorn_conf -w 4 -b 127.0.0.1:8000 'companion:create_app()'

gunicorn reads the settings below from this module; options on the command line override
them. They are here, in the package, rather than in a ``gunicorn.conf.py`` beside a checkout,
so that a server with nothing but the installed wheel starts the app the same way as the
tests do (``scripts/loadkit.py``).
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


logger_class = EditKeyMaskingLogger
