"""The test data shipped in tests/data/ (see tests/data/connect4/README.md for its source)."""

from __future__ import annotations

from pathlib import Path

CONNECT4 = Path(__file__).resolve().parent / "data" / "connect4"
"""Pascal Pons's six Connect Four test sets: `Test_<level>_<rating>`, lines `<moves> <score>`."""


def connect4_positions(name: str) -> list[tuple[str, int]]:
    """Every (moves, published score) line of `Test_...` set `name`."""
    lines = (CONNECT4 / name).read_text().split("\n")
    return [(moves, int(score)) for moves, score in (line.split() for line in lines if line)]


def connect4_sample(name: str, count: int) -> list[tuple[str, int]]:
    """Every k-th line of a set, `count` in all, so that the sample spans the set."""
    lines = connect4_positions(name)
    step = max(1, len(lines) // count)
    return lines[::step][:count]
