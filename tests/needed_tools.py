"""A tool a test needs and a machine may lack (Chromium, the vendored offline kit). Outside CI
the test is skipped, saying how to get the tool; in CI (``CI=true``) nothing may be skipped,
so the test fails instead."""

from __future__ import annotations

import os

import pytest


def in_ci() -> bool:
    """CI sets CI=true; there nothing may be skipped."""
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def require(missing: str | None) -> None:
    """Go on when nothing is ``missing``; else skip the test, or fail it in CI."""
    if missing is None:
        return
    if in_ci():
        pytest.fail(f"CI=true, and {missing}", pytrace=False)
    pytest.skip(missing)
