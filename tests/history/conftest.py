"""Row locks are PostgreSQL's (SQLite has one writer at a time), so the tests of them are
collected on the PostgreSQL pass only (``TEST_DATABASE_URL``) rather than skipped on SQLite."""

from __future__ import annotations

import os

collect_ignore = [] if os.environ.get("TEST_DATABASE_URL") else ["test_player_locks.py"]
