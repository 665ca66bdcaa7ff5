"""Unit tests of the pure rules engine (companion.rules), ruling by ruling (R1-R23, C1-C6)."""
