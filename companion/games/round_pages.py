"""Pages of one round: mark colours, record a round, correct a past round."""

from __future__ import annotations

from companion.games import bp  # noqa: F401
