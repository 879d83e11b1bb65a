"""Test doubles for engine contexts (the engines' only non-deterministic input is time)."""

from __future__ import annotations


class FakeClock:
    """Advances `step` seconds per call."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 100.0
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        self.now += self.step
        return self.now
