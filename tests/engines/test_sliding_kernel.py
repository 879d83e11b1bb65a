"""The compiled sliding-puzzle IDA* (kibitz/games/_sliding_kernel.pyx) against the
pure-Python searches it repeats: `sliding_pdb.solve_python` and the `idastar` engine. Same
line, same node count, same thresholds, on every heuristic (Manhattan, linear conflicts,
additive pattern databases with and without their reflection), at node limits too; then
exact published lengths on easy instances of Korf's 100."""

from __future__ import annotations

import random

import pytest

from benchmarks.puzzles import korf100
from kibitz.games import sliding_pdb as pdb
from kibitz.vocabulary import Bound

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


def reflected(database: pdb.PatternDatabase) -> pdb.PatternDatabase:
    """The same tables, looked up for the board and its mirror."""
    return pdb.PatternDatabase(
        database.width, database.height, database.patterns, database.tables, reflect=True
    )


CASES = [(3, 200, seed) for seed in range(4)] + [(4, 100, 0), (4, 100, 2), (4, 160, 2)]
"""Optimal lengths 20-32, 400 to 30,000 nodes with Manhattan alone."""


KORF_1 = (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3)
"""Korf's instance 1, 57 moves from the goal."""


@needs_kernel
@pytest.mark.parametrize("width, steps, seed", CASES)
@pytest.mark.parametrize("heuristic", ["manhattan", "linear-conflicts", "pdb", "reflected"])
def test_the_kernel_is_the_python_search(width, steps, seed, heuristic, small_databases):
    tiles = scramble(width, steps, seed)
    h = {"pdb": small_databases[width], "reflected": reflected(small_databases[width])}.get(
        heuristic, heuristic
    )
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
    python = single.IDAStar({"Heuristic": heuristic, "Kernel": False})
    result = python.search(state, Limits(), SearchContext(report=infos.append))
    pv, nodes, thresholds = pdb.solve(tiles, width, heuristic)
    assert [state.format_move(move) for move in result.pv] == pv
    assert result.nodes == nodes
    assert [info.depth for info in infos] == thresholds
    compiled = single.IDAStar({"Heuristic": heuristic}).search(
        state, Limits(), SearchContext(report=lambda info: None)
    )  # the engine's own kernel path: the same answer and count
    assert (compiled.pv, compiled.nodes, compiled.score) == (result.pv, nodes, result.score)
    assert compiled.stats["compiled"] == 1.0 and "compiled" not in result.stats


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
    with pytest.raises(FileNotFoundError, match=r"4x4-1-2-3-4-5-6-7\.pdb is missing.* 78"):
        pdb.solve(list(range(16)), 4, "pdb-78")
    with pytest.raises(ValueError, match="pdb, pdb-663, pdb-78 or pdb-6666"):
        pdb.solve(list(range(16)), 4, "pdb-555")


@needs_kernel
def test_the_reflection_prunes_and_keeps_the_optimum(small_databases):
    """Korf's instance 12 (45 moves): the same line length with the reflection, fewer
    nodes; a non-square board has no mirror."""
    _, length, _, tiles = korf100()[11]
    plain = pdb.solve(tiles, 4, small_databases[4])
    mirrored = pdb.solve(tiles, 4, reflected(small_databases[4]))
    assert len(plain[0]) == len(mirrored[0]) == length == 45
    assert mirrored[1] < plain[1]
    assert mirrored[2][0] == reflected(small_databases[4]).value(tiles)
    with pytest.raises(ValueError, match="reflection needs a square board"):
        pdb._kernel.solve((1, 0, 2, 3, 4, 5), 3, 2, [((1, 2), bytearray(30))], None, True)


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


@needs_kernel
@pytest.mark.parametrize("limit", [1, 1000, 150_000])
def test_the_engines_kernel_path_stops_at_a_node_limit_like_the_python_search(limit):
    single = pytest.importorskip("kibitz.engines.single")
    from kibitz.engines import Limits, SearchContext
    from kibitz.games.sliding import SlidingPuzzle

    korf_1 = SlidingPuzzle.from_position(",".join(map(str, KORF_1)))
    compiled, python = (
        single.IDAStar({"Kernel": kernel}).search(
            korf_1, Limits(nodes=limit), SearchContext(report=lambda info: None)
        )
        for kernel in (True, False)
    )
    assert compiled.nodes == python.nodes == limit
    assert compiled.stop_reason == python.stop_reason == "nodes"
    assert compiled.score == python.score  # not solved: the threshold reached, a bound
    assert compiled.score.bound == Bound.UPPER


@needs_kernel
def test_the_engines_kernel_path_runs_in_slices_to_the_optimum():
    single = pytest.importorskip("kibitz.engines.single")
    from kibitz.engines import Limits, SearchContext
    from kibitz.games.sliding import SlidingPuzzle

    korf_1 = SlidingPuzzle.from_position(",".join(map(str, KORF_1)))
    limited = single.IDAStar({}).search(
        korf_1, Limits(nodes=3_000_000), SearchContext(report=lambda info: None)
    )  # past the first slices: stopped at the limit exactly, as the kernel alone stops
    alone = pdb.solve(KORF_1, 4, "linear-conflicts", 3_000_000)
    assert (limited.nodes, limited.score.plies) == (alone[1], alone[2][-1])
    solved = single.IDAStar({}).search(korf_1, Limits(), SearchContext(report=lambda i: None))
    pv, nodes, _ = pdb.solve(KORF_1, 4, "linear-conflicts")
    assert [korf_1.format_move(move) for move in solved.pv] == pv and len(pv) == 57
    assert solved.nodes == nodes and solved.score.bound == Bound.EXACT
