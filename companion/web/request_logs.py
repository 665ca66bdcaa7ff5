"""Edit keys stay out of the logs.

An edit link (``/g/<code>/edit/<key>``) carries the game's edit key in its path, and every
request log writes paths: Werkzeug's request log (``manage.py serve``), Flask's "Exception on
<path>", gunicorn's access and error logs. Whoever can read a log must not be able to change
the games in it, so those loggers write ``/edit/***`` instead of the key, before any handler
(a file, the journal, a log shipper) sees the record. The address of a game started offline
(``/games/new/<key>``) holds the idempotency key its start is sent with: it is written
``/games/new/***`` alike.
"""

from __future__ import annotations

import logging
import re

from flask import Flask

#: What stands in for an edit key in a log: no key is made of these characters.
MASK = "***"
#: The key of an edit link or of a game started offline: everything after ``/edit/`` or
#: ``/games/new/`` up to the end of the path (a query, a fragment, a quote or a blank ends
#: it; so does the escape code of a coloured log line).
EDIT_KEY_IN_PATH = re.compile(r"(/edit/+|/games/+new/+)[^\s?#\"'\x1b]+")
#: The loggers of the development server (``flask run``): Werkzeug's request log.
DEVELOPMENT_SERVER_LOGGER = "werkzeug"


def mask_edit_keys(text: str) -> str:
    """``text`` with the key of every edit link in it replaced by ``***``."""
    return EDIT_KEY_IN_PATH.sub(rf"\g<1>{MASK}", text)


class EditKeyFilter(logging.Filter):
    """Rewrite a record whose message holds an edit link so that it holds ``/edit/***``.

    The message is formatted here, once, because the key may sit in the format string or in
    any of its arguments (gunicorn's access log passes the request line as one of many). A
    record without an edit link is left as it is; every record is let through.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken record: the handler reports it as it would have
            return True
        masked = mask_edit_keys(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True


#: One filter for every logger, so that adding it again (another app, a reload) is a no-op.
EDIT_KEY_FILTER = EditKeyFilter()


def mask_edit_keys_in(logger: logging.Logger) -> None:
    """Have ``logger`` mask the edit keys of every record logged on it."""
    logger.addFilter(EDIT_KEY_FILTER)


def init_app(app: Flask) -> None:
    """Mask edit keys in the app's own log and in the development server's request log."""
    mask_edit_keys_in(app.logger)
    mask_edit_keys_in(logging.getLogger(DEVELOPMENT_SERVER_LOGGER))
