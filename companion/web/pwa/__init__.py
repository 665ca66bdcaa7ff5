"""Installable app: the web app manifest, the service worker and the offline page."""

from flask import Blueprint

bp = Blueprint("pwa", __name__)

from companion.web.pwa import routes  # noqa: E402, F401  (routes register on bp)
