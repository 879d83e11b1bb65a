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


# The first player wins Hex on every board (Nash's strategy-stealing argument). Which first
# moves win (Black vertical and first, a1 an acute corner, as here and on HexWiki: "Board",
# https://www.hexwiki.net/index.php/Board): HexWiki, "Small boards"
# (https://www.hexwiki.net/index.php/Small_boards, "Winner depending on the first move";
# Queenbee's opening page is its reference for these sizes): on 2x2 a2 and b1 win, a1 and
# b2 lose; on 4x4 the four cells of the short diagonal from d1 to a4 win, the other twelve
# lose. On 3x3 the short diagonal c1, b2, a3 wins and the acute corners a1 and c3 lose
# (mazeworks.com, "Hex: Basic Strategy II", in its own orientation); the proofs also
# settle the other four cells (a2 and c2 win, b1 and b3 lose): tests/games/test_hex.py proves
# every entry with alpha-beta and a brute-force solver, tests/engines/test_mcts.py with MCTS.

HEX_WINNING_FIRST_MOVES = {
    1: {"a1"},
    2: {"a2", "b1"},
    3: {"a2", "a3", "b2", "c1", "c2"},
    4: {"a4", "b3", "c2", "d1"},
}
