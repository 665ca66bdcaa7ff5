"""Installable app: the web app manifest, the service worker and the offline page."""

from companion.pwa.routes import bp

__all__ = ["bp"]
