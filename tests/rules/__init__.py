"""Unit tests of the pure rules engine (companion.rules), ruling by ruling (RULES.md)."""
