"""The compiled sliding-puzzle IDA* (kibitz/games/_sliding_kernel.pyx) against the
pure-Python searches it repeats: `sliding_pdb.solve_python` and the `idastar` engine. Same
line, same node count, same thresholds, on every heuristic (Manhattan, linear conflicts,
additive pattern databases), at node limits too; then exact published lengths on easy
instances of Korf's 100."""

from __future__ import annotations

import random

import pytest

from benchmarks.puzzles import korf100
from kibitz.games import sliding_pdb as pdb

needs_kernel = pytest.mark.skipif(
    not pdb.kernel_available(), reason="the sliding kernel was not built"
)


def scramble(width: int, steps: int, seed: int) -> list[int]:
    """A seeded random walk of the blank from the goal."""
    rng = random.Random(seed)
    n = width * width
    tiles = list(range(n))
    for _ in range(steps):
        blank = tiles.index(0)
        _, target = rng.choice(pdb._moves(blank, width, n))
        tiles[blank], tiles[target] = tiles[target], 0
    return tiles


@pytest.fixture(scope="module")
def small_databases() -> dict[int, pdb.PatternDatabase]:
    """A 4-4 partition of the 8-puzzle and a 3-3-3-3-3 one of the 15-puzzle, built here."""
    fifteen = [(1, 2, 3), (4, 5, 8), (6, 7, 11), (9, 12, 13), (10, 14, 15)]
    return {
        3: pdb.PatternDatabase.build(3, 3, [(1, 2, 3, 4), (5, 6, 7, 8)]),
        4: pdb.PatternDatabase.build(4, 4, fifteen),
    }


CASES = [(3, 200, seed) for seed in range(4)] + [(4, 100, 0), (4, 100, 2), (4, 160, 2)]
"""Optimal lengths 20-32, 400 to 30,000 nodes with Manhattan alone."""


@needs_kernel
@pytest.mark.parametrize("width, steps, seed", CASES)
@pytest.mark.parametrize("heuristic", ["manhattan", "linear-conflicts", "pdb"])
def test_the_kernel_is_the_python_search(width, steps, seed, heuristic, small_databases):
    tiles = scramble(width, steps, seed)
    h = small_databases[width] if heuristic == "pdb" else heuristic
    expected = pdb.solve_python(tiles, width, h)
    assert pdb.solve(tiles, width, h) == expected
    pv, nodes, thresholds = expected
    assert thresholds[-1] == len(pv)
    # a node limit stops both at exactly that count, without a line
    limit = max(1, nodes // 2)
    assert pdb.solve(tiles, width, h, limit) == pdb.solve_python(tiles, width, h, limit)
    assert pdb.solve(tiles, width, h, limit)[:2] == (None, limit)


@needs_kernel
@pytest.mark.parametrize("width, steps, seed", CASES)
@pytest.mark.parametrize("heuristic", ["manhattan", "linear-conflicts"])
def test_the_kernel_is_the_idastar_engine(width, steps, seed, heuristic):
    single = pytest.importorskip("kibitz.engines.single")
    from kibitz.engines import Limits, SearchContext
    from kibitz.games.sliding import SlidingPuzzle

    tiles = scramble(width, steps, seed)
    state = SlidingPuzzle.from_position(",".join(map(str, tiles)))
    infos = []
    result = single.IDAStar({"Heuristic": heuristic}).search(
        state, Limits(), SearchContext(report=infos.append)
    )
    pv, nodes, thresholds = pdb.solve(tiles, width, heuristic)
    assert [state.format_move(move) for move in result.pv] == pv
    assert result.nodes == nodes
    assert [info.depth for info in infos] == thresholds


def test_without_the_kernel_solve_is_python(monkeypatch):
    tiles = scramble(3, 30, 9)
    expected = pdb.solve_python(tiles, 3, "linear-conflicts")
    monkeypatch.setattr(pdb, "_kernel", None)
    assert not pdb.kernel_available()
    assert pdb.solve(tiles, 3, "linear-conflicts") == expected
    assert pdb.build_pattern(3, 3, (1, 2)) == pdb.build_pattern_python(3, 3, (1, 2))


def test_the_goal_and_bad_heuristics(tmp_path, monkeypatch):
    assert pdb.solve(list(range(16)), 4, "manhattan") == ([], 1, [0])
    with pytest.raises(ValueError, match="unknown heuristic"):
        pdb.solve(list(range(9)), 3, "octile")
    monkeypatch.setenv("KIBITZ_PDB_DIR", str(tmp_path))  # "pdb": the cached 6-6-3 tables
    with pytest.raises(FileNotFoundError, match="sliding_pdb build --partition 663"):
        pdb.solve(list(range(16)), 4, "pdb")


def test_boards_beyond_the_kernel_run_in_python():
    tiles = list(range(49))  # 7x7: two moves from the goal
    tiles[0], tiles[1] = tiles[1], 0
    tiles[1], tiles[8] = tiles[8], 0
    assert pdb.solve(tiles, 7, "linear-conflicts") == (["U", "L"], 3, [2])


@needs_kernel
@pytest.mark.parametrize("number", [12, 42, 55, 79, 97])
def test_korf_instances_have_their_published_lengths(number, small_databases):
    _, length, _, tiles = korf100()[number - 1]
    lc_pv = pdb.solve(tiles, 4, "linear-conflicts")[0]
    pdb_pv = pdb.solve(tiles, 4, small_databases[4])[0]
    assert len(lc_pv) == len(pdb_pv) == length
    for pv in (lc_pv, pdb_pv):  # each line reaches the goal
        board = list(tiles)
        for move in pv:
            blank = board.index(0)
            target = dict((pdb.MOVES[d], cell) for d, cell in pdb._moves(blank, 4, 16))[move]
            board[blank], board[target] = board[target], 0
        assert board == list(range(16))
