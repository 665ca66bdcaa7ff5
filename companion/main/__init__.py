"""Web pages for people at the table."""

from companion.main.routes import bp

__all__ = ["bp"]
