"""The search's signature: exact node counts and lines of fixed searches, like Stockfish's
`bench`. Any change to what alpha-beta searches (ordering, pruning, the table, the kernel)
changes a count here; a change meant to do so updates the numbers in the same commit and
says why. A refactoring must leave them alone (the core reshape did: they are the counts of
the search before it).
"""

from __future__ import annotations

import pytest

from kibitz.engines import Limits, SearchContext
from kibitz.engines.alphabeta import AlphaBeta, kernels
from kibitz.games import GAMES

SIGNATURE = [  # game, position, limits, compiled kernel, nodes, principal variation
    ("connect4", "4453", Limits(depth=9), False, 14828, [3, 2, 2, 5, 4, 4, 2, 2, 3]),
    ("connect4", "4453", Limits(depth=9), True, 15095, [3, 2, 2, 5, 4, 4, 2, 2, 3]),
    ("connect4", "4453", Limits(depth=8, multipv=3), False, 10632, [3, 3, 2, 2, 5, 6, 2, 4]),
    ("connect4", "4453", Limits(depth=8, multipv=3), True, 11623, [3, 3, 2, 2, 5, 6, 2, 4]),
    ("connect4", "2556433363141147", Limits(solve=True), False, 2026, [5, 2, 2, 5, 4, 4, 3, 3]),
    ("connect4", "2556433363141147", Limits(solve=True), True, 2086, [5, 2, 2, 5, 4, 4, 3, 3]),
    ("connect4", "274552224131661", Limits(solve=True), True, 191571, [3, 4, 3, 4, 4, 5, 5, 3]),
    ("tictactoe", "", Limits(depth=20), False, 5359, [4, 8, 1, 7, 6, 2, 5, 3, 0]),
    ("nim", "3,4,5", Limits(solve=True), False, 833, [2, 1, 2049, 1025, 2049, 1025, 2049]),
]


@pytest.mark.parametrize(
    ("game", "position", "limits", "kernel", "nodes", "pv"),
    [
        pytest.param(*case, id=f"{case[0]}-{case[1] or 'start'}-{i}")
        for i, case in enumerate(SIGNATURE)
    ],
)
def test_node_counts_and_lines_are_the_signature(game, position, limits, kernel, nodes, pv):
    if kernel:
        assert kernels.available(), "the compiled kernels were not built"
    state = GAMES[game].from_position(position)
    result = AlphaBeta({"Kernel": kernel}).search(state, limits, SearchContext())
    assert (result.nodes, result.pv[: len(pv)]) == (nodes, pv)
